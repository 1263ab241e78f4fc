import AudioMix
import Composition
import Export
import Foundation

extension AssetExportSession {
    /// The name start of the measuring pass's work folders beside the output (`.splice-loudness-UUID`).
    package static let loudnessWorkFolderPrefix = ".splice-loudness"

    /// Exports with the audio mix normalised to `loudness`, in two passes: the session's mix is rendered once, audio
    /// only, through the export's own audio path (same composition, audio mix, time range, sample rate and channels)
    /// into a lossless PCM file in a hidden folder beside ``AssetExportSession/outputURL`` (`.splice-loudness-UUID`),
    /// and measured with ``LoudnessMeter``; then the session exports as ``AssetExportSession/export()`` does with its
    /// ``AssetExportSession/audioMix`` scaled by one linear gain (``MutableAudioMix/scaled(by:for:)``), so the
    /// output's integrated loudness is the target and its dynamics are the mix's own — unless the gain would lift the
    /// true peak over the ceiling and ``LoudnessNormalization/usesTruePeakLimiter`` is set: then, and only then, the
    /// export's true-peak limiter holds the peaks ``LoudnessNormalization/limiterHeadroom`` dB under the ceiling. The
    /// measuring folder is removed whatever happens; if the process is killed before it can remove it, the next
    /// loudness export into the same folder does: the folder is locked (`flock(2)`) while its process lives, and
    /// folders nobody holds are removed.
    ///
    /// The session's ``AssetExportSession/audioMix`` is left set to the scaled mix.
    ///
    /// - Returns: the measured mix and the gain applied.
    /// - Throws: ``LoudnessError/targetOutOfRange(_:)`` or ``LoudnessError/ceilingOutOfRange(_:)`` before anything
    ///   is rendered; ``LoudnessError/exportHasNoAudioEncoding(_:)`` for passthrough or video-only settings or a
    ///   composition without audio; ``LoudnessError/silentProgramme(integratedLoudness:)`` and
    ///   ``LoudnessError/truePeakAboveCeiling(truePeak:gain:ceiling:)`` or ``LoudnessError/limiterUnavailable(_:)``
    ///   after the measurement (nothing written);
    ///   the errors of ``AssetExportSession/export()``; `CancellationError`.
    @discardableResult
    public func export(normalizingLoudness loudness: LoudnessNormalization) async throws -> LoudnessNormalizationReport {
        try loudness.validate()
        guard let settings else { throw LoudnessError.exportHasNoAudioEncoding("a passthrough export copies the sound as it is") }
        guard let audio = settings.audio else { throw LoudnessError.exportHasNoAudioEncoding("the settings export video only") }
        guard !asset.tracks(withMediaType: .audio).isEmpty else {
            throw LoudnessError.exportHasNoAudioEncoding("the composition has no audio track")
        }
        try await validate()  // the final export's own checks (output location, settings, models) before rendering

        // Beside the output (the caller chose that file system for a file of this length), hidden; locked while
        // this process lives, so the next loudness export into that folder removes it if this one is killed.
        let place = outputURL?.deletingLastPathComponent() ?? FileManager.default.temporaryDirectory
        let folder = try WorkFolder(in: place, prefix: Self.loudnessWorkFolderPrefix)
        defer { folder.remove() }
        let mixFile = folder.url.appendingPathComponent("mix.mkv")
        let measuring = AssetExportSession(
            asset: asset,
            settings: ExportSettings(video: nil, audio: AudioSettings(codec: .pcm, sampleRate: audio.sampleRate, channelCount: audio.channelCount)))
        measuring.outputURL = mixFile
        measuring.outputFileType = .mkv
        measuring.audioMix = audioMix
        measuring.timeRange = timeRange
        try await exportAsPart(measuring)  // cancelExport() stops the measuring pass too
        let measured = try await LoudnessMeter.measure(mixFile)
        let (gain, needsLimiter) = try loudness.gain(for: measured)
        var limit: Double?
        if needsLimiter {
            guard !smartRendering, (concurrentSegments ?? 1) == 1 else {
                throw LoudnessError.limiterUnavailable("smart rendering and concurrent segments render the sound apart from the mix's last stage")
            }
            limit = loudness.truePeakCeiling - LoudnessNormalization.limiterHeadroom
            truePeakLimit = limit
        }

        audioMix = (audioMix ?? MutableAudioMix()).scaled(by: pow(10, gain / 20), for: asset)
        try await export()
        return LoudnessNormalizationReport(measured: measured, gain: gain, limiterLimit: limit)
    }
}
