import Foundation
import Testing
import Composition

/// Hand-built source tracks, assets and segments for the editing tests (no FFmpeg involved).
enum CompositionFixtures {
    /// A time of `value / timescale` seconds.
    static func time(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime {
        MediaTime(value: value, timescale: timescale)
    }

    /// The range `[start, end)`.
    static func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange {
        TimeRange(start: start, duration: end - start)
    }

    /// A video track of `file` lasting `duration` (timescale 600 by default, as phone footage).
    static func video(
        _ file: String, trackID: Int32 = 1, duration: MediaTime, size: Size = Size(width: 1920, height: 1080),
        transform: AffineTransform2D = .identity, codec: String = "h264", timescale: Int32 = 600
    ) -> AssetTrack {
        AssetTrack(
            assetURL: URL(fileURLWithPath: "/media/\(file)"), trackID: trackID, mediaType: .video,
            timeRange: TimeRange(start: .zero, duration: duration), naturalTimeScale: timescale, codecName: codec,
            streamIndex: Int(trackID) - 1,
            video: VideoTrackFormat(
                naturalSize: size, preferredTransform: transform, nominalFrameRate: 30,
                minFrameDuration: MediaTime(value: 20, timescale: 600)))
    }

    /// An audio track of `file` lasting `duration` (44.1 kHz mono AAC by default).
    static func audio(
        _ file: String, trackID: Int32 = 2, duration: MediaTime, sampleRate: Int = 44100, channels: Int = 1,
        codec: String = "aac"
    ) -> AssetTrack {
        AssetTrack(
            assetURL: URL(fileURLWithPath: "/media/\(file)"), trackID: trackID, mediaType: .audio,
            timeRange: TimeRange(start: .zero, duration: duration), naturalTimeScale: Int32(sampleRate),
            codecName: codec, streamIndex: Int(trackID) - 1,
            audio: AudioTrackFormat(
                sampleRate: sampleRate, channelCount: channels, channelLayout: channels == 1 ? "mono" : "stereo"))
    }

    /// A still image loaded as a one-frame video track with an unbounded time range.
    static func still(_ file: String, size: Size = Size(width: 2016, height: 1512)) -> AssetTrack {
        AssetTrack(
            assetURL: URL(fileURLWithPath: "/media/\(file)"), trackID: 1, mediaType: .video,
            timeRange: TimeRange(start: .zero, duration: .positiveInfinity), naturalTimeScale: 1, codecName: "mjpeg",
            streamIndex: 0,
            video: VideoTrackFormat(
                naturalSize: size, nominalFrameRate: 0, minFrameDuration: .positiveInfinity, pixelFormat: "yuvj420p",
                isStillImage: true))
    }

    /// An asset holding `tracks`, lasting as long as the longest.
    static func asset(_ file: String, tracks: [AssetTrack]) -> Asset {
        Asset(
            url: URL(fileURLWithPath: "/media/\(file)"),
            duration: tracks.map(\.timeRange.end).max() ?? .zero, tracks: tracks)
    }

    /// A media segment playing `source` of `track` over `target`.
    static func media(_ track: AssetTrack, _ source: TimeRange, _ target: TimeRange) -> CompositionTrackSegment {
        CompositionTrackSegment(sourceTrack: track, timeMapping: TimeMapping(source: source, target: target))
    }

    /// An empty segment over `target`.
    static func gap(_ target: TimeRange) -> CompositionTrackSegment {
        CompositionTrackSegment(emptyTimeRange: target)
    }

    /// Asserts the segment invariant and that `track` holds exactly `expected`.
    static func expectSegments(
        _ track: CompositionTrack?, _ expected: [CompositionTrackSegment],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let track else {
            Issue.record("no such track", sourceLocation: sourceLocation)
            return
        }
        #expect(throws: Never.self, sourceLocation: sourceLocation) {
            try CompositionTrack.validateSegments(track.segments, trackID: track.trackID, mediaType: track.mediaType)
        }
        if track.segments != expected {
            Issue.record(
                "segments differ; actual:\n\(describe(track.segments))\nexpected:\n\(describe(expected))",
                sourceLocation: sourceLocation)
        }
    }

    /// One line per segment: `file#track [source) -> [target)` or `gap [target)`.
    static func describe(_ segments: [CompositionTrackSegment]) -> String {
        segments.map { segment in
            let target = segment.timeMapping.target
            guard let source = segment.sourceTrack else { return "  gap \(target)" }
            return "  \(source.assetURL.lastPathComponent)#\(source.trackID) \(segment.timeMapping.source) -> \(target)"
        }.joined(separator: "\n")
    }
}
