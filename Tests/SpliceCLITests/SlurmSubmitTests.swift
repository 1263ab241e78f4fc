import Foundation
import Splice
import SpliceTestSupport
import Testing
internal import CMedia

/// `splice submit --slurm` end to end on a real one-node Slurm started by the test (``OneNodeSlurm``): the canonical
/// edit (320x180, 8 s at 30 fps) planned as 3 segments, one of which fails for a real reason (a directory left where
/// its part must go, so the finished part cannot be renamed into place); the typed failure names segment 1 and no
/// output is left; once the directory is gone, submitting again renders only segment 1 and joins a correct file.
/// Skipped with one visible line when not root or Slurm is not installed (CI has both).
@Suite("splice submit --slurm", .serialized)
struct SlurmSubmitTests {
    /// The video packets of `url` (key flag, time in seconds), the number of audio packets, and the video stream's
    /// duration as the container states it (seconds).
    static func packets(of url: URL) throws -> (video: [(key: Bool, time: Double)], audioCount: Int, videoDuration: Double) {
        let input = try InputFile(url: url)
        let videoIndex = input.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO), audioIndex = input.bestStreamIndex(of: AVMEDIA_TYPE_AUDIO)
        let timeBase = videoIndex.map { input.stream(at: $0).pointee.time_base } ?? AVRational(num: 1, den: 1)
        let packet = try Packet()
        var video: [(Bool, Double)] = [], audioCount = 0
        while try input.readPacket(into: packet) {
            if packet.streamIndex == videoIndex {
                video.append((packet.isKeyFrame, Double(packet.presentationTimestamp ?? 0) * Double(timeBase.num) / Double(timeBase.den)))
            } else if packet.streamIndex == audioIndex {
                audioCount += 1
            }
        }
        let duration = videoIndex.map { Double(input.stream(at: $0).pointee.duration) * Double(timeBase.num) / Double(timeBase.den) } ?? 0
        return (video.sorted { $0.1 < $1.1 }, audioCount, duration)
    }

    @Test func aFailedSegmentIsNamedAndResubmittingRendersOnlyIt() async throws {
        let slurm: OneNodeSlurm
        do {
            slurm = try await OneNodeSlurm.start()
        } catch let error as OneNodeSlurm.Unavailable {
            OneNodeSlurm.reportSkip(error)
            return
        }
        defer { slurm.stop() }
        let folder = try TestDocument.folder()
        defer { folder.remove() }
        let document = try folder.write("edit.json", CommandLineTests.smallCanonical)
        let planURL = folder.file("plan.json"), output = folder.file("out.mp4")

        let planned = try await SpliceTool.run(["plan", document.path, "--segments", "3", "-o", planURL.path], timeout: 30)
        try #require(planned.status == 0, "\(planned.stderr)")
        let plan = try SegmentPlanFile.read(from: planURL)
        #expect(plan.segments.map(\.firstFrame) == [0, 80, 160])

        // A directory where part 1 must go: the render of segment 1 refuses it before any work (exit 1).
        try FileManager.default.createDirectory(at: plan.partURL(1).appendingPathComponent("left-over"), withIntermediateDirectories: true)
        let failed = try await SpliceTool.run(["submit", "--slurm", planURL.path, "-o", output.path],
                                              environment: slurm.environment, timeout: 120)
        #expect(failed.status == 3, "stdout: \(failed.stdout) stderr: \(failed.stderr)")
        #expect(failed.stdout.contains("renders segments 0, 1, 2"), "\(failed.stdout)")
        #expect(failed.stderr.contains("segment 1 FAILED (exit 1:0; log \(plan.partsDirectory)/slurm-"), "\(failed.stderr)")
        #expect(failed.stderr.contains(plan.partURL(1).path), "the task's own error names the part: \(failed.stderr)")
        #expect(!failed.stderr.contains("segment 0 ") && !failed.stderr.contains("segment 2 "), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "a failed submission leaves no output")
        #expect(plan.missingSegments() == [1])
        let finished = try [0, 2].map { try FileManager.default.attributesOfItem(atPath: plan.partURL($0).path)[.modificationDate] as? Date }

        // The cause removed, the same command renders only segment 1, then joins.
        try FileManager.default.removeItem(at: plan.partURL(1))
        let resumed = try await SpliceTool.run(["submit", "--slurm", planURL.path, "-o", output.path],
                                               environment: slurm.environment, timeout: 120)
        try #require(resumed.status == 0, "stdout: \(resumed.stdout) stderr: \(resumed.stderr)")
        #expect(resumed.stdout.contains("renders segments 1\n"), "\(resumed.stdout)")
        #expect(resumed.stdout.contains("slurm: done: \(output.path)"))
        #expect(try [0, 2].map { try FileManager.default.attributesOfItem(atPath: plan.partURL($0).path)[.modificationDate] as? Date }
            == finished, "parts 0 and 2 were rendered again")

        let (video, audioCount, videoDuration) = try Self.packets(of: output)
        #expect(video.count == 240)
        #expect(abs(videoDuration - 8) < 1e-6, "the container says the video lasts \(videoDuration) s (the last frame's duration lost?)")
        for (k, packet) in video.enumerated() where abs(packet.time - Double(k) / 30) > 1e-6 {
            Issue.record("frame \(k) at \(packet.time) s, not \(Double(k) / 30) s")
            break
        }
        #expect(plan.segments.allSatisfy { video[$0.firstFrame].key }, "a key frame at each segment start")
        #expect(audioCount > 300, "the audio of 8 s (about 375 AAC packets at 48 kHz), got \(audioCount) packets")
        let asset = try await Asset.load(from: output)
        #expect(asset.tracks(withMediaType: .video).first?.timeRange.duration == MediaTime(seconds: 8))
        let audioDuration = asset.tracks(withMediaType: .audio).first?.timeRange.duration.seconds ?? 0
        #expect(abs(audioDuration - 8) < 0.03, "audio lasts \(audioDuration) s")
    }
}
