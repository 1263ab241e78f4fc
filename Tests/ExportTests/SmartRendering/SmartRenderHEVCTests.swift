import Foundation
import SpliceFFmpeg
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport
internal import CMedia

/// Smart rendering of HEVC: groups of pictures read from synthetic libx265 media (closed GOPs with IDR pictures and
/// B-frames; open GOPs with CRA pictures and their RASL leading pictures), three cuts and a 2 s title exported with
/// copied groups and x265 pieces matched to the source in one `hev1` stream, checked picture by picture with
/// Splice's decoder and `ffmpeg -v error`.
@Suite("Smart rendering: HEVC")
struct SmartRenderHEVCTests {
    static let frame = MediaTime(value: 1, timescale: 30)

    /// 12 s at 320 × 240, 30 fps, 1 s groups with three B-frames, closed (IDR) or open (CRA) GOPs.
    static func source(openGOP: Bool, in scratch: ScratchDirectory) throws -> URL {
        try SmartRenderEdit.source(.hevc, openGOP: openGOP, named: openGOP ? "open-hevc.mov" : "closed-hevc.mov", in: scratch)
    }

    /// Pieces of `track` (source seconds) back to back with a text title over output `title`, HEVC out (CRF 12).
    static func session(_ track: AssetTrack, pieces: [(Double, Double)], title: TimeRange?, output: URL) throws
        -> (AssetExportSession, MutableComposition, MutableVideoComposition)
    {
        let settings = VideoSettings(codec: .hevc, rateControl: .constantQuality(12), encoderPreset: "veryfast")
        return try SmartRenderEdit.session(
            [track], pieces: pieces, title: title, settings: ExportSettings(video: settings, audio: nil), output: output)
    }

    @Test func closedGroupsStartAtIDRPictures() async throws {
        let scratch = try ScratchDirectory("smart-hevc-closed-scan")
        defer { scratch.remove() }
        let (track, groups) = try await SmartRenderEdit.groups(of: try Self.source(openGOP: false, in: scratch))
        #expect(track.codecName == "hevc")
        #expect(groups.count == 12)
        #expect(groups.allSatisfy { $0.isClosed && $0.frameCount == 30 }, "\(groups)")
        #expect(groups.map(\.keyFrameTime) == (0..<12).map { MediaTime(seconds: Int64($0)) })
    }

    /// Open GOPs: after the first (IDR) group every key frame is a CRA picture with RASL pictures shown before it,
    /// which need the previous group. A copy can still start at a CRA picture, marked a broken link (`BLA_N_LP`),
    /// without its leading pictures, which are re-encoded with what precedes them; inside a copied run the CRA
    /// groups are copied whole. Three pieces and a 2 s title: the copied pictures are bit-identical to the source's
    /// own decode (from its start), the file decodes cleanly, 300 frames, 10 s.
    @Test func openGroupsAreCopiedFromTheirCRAPictures() async throws {
        let scratch = try ScratchDirectory("smart-hevc-open")
        defer { scratch.remove() }
        let sourceURL = try Self.source(openGOP: true, in: scratch)
        let track = try #require(try await Asset.load(from: sourceURL).tracks(withMediaType: .video).first)
        let facts = try #require(try GroupOfPicturesScan.scan(track, cancellation: CancellationFlag()))
        #expect(facts.groups.first?.isClosed == true)
        let later = facts.groups.dropFirst()
        #expect(!later.isEmpty && later.allSatisfy { !$0.startsWithIDR && $0.startsWithCleanRandomAccess }, "\(facts.groups)")
        #expect(later.allSatisfy { $0.leadingFrameCount > 0 && $0.start < $0.keyFrameTime }, "leading pictures: \(facts.groups)")
        #expect(later.allSatisfy { $0.keyFrameTime - $0.start == Self.frame * Int64($0.leadingFrameCount) })
        #expect(facts.groups.reduce(0) { $0 + $1.frameCount } == 360)

        let report = try await Self.exportThreeCuts(track, output: scratch.file("open.mp4"))
        // Each CRA picture here has one leading picture (shown 1/30 s before it): the copies start at the CRA
        // pictures of 1, 5 and 10 s (source), and each copied run ends before the leading picture of the group after it.
        func t(_ frames: Int) -> Double { Double(frames) / 30 }
        #expect(SmartRenderPlannerTests.summary(report.spans) == [
            "re-encode 0.0–\(t(14)) s: partial group of pictures at the cut at 0.000 s",
            "re-encode \(t(14))–0.5 s: leading pictures of the CRA picture at 0.500 s where the copy starts",
            "copy 0.5–\(t(74)) s ×2",
            "re-encode \(t(74))–2.5 s: partial group of pictures at the cut at 2.500 s",
            "copy 2.5–\(t(104)) s ×1",
            "re-encode \(t(104))–3.5 s: partial group of pictures at the cut at 3.500 s",
            "re-encode 3.5–5.5 s: overlay from 3.500 s to 5.500 s",
            "copy 5.5–\(t(224)) s ×2",
            "re-encode \(t(224))–\(t(239)) s: partial group of pictures at the cut at 7.500 s",
            "re-encode \(t(239))–8.0 s: leading pictures of the CRA picture at 8.000 s where the copy starts",
            "copy 8.0–10.0 s ×2",
        ], "\(report)")
        #expect(report.copiedGroupCount == 7)
        #expect(report.copiedFrameCount == 207)
    }

    /// Three pieces (two cuts inside groups, one on a boundary) and a 2 s title over the middle one: the 7 IDR groups
    /// outside the title are copied, the rest re-encoded by x265 matched to the source; 300 frames, 10 s exactly,
    /// every copied picture bit-identical to the source's, re-encoded ones ≥ 40 dB from the render, `hev1`.
    @Test func threeCutsAndATitle() async throws {
        let scratch = try ScratchDirectory("smart-hevc-edit")
        defer { scratch.remove() }
        let track = try #require(try await Asset.load(from: try Self.source(openGOP: false, in: scratch)).tracks(withMediaType: .video).first)
        let report = try await Self.exportThreeCuts(track, output: scratch.file("edit.mp4"))
        #expect(SmartRenderPlannerTests.summary(report.spans) == SmartRenderEdit.threeCutsSummary, "\(report)")
        #expect(report.copiedGroupCount == 7)
        #expect(report.copiedFrameCount == 210)
    }

    /// ``SmartRenderEdit/threeCuts`` of `track` with ``SmartRenderEdit/middleTitle``, exported to `output` and
    /// checked: no fallback, an `hev1` sample entry, and ``SmartRenderEdit/check(_:report:frameCount:duration:composition:videoComposition:frame:sourceOffset:sourceFrame:)``
    /// (300 frames, 10 s, copied pictures bit-identical to the source's, re-encoded ones ≥ 40 dB from the render).
    /// - Returns: the export's smart render report.
    static func exportThreeCuts(_ track: AssetTrack, output: URL) async throws -> SmartRenderReport {
        let (session, composition, videoComposition) = try Self.session(
            track, pieces: SmartRenderEdit.threeCuts, title: SmartRenderEdit.middleTitle, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(try SmartRenderParameterSetTests.sampleEntry(of: output) == "hev1")
        try await SmartRenderEdit.check(
            output, report: report, frameCount: 300, duration: MediaTime(seconds: 10), composition: composition,
            videoComposition: videoComposition
        ) { k in (track.assetURL, SmartRenderEdit.threeCutsSourceFrame(k)) }
        return report
    }

    /// x265 for a Main, level 2.0 source: 40 grey frames, key frames every 30, all IDR pictures with VPS, SPS and PPS
    /// in-band, no B-frames, the SPS stating Main and level 2.0 (`general_level_idc` 60).
    @Test func x265WritesMatchedInBandParameterSets() throws {
        let size = Size(width: 320, height: 240)
        let video = VideoPlan(
            renderSize: size, outputSize: size, frameDuration: Self.frame, duration: MediaTime(seconds: 2), tracks: [],
            instructions: [])
        let source = JoinableStreamParameters(codec: .hevc, profile: 1, level: 60, parameterSetIDs: [0])
        #expect(SmartRenderEncoding.mismatch(source, video: video) == nil)
        let main10 = JoinableStreamParameters(codec: .hevc, profile: 2, level: 60, parameterSetIDs: [0])
        #expect(SmartRenderEncoding.mismatch(main10, video: video) == "HEVC profile Main 10 does not match the output's 8-bit canvas")
        var settings = VideoSettings(codec: .hevc, encoderPreset: "veryfast")
        settings.keyFrameInterval = 30
        let configuration = settings.encoderConfiguration(
            for: video, clock: EncoderClock(video), fileType: .mp4, joining: source)
        let encoder = try Encoder(configuration: configuration)
        try encoder.open()
        let frame = try Frame()
        let packet = try Packet()
        var packets: [(pts: Int64, key: Bool, data: [UInt8])] = []
        func drain() throws {
            while try encoder.receive(into: packet) == .packet {
                packets.append((packet.presentationTimestamp ?? -1, packet.isKeyFrame, packet.data))
                packet.unref()
            }
        }
        for index in 0..<40 {
            try frame.allocatePicture(width: 320, height: 240, pixelFormat: AV_PIX_FMT_YUV420P)
            for plane in 0..<3 {
                if let data = frame.plane(plane) { memset(data, 128, frame.bytesPerRow(ofPlane: plane) * (plane == 0 ? 240 : 120)) }
            }
            frame.pts = Int64(index)
            _ = try encoder.send(frame)
            frame.unref()
            try drain()
        }
        _ = try encoder.send(nil)
        try drain()
        #expect(packets.map(\.pts) == (0..<40).map(Int64.init), "no B-frames: decoding order is presentation order")
        #expect(packets.map(\.key) == (0..<40).map { $0 % 30 == 0 })
        for packet in packets where packet.key {
            let types = GroupOfPicturesScan.nalUnitTypes(packet.data, lengthSize: nil, codec: .hevc)
            #expect([32, 33, 34].allSatisfy(types.contains), "VPS, SPS, PPS in-band: \(types)")
            #expect(GroupOfPicturesScan.containsIDR(packet.data, lengthSize: nil, codec: .hevc), "\(types)")
            let units = SmartRenderEncodingTests.nalUnits(packet.data)
            let sps = Self.removingEmulationPrevention(try #require(units.first { ($0[0] >> 1) & 0x3F == 33 }))
            // NAL header (2), VPS id / sub-layers / nesting (1), then profile_tier_level: tier and profile (1),
            // compatibility flags (4), constraint flags (6), general_level_idc (1).
            #expect(sps[3] & 0x1F == 1, "general_profile_idc Main")
            #expect(sps[14] == 60, "general_level_idc")
        }
    }

    /// An RBSP from a NAL unit: every 0x03 after two zero bytes dropped (H.265 §7.4.2).
    static func removingEmulationPrevention(_ unit: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var zeros = 0
        for byte in unit {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            bytes.append(byte)
        }
        return bytes
    }
}
