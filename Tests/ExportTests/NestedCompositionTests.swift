import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// A composition nested in another (`NestedComposition`, pre-composed losslessly) renders as the same edit written
/// flat.
@Suite("Nested compositions")
struct NestedCompositionTests {
    static let frameDuration = MediaTime(value: 1, timescale: 30)
    static let canvas = Size(width: 320, height: 240)
    static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    /// One video track (identity, with an opacity ramp 1 → 0 over `fade`) over `duration`, and the same volume ramp.
    static func models(trackIDs: (video: Int32, audio: Int32), duration: MediaTime, fade: TimeRange)
        -> (MutableVideoComposition, MutableAudioMix) {
        var layer = VideoCompositionLayerInstruction(trackID: trackIDs.video)
        layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: fade)
        let video = MutableVideoComposition(
            renderSize: canvas, frameDuration: frameDuration,
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: duration),
                                                       layerInstructions: [layer])])
        var volume = AudioMixInputParameters(trackID: trackIDs.audio)
        volume.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: fade)
        return (video, MutableAudioMix(inputParameters: [volume]))
    }

    static func ids(of composition: MutableComposition) throws -> (video: Int32, audio: Int32) {
        (try #require(composition.tracks(withMediaType: .video).first).trackID,
         try #require(composition.tracks(withMediaType: .audio).first).trackID)
    }

    static func export(_ composition: MutableComposition, _ video: MutableVideoComposition?, _ mix: MutableAudioMix?,
                       to url: URL) async throws {
        let session = AssetExportSession(asset: composition, settings: NestedComposition.intermediateSettings)
        session.outputURL = url
        session.videoComposition = video
        session.audioMix = mix
        try await session.export()
    }

    @Test func aNestedCompositionRendersAsTheSameEditWrittenFlat() async throws {
        let scratch = try ScratchDirectory("nested")
        defer { scratch.remove() }
        let two = MediaTime(seconds: 2)
        let a = try await SyntheticMedia.makeAsset(video: .testPattern(), audio: .tone(frequency: 440), duration: two, in: scratch.url, name: "a")
        let b = try await SyntheticMedia.makeAsset(video: .quadrants(), audio: .tone(frequency: 660), duration: two, in: scratch.url, name: "b")
        let c = try await SyntheticMedia.makeAsset(
            video: .colorField(Color(red: 0.2, green: 0.6, blue: 0.4)), audio: .tone(frequency: 880), duration: two,
            in: scratch.url, name: "c")

        // Inner: A [0.5, 1.5) then B [0, 1), fading out (picture and sound) over its last half second.
        var inner = MutableComposition(naturalSize: Self.canvas)
        try inner.insertTimeRange(TimeRange(start: Self.ms(500), duration: Self.ms(1000)), of: a, at: .zero)
        try inner.insertTimeRange(TimeRange(start: .zero, duration: Self.ms(1000)), of: b, at: Self.ms(1000))
        let (innerVideo, innerMix) = Self.models(
            trackIDs: try Self.ids(of: inner), duration: two, fade: TimeRange(start: Self.ms(1500), duration: Self.ms(500)))
        let nested = try await NestedComposition(composition: inner, videoComposition: innerVideo, audioMix: innerMix)
            .precompose(to: scratch.file("inner.mov"))
        #expect(nested.duration == two)

        // Outer: C [0, 1), then the nested composition from its 0.5 s on (its own timing, trimmed).
        var outer = MutableComposition(naturalSize: Self.canvas)
        try outer.insertTimeRange(TimeRange(start: .zero, duration: Self.ms(1000)), of: c, at: .zero)
        try outer.insertTimeRange(TimeRange(start: Self.ms(500), duration: Self.ms(1500)), of: nested, at: Self.ms(1000))
        let outerIDs = try Self.ids(of: outer)
        let outerVideo = MutableVideoComposition(
            renderSize: Self.canvas, frameDuration: Self.frameDuration,
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: Self.ms(2500)),
                                                       layerInstructions: [VideoCompositionLayerInstruction(trackID: outerIDs.video)])])
        let nestedURL = scratch.file("nested.mov")
        try await Self.export(outer, outerVideo, nil, to: nestedURL)

        // Flat: C [0, 1), A [1.0, 1.5), B [0, 1), fading out over [2.0, 2.5).
        var flat = MutableComposition(naturalSize: Self.canvas)
        try flat.insertTimeRange(TimeRange(start: .zero, duration: Self.ms(1000)), of: c, at: .zero)
        try flat.insertTimeRange(TimeRange(start: Self.ms(1000), duration: Self.ms(500)), of: a, at: Self.ms(1000))
        try flat.insertTimeRange(TimeRange(start: .zero, duration: Self.ms(1000)), of: b, at: Self.ms(1500))
        let (flatVideo, flatMix) = Self.models(
            trackIDs: try Self.ids(of: flat), duration: Self.ms(2500), fade: TimeRange(start: Self.ms(2000), duration: Self.ms(500)))
        let flatURL = scratch.file("flat.mov")
        try await Self.export(flat, flatVideo, flatMix, to: flatURL)

        // Pictures: every frame identical (FFV1 is lossless).
        let nestedLog = try await FrameDigestLog(contentsOf: nestedURL)
        let flatLog = try await FrameDigestLog(contentsOf: flatURL)
        let nestedVideo = nestedLog.frames.filter { $0.streamIndex == 0 }, flatVideoFrames = flatLog.frames.filter { $0.streamIndex == 0 }
        #expect(nestedVideo.count == 75 && flatVideoFrames.count == 75)
        #expect(Set(flatVideoFrames.map(\.md5)).count > 30, "the flat edit moves (test pattern, fade)")
        for (index, (n, f)) in zip(nestedVideo, flatVideoFrames).enumerated() {
            #expect(n.md5 == f.md5, "frame \(index): nested \(n.md5), flat \(f.md5)")
        }

        // Sound: as long to the sample and equal sample for sample: the nested mix is rounded to 16 bits once, and
        // the outer render plays it at unity gain, so both round the same values once.
        let nestedSound = try await Readback.audio(of: nestedURL)
        let flatSound = try await Readback.audio(of: flatURL)
        #expect(nestedSound.first?.count == 120_000 && flatSound.first?.count == 120_000)
        var largest: Float = 0
        for channel in 0..<min(nestedSound.count, flatSound.count) {
            for (x, y) in zip(nestedSound[channel], flatSound[channel]) { largest = max(largest, abs(x - y)) }
        }
        print("nested vs flat sound: largest difference \(largest * 32768) 16-bit steps")
        #expect(largest == 0, "largest difference \(largest * 32768) 16-bit steps")
    }
}
