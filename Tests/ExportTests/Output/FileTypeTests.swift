import SpliceFFmpeg
import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Containers and codecs beyond MP4 + H.264 + AAC, and the MP4 layout.
@Suite("File types and codecs")
struct FileTypeTests {
    static func composition() async throws -> MutableComposition {
        let clip = try await Fixture.asset("canonical/clipB.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        return composition
    }

    @Test(arguments: [
        ("out.mov", VideoSettings.Codec.h264, AudioSettings.Codec.pcm, "h264", "pcm_s16le"),
        ("out.mkv", .h264, .opus, "h264", "opus"),
        ("out.webm", .vp9, .opus, "vp9", "opus"),
        ("out.mp4", .hevc, .aac, "hevc", "aac"),
    ])
    func exportsEachContainerWithItsCodecs(name: String, video: VideoSettings.Codec, audio: AudioSettings.Codec,
                                           videoCodecName: String, audioCodecName: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.composition(), settings: ExportSettings(
            video: VideoSettings(codec: video, encoderPreset: "ultrafast"), audio: AudioSettings(codec: audio)))
        session.outputURL = scratch.file(name)
        try await session.export()
        let asset = try await Asset.load(from: scratch.file(name))
        let videoTrack = try #require(asset.tracks(withMediaType: .video).first)
        let audioTrack = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(videoTrack.codecName == videoCodecName)
        #expect(audioTrack.codecName == audioCodecName)
        #expect(videoTrack.video?.frameCount == 30)
        #expect(audioTrack.audio?.channelCount == 2 && audioTrack.audio?.sampleRate == 48_000)
        // Durations to the frame; audio within one Opus/AAC frame of codec delay where the container cannot say.
        #expect(videoTrack.timeRange.duration == MediaTime(seconds: 1) || name.hasSuffix(".webm") || name.hasSuffix(".mkv"))
        #expect(abs(audioTrack.timeRange.duration.seconds - 1) <= 0.021, "\(audioTrack.timeRange.duration)")
    }

    @Test func anM4AHoldsAudioOnly() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.composition(), preset: .appleM4A)
        session.outputURL = scratch.file("out.m4a")
        try await session.export()
        let asset = try await Asset.load(from: scratch.file("out.m4a"))
        #expect(asset.tracks.map(\.mediaType) == [.audio])
        #expect(asset.tracks[0].timeRange.duration == MediaTime(seconds: 1))
    }

    @Test func codecsTheContainerCannotHoldAreRefusedBeforeWriting() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.composition(), settings: ExportSettings(
            video: VideoSettings(codec: .prores), audio: AudioSettings()))
        session.outputURL = scratch.file("out.mp4")
        await #expect(throws: ExportError.unsupportedSettings("a .mp4 file cannot hold prores video")) { try await session.export() }
        #expect(scratch.contents.isEmpty)
    }

    /// Top-level box types of an ISO BMFF file, in order.
    static func topLevelBoxes(_ url: URL) throws -> [String] {
        let data = try BinaryFile.read(url)
        var boxes: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count { size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            boxes.append(type)
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }

    @Test(arguments: [true, false])
    func moovComesFirstOnlyWhenOptimisedForNetworkUse(optimised: Bool) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.composition(), settings: ExportSettings(
            video: VideoSettings(encoderPreset: "ultrafast")))
        session.outputURL = scratch.file("out.mp4")
        session.shouldOptimizeForNetworkUse = optimised
        try await session.export()
        let boxes = try Self.topLevelBoxes(scratch.file("out.mp4"))
        let moov = try #require(boxes.firstIndex(of: "moov")), mdat = try #require(boxes.firstIndex(of: "mdat"))
        #expect((moov < mdat) == optimised, "\(boxes)")
    }

    @Test func sizedPresetsScaleDownButNeverUp() {
        #expect(ExportPlannerProbe.outputSize(Size(width: 3840, height: 2160), .preset1920x1080) == Size(width: 1920, height: 1080))
        #expect(ExportPlannerProbe.outputSize(Size(width: 640, height: 360), .preset1920x1080) == Size(width: 640, height: 360))
        // Portrait fits the box turned to portrait, as AVFoundation does.
        #expect(ExportPlannerProbe.outputSize(Size(width: 1080, height: 1920), .preset1280x720) == Size(width: 720, height: 1280))
        #expect(ExportPlannerProbe.outputSize(Size(width: 1000, height: 1000), .preset640x480) == Size(width: 480, height: 480))
    }
}

@Suite("Filter availability")
struct FilterAvailabilityTests {
    @Test func theFiltersAGraphUsesAreNamed() {
        let description = "[bg]null[base0];\n[L0]scale=640:360,format=yuva420p,lut@l0=y=val:a=val*0.5[lay0];\n"
            + "[base0][lay0]overlay=x=0:y=0[base1];[base1]drawtext=text='a\\\\, b':x=1[out]"
        #expect(FilterGraphProbe.filterNames(description) == ["null", "scale", "format", "lut", "overlay", "drawtext"])
        for name in FilterGraphProbe.filterNames(description) { #expect(MediaLibrary.hasFilter(named: name), "\(name)") }
        #expect(!MediaLibrary.hasFilter(named: "no_such_filter"))
    }
}
