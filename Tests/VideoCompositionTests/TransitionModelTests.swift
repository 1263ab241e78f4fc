import Foundation
import Testing
import Composition
import VideoComposition

/// The transition models without rendering: progress, builders, validation, Codable.
@Suite("Transitions: models")
struct TransitionModelTests {
    let range = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2))

    /// A 1920 × 1080 video track of `file` lasting `duration` (timescale 600, 30 fps), described without a file.
    static func videoTrack(_ file: String, duration: MediaTime) -> AssetTrack {
        AssetTrack(
            assetURL: URL(fileURLWithPath: "/media/\(file)"), trackID: 1, mediaType: .video,
            timeRange: TimeRange(start: .zero, duration: duration), naturalTimeScale: 600, codecName: "h264", streamIndex: 0,
            video: VideoTrackFormat(
                naturalSize: Size(width: 1920, height: 1080), preferredTransform: .identity, nominalFrameRate: 30,
                minFrameDuration: MediaTime(value: 20, timescale: 600)))
    }

    @Test func progressIsTheEasedFractionAndHoldsOutside() {
        let transition = VideoTransition(style: .wipeLeft, from: 1, to: 2, easing: .easeInOut)
        #expect(transition.progress(at: MediaTime(seconds: 0), in: range) == 0)
        #expect(transition.progress(at: MediaTime(seconds: 1), in: range) == 0)
        #expect(transition.progress(at: MediaTime(value: 3, timescale: 2), in: range) == 0.125)  // f = ¼: 2·¼²
        #expect(transition.progress(at: MediaTime(seconds: 2), in: range) == 0.5)
        #expect(transition.progress(at: MediaTime(value: 5, timescale: 2), in: range) == 0.875)
        #expect(transition.progress(at: MediaTime(seconds: 3), in: range) == 1)
        let linear = VideoTransition(style: .fade, from: 1, to: 2)
        #expect(linear.progress(at: MediaTime(value: 1001, timescale: 1000), in: range) == 0.0005)
    }

    @Test func crossDissolveStyleIsTheOpacityRampInstruction() {
        let built = VideoCompositionInstruction.transition(.crossDissolve, from: 1, to: 2, timeRange: range)
        #expect(built == VideoCompositionInstruction.crossDissolve(from: 1, to: 2, timeRange: range))
        #expect(built.transition == nil)
        let wipe = VideoCompositionInstruction.transition(.wipeLeft, from: 1, to: 2, timeRange: range)
        #expect(wipe.transition == VideoTransition(style: .wipeLeft, from: 1, to: 2))
        #expect(wipe.requiredSourceTrackIDs == [1, 2])
        #expect(VideoTransitionStyle.circleOpen.xfadeName == "circleopen" && VideoTransitionStyle.crossDissolve.xfadeName == nil)
    }

    @Test func builderOverlapsTheIncomingClipOnANewTrack() throws {
        let a = Self.videoTrack("a.mov", duration: MediaTime(seconds: 5))
        let b = Self.videoTrack("b.mov", duration: MediaTime(seconds: 5))
        var composition = MutableComposition()
        let first = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 4)), of: a, at: .zero, intoTrackWithID: first)
        let (second, overlap) = try composition.insertOverlapping(
            TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: b, after: first, by: MediaTime(value: 1, timescale: 2))
        #expect(second != first)
        #expect(overlap == TimeRange(start: MediaTime(value: 7, timescale: 2), duration: MediaTime(value: 1, timescale: 2)))
        let placed = try #require(composition.track(withTrackID: second)?.segments.last)
        #expect(placed.timeMapping.target == TimeRange(start: MediaTime(value: 7, timescale: 2), duration: MediaTime(seconds: 3)))
        #expect(placed.sourceURL?.lastPathComponent == "b.mov")
        #expect(composition.duration == MediaTime(value: 13, timescale: 2), "4 s + 3 s − ½ s")
        #expect(throws: CompositionError.self) {
            try composition.insertOverlapping(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: b, after: first, by: MediaTime(seconds: 2))
        }
    }

    @Test func validationNamesTransitionProblems() throws {
        let summary = CompositionSummary(tracks: [
            .init(trackID: 1, mediaType: .video, timeRange: range, segments: [], isEnabled: true, naturalSize: Size(width: 64, height: 64)),
            .init(trackID: 2, mediaType: .video, timeRange: range, segments: [], isEnabled: true, naturalSize: Size(width: 64, height: 64)),
            .init(trackID: 3, mediaType: .audio, timeRange: range, segments: [], isEnabled: true, naturalSize: .zero),
        ])
        var instruction = VideoCompositionInstruction.transition(.wipeUp, from: 1, to: 2, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 3)))
        instruction.transition?.toTrackID = 1
        let video = MutableVideoComposition(renderSize: Size(width: 64, height: 64), frameDuration: MediaTime(value: 1, timescale: 25), instructions: [instruction])
        let issues = video.validate(for: summary).filter { $0.kind == .invalidTransition }
        #expect(issues.count == 2, "same track twice, and track 2 drawn besides the transition's: \(issues)")
    }

    @Test func codableRoundTrips() throws {
        let instruction = VideoCompositionInstruction.transition(.circleClose, from: 1, to: 2, timeRange: range, easing: .easeOut)
        let decoded = try JSONDecoder().decode(VideoCompositionInstruction.self, from: JSONEncoder().encode(instruction))
        #expect(decoded == instruction)
        let text = #"{"style": "wipetl", "fromTrackID": 1, "toTrackID": 2}"#
        let transition = try JSONDecoder().decode(VideoTransition.self, from: Data(text.utf8))
        #expect(transition == VideoTransition(style: .wipeTopLeft, from: 1, to: 2))
    }
}
