import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Reading exported files back with the library itself.
enum Readback {
    /// The whole file as a composition (every track inserted at 0).
    static func composition(of url: URL) async throws -> (Asset, MutableComposition) {
        let asset = try await Asset.load(from: url)
        var composition = MutableComposition()
        let range = TimeRange(start: .zero, duration: asset.duration)
        for track in asset.tracks where track.mediaType == .video || track.mediaType == .audio {
            let id = try composition.addMutableTrack(withMediaType: track.mediaType)
            try composition.insertTimeRange(track.timeRange.intersection(range), of: track, at: .zero, intoTrackWithID: id)
        }
        return (asset, composition)
    }

    /// The exact picture of `url` at each time (zero tolerance), RGBA.
    static func frames(of url: URL, at times: [MediaTime]) async throws -> [VideoFrame] {
        let (_, composition) = try await composition(of: url)
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var frames: [VideoFrame] = []
        for try await item in generator.images(for: times) { frames.append(item.image) }
        return frames
    }

    /// The first audio track of `url` decoded to 48 kHz stereo float, source time 0 first.
    static func audio(of url: URL, sampleRate: Int = 48_000) async throws -> [[Float]] {
        let asset = try await Asset.load(from: url)
        guard let track = asset.tracks(withMediaType: .audio).first else { return [] }
        let format = AudioOutputFormat(sampleRate: sampleRate, channelCount: 2)
        let renderTrack = RenderTrack(trackID: 1, segments: [
            RenderSegment(source: track, mapping: TimeMapping(source: track.timeRange, target: track.timeRange)),
        ])
        let renderer = AudioTrackRenderer(track: renderTrack, format: format, varispeed: false, cancellation: CancellationFlag())
        let count = Int(format.sampleIndex(of: track.timeRange.duration))
        var channels = Array(repeating: [Float](repeating: 0, count: count), count: 2)
        try renderer.read(into: &channels, offset: 0, start: 0, count: count)
        return channels
    }

    /// RMS level in dBFS of `channel` over samples `[start, start + count)`.
    static func rmsDecibels(_ samples: [Float], start: Int, count: Int) -> Double {
        let end = min(samples.count, start + count)
        guard end > start else { return -.infinity }
        var sum = 0.0
        for i in start..<end { sum += Double(samples[i]) * Double(samples[i]) }
        let rms = (sum / Double(end - start)).squareRoot()
        return rms > 0 ? 20 * log10(rms) : -.infinity
    }
}

/// `actual` within `tolerance` of `expected` on each of R, G, B.
func colorMatches(_ actual: (red: Double, green: Double, blue: Double, alpha: Double),
                  _ expected: (Double, Double, Double), tolerance: Double) -> Bool {
    abs(actual.red - expected.0) <= tolerance && abs(actual.green - expected.1) <= tolerance
        && abs(actual.blue - expected.2) <= tolerance
}
