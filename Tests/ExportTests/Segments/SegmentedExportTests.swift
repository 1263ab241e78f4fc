import Foundation
import Testing
@testable import Export
import Splice
import SpliceFFmpeg
import SpliceTestSupport
internal import CMedia

/// Segmented export of the canonical edit (Examples/canonical-edit.json, 8 s at 30 fps = 240 frames): parts
/// rendered one by one, joined, and compared with the single-process export packet by packet (FFV1, lossless, so
/// the join must be bit-identical) or picture by picture (H.264: PSNR), plus damaged and missing parts.
@Suite("Segmented export", .serialized)
struct SegmentedExportTests {
    static let document = Fixture.packageRoot.appendingPathComponent("Examples/canonical-edit.json")

    /// The packets of `url`'s first stream of `type`: (pts in seconds, key frame, payload digest).
    static func packets(of url: URL, type: AVMediaType) throws -> [(time: Double, key: Bool, data: [UInt8])] {
        let input = try InputFile(url: url)
        guard let index = input.bestStreamIndex(of: type) else { return [] }
        let timeBase = input.stream(at: index).pointee.time_base
        let packet = try Packet()
        var result: [(Double, Bool, [UInt8])] = []
        while try input.readPacket(into: packet) {
            guard packet.streamIndex == index else { continue }
            let pts = Double(packet.presentationTimestamp ?? 0) * Double(timeBase.num) / Double(timeBase.den)
            result.append((pts, packet.isKeyFrame, packet.data))
        }
        return result.sorted { $0.0 < $1.0 }
    }

    static func loadExport(_ settings: ExportSettings) async throws -> SegmentedExport {
        var export = try await CompositionDocument.load(from: document).makeSegmentedExport()
        export.settings = settings
        return export
    }

    /// The whole export in one process, with the same settings.
    static func singleExport(_ export: SegmentedExport, to url: URL) async throws {
        let session = AssetExportSession(asset: export.composition, settings: export.settings)
        session.videoComposition = export.videoComposition
        session.audioMix = export.audioMix
        session.outputURL = url
        try await session.export()
    }

    @Test func cutsAreBalancedAndMoveOntoNearInstructionBoundaries() {
        #expect(SegmentPlan.cuts(frameCount: 240, segmentCount: 3).map(\.firstFrame) == [0, 80, 160])
        #expect(SegmentPlan.cuts(frameCount: 240, segmentCount: 7).map(\.frameCount) == [34, 35, 34, 34, 34, 35, 34])
        // The cut at 120 moves to the instruction boundary at 118 (within 240/2/10 = 12 frames), not to 100.
        #expect(SegmentPlan.cuts(frameCount: 240, segmentCount: 2, preferredCuts: [100, 118]).map(\.firstFrame) == [0, 118])
        #expect(SegmentPlan.cuts(frameCount: 240, segmentCount: 2, preferredCuts: [100]).map(\.firstFrame) == [0, 120])
        #expect(SegmentPlan.cuts(frameCount: 2, segmentCount: 5).map(\.frameCount) == [1, 1])
    }

    @Test func losslessJoinOfOneAndThreeSegmentsIsBitIdenticalToTheSingleExport() async throws {
        let scratch = try ScratchDirectory("segments")
        defer { scratch.remove() }
        let export = try await Self.loadExport(ExportSettings(video: VideoSettings(codec: .ffv1), audio: AudioSettings()))
        let single = scratch.file("single.mov")
        try await Self.singleExport(export, to: single)
        let singleVideo = try Self.packets(of: single, type: AVMEDIA_TYPE_VIDEO)
        let singleAudio = try Self.packets(of: single, type: AVMEDIA_TYPE_AUDIO)
        #expect(singleVideo.count == 240)

        for count in [1, 3] {
            let plan = try export.makePlan(segmentCount: count, fileType: .mov, documentPath: Self.document.path,
                                           partsDirectory: scratch.file("parts\(count)"))
            #expect(plan.segments.count == count)
            #expect(plan.frameCount == 240)
            #expect(plan.segments.last?.timeRange.end == MediaTime(seconds: 8))
            for segment in plan.segments { #expect(try await export.renderSegment(segment.index, of: plan)) }
            // Idempotent: a complete part is kept.
            #expect(try await export.renderSegment(0, of: plan) == false)
            let joined = scratch.file("joined\(count).mov")
            try await export.join(plan, to: joined)

            let video = try Self.packets(of: joined, type: AVMEDIA_TYPE_VIDEO)
            #expect(video.count == 240)
            #expect(video.map(\.data) == singleVideo.map(\.data), "\(count) segments: the pictures differ from the single export")
            for (k, packet) in video.enumerated() { #expect(abs(packet.time - Double(k) / 30) < 1e-6) }
            #expect(try Self.packets(of: joined, type: AVMEDIA_TYPE_AUDIO).map(\.data) == singleAudio.map(\.data))
            let asset = try await Asset.load(from: joined)
            #expect(asset.tracks(withMediaType: .video).first?.timeRange.duration == MediaTime(seconds: 8))
        }
    }

    @Test func h264PartsStartWithKeyFramesAndMatchTheSingleExport() async throws {
        let scratch = try ScratchDirectory("segments-h264")
        defer { scratch.remove() }
        let export = try await Self.loadExport(ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(10), encoderPreset: "veryfast"), audio: AudioSettings()))
        let plan = try export.makePlan(segmentCount: 3, fileType: .mp4, documentPath: Self.document.path,
                                       partsDirectory: scratch.file("parts"))
        for segment in plan.segments { try await export.renderSegment(segment.index, of: plan) }
        let joined = scratch.file("joined.mp4"), single = scratch.file("single.mp4")
        try await export.join(plan, to: joined)
        try await Self.singleExport(export, to: single)

        let video = try Self.packets(of: joined, type: AVMEDIA_TYPE_VIDEO)
        #expect(video.count == 240)
        for segment in plan.segments { #expect(video[segment.firstFrame].key, "no key frame at segment \(segment.index)") }
        #expect(try Self.packets(of: joined, type: AVMEDIA_TYPE_AUDIO).map(\.data)
            == Self.packets(of: single, type: AVMEDIA_TYPE_AUDIO).map(\.data))
        // The pictures each side of every join, against the single export's.
        let times = [0, 79, 80, 159, 160, 239].map { MediaTime(value: Int64($0), timescale: 30) }
        let a = try await Readback.frames(of: joined, at: times)
        let b = try await Readback.frames(of: single, at: times)
        for (index, (x, y)) in zip(a, b).enumerated() {
            #expect(Self.psnr(x, y) >= 45, "frame at \(times[index]) differs: \(Self.psnr(x, y)) dB")
        }
    }

    @Test func aMissingOrTruncatedPartIsATypedErrorAndLeavesNoOutput() async throws {
        let scratch = try ScratchDirectory("segments-damage")
        defer { scratch.remove() }
        let export = try await Self.loadExport(ExportSettings(video: VideoSettings(codec: .ffv1), audio: AudioSettings()))
        let plan = try export.makePlan(segmentCount: 3, fileType: .mov, documentPath: Self.document.path,
                                       partsDirectory: scratch.file("parts"))
        for segment in plan.segments { try await export.renderSegment(segment.index, of: plan) }
        let output = scratch.file("joined.mov")

        try FileManager.default.removeItem(at: plan.partURL(1))
        #expect(plan.missingSegments() == [1])
        await #expect(throws: SegmentError.partMissing(index: 1, plan.partURL(1))) { try await export.join(plan, to: output) }
        #expect(!FileManager.default.fileExists(atPath: output.path))

        try await export.renderSegment(1, of: plan)
        let handle = try FileHandle(forWritingTo: plan.partURL(2))
        let size = try handle.seekToEnd()
        try handle.truncate(atOffset: size / 2)
        try handle.close()
        #expect(plan.missingSegments() == [2])
        do {
            try await export.join(plan, to: output)
            Issue.record("the join of a truncated part succeeded")
        } catch SegmentError.partDamaged(let index, _, _) {
            #expect(index == 2)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// PSNR over red, green and blue, in dB (infinity when equal).
    static func psnr(_ a: VideoFrame, _ b: VideoFrame) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        var sum = 0.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for c in 0..<3 {
                    let d = Double(a.pixels[y * a.bytesPerRow + 4 * x + c]) - Double(b.pixels[y * b.bytesPerRow + 4 * x + c])
                    sum += d * d
                }
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
