import Foundation
import SpliceFFmpeg
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// Smart rendering with copied groups from sources whose parameter sets differ (two H.264 clips encoded with
/// different x264 settings, so their `avcC` records differ): each copied piece sends its source's SPS/PPS in-band at
/// its first IDR picture (a new coded video sequence, where the standard lets the same id carry new content), the
/// sample entry is `avc3`. Checked with Splice's decoder (the verifier) and `ffmpeg -v error`, picture by picture.
@Suite("Smart rendering: sources with different parameter sets")
struct SmartRenderParameterSetTests {
    static let frame = MediaTime(value: 1, timescale: 30)

    /// 6 s at 320 × 240, 30 fps, closed 1 s groups, in `scratch`: "a" High profile (x264 veryfast, three B-frames
    /// in a pyramid), "b" Main profile (no 8×8 transform, one B-frame, one reference) with another picture.
    static func sources(in scratch: ScratchDirectory) throws -> (URL, URL) {
        let a = try SmartRenderEdit.source(.h264, openGOP: false, seconds: 6, named: "a.mov", in: scratch)
        let b = scratch.file("b.mov")
        try SyntheticMedia.write(
            video: "testsrc=s=320x240:r=30", audio: nil, duration: MediaTime(seconds: 6), pixelFormat: .yuv420p,
            videoCodec: .h264(x264Parameters: "keyint=30:min-keyint=30:scenecut=0:bframes=1:8x8dct=0:ref=1:open-gop=0"),
            to: b)
        return (a, b)
    }

    /// The decoder configuration records of the two sources differ (what this suite is about).
    @Test func theTwoSourcesHaveDifferentDecoderConfigurations() async throws {
        let scratch = try ScratchDirectory("smart-ps-records")
        defer { scratch.remove() }
        let (a, b) = try Self.sources(in: scratch)
        let trackA = try #require(try await Asset.load(from: a).tracks(withMediaType: .video).first)
        let trackB = try #require(try await Asset.load(from: b).tracks(withMediaType: .video).first)
        let recordA = try ExportPlan.decoderConfiguration(of: trackA, cancellation: CancellationFlag())
        let recordB = try ExportPlan.decoderConfiguration(of: trackB, cancellation: CancellationFlag())
        #expect(recordA != recordB)
        let setsA = try #require(SmartRenderParameterSets(decoderConfiguration: recordA, codec: .h264))
        #expect(setsA.units.map { $0[0] & 0x1F } == [7, 8], "one SPS, one PPS")
        #expect(JoinableStreamParameters(avcC: recordA)?.profile == 100)
        #expect(JoinableStreamParameters(avcC: recordB)?.profile == 77)
        // Length-prefixed as MP4 samples hold them: the prefix is each unit's length.
        let prefixed = setsA.lengthPrefixed
        #expect(GroupOfPicturesScan.nalUnitTypes(prefixed, lengthSize: 4) == [7, 8])
        #expect(prefixed.count == setsA.units.reduce(0) { $0 + 4 + $1.count })
    }

    /// A copied piece's sets go after an access unit delimiter (it must stay first), else in front.
    @Test func parameterSetsFollowAnAccessUnitDelimiter() throws {
        let sets = try #require(SmartRenderParameterSets(
            decoderConfiguration: [1, 100, 0, 13, 0xFF, 0xE1, 0, 3, 0x67, 0x64, 0x0D, 1, 0, 2, 0x68, 0xEE], codec: .h264))
        #expect(sets.units == [[0x67, 0x64, 0x0D], [0x68, 0xEE]])
        let delimited: [UInt8] = [0, 0, 0, 2, 0x09, 0xF0, 0, 0, 0, 2, 0x65, 0x88]  // AUD, IDR slice
        let packet = try Packet()
        try packet.prepend(delimited)
        try packet.insert(sets.lengthPrefixed, at: sets.insertionOffset(in: delimited, codec: .h264))
        #expect(GroupOfPicturesScan.nalUnitTypes(packet.data, lengthSize: 4) == [9, 7, 8, 5])
        let bare: [UInt8] = [0, 0, 0, 2, 0x65, 0x88]
        #expect(sets.insertionOffset(in: bare, codec: .h264) == 0)
        let hevcDelimited: [UInt8] = [0, 0, 0, 3, 0x46, 0x01, 0x10, 0, 0, 0, 2, 0x26, 0x01]  // AUD (35), IDR_W_RADL
        #expect(sets.insertionOffset(in: hevcDelimited, codec: .hevc) == 7)
    }

    /// a 0–2 s, b 1–3 s, a 3.5–5 s: groups from both sources copied into one stream (a's two, b's two, a's group at
    /// 4 s), the half group at the last cut re-encoded; every copied picture equals its source's, every re-encoded
    /// one ≥ 40 dB from the composition's render; 165 frames, 5.5 s exactly; ffmpeg decodes it without a message (MOV).
    @Test func groupsFromTwoSourcesAreCopiedIntoOneStream() async throws {
        let scratch = try ScratchDirectory("smart-ps-join")
        defer { scratch.remove() }
        let (a, b) = try Self.sources(in: scratch)
        let trackA = try #require(try await Asset.load(from: a).tracks(withMediaType: .video).first)
        let trackB = try #require(try await Asset.load(from: b).tracks(withMediaType: .video).first)
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value, preferredTimescale: 30) }
        try composition.insertTimeRange(TimeRange(start: .zero, end: seconds(2)), of: trackA, at: .zero, intoTrackWithID: id)
        try composition.insertTimeRange(TimeRange(start: seconds(1), end: seconds(3)), of: trackB, at: seconds(2), intoTrackWithID: id)
        try composition.insertTimeRange(TimeRange(start: seconds(3.5), end: seconds(5)), of: trackA, at: seconds(4), intoTrackWithID: id)
        let videoComposition = MutableVideoComposition(propertiesOf: composition)
        let output = scratch.file("joined.mov")  // MOV here, MP4 in the HEVC suite
        let session = AssetExportSession(
            asset: composition,
            settings: ExportSettings(video: VideoSettings(rateControl: .constantQuality(12), encoderPreset: "veryfast"), audio: nil))
        session.outputURL = output
        session.videoComposition = videoComposition
        session.smartRendering = true
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(SmartRenderPlannerTests.summary(report.spans) == [
            "copy 0.0–2.0 s ×2", "copy 2.0–4.0 s ×2",
            "re-encode 4.0–4.5 s: partial group of pictures at the cut at 4.000 s", "copy 4.5–5.5 s ×1",
        ], "\(report)")
        #expect(report.copiedGroupCount == 5)
        #expect(try Self.sampleEntry(of: output) == "avc3")
        try await SmartRenderEdit.check(
            output, report: report, frameCount: 165, duration: MediaTime(value: 11, timescale: 2),
            composition: composition, videoComposition: videoComposition
        ) { k in k < 60 ? (a, k) : k < 120 ? (b, k - 30) : (a, k - 15) }
    }

    /// The four-character code of the first video sample entry in an MP4/MOV file (`avc1`, `avc3`, `hvc1`, `hev1`).
    static func sampleEntry(of url: URL) throws -> String? {
        let data = try [UInt8](BinaryFile.read(url))
        let codes = ["avc1", "avc3", "hvc1", "hev1"].map { ($0, Array($0.utf8)) }
        guard let stsd = data.indices.dropLast(8).first(where: { data[$0..<($0 + 4)] == [0x73, 0x74, 0x73, 0x64][...] }) else {
            return nil
        }
        // stsd: type, version/flags (4), entry count (4), then the first entry's size (4) and type.
        let entry = Array(data[(stsd + 16)..<min(stsd + 20, data.count)])
        return codes.first { $0.1 == entry }?.0
    }
}
