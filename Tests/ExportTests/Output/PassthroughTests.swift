import Foundation
import Testing
import Splice
import SpliceTestSupport

/// The passthrough preset: stream copy where the composition allows it, a precise refusal where it does not.
@Suite("Passthrough")
struct PassthroughTests {
    static func export(_ composition: MutableComposition, to url: URL,
                       configure: (AssetExportSession) -> Void = { _ in }) async throws {
        let session = AssetExportSession(asset: composition, preset: .passthrough)
        session.outputURL = url
        configure(session)
        try await session.export()
    }

    @Test func aKeyFrameAlignedTrimIsCopiedExactly() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Fixture.asset("canonical/clipA.mp4")  // key frames at 0, 1, 2, 3 s
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: MediaTime(seconds: 1), end: MediaTime(seconds: 3)), of: clip, at: .zero)
        try await Self.export(composition, to: scratch.file("trim.mp4"))
        let copy = try await Asset.load(from: scratch.file("trim.mp4"))
        let video = try #require(copy.tracks(withMediaType: .video).first)
        #expect(video.video?.frameCount == 60)
        #expect(video.timeRange.duration == MediaTime(seconds: 2))
        // Audio is cut at AAC packet boundaries: within one packet (1024 samples) of 2 s at each end.
        let audio = try #require(copy.tracks(withMediaType: .audio).first)
        #expect(abs(audio.timeRange.duration.seconds - 2) <= 2 * 1024.0 / 48_000, "\(audio.timeRange.duration)")
        // Copied, not re-encoded: the frame at 0.5 s of the copy is the source's frame at 1.5 s (red patch there).
        let frames = try await Readback.frames(of: scratch.file("trim.mp4"), at: [.ms(500)])
        #expect(colorMatches(frames[0].meanColor(in: Rect(x: 144, y: 80, width: 32, height: 32)), (255, 0, 0), tolerance: 4))
    }

    @Test func aTrimBetweenKeyFramesIsRefusedWithTheReason() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: MediaTime(value: 3, timescale: 2), end: MediaTime(seconds: 3)), of: clip, at: .zero)
        await #expect {
            try await Self.export(composition, to: scratch.file("trim.mp4"))
        } throws: { error in
            guard case ExportError.passthroughNotPossible(let reason) = error else { return false }
            return reason.contains("starts at 1.500 s") && reason.contains("not on a key frame (nearest key frames 1.000 s / 2.000 s)")
        }
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func renderingOptionsAreRefusedBeforeWriting() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var plain = MutableComposition()
        try plain.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        await #expect {
            try await Self.export(plain, to: scratch.file("b.mp4")) { $0.audioMix = MutableAudioMix() }
        } throws: { error in
            guard case ExportError.passthroughNotPossible(let reason) = error else { return false }
            return reason.contains("audio mix")
        }
        #expect(scratch.contents.isEmpty)
    }
}
