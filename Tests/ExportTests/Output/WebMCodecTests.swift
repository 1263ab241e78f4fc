import Foundation
import Testing
import Splice
import SpliceTestSupport

/// WebM and Matroska carry the codecs the linked FFmpeg has: VP9 or AV1 video (AV1 through libsvtav1, else
/// libaom-av1), Opus or Vorbis audio; a container picks codecs it can hold when none is named.
@Suite("WebM codecs")
struct WebMCodecTests {
    static func composition() async throws -> MutableComposition {
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        return composition
    }

    static let small = Size(width: 160, height: 90)

    @Test(arguments: [
        ("webm", VideoSettings.Codec.vp9, AudioSettings.Codec.opus, "vp9", "opus"),
        ("webm", .av1, .vorbis, "av1", "vorbis"),
        ("webm", .vp9, .vorbis, "vp9", "vorbis"),
        ("mkv", .av1, .opus, "av1", "opus"),
        ("mp4", .av1, .aac, "av1", "aac"),
    ])
    func exportsCarryTheCodecs(fileType: String, video: VideoSettings.Codec, audio: AudioSettings.Codec,
                               videoName: String, audioName: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let settings = ExportSettings(
            video: VideoSettings(codec: video, rateControl: .constantQuality(40), encoderPreset: "ultrafast", maximumSize: Self.small),
            audio: AudioSettings(codec: audio))
        let output = scratch.file("out.\(fileType)")
        let result = try await MeasuredExport.export(try await Self.composition(), to: output, settings: settings)
        let videoTrack = try #require(result.tracks(withMediaType: .video).first)
        let audioTrack = try #require(result.tracks(withMediaType: .audio).first)
        #expect(videoTrack.codecName == videoName)
        #expect(audioTrack.codecName == audioName)
        #expect(videoTrack.video?.frameCount == 30)
        #expect(videoTrack.video?.naturalSize == Self.small)
        // The sound is there: clipA's audio decodes with level (not silence) in the first 0.5 s.
        let samples = try await Readback.audio(of: output)
        #expect(Readback.rmsDecibels(samples[0], start: 0, count: 24_000) > -40)
    }

    @Test func webmWithoutNamedCodecsIsVP9AndOpus() {
        let settings = ExportSettings.defaults(for: .webm)
        #expect(settings.video?.codec == .vp9)
        #expect(settings.audio?.codec == .opus)
        #expect(ExportSettings.defaults(for: .mp4) == ExportSettings())
        #expect(ExportSettings.defaults(for: .m4a).video == nil)
    }
}
