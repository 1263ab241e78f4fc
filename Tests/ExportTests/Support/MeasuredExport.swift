import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
internal import CMedia

/// Exporting a composition for a difficult-input test and measuring the result: frame indices of flashes, beep onsets, tone
/// frequency by zero crossings, level per window, the lag of a known signal by cross-correlation, and pictures
/// compared block by block.
enum MeasuredExport {
    /// Small, fast H.264 (x264 `ultrafast`; CRF 0 = lossless, so colours survive exactly) + AAC 48 kHz stereo.
    static func settings(crf: Int = 0, maximumSize: Size? = nil, audio: AudioSettings? = AudioSettings()) -> ExportSettings {
        ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(crf), encoderPreset: "ultrafast", maximumSize: maximumSize),
            audio: audio)
    }

    /// Exports `composition` to `url` and loads the result.
    @discardableResult
    static func export(_ composition: MutableComposition, to url: URL, videoComposition: MutableVideoComposition? = nil,
                       settings: ExportSettings = settings()) async throws -> Asset {
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = url
        session.videoComposition = videoComposition
        try await session.export()
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.size] as? Int ?? 0) > 0, "never a zero-byte file")
        return try await Asset.load(from: url)
    }

    /// Every output frame of `url` (times k·frameDuration, k < count), in order.
    static func frames(of url: URL, frameDuration: MediaTime, count: Int) async throws -> [VideoFrame] {
        try await Readback.frames(of: url, at: (0..<count).map { frameDuration * Int64($0) })
    }

    /// floor(time / frameDuration), exact: the index of the frame on screen at `time` in a constant-rate clip.
    static func frameIndex(_ time: MediaTime, _ frameDuration: MediaTime) -> Int {
        Int((Int128(time.value) * Int128(frameDuration.timescale)) / (Int128(time.timescale) * Int128(frameDuration.value)))
    }

    /// The number of frames an export of `duration` has at `frameDuration`: ceil(duration / frameDuration), exact.
    static func frameCount(_ duration: MediaTime, _ frameDuration: MediaTime) -> Int {
        let numerator = Int128(duration.value) * Int128(frameDuration.timescale)
        let denominator = Int128(duration.timescale) * Int128(frameDuration.value)
        return Int((numerator + denominator - 1) / denominator)
    }
}

enum Measure {
    /// Mean of R, G, B over the whole picture.
    static func meanLevel(_ frame: VideoFrame) -> Double {
        let mean = frame.meanColor(in: Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)))
        return (mean.red + mean.green + mean.blue) / 3
    }

    /// Indices of the frames that are white (mean level above 200).
    static func whiteFrames(_ frames: [VideoFrame]) -> [Int] {
        frames.indices.filter { meanLevel(frames[$0]) > 200 }
    }

    /// The first sample index at or after `from` whose magnitude exceeds `threshold`.
    static func onset(_ samples: [Float], threshold: Float = 0.05, from: Int = 0) -> Int? {
        guard from < samples.count else { return nil }
        return (from..<samples.count).first { abs(samples[$0]) > threshold }
    }

    /// Frequency in Hz estimated from rising zero crossings over `[start, start + count)`:
    /// (crossings − 1) / (time from the first to the last crossing), with sub-sample crossing positions.
    static func frequency(_ samples: [Float], start: Int, count: Int, sampleRate: Int) -> Double {
        var crossings: [Double] = []
        let end = min(samples.count, start + count)
        guard end > start + 1 else { return 0 }
        for i in (start + 1)..<end where samples[i - 1] < 0 && samples[i] >= 0 {
            let fraction = Double(-samples[i - 1]) / Double(samples[i] - samples[i - 1])
            crossings.append(Double(i - 1) + fraction)
        }
        guard crossings.count >= 2, let first = crossings.first, let last = crossings.last, last > first else { return 0 }
        return Double(crossings.count - 1) * Double(sampleRate) / (last - first)
    }

    /// Largest |x| over a range.
    static func peak(_ samples: [Float], start: Int, count: Int) -> Float {
        let end = min(samples.count, start + count)
        guard end > start else { return 0 }
        return samples[start..<end].map(abs).max() ?? 0
    }

    /// The lag (in samples) at which `reference[0 ..< window]` best matches `signal`, searched in
    /// `expected − search ... expected + search` by normalised cross-correlation, and the correlation there (0…1).
    static func lag(of reference: [Float], in signal: [Float], expected: Int, search: Int, window: Int,
                    referenceStart: Int = 0) -> (lag: Int, correlation: Double) {
        let window = min(window, reference.count - referenceStart)
        var referenceEnergy = 0.0
        for i in 0..<window { referenceEnergy += Double(reference[referenceStart + i]) * Double(reference[referenceStart + i]) }
        var best = (lag: expected, correlation: -2.0)
        for lag in (expected - search)...(expected + search) {
            let base = lag + referenceStart
            guard base >= 0, base + window <= signal.count else { continue }
            var dot = 0.0, energy = 0.0
            for i in 0..<window {
                let s = Double(signal[base + i])
                dot += s * Double(reference[referenceStart + i])
                energy += s * s
            }
            guard energy > 0, referenceEnergy > 0 else { continue }
            let correlation = dot / (energy * referenceEnergy).squareRoot()
            if correlation > best.correlation { best = (lag, correlation) }
        }
        return best
    }

    /// Lengths of runs of at least `minimum` consecutive samples with |x| ≤ `threshold` inside `[start, end)`.
    static func silentRuns(_ samples: [Float], start: Int, end: Int, threshold: Float = 1e-4, minimum: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var runStart: Int?
        for i in start..<min(end, samples.count) {
            if abs(samples[i]) <= threshold {
                if runStart == nil { runStart = i }
            } else if let s = runStart {
                if i - s >= minimum { runs.append(s..<i) }
                runStart = nil
            }
        }
        if let s = runStart, min(end, samples.count) - s >= minimum { runs.append(s..<min(end, samples.count)) }
        return runs
    }
}

extension VideoFrame {
    /// The mean colour of each of `grid × grid` equal blocks of `rect` (row by row; each block without its outer
    /// pixel, so edges blurred by scaling count less).
    func blockMeans(in rect: Rect, grid: Int = 8) -> [(red: Double, green: Double, blue: Double, alpha: Double)] {
        var means: [(red: Double, green: Double, blue: Double, alpha: Double)] = []
        for by in 0..<grid {
            for bx in 0..<grid {
                means.append(meanColor(in: Rect(
                    x: rect.minX + rect.width * Double(bx) / Double(grid) + 1,
                    y: rect.minY + rect.height * Double(by) / Double(grid) + 1,
                    width: rect.width / Double(grid) - 2, height: rect.height / Double(grid) - 2)))
            }
        }
        return means
    }

    /// Mean absolute difference (0…255, over R, G, B) between this picture's `rect` and all of `reference` turned
    /// `quarterTurns` × 90° clockwise, each cut into `grid × grid` blocks compared by their mean colour: tolerant of
    /// scaling and coding noise, sensitive to orientation. One value per entry of `quarterTurns`.
    func blockDifferences(in rect: Rect, from reference: VideoFrame, quarterTurns: [Int], grid: Int = 8) -> [Double] {
        let mine = blockMeans(in: rect, grid: grid)
        let theirs = reference.blockMeans(in: Rect(x: 0, y: 0, width: Double(reference.width), height: Double(reference.height)), grid: grid)
        return quarterTurns.map { turns in
            var total = 0.0
            for y in 0..<grid {
                for x in 0..<grid {
                    // Block (x, y) of the turned picture is block (sx, sy) of the reference.
                    let (sx, sy): (Int, Int)
                    switch ((turns % 4) + 4) % 4 {
                    case 0: (sx, sy) = (x, y)
                    case 1: (sx, sy) = (y, grid - 1 - x)
                    case 2: (sx, sy) = (grid - 1 - x, grid - 1 - y)
                    default: (sx, sy) = (grid - 1 - y, x)
                    }
                    let a = mine[y * grid + x], b = theirs[sy * grid + sx]
                    total += abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue)
                }
            }
            return total / Double(grid * grid * 3)
        }
    }

    /// ``blockDifferences(in:from:quarterTurns:grid:)`` without turning.
    func blockDifference(in rect: Rect, from reference: VideoFrame, grid: Int = 8) -> Double {
        blockDifferences(in: rect, from: reference, quarterTurns: [0], grid: grid)[0]
    }
}

/// The luma plane of a decoded picture: exact Y values (no chroma upsampling, no RGB clipping), for checks at
/// picture edges where 4:2:0 chroma blends neighbouring pixels in RGB.
struct LumaPlane {
    let width: Int
    let height: Int
    let values: [UInt8]

    func y(_ x: Int, _ y: Int) -> UInt8 { values[y * width + x] }

    /// Y of the first video frame of `url`, decoded by libavcodec (the file's first video stream).
    static func firstFrame(of url: URL) throws -> LumaPlane {
        let input = try InputFile(url: url)
        let index = try #require((0..<input.streamCount).first {
            input.stream(at: $0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        })
        let decoder = try StreamDecoder(input: input, streamIndex: index, label: "the first video stream", threads: 1)
        let frame = try Frame()
        guard try decoder.decode(into: frame) else {
            throw ExportError.invalidComposition("no video frame in \(url.lastPathComponent)")
        }
        let stride = Int(frame.pointer.pointee.linesize.0)
        let plane = try #require(frame.pointer.pointee.data.0)
        var values: [UInt8] = []
        values.reserveCapacity(frame.width * frame.height)
        for row in 0..<frame.height {
            values.append(contentsOf: UnsafeBufferPointer(start: plane + row * stride, count: frame.width))
        }
        return LumaPlane(width: frame.width, height: frame.height, values: values)
    }
}
