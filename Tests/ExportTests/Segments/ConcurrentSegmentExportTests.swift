import Foundation
import Testing
@testable import Export
import Splice
import SpliceFFmpeg
import SpliceTestSupport
internal import CMedia

/// ``AssetExportSession/concurrentSegments``: the canonical edit (8 s at 30 fps = 240 frames) exported as 2 and 3
/// segments rendered at once and joined, against the ordinary export (FFV1, lossless: bit-identical), plus
/// cancellation and the settings it refuses.
@Suite("Concurrent segment export", .serialized)
struct ConcurrentSegmentExportTests {
    static func session(_ export: SegmentedExport, to url: URL, segments: Int?) -> AssetExportSession {
        let session = AssetExportSession(asset: export.composition, settings: export.settings)
        session.videoComposition = export.videoComposition
        session.audioMix = export.audioMix
        session.outputURL = url
        session.concurrentSegments = segments
        return session
    }

    static func lossless() async throws -> SegmentedExport {
        try await SegmentedExportTests.loadExport(ExportSettings(video: VideoSettings(codec: .ffv1), audio: AudioSettings()))
    }

    /// Names in `directory` starting with a dot: temporary files or a parts directory left behind.
    static func hiddenEntries(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
    }

    @Test func twoAndThreeConcurrentSegmentsAreBitIdenticalToTheOrdinaryExport() async throws {
        let scratch = try ScratchDirectory("concurrent-segments")
        defer { scratch.remove() }
        let export = try await Self.lossless()
        let single = scratch.file("single.mov")
        try await Self.session(export, to: single, segments: nil).export()
        let singleVideo = try SegmentedExportTests.packets(of: single, type: AVMEDIA_TYPE_VIDEO)
        let singleAudio = try SegmentedExportTests.packets(of: single, type: AVMEDIA_TYPE_AUDIO)
        #expect(singleVideo.count == 240)
        #expect(!singleAudio.isEmpty)

        for count in [2, 3] {
            let output = scratch.file("concurrent\(count).mov")
            let session = Self.session(export, to: output, segments: count)
            // The segment path really runs: while rendering, the session holds one part session per segment + audio.
            async let partsSeen = whenProgress(of: session, passes: 0.05, timeout: 300) { session.state.withLock { $0.parts.count } }
            try await session.export()
            #expect(await partsSeen == count + 1)
            #expect(session.status == .completed)
            #expect(session.progress == 1)
            let video = try SegmentedExportTests.packets(of: output, type: AVMEDIA_TYPE_VIDEO)
            #expect(video.count == 240)
            #expect(video.map(\.data) == singleVideo.map(\.data), "\(count) segments: the pictures differ from the ordinary export")
            for (k, packet) in video.enumerated() { #expect(abs(packet.time - Double(k) / 30) < 1e-6, "frame \(k) at \(packet.time) s") }
            #expect(try SegmentedExportTests.packets(of: output, type: AVMEDIA_TYPE_AUDIO).map(\.data) == singleAudio.map(\.data))
            let asset = try await Asset.load(from: output)
            #expect(asset.tracks(withMediaType: .video).first?.timeRange.duration == MediaTime(seconds: 8))
            #expect(try Self.hiddenEntries(scratch.url) == [], "\(count) segments left parts behind")
        }
    }

    @Test func cancellingMidWayLeavesNoFileAndNoPart() async throws {
        let scratch = try ScratchDirectory("concurrent-segments-cancel")
        defer { scratch.remove() }
        let export = try await Self.lossless()
        let output = scratch.file("cancelled.mov")
        let session = Self.session(export, to: output, segments: 3)
        async let cancelledAt = whenProgress(of: session, passes: 0.3, timeout: 300) {
            let parts = session.state.withLock { $0.parts }
            session.cancelExport()
            return parts
        }
        await #expect(throws: CancellationError.self) { try await session.export() }
        let parts = await cancelledAt
        #expect(parts?.count == 4, "the export never passed 30 % (or ended) before the cancel, or did not run 3 parts + audio")
        // Every part stopped as cancelled, or had already completed before the cancel reached it.
        for part in parts ?? [] { #expect([.cancelled, .completed].contains(part.status), "a part ended \(part.status)") }
        #expect(parts?.contains { $0.status == .cancelled } == true)
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try Self.hiddenEntries(scratch.url) == [], "parts or a temporary file were left behind")
    }

    @Test func theDocumentFieldSetsTheSession() async throws {
        var loaded = try await CompositionDocument.load(from: SegmentedExportTests.document)
        #expect(loaded.makeExportSession(outputURL: URL(fileURLWithPath: "/tmp/x.mp4")).concurrentSegments == nil)
        loaded.export = try JSONDecoder().decode(DocumentExport.self, from: Data(#"{"concurrentSegments": 3}"#.utf8))
        #expect(loaded.makeExportSession(outputURL: URL(fileURLWithPath: "/tmp/x.mp4")).concurrentSegments == 3)
    }

    @Test func refusedCombinationsAreTypedErrorsBeforeAnythingIsWritten() async throws {
        let scratch = try ScratchDirectory("concurrent-segments-refused")
        defer { scratch.remove() }
        let export = try await Self.lossless()
        let output = scratch.file("refused.mov")
        let withLimit = Self.session(export, to: output, segments: 2)
        withLimit.fileLengthLimit = 1_000_000
        do {
            try await withLimit.export()
            Issue.record("concurrentSegments with fileLengthLimit exported")
        } catch ExportError.unsupportedSettings(let reason) {
            #expect(reason.contains("fileLengthLimit"))
        }
        let zero = Self.session(export, to: output, segments: 0)
        do {
            try await zero.export()
            Issue.record("concurrentSegments 0 exported")
        } catch ExportError.unsupportedSettings(let reason) {
            #expect(reason.contains("at least 1"))
        }
        // validate() makes the same refusal, before anything is opened.
        let smart = Self.session(export, to: output, segments: 2)
        smart.smartRendering = true
        do {
            try await smart.validate()
            Issue.record("concurrentSegments with smartRendering validated")
        } catch ExportError.unsupportedSettings(let reason) {
            #expect(reason == "concurrentSegments 2 cannot be combined with smartRendering; set one of them only")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
    }
}
