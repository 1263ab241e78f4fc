import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

@Suite("AssetReader alwaysCopiesSampleData")
struct SampleDataCopyingTests {
    /// A reader of clip A's video (640×360, 120 frames) decoded to BGRA, copying or lending its pictures.
    static func start(copies: Bool?, pixelFormat: PixelBuffer.PixelFormat = .bgra8) async throws -> (AssetReader, AssetReaderTrackOutput) {
        let asset = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: pixelFormat))
        if let copies { output.alwaysCopiesSampleData = copies }
        try reader.add(output)
        #expect(reader.startReading())
        return (reader, output)
    }

    /// The digest of a tightly packed 640×360 BGRA plane (as `framemd5` computes it).
    static func digest(_ picture: PixelBuffer) throws -> String {
        let plane = picture.planes[0]
        let rows = try plane.withUnsafeBytes { bytes in
            (0..<plane.rows).flatMap { row in bytes[row * plane.bytesPerRow ..< row * plane.bytesPerRow + picture.width * 4] }
        }
        return try FrameDigest.md5(of: rows)
    }

    @Test("false: each picture is FFmpeg's until the next call, then it is taken back and refused")
    func lentPicturesLastUntilTheNextCall() async throws {
        let expected = try await CommandLineTool.frameDigests(of: Fixture.url("canonical/clipA.mp4"), pixelFormat: "bgra")
        let (reader, output) = try await Self.start(copies: false)
        #expect(output.alwaysCopiesSampleData == false)

        let first = try #require(await output.copyNextSampleBuffer())
        let picture = try #require(first.imageBuffer)
        #expect(picture.isValid && picture.width == 640 && picture.height == 360 && picture.planes[0].bytesPerRow >= 640 * 4)
        #expect(try Self.digest(picture) == expected[0])
        let firstPixel = try #require(picture.pixel(x: 320, y: 180))

        var digests = [try Self.digest(picture)]
        var last = picture
        while let sample = await output.copyNextSampleBuffer() {
            // The call that returned `sample` took the previous picture back.
            #expect(!last.isValid)
            let next = try #require(sample.imageBuffer)
            #expect(next.isValid)
            digests.append(try Self.digest(next))
            last = next
        }
        #expect(!last.isValid)   // the call that returned nil took the last one back
        #expect(reader.status == .completed)
        #expect(digests.count == 120)
        #expect(digests == expected)

        // The held first picture: its bytes are gone, its times and shape are not.
        #expect(!picture.isValid && !picture.planes[0].isValid)
        #expect(picture.pixel(x: 320, y: 180) == nil && firstPixel.count == 4)
        #expect(throws: AssetReaderError.sampleDataNoLongerValid(output: "track \(output.track.trackID)")) {
            try picture.planes[0].withUnsafeBytes { _ in }
        }
        #expect(first.presentationTime == .zero && picture.planes[0].rows == 360)
    }

    @Test("true (the default): every held picture keeps its own bytes after later calls")
    func copiedPicturesStay() async throws {
        let expected = try await CommandLineTool.frameDigests(of: Fixture.url("canonical/clipA.mp4"), pixelFormat: "bgra")
        let (reader, output) = try await Self.start(copies: nil)
        #expect(output.alwaysCopiesSampleData == true)
        var held: [PixelBuffer] = []
        while let sample = await output.copyNextSampleBuffer() { held.append(try #require(sample.imageBuffer)) }
        #expect(reader.status == .completed)
        #expect(held.count == 120 && held.allSatisfy(\.isValid))
        #expect(held.map { $0.planes[0].bytesPerRow } == Array(repeating: 640 * 4, count: 120))
        #expect(try held.map { try FrameDigest.md5(of: $0.planes[0].bytes) } == expected)
    }

    @Test("a lent picture appended to a writer is copied at append; one taken back is refused by name")
    func lentPictureIntoWriter() async throws {
        // Planar 4:2:0 in and out (FFV1): lossless, so the file's pictures are the source's bytes.
        let (reader, output) = try await Self.start(copies: false, pixelFormat: .yuv420p)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lent-\(UUID().uuidString).mkv")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AssetWriter(outputURL: url, fileType: .mkv)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .ffv1), size: Size(width: 640, height: 360),
            frameDuration: output.track.video!.minFrameDuration, timeScale: output.track.naturalTimeScale))
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        var appended = 0
        var previous: SampleBuffer?
        while appended < 10, let sample = await output.copyNextSampleBuffer() {
            if let previous {
                await #expect(throws: AssetReaderError.sampleDataNoLongerValid(output: "track \(output.track.trackID)")) {
                    try await input.append(previous)
                }
            }
            try await input.append(sample)
            previous = sample
            appended += 1
        }
        reader.cancelReading()
        input.markAsFinished()
        try await writer.finishWriting()
        #expect(writer.status == .completed)
        let expected = try await CommandLineTool.frameDigests(of: Fixture.url("canonical/clipA.mp4"), pixelFormat: "yuv420p")
        let written = try await CommandLineTool.frameDigests(of: url, pixelFormat: "yuv420p")
        #expect(written.count == 10 && written == Array(expected.prefix(10)))
    }
}
