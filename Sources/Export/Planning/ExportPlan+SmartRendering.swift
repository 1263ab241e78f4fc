import SpliceFFmpeg
import Composition

extension ExportPlan {
    /// What smart rendering would copy and re-encode in this export's video, and why (``SmartRenderReport``).
    ///
    /// Reads each H.264 source stream on screen once by packets (``GroupOfPicturesScan``), then plans the spans
    /// (``SmartRenderPlanner``). Writing copied packets and re-encoded pieces into one stream is not implemented yet,
    /// so the export re-encodes the whole video and the report's ``SmartRenderReport/fallback`` says so; when no span
    /// can be copied, the fallback is the first span's reason. Runs on the calling (worker) thread.
    /// - Returns: nil when the export has no video.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func smartRenderReport(cancellation: CancellationFlag) throws -> SmartRenderReport? {
        guard let video, let codec = settings.video?.codec else { return nil }
        var sources: [String: SmartRenderSource] = [:]
        for track in video.tracks {
            for segment in track.segments {
                guard let source = segment.source, source.codecName == "h264", sources[source.sourceStreamKey] == nil
                else { continue }
                if let scanned = try GroupOfPicturesScan.scan(source, cancellation: cancellation) {
                    sources[source.sourceStreamKey] = scanned
                }
            }
        }
        let spans = SmartRenderPlanner(video: video, outputCodec: codec, sources: sources).plan().map(\.span)
        let fallback: SmartRenderReason
        if spans.contains(where: { $0.action == .copy }) {
            fallback = .notSupported(
                "writing copied and re-encoded pieces into one H.264 stream is not supported yet")
        } else {
            fallback = spans.first?.reason ?? .noSource
        }
        return SmartRenderReport(spans: spans, fallback: fallback)
    }
}
