import Foundation
import Testing
import Composition
@testable import Export

@Suite("Engine smoke")
struct EngineSmokeTests {
    @Test func rendersAPlainCut() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/media/M09_h264_1080p30_audio-longer-than-video.mp4")
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("SKIPPED: ../shared/media is absent")
            return
        }
        let video = AssetTrack(assetURL: url, trackID: 1, mediaType: .video,
                               timeRange: TimeRange(start: .zero, duration: MediaTime(value: 106, timescale: 30)),
                               naturalTimeScale: 15360, codecName: "h264", streamIndex: 0)
        let audio = AssetTrack(assetURL: url, trackID: 2, mediaType: .audio,
                               timeRange: TimeRange(start: .zero, duration: MediaTime(value: 3608, timescale: 1000)),
                               naturalTimeScale: 48000, codecName: "aac", streamIndex: 1)
        let target = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        let source = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2))
        let layer = LayerPlan(trackID: 1, transform: { _ in .identity }, opacity: { t in t < MediaTime(seconds: 1) ? 1 : 0.5 },
                              crop: { _ in nil }, opacityIsConstant: false)
        let plan = VideoPlan(renderSize: Size(width: 1920, height: 1080), outputSize: Size(width: 640, height: 360),
                             frameDuration: MediaTime(value: 1, timescale: 30), duration: MediaTime(seconds: 2),
                             tracks: [RenderTrack(trackID: 1, segments: [RenderSegment(source: video, mapping: TimeMapping(source: source, target: target))])],
                             instructions: [InstructionPlan(timeRange: target, background: .black, layers: [layer], drawsOverlays: true)])
        let aplan = AudioPlan(format: AudioOutputFormat(sampleRate: 48000, channelCount: 2), duration: MediaTime(seconds: 2),
                              tracks: [RenderTrack(trackID: 2, segments: [RenderSegment(source: audio, mapping: TimeMapping(source: source, target: target))])],
                              gains: [:], varispeedTrackIDs: [])
        let path = NSTemporaryDirectory() + "smoke-\(UUID().uuidString).mp4"
        let job = ExportJob(video: plan, audio: aplan, settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast")), fileType: .mp4, path: path,
                            metadata: [], optimizeForNetworkUse: true, fileLengthLimit: nil)
        let renderer = try ExportRenderer(job: job, cancellation: CancellationFlag(), progress: { _ in })
        _ = try renderer.run()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
