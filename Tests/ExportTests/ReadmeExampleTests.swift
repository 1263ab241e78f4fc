import Foundation
import Testing
import Splice
import SpliceTestSupport

/// The README's Swift example, run on the bundled fixtures (keep the two in step).
@Suite("README example")
struct ReadmeExampleTests {
    @Test func theReadmeExampleRuns() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipA = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        let clipB = try await Asset.load(from: Fixture.url("canonical/clipB.mp4"))
        let music = try await Asset.load(from: Fixture.url("canonical/music.m4a"))

        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: clipA.duration), of: clipA, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: clipB.duration), of: clipB, at: clipA.duration)
        let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: composition.duration),
                                         of: music.tracks(withMediaType: .audio)[0], at: .zero, intoTrackWithID: musicTrack)

        var video = MutableVideoComposition(propertiesOf: composition)
        video.instructions[0].layerInstructions[0].setOpacityRamp(
            fromStartOpacity: 1, toEndOpacity: 0,
            timeRange: TimeRange(start: clipA.duration - MediaTime(seconds: 1), duration: MediaTime(seconds: 1)))
        video.instructions[0].layerInstructions[0].setOpacity(1, at: clipA.duration)   // clip B: opaque again

        var mix = MutableAudioMix()
        var fade = AudioMixInputParameters(trackID: musicTrack)
        fade.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0,
                           timeRange: TimeRange(start: composition.duration - MediaTime(seconds: 3), duration: MediaTime(seconds: 3)))
        mix.inputParameters = [fade]

        let session = AssetExportSession(asset: composition, preset: .preset1920x1080)
        session.outputURL = scratch.file("out.mp4")
        session.videoComposition = video
        session.audioMix = mix
        try await session.export()

        let output = try await Asset.load(from: scratch.file("out.mp4"))
        #expect(output.tracks(withMediaType: .video).first?.video?.frameCount == 240)
        #expect(output.tracks(withMediaType: .video).first?.naturalSize == Size(width: 640, height: 360))
        #expect(output.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(seconds: 8))
        let frames = try await Readback.frames(of: scratch.file("out.mp4"), at: [.ms(1000), .ms(5000)])
        let patch = Rect(x: 144, y: 80, width: 32, height: 32)
        #expect(colorMatches(frames[0].meanColor(in: patch), (255, 0, 0), tolerance: 8))
        #expect(colorMatches(frames[1].meanColor(in: patch), (0, 0, 255), tolerance: 8), "clip B must be visible again")
    }
}
