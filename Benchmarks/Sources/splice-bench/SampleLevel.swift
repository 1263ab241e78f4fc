import Foundation
import Splice

/// The sample-level workloads of `Benchmarks/run` (R1–R3): reading decoded pictures through ``AssetReader`` and
/// writing generated pictures through ``AssetWriter``, each against the `ffmpeg` CLI doing the same work.
enum SampleLevel {
    /// R1: every picture of `source`'s first video track decoded to BGRA through an ``AssetReaderTrackOutput``,
    /// lent without a copy (`alwaysCopiesSampleData` false) or, with `copies`, copied into each sample buffer. Each
    /// picture's first byte of every row is summed (so every picture is read), and the sum is printed.
    static func read(source: URL, copies: Bool) async throws -> String {
        let asset = try await Asset.load(from: source)
        guard let track = asset.tracks(withMediaType: .video).first else { SpliceBench.fail("\(source.path) has no video track") }
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: track, outputSettings: .video(pixelFormat: .bgra8))
        output.alwaysCopiesSampleData = copies
        try reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AssetReaderError.cannotStartReading(reason: "unknown") }
        var frames = 0, checksum = 0, size = Size(width: 0, height: 0)
        while let sample = await output.copyNextSampleBuffer() {
            guard let picture = sample.imageBuffer else { continue }
            let plane = picture.planes[0]
            checksum &+= try plane.withUnsafeBytes { bytes in
                stride(from: 0, to: plane.rows * plane.bytesPerRow, by: plane.bytesPerRow).reduce(0) { $0 &+ Int(bytes[$1]) }
            }
            size = Size(width: picture.width, height: picture.height)
            frames += 1
        }
        if let error = reader.error { throw error }
        return "frames=\(frames) size=\(size.width)x\(size.height) copies=\(copies) checksum=\(checksum)"
    }

    /// The picture R2 and R3 append as frame `index`: eight vertical colour bars with a white 128×128 box moving
    /// 8 pixels a frame along the middle, BGRA. `background` is the bars alone (made once by ``bars(size:)``).
    static func picture(_ index: Int, background: PixelBuffer) -> PixelBuffer {
        var picture = background
        let box = 128, travel = max(1, picture.width - box)
        picture.fill(x: (index * 8) % travel, y: picture.height / 2 - box / 2, width: box, height: box, with: [255, 255, 255, 255])
        return picture
    }

    /// Eight vertical colour bars (white, yellow, cyan, green, magenta, red, blue, black) of `size`, BGRA.
    static func bars(size: Size) -> PixelBuffer {
        var picture = PixelBuffer(width: size.width, height: size.height, pixelFormat: .bgra8)
        let colours: [[UInt8]] = [[235, 235, 235, 255], [16, 235, 235, 255], [235, 235, 16, 255], [16, 235, 16, 255],
                                  [235, 16, 235, 255], [16, 16, 235, 255], [235, 16, 16, 255], [16, 16, 16, 255]]
        let barWidth = (size.width + 7) / 8
        for (index, colour) in colours.enumerated() {
            picture.fill(x: index * barWidth, y: 0, width: barWidth, height: size.height, with: colour)
        }
        return picture
    }

    /// R2 and R3: generated pictures of `size` at 30 fps appended through an ``AssetWriterInputPixelBufferAdaptor``
    /// to an H.264 MP4 (libx264 preset medium, CRF 23, 2 s GOP): `frames` of them, or — `forSeconds` — as many as
    /// the writer takes in that many seconds of wall time. With `reusePicture` (R3) 16 pictures made up front are
    /// appended in turn (the box still moves, so the encoder has real work), so the producer costs nothing and runs
    /// as far ahead as the writer lets it.
    static func write(to url: URL, size: Size, frames: Int?, forSeconds: Double?, reusePicture: Bool) async throws -> String {
        guard frames != nil || forSeconds != nil else { SpliceBench.fail("write needs --frames N or --for-seconds S") }
        try? FileManager.default.removeItem(at: url)
        let writer = try AssetWriter(outputURL: url, fileType: .mp4)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .h264, rateControl: .constantQuality(23), encoderPreset: "medium"),
            size: size, frameDuration: MediaTime(value: 1, timescale: 30), timeScale: 15_360))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: input, pixelFormat: .bgra8)
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let background = bars(size: size)
        let made = reusePicture ? (0..<16).map { picture($0, background: background) } : []
        let clock = ContinuousClock(), start = clock.now
        let deadline = forSeconds.map { start + .milliseconds(Int($0 * 1000)) }
        var appended = 0
        while appended < (frames ?? .max) {
            if let deadline, clock.now >= deadline { break }
            let picture = reusePicture ? made[appended % made.count] : picture(appended, background: background)
            try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(appended), timescale: 30))
            appended += 1
        }
        input.markAsFinished()
        try await writer.finishWriting()
        return "frames=\(appended) size=\(size.width)x\(size.height) reuse=\(reusePicture)"
    }

    /// R2's CLI feed: the same `frames` pictures as ``write(to:size:frames:forSeconds:reusePicture:)`` makes, as raw
    /// BGRA on standard output (for `ffmpeg -f rawvideo -pix_fmt bgra -i -`). The summary goes to standard error.
    static func rawFrames(size: Size, frames: Int) {
        let background = bars(size: size)
        for index in 0..<frames {
            let picture = picture(index, background: background)
            let complete = picture.planes[0].bytes.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Foundation.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                    guard written > 0 else { return false }
                    offset += written
                }
                return true
            }
            guard complete else { SpliceBench.fail("raw-frames: standard output closed at frame \(index)") }
        }
        FileHandle.standardError.write(Data("splice-bench raw-frames: frames=\(frames) size=\(size.width)x\(size.height)\n".utf8))
    }
}

extension Options {
    /// `--size WxH` as a size, or `fallback`.
    func size(_ fallback: Size) -> Size {
        guard let value = values["size"] else { return fallback }
        let parts = value.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { SpliceBench.fail("--size wants WxH, got '\(value)'") }
        return Size(width: parts[0], height: parts[1])
    }

    /// `--name S` as seconds > 0, nil when absent.
    func optionalSeconds(_ name: String) -> Double? {
        guard let value = values[name] else { return nil }
        guard let seconds = Double(value), seconds > 0 else { SpliceBench.fail("--\(name) wants seconds > 0, got '\(value)'") }
        return seconds
    }
}
