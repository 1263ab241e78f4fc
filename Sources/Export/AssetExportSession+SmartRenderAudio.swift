import Foundation
import Composition
import SpliceFFmpeg

extension AssetExportSession {
    /// Writes a smart render's audio into `directory` as an audio-only file of the export's type: the source's AAC
    /// packets when ``SmartRenderAudioPlanner`` finds the whole track untouched and the source's stream matches
    /// (``SmartRenderAudioCopier``), else the composition's audio rendered and encoded as by an ordinary export
    /// (the same samples, the same encoder). Puts the audio's spans in ``smartRenderReport``. Reports no progress
    /// of its own: it runs beside the video pieces, which do.
    /// - Returns: the file, nil when the export has no audio.
    /// - Throws: the errors of ``export()``; `CancellationError`.
    func writeSmartAudio(_ plan: ExportPlan, directory: URL) async throws -> URL? {
        guard let audio = plan.audio, let audioSettings = plan.settings.audio else { return nil }
        let url = directory.appendingPathComponent("audio.\(plan.fileType.rawValue)")
        let request = self.request.withLock { $0 }
        let planned = SmartRenderAudioPlanner(
            audio: audio, settings: audioSettings, mix: request.audioMix, rangeStart: request.timeRange.start).plan()
        var report = planned.report
        if let copy = planned.copy {
            let cancellation = self.cancellation
            let output = plan.outputURL, fileType = plan.fileType
            let mismatch = try await WorkerThread.run(name: "splice.smart-audio") { () -> String? in
                let copier = SmartRenderAudioCopier(copy: copy, fileType: fileType, outputURL: output, cancellation: cancellation)
                let stream = try copier.openSource()
                if let mismatch = SmartRenderAudioCopier.mismatch(stream, format: audio.format) { return mismatch }
                try copier.run(source: stream, path: url.path)
                return nil
            }
            if mismatch == nil {
                state.withLock { $0.smartRenderReport?.audio = report }
                return url
            }
            report.spans = report.spans.map {
                SmartRenderAudioReport.Span(timeRange: $0.timeRange, action: .reencode, reason: mismatch.map { .formatMismatch($0) })
            }
        }
        state.withLock { $0.smartRenderReport?.audio = report }
        // As the ordinary export's audio: the same range, so the same samples.
        try await renderPart(ExportSettings(video: nil, audio: audioSettings), range: request.timeRange, to: url,
                             fileType: plan.fileType, piece: nil, progress: nil)
        return url
    }
}
