import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// The canonical AVFoundation edit, end to end on the bundled fixtures: clip A (red patch) then clip B (blue patch)
/// on one video track, their own audio, music under both fading out over the last 3 s, clip A fading out over its
/// last second, a watermark bottom-right. The output is read back with the library itself.
@Suite("Canonical edit export")
struct CanonicalEditTests {
    static let renderSize = Size(width: 640, height: 360)
    static let watermarkFrame = Rect(x: 640 - 160 - 16, y: 360 - 48 - 16, width: 160, height: 48)

    /// Builds the edit; `fadeOut` toggles clip A's opacity ramp.
    static func makeEdit() async throws -> (MutableComposition, MutableVideoComposition, MutableAudioMix) {
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let clipB = try await Fixture.asset("canonical/clipB.mp4")
        let music = try await Fixture.asset("canonical/music.m4a")
        var composition = MutableComposition()
        let four = TimeRange(start: .zero, duration: MediaTime(seconds: 4))
        try composition.insertTimeRange(four, of: clipA, at: .zero)
        try composition.insertTimeRange(four, of: clipB, at: MediaTime(seconds: 4))
        let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(
            TimeRange(start: .zero, duration: MediaTime(seconds: 8)), of: music.tracks(withMediaType: .audio)[0],
            at: .zero, intoTrackWithID: musicTrack)

        var video = MutableVideoComposition(propertiesOf: composition)
        let videoTrackID = composition.tracks(withMediaType: .video)[0].trackID
        for i in video.instructions.indices {
            for j in video.instructions[i].layerInstructions.indices where video.instructions[i].layerInstructions[j].trackID == videoTrackID {
                video.instructions[i].layerInstructions[j].setOpacityRamp(
                    fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: MediaTime(seconds: 3), duration: MediaTime(seconds: 1)))
                video.instructions[i].layerInstructions[j].setOpacity(1, at: MediaTime(seconds: 4))
            }
        }
        video.overlays = [OverlayLayer(content: .image(Fixture.url("canonical/watermark.png")), frame: watermarkFrame,
                                       timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 8)))]
        var mix = MutableAudioMix()
        var musicParameters = AudioMixInputParameters(trackID: musicTrack)
        musicParameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: MediaTime(seconds: 5), duration: MediaTime(seconds: 3)))
        mix.inputParameters = [musicParameters]
        return (composition, video, mix)
    }

    @Test func exportsWithExactDurationsColoursAndWatermark() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (composition, video, mix) = try await Self.makeEdit()
        #expect(video.renderSize == Self.renderSize)
        #expect(video.frameDuration == MediaTime(value: 1, timescale: 30))

        let session = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(16), encoderPreset: "veryfast")))
        let output = scratch.file("canonical.mp4")
        session.outputURL = output
        session.videoComposition = video
        session.audioMix = mix
        try await session.export()
        #expect(session.status == .completed)
        #expect(session.progress == 1)
        #expect(scratch.contents == ["canonical.mp4"], "no temporary file may remain")

        let asset = try await Asset.load(from: output)
        let videoTrack = try #require(asset.tracks(withMediaType: .video).first)
        let audioTrack = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(asset.tracks.count == 2)
        #expect(videoTrack.codecName == "h264")
        #expect(videoTrack.naturalSize == Self.renderSize)
        #expect(videoTrack.video?.frameCount == 240)
        #expect(videoTrack.timeRange.duration == MediaTime(seconds: 8))
        #expect(audioTrack.audio?.sampleRate == 48_000 && audioTrack.audio?.channelCount == 2)
        // Audio duration to the sample: 8 s at 48 kHz (the AAC encoder's priming is hidden by the edit list).
        #expect(audioTrack.timeRange.duration == MediaTime(seconds: 8))

        let times: [MediaTime] = [.ms(1000), .ms(3500), .ms(3967), .ms(5000), .ms(7000)]
        let frames = try await Readback.frames(of: output, at: times)
        let patch = Rect(x: 144, y: 80, width: 32, height: 32)  // the centre of the 64x64 colour patch
        let tolerance = 6.0
        // Clip A at full opacity: its red patch.
        #expect(colorMatches(frames[0].meanColor(in: patch), (255, 0, 0), tolerance: tolerance), "\(frames[0].meanColor(in: patch))")
        // Mid-ramp (3.5 s, opacity 0.5) over the black background: half red.
        #expect(colorMatches(frames[1].meanColor(in: patch), (127.5, 0, 0), tolerance: tolerance), "\(frames[1].meanColor(in: patch))")
        // Last frame of A (3.9667 s, opacity 1/30).
        #expect(colorMatches(frames[2].meanColor(in: patch), (255.0 / 30, 0, 0), tolerance: tolerance), "\(frames[2].meanColor(in: patch))")
        // Clip B at full opacity: its blue patch.
        #expect(colorMatches(frames[3].meanColor(in: patch), (0, 0, 255), tolerance: tolerance), "\(frames[3].meanColor(in: patch))")
        // The watermark's background (0,64,192) at alpha 128/255 over clip B's grey (128,128,128).
        let alpha = 128.0 / 255.0
        let expected = (128 * (1 - alpha), 64 * alpha + 128 * (1 - alpha), 192 * alpha + 128 * (1 - alpha))
        let watermarkCorner = Rect(x: Self.watermarkFrame.minX + 2, y: Self.watermarkFrame.minY + 2, width: 6, height: 6)
        #expect(colorMatches(frames[4].meanColor(in: watermarkCorner), expected, tolerance: tolerance),
                "\(frames[4].meanColor(in: watermarkCorner)) vs \(expected)")
    }

    @Test func musicFollowsItsVolumeRampPerWindow() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let music = try await Fixture.asset("canonical/music.m4a")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 8)), of: music, at: .zero)
        var mix = MutableAudioMix()
        var parameters = AudioMixInputParameters(trackID: composition.tracks[0].trackID)
        parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: MediaTime(seconds: 5), duration: MediaTime(seconds: 3)))
        mix.inputParameters = [parameters]
        let session = AssetExportSession(asset: composition, preset: .appleM4A)
        let rampedURL = scratch.file("ramped.m4a")
        session.outputURL = rampedURL
        session.audioMix = mix
        try await session.export()
        let plain = AssetExportSession(asset: composition, preset: .appleM4A)
        let plainURL = scratch.file("plain.m4a")
        plain.outputURL = plainURL
        try await plain.export()

        let ramped = try await Readback.audio(of: rampedURL)
        let reference = try await Readback.audio(of: plainURL)
        #expect(ramped[0].count == 384_000 && reference[0].count == 384_000)
        // Per 100 ms window inside the ramp: level difference = 20·log10(gain at the window's middle) ± 0.5 dB.
        for window in stride(from: 51, to: 75, by: 3) {
            let start = window * 4800
            let middle = Double(window) * 0.1 + 0.05
            let gain = 1 - (middle - 5) / 3
            let difference = Readback.rmsDecibels(ramped[0], start: start, count: 4800)
                - Readback.rmsDecibels(reference[0], start: start, count: 4800)
            #expect(abs(difference - 20 * log10(gain)) < 0.5, "window at \(middle) s: \(difference) dB, expected \(20 * log10(gain))")
        }
        // Before the ramp: unity.
        let before = Readback.rmsDecibels(ramped[0], start: 48_000, count: 48_000) - Readback.rmsDecibels(reference[0], start: 48_000, count: 48_000)
        #expect(abs(before) < 0.1)
    }
}
