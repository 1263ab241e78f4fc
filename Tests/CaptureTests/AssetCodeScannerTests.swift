import CodeScanning
import Composition
import Foundation
import Splice
import SpliceTestSupport
import Testing

/// The code detector over files and compositions: a movie with QR, EAN-13 and Code 128 symbols appearing at known
/// frames, places and rotations (``CodeVideo``), and 60 s of noise and text that must yield nothing.
@Suite("Code scanning over files and compositions", .serialized)
struct AssetCodeScannerTests {
    /// Every scanned picture of `stream`.
    static func collect(_ stream: AsyncThrowingStream<AssetCodeScanner.ScannedPicture, any Error>) async throws
        -> [AssetCodeScanner.ScannedPicture] {
        var pictures: [AssetCodeScanner.ScannedPicture] = []
        for try await picture in stream { pictures.append(picture) }
        return pictures
    }

    /// Checks every drawn code against the scanned pictures (shifted by `offset` seconds): exact type and string,
    /// first reported on the frame it appears (within one frame), found in every later picture, corners within 2 %
    /// of the frame of where they were drawn.
    static func expectCodes(_ drawn: [CodeVideo.DrawnCode], in pictures: [AssetCodeScanner.ScannedPicture], offset: Double = 0) {
        let found = Set(pictures.flatMap { $0.codes.compactMap(\.stringValue) })
        #expect(found == Set(drawn.map(\.text)), "found \(found.sorted())")
        let frame = 1.0 / Double(CodeVideo.frameRate)
        for code in drawn {
            let showing = pictures.filter { $0.codes.contains { $0.stringValue == code.text } }
            guard let first = showing.first, let object = first.codes.first(where: { $0.stringValue == code.text }) else {
                Issue.record("\(code.type) '\(code.text)' never reported")
                continue
            }
            #expect(object.type.rawValue == code.type)
            let appeared = code.firstTime + offset
            #expect(first.time.seconds >= appeared - 1e-6 && first.time.seconds <= appeared + frame + 1e-6,
                    "\(code.text): first reported at \(first.time.seconds) s, drawn from \(appeared) s")
            #expect(showing.count >= CodeVideo.frameCount - code.firstFrame - 1,
                    "\(code.text): in \(showing.count) of the \(CodeVideo.frameCount - code.firstFrame) pictures showing it")
            let corners = object.corners.map { [$0.x * Double(CodeVideo.width), $0.y * Double(CodeVideo.height)] }
            print("scan: \(code.type) '\(code.text)' first at \(first.time.seconds) s (drawn \(appeared) s), in \(showing.count) pictures, corners (px) \(corners.map { "(\(Int($0[0].rounded())), \(Int($0[1].rounded())))" })")
            #expect(object.corners.count == 4)
            for (corner, wanted) in zip(object.corners, code.corners) {
                let (dx, dy) = (abs(corner.x - wanted[0] / Double(CodeVideo.width)), abs(corner.y - wanted[1] / Double(CodeVideo.height)))
                #expect(dx <= 0.02 && dy <= 0.02,
                        "\(code.text): corner (\(corner.x * Double(CodeVideo.width)), \(corner.y * Double(CodeVideo.height))) px, drawn at \(wanted)")
            }
        }
    }

    @Test("a movie: QR (upright, turned 30°), EAN-13, Code 128 (turned 90°) — exact strings, first reported on the frame each appears, corners within 2 % of the frame",
          .enabled(if: PythonVerifier.isAvailable))
    func movieCodes() async throws {
        let scratch = try ScratchDirectory("scan-movie")
        defer { scratch.remove() }
        let movie = scratch.file("codes.mp4")
        let drawn = try await CodeVideo.make(at: movie)
        #expect(drawn.map(\.type) == ["qr", "qr", "ean13", "code128"])
        let scanner = try AssetCodeScanner(metadataObjectTypes: [.qr, .ean13, .code128])
        let pictures = try await Self.collect(scanner.pictures(in: try await Asset.load(from: movie)))
        #expect(pictures.count == CodeVideo.frameCount)
        #expect(pictures.enumerated().allSatisfy { $0.element.time == MediaTime(value: Int64($0.offset), timescale: 30) })
        #expect(pictures.prefix(15).allSatisfy { $0.codes.isEmpty })
        Self.expectCodes(drawn, in: pictures)
    }

    @Test("a composition: the movie placed 1 s in — codes reported in composition time, a second later; types and rect of interest limit what is found",
          .enabled(if: PythonVerifier.isAvailable))
    func compositionCodes() async throws {
        let scratch = try ScratchDirectory("scan-composition")
        defer { scratch.remove() }
        let movie = scratch.file("codes.mp4")
        let drawn = try await CodeVideo.make(at: movie)
        let asset = try await Asset.load(from: movie)
        var composition = MutableComposition(naturalSize: Size(width: CodeVideo.width, height: CodeVideo.height))
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: MediaTime(seconds: 1))
        let scanner = try AssetCodeScanner(metadataObjectTypes: [.qr, .ean13, .code128])
        let pictures = try await Self.collect(scanner.pictures(in: composition))
        #expect(pictures.count == CodeVideo.frameCount + 30)
        Self.expectCodes(drawn, in: pictures, offset: 1)

        // Only bar codes, only the bottom half: the EAN-13 alone (the Code 128 crosses the middle line; the QR codes
        // are above it and not asked for).
        let bottom = try AssetCodeScanner(metadataObjectTypes: [.ean13], rectOfInterest: Rect(x: 0, y: 0.6, width: 1, height: 0.4))
        let found = try await bottom.codes(in: asset)
        #expect(Set(found.compactMap(\.stringValue)) == ["4006381333931"])
        #expect(found.count == CodeVideo.frameCount - 47)
    }

    @Test("60 s of noise and text (digits, bar-like strokes) scanned every 200 ms for every type: 300 pictures up to 59.8 s, no code reported")
    func noFalsePositives() async throws {
        guard let ffmpeg = Executable.find("ffmpeg") else {
            Issue.record("ffmpeg is not on PATH")
            return
        }
        let font = try #require(SystemFont.file(family: "DejaVu Sans"), "no DejaVu Sans font for the text")
        let scratch = try ScratchDirectory("scan-noise")
        defer { scratch.remove() }
        let movie = scratch.file("noise.mp4")
        let text = { (words: String, size: Int, place: String) in
            "drawtext=fontfile=\(font):text='\(words)':fontsize=\(size):\(place)"
        }
        let graph = ["color=c=0x909090:s=480x270:r=10:d=60", "noise=alls=100:allf=t+u",
                     text("4006381333931  SPL-128  978-3-16-148410-0", 24, "x=10+mod(t*37\\,150):y=30"),
                     text("||| || |||| | ||| ||  |||| |", 40, "x=20:y=90+mod(t*11\\,50)"),
                     text("Lorem ipsum dolor sit amet, frame %{n}", 20, "x=10:y=200")].joined(separator: ",")
        let child = try ChildProcess(executable: ffmpeg, arguments: ["-nostdin", "-v", "error", "-f", "lavfi", "-i", graph,
                                                                     "-c:v", "libx264", "-preset", "ultrafast", "-crf", "28",
                                                                     "-pix_fmt", "yuv420p", movie.path])
        #expect(await child.wait(seconds: 240) && child.exitCode == 0, "ffmpeg could not make the noise movie")
        let scanner = try AssetCodeScanner(metadataObjectTypes: CaptureMetadataOutput().availableMetadataObjectTypes,
                                           minimumScanInterval: MediaTime(value: 1, timescale: 5))
        let pictures = try await Self.collect(scanner.pictures(in: try await Asset.load(from: movie)))
        let codes = pictures.flatMap(\.codes)
        print("scan: noise and text, \(pictures.count) pictures scanned from \(pictures.first?.time.seconds ?? -1) s to \(pictures.last?.time.seconds ?? -1) s, \(codes.count) codes")
        #expect(pictures.count == 300)
        #expect(pictures.last?.time == MediaTime(value: 299, timescale: 5))
        #expect(codes.isEmpty, "reported \(codes.map { "\($0.type) '\($0.stringValue ?? "")' at \($0.time.seconds) s" })")
    }

    @Test("bad settings are refused by name: PDF417, no type, a rect outside 0…1, a negative interval; a file without video fails by its path")
    func refusesBadSettings() async throws {
        #expect(throws: CodeScanError.unsupportedType(.pdf417)) { try AssetCodeScanner(metadataObjectTypes: [.qr, .pdf417]) }
        #expect(throws: CodeScanError.noTypes) { try AssetCodeScanner(metadataObjectTypes: []) }
        let wide = Rect(x: 0.5, y: 0, width: 0.6, height: 1)
        #expect(throws: CodeScanError.rectOfInterestOutOfRange(wide)) {
            try AssetCodeScanner(metadataObjectTypes: [.qr], rectOfInterest: wide)
        }
        #expect(throws: CodeScanError.invalidScanInterval(MediaTime(value: -1, timescale: 10))) {
            try AssetCodeScanner(metadataObjectTypes: [.qr], minimumScanInterval: MediaTime(value: -1, timescale: 10))
        }
        #expect(CodeScanError.unsupportedType(.pdf417).description == "metadata object type 'pdf417' cannot be read by the linked libzbar")
        let scratch = try ScratchDirectory("scan-audio-only")
        defer { scratch.remove() }
        let sound = scratch.file("tone.m4a")
        let ffmpeg = try #require(Executable.find("ffmpeg"), "ffmpeg is not on PATH")
        let child = try ChildProcess(executable: ffmpeg, arguments: ["-nostdin", "-v", "error", "-f", "lavfi", "-i",
                                                                     "sine=d=0.5", "-c:a", "aac", sound.path])
        #expect(await child.wait(seconds: 60) && child.exitCode == 0)
        let scanner = try AssetCodeScanner(metadataObjectTypes: [.qr])
        await #expect(throws: CodeScanError.noVideoTrack(sound.path)) {
            _ = try await scanner.codes(in: try await Asset.load(from: sound))
        }
    }
}
