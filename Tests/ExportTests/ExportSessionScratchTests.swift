import Foundation
import Testing
import Splice

@Suite("Export session scratch")
struct ExportSessionScratchTests {
    @Test func canonicalOnM09() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/media/M09_h264_1080p30_audio-longer-than-video.mp4")
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let video = AssetTrack(assetURL: url, trackID: 1, mediaType: .video,
                               timeRange: TimeRange(start: .zero, duration: MediaTime(value: 106, timescale: 30)),
                               naturalTimeScale: 15360, codecName: "h264", streamIndex: 0,
                               video: VideoTrackFormat(naturalSize: Size(width: 1920, height: 1080), nominalFrameRate: 30, minFrameDuration: MediaTime(value: 1, timescale: 30)))
        let audio = AssetTrack(assetURL: url, trackID: 2, mediaType: .audio,
                               timeRange: TimeRange(start: .zero, duration: MediaTime(value: 3608, timescale: 1000)),
                               naturalTimeScale: 48000, codecName: "aac", streamIndex: 1,
                               audio: AudioTrackFormat(sampleRate: 48000, channelCount: 2, channelLayout: "stereo"))
        let asset = Asset(url: url, duration: MediaTime(value: 3608, timescale: 1000), tracks: [video, audio])
        var composition = MutableComposition()
        let two = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        try composition.insertTimeRange(two, of: asset, at: .zero)
        try composition.insertTimeRange(TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2)), of: asset, at: MediaTime(seconds: 2))
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.renderSize = Size(width: 640, height: 360)
        for i in videoComposition.instructions.indices {
            for j in videoComposition.instructions[i].layerInstructions.indices {
                videoComposition.instructions[i].layerInstructions[j].setTransform(AffineTransform2D(scaleX: 1.0/3, y: 1.0/3), at: .zero)
                videoComposition.instructions[i].layerInstructions[j].setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)))
            }
        }
        var mix = MutableAudioMix()
        var parameters = AudioMixInputParameters(trackID: composition.tracks(withMediaType: .audio)[0].trackID)
        parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 3)))
        mix.inputParameters = [parameters]
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast")))
        let out = URL(fileURLWithPath: NSTemporaryDirectory() + "scratch-\(UUID().uuidString).mp4")
        session.outputURL = out
        session.videoComposition = videoComposition
        session.audioMix = mix
        print(try session.filterGraphDescription())
        try await session.export()
        print("wrote", out.path, session.status, session.progress)
    }
}
