import Capture
import Composition
import Export
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import SpliceTesting
import Testing

/// Stills and orientation: photos of the virtual colour chart, turned and mirrored pixels in stills and
/// data-output frames, and the display matrix a recording carries.
@Suite("Capture photos and orientation", .serialized)
struct PhotoAndOrientationTests {
    /// Takes one photo per settings, in a session with the virtual colour chart whose video connection is turned
    /// as asked; returns the photos and their files decoded as RGBA.
    private func photos(_ settings: [CapturePhotoSettings], orientation: CaptureVideoOrientation = .landscapeRight,
                        mirrored: Bool = false) async throws -> [(CapturePhoto, VideoFrame)] {
        let scratch = try ScratchDirectory("photo")
        defer { scratch.remove() }
        let output = CaptureStillImageOutput()  // the porting name: the same type as CapturePhotoOutput
        let taken = try await withRunningSession([.virtualColorChart()], outputs: [output], prepare: { _ in
            output.connections.first?.videoOrientation = orientation
            output.connections.first?.isVideoMirrored = mirrored
        }) { _ in
            var taken: [CapturePhoto] = []
            for setting in settings { taken.append(try await output.capturePhoto(with: setting)) }
            return taken
        }
        return try taken.enumerated().map { index, photo in
            let url = try scratch.write("photo\(index).\(photo.codec.fileExtension)", photo.fileDataRepresentation())
            return (photo, try VideoFrame(contentsOf: url))
        }
    }

    /// The values of `keys` in the metadata FFmpeg's decoder attaches to the picture in `file` (a JPEG's EXIF
    /// tags, a PNG's text chunks).
    private func decodedMetadata(_ file: Data, _ keys: [String]) throws -> [String: String] {
        let scratch = try ScratchDirectory("photo-metadata")
        defer { scratch.remove() }
        let url = try scratch.write(file.first == 0x89 ? "photo.png" : "photo.jpg", file)
        let input = try InputFile(url: url)
        let decoder = try Decoder(stream: input.stream(at: 0), threads: 1)
        let packet = try Packet(), frame = try Frame()
        guard try input.readPacket(into: packet) else { return [:] }
        _ = try decoder.send(packet)
        _ = try decoder.send(nil)
        guard try decoder.receive(into: frame) == .frame else { return [:] }
        var values: [String: String] = [:]
        // FFmpeg's EXIF reader right-aligns numbers ("    640").
        for key in keys { values[key] = frame.metadataValue(forKey: key)?.trimmingCharacters(in: .whitespaces) }
        return values
    }

    private func rgb(_ frame: VideoFrame, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        guard let pixel = frame.pixel(x: x, y: y) else { return (-1, -1, -1) }
        return (Int(pixel.red), Int(pixel.green), Int(pixel.blue))
    }

    /// Checks the four quadrant centres of `picture` (`width` × `height`) against the chart pixel each shows:
    /// `source` maps a picture pixel to the camera pixel.
    private func expectChart(_ what: String, width: Int, height: Int, tolerance: Int,
                             _ pixel: (Int, Int) -> (Int, Int, Int)?, source: (Int, Int) -> (Int, Int)) {
        for (x, y) in quadrantCentres(width: width, height: height) {
            let (sx, sy) = source(x, y)
            let expected = chartColor(x: sx, y: sy)
            let value = pixel(x, y) ?? (-1, -1, -1)
            #expect(close(value, expected, within: tolerance), "\(what) at (\(x), \(y)): \(value), expected \(expected)")
        }
    }

    @Test("a JPEG and a PNG of the next frame: 640 × 480, the chart's colours at known pixels, metadata")
    func jpegAndPNG() async throws {
        let taken = try await photos([CapturePhotoSettings(codec: .jpeg), CapturePhotoSettings(codec: .png)])
        try #require(taken.count == 2)
        for (photo, picture) in taken {
            #expect(photo.width == 640 && photo.height == 480 && picture.width == 640 && picture.height == 480)
            #expect(photo.timestamp >= .zero && photo.timestamp.timescale == 1_000_000)
            #expect(photo.metadata["PixelWidth"] == "640" && photo.metadata["Device"] == "virtual:color-chart")
            expectChart("\(photo.codec)", width: 640, height: 480, tolerance: photo.codec == .png ? 6 : 12,
                        { rgb(picture, $0, $1) }, source: { ($0, $1) })
        }
        let (jpeg, png) = (taken[0].0.fileDataRepresentation(), taken[1].0.fileDataRepresentation())
        #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        // The metadata is in the files, as FFmpeg's decoders read it: EXIF in the JPEG, tEXt in the PNG.
        let exif = try decodedMetadata(jpeg, ["ImageDescription", "Orientation", "DateTimeOriginal", "PixelXDimension", "PixelYDimension"])
        let photo = taken[0].0
        #expect(exif["Orientation"] == "1" && exif["PixelXDimension"] == "640" && exif["PixelYDimension"] == "480", "\(exif)")
        #expect(exif["DateTimeOriginal"] == photo.metadata["DateTimeOriginal"], "\(exif)")
        #expect(exif["ImageDescription"]?.contains("virtual:color-chart at \(photo.metadata["Timestamp"] ?? "?") s") == true, "\(exif)")
        let text = try decodedMetadata(png, ["Description", "Creation Time"])
        #expect(text["Creation Time"] == taken[1].0.metadata["DateTimeOriginal"], "\(text)")
        #expect(text["Description"]?.hasPrefix("Splice capture of virtual:color-chart") == true, "\(text)")
        #expect(taken[1].0.timestamp > taken[0].0.timestamp)
    }

    @Test("portrait turns the photo's pixels a quarter turn clockwise; mirroring flips them left to right")
    func orientedPhotos() async throws {
        let portrait = try #require(try await photos([CapturePhotoSettings(codec: .png)], orientation: .portrait).first)
        #expect(portrait.0.width == 480 && portrait.0.height == 640 && portrait.1.width == 480 && portrait.1.height == 640)
        // Clockwise: camera pixel (x, y) shows at (479 − y, x): blue top left, red top right.
        expectChart("portrait", width: 480, height: 640, tolerance: 6, { rgb(portrait.1, $0, $1) }, source: { ($1, 479 - $0) })

        let upsideDown = try #require(try await photos([CapturePhotoSettings(codec: .png)], orientation: .portraitUpsideDown).first)
        expectChart("portrait upside down", width: 480, height: 640, tolerance: 6, { rgb(upsideDown.1, $0, $1) },
                    source: { (639 - $1, $0) })

        let mirrored = try #require(try await photos([CapturePhotoSettings(codec: .png)], mirrored: true).first)
        #expect(mirrored.0.isMirrored && mirrored.1.width == 640)
        expectChart("mirrored", width: 640, height: 480, tolerance: 6, { rgb(mirrored.1, $0, $1) }, source: { (639 - $0, $1) })
    }

    @Test("data-output frames turned portrait and mirrored: camera pixel (x, y) at (y, x)")
    func orientedDataFrames() async throws {
        let output = CaptureVideoDataOutput()
        output.videoSettings = CaptureVideoSettings(pixelFormat: .bgra8)
        let frames = output.frames()
        let frame = try await withRunningSession([.virtualColorChart()], outputs: [output], prepare: { _ in
            output.connections.first?.videoOrientation = .portrait
            output.connections.first?.isVideoMirrored = true
        }) { _ in
            var iterator = frames.makeAsyncIterator()
            return await iterator.next()
        }
        let picture = try #require(frame)
        #expect(picture.width == 480 && picture.height == 640 && picture.pixelFormat == .bgra8)
        expectChart("portrait mirrored", width: 480, height: 640, tolerance: 6, { x, y in
            picture.rgb(x: x, y: y).map { (Int($0.red), Int($0.green), Int($0.blue)) }
        }, source: { ($1, $0) })
    }

    @Test("a recording's orientation and mirroring are the video track's display matrix: Splice's loader reads them back")
    func recordedDisplayMatrix() async throws {
        let scratch = try ScratchDirectory("orientation")
        defer { scratch.remove() }
        let cases: [(CaptureVideoOrientation, Bool, AffineTransform2D)] = [
            (.portrait, false, AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 480, ty: 0)),
            (.landscapeLeft, true, AffineTransform2D(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 480)),
        ]
        for (index, (orientation, mirrored, expected)) in cases.enumerated() {
            let url = scratch.file("turned\(index).mp4")
            let output = CaptureMovieFileOutput()
            output.maxRecordedDuration = MediaTime(value: 10, timescale: 30)
            let result = try await withRunningSession([.virtualColorChart()], outputs: [output], prepare: { _ in
                let video = output.connections.first { $0.mediaType == .video }
                video?.videoOrientation = orientation
                video?.isVideoMirrored = mirrored
            }) { _ in
                var result: CaptureRecordingResult?
                for await event in output.startRecording(to: url) { if case .finished(let finished) = event { result = finished } }
                return result
            }
            #expect(result?.error == .maximumDurationReached)
            let asset = try await Asset.load(from: url)
            let track = try #require(asset.tracks(withMediaType: .video).first)
            #expect(track.preferredTransform == expected, "\(orientation) mirrored \(mirrored): \(track.preferredTransform)")
            #expect(track.naturalSize == Size(width: 640, height: 480))  // the pixels are as the camera gave them
        }
    }

    @Test("splice record --still-every 1s --orientation portrait --mirrored: stills turned in pixels, the movie by its matrix")
    func recordWithStills() async throws {
        let scratch = try ScratchDirectory("record-stills")
        defer { scratch.remove() }
        let url = scratch.file("take.mp4")
        let log = scratch.file("stderr.txt")
        let process = try ChildProcess(
            executable: try SpliceExecutable.url().path,
            arguments: ["record", "--video", "virtual:camera", "--audio", "none", "--max-duration", "3s", "--still-every", "1s",
                        "--still-format", "png", "--orientation", "portrait", "--mirrored", "-o", url.path],
            standardError: log)
        defer { process.stop() }
        let ended = await process.wait(seconds: 240)
        let printed = TextFile.text(of: log)
        #expect(ended && process.exitCode == 0, "splice record: \(printed)")
        // A still every second of wall time while the 3 s of movie are recorded (more when a loaded machine records
        // slower than real time), numbered from 1.
        let stills = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix("take-still-") }.sorted()
        #expect(!stills.isEmpty && stills.first == "take-still-0001.png", "\(stills); \(printed)")
        #expect(stills == (1...stills.count).map { String(format: "take-still-%04d.png", $0) }, "\(stills)")
        for still in stills {
            let picture = try VideoFrame(contentsOf: scratch.file(still))
            #expect(picture.width == 480 && picture.height == 640, "\(still): \(picture.width)×\(picture.height)")
        }
        let track = try #require(try await Asset.load(from: url).tracks(withMediaType: .video).first)
        // A quarter turn clockwise, then mirrored: a transpose.
        #expect(track.preferredTransform == AffineTransform2D(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0), "\(track.preferredTransform)")
    }
}
