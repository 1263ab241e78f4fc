import AudioMix
import Composition

/// Decides whether smart rendering copies an export's audio (the source's AAC packets) or re-encodes it, from the
/// audio plan and the audio mix alone: plain data in, plain data out, no file opened.
///
/// A stretch of the output audio is untouched when exactly one audio track plays there, from one segment of an AAC
/// source at speed 1 with no time effect, volume exactly 1 (audio mix and preferred volume) and no crossfade, and the
/// source matches the output (AAC into AAC, the output's sample rate and channel count, source samples on the output's
/// sample grid, the source's audio lasting the whole segment). The track is copied only when one untouched span
/// covers all of it (see ``SmartRenderAudioReport`` for why); otherwise every span is re-encoded, untouched ones with
/// ``SmartRenderAudioReason/reencodedWithTheTrack(because:)``. The AAC profile is checked by the copier, which
/// opens the file (``SmartRenderAudioCopier/mismatch(_:format:)``).
struct SmartRenderAudioPlanner {
    let audio: AudioPlan
    let settings: AudioSettings
    /// The export's audio mix (volume ramps), if any.
    let mix: MutableAudioMix?
    /// Composition time of output time 0 (the export range's start): the mix's keyframes are in composition time.
    let rangeStart: MediaTime

    /// What to copy: the whole audio track from one source.
    struct Copy: Sendable, Hashable {
        var source: AssetTrack
        /// The source time at output time 0 (on the output's sample grid).
        var sourceStart: MediaTime
        /// Output samples: the audio's duration on the output grid.
        var sampleCount: Int64
        /// Output samples per second (the source's rate too).
        var sampleRate: Int
    }

    /// The plan: the report and, when the whole track is copied, what to copy.
    struct Plan: Sendable {
        var report: SmartRenderAudioReport
        var copy: Copy?
    }

    func plan() -> Plan {
        let duration = audio.duration
        let whole = TimeRange(start: .zero, duration: duration)
        guard duration > .zero else { return Plan(report: SmartRenderAudioReport(spans: []), copy: nil) }
        if settings.codec != .aac {
            let reason = SmartRenderAudioReason.notSupported("the output codec is \(settings.codec.rawValue); only AAC is copied")
            return Plan(report: SmartRenderAudioReport(spans: [.init(timeRange: whole, action: .reencode, reason: reason)]), copy: nil)
        }
        let playing = audio.tracks.filter { $0.segments.contains { $0.source != nil } }
        guard playing.count == 1, let track = playing.first else {
            let reason: SmartRenderAudioReason = playing.isEmpty ? .silence : .multipleTracks
            return Plan(report: SmartRenderAudioReport(spans: [.init(timeRange: whole, action: .reencode, reason: reason)]), copy: nil)
        }
        var spans: [(range: TimeRange, reason: SmartRenderAudioReason?)] = []
        var candidate: Copy?
        /// Adds a span, merged into the previous one when the reason is the same, or when both are untouched and
        /// the source simply continues (`continues`: the same source stream at the same offset, no real cut).
        func append(_ range: TimeRange, _ reason: SmartRenderAudioReason?, continues: Bool = false) {
            guard range.duration > .zero else { return }
            if let last = spans.last, last.reason == reason, reason != nil || continues, last.range.end == range.start {
                spans[spans.count - 1].range = TimeRange(start: last.range.start, end: range.end)
            } else {
                spans.append((range, reason))
            }
        }
        var cursor = MediaTime.zero
        for segment in track.segments {
            let target = segment.mapping.target.intersection(whole)
            guard target.duration > .zero else { continue }
            if target.start > cursor { append(TimeRange(start: cursor, end: target.start), .silence) }
            let reason = check(segment, target: target, trackID: track.trackID)
            var continues = false
            if reason == nil, let source = segment.source {
                let copy = Copy(source: source, sourceStart: segment.mapping.source.start - segment.mapping.target.start,
                                sampleCount: audio.sampleCount, sampleRate: audio.format.sampleRate)
                continues = candidate.map { $0.source.sourceStreamKey == source.sourceStreamKey && $0.sourceStart == copy.sourceStart } ?? false
                if candidate == nil || continues { candidate = copy }
            }
            append(target, reason, continues: continues)
            cursor = max(cursor, target.end)
        }
        if cursor < duration { append(TimeRange(start: cursor, end: duration), .silence) }

        if spans.count == 1, spans[0].reason == nil, let candidate {
            return Plan(report: SmartRenderAudioReport(spans: [.init(timeRange: whole, action: .copy, reason: nil)]), copy: candidate)
        }
        var because = "a cut between two untouched segments at \(PassthroughPlan.display(spans.dropFirst().first?.range.start ?? .zero))"
        if let first = spans.first(where: { $0.reason != nil }), let reason = first.reason {
            because = "from \(PassthroughPlan.display(first.range.start)): \(reason)"
        }
        return Plan(report: SmartRenderAudioReport(spans: spans.map {
            .init(timeRange: $0.range, action: .reencode, reason: $0.reason ?? .reencodedWithTheTrack(because: because))
        }), copy: nil)
    }

    /// The first reason the segment's output range `target` cannot be copied, or nil.
    private func check(_ segment: RenderSegment, target: TimeRange, trackID: Int32) -> SmartRenderAudioReason? {
        guard let source = segment.source else { return .silence }
        if segment.effect != nil || segment.mapping.source.duration != segment.mapping.target.duration { return .speed }
        if let volume = volumeReason(target, trackID: trackID) { return volume }
        if let windows = audio.crossfades[trackID] {
            let rate = Int32(audio.format.sampleRate)
            let first = audio.format.sampleIndex(of: target.start), count = audio.format.sampleIndex(of: target.end) - first
            if let window = windows.first(where: { $0.overlaps(start: first, count: Int(count)) }) {
                return .crossfade(TimeRange(start: MediaTime(value: window.firstSample, timescale: rate),
                                            duration: MediaTime(value: window.sampleCount, timescale: rate)))
            }
        }
        guard source.codecName == "aac", let format = source.audio else {
            return .formatMismatch("the source is \(source.codecName), the output AAC")
        }
        if format.sampleRate != audio.format.sampleRate {
            return .formatMismatch("the source has \(format.sampleRate) Hz, the output \(audio.format.sampleRate) Hz")
        }
        if format.channelCount != audio.format.channelCount {
            return .formatMismatch("the source has \(format.channelCount) channels, the output \(audio.format.channelCount)")
        }
        let shift = segment.mapping.source.start - segment.mapping.target.start
        if shift.convertScale(Int32(format.sampleRate)) != shift {
            return .formatMismatch("the segment starts between two of the source's samples")
        }
        let needed = segment.mapping.source.start + (target.end - segment.mapping.target.start)
        if source.timeRange.end < needed || source.timeRange.start > segment.mapping.source.start + (target.start - segment.mapping.target.start) {
            return .formatMismatch(
                "the source's audio covers \(PassthroughPlan.display(source.timeRange.start))–"
                    + "\(PassthroughPlan.display(source.timeRange.end)), not the whole segment (silence is added)")
        }
        return nil
    }

    /// Why the volume of track `trackID` over output range `target` is not exactly 1, or nil when it is.
    private func volumeReason(_ target: TimeRange, trackID: Int32) -> SmartRenderAudioReason? {
        guard let gain = audio.gains[trackID] else { return nil }
        // The gains take output time; the mix's keyframes are in composition time (output + the range's start).
        if let parameters = mix?.inputParameters(forTrackID: trackID) {
            let shift = rangeStart
            for piece in parameters.volumeSegments(in: TimeRange(start: target.start + shift, duration: target.duration))
            where !(piece.isConstant && piece.startValue == 1) {
                return .volume(TimeRange(start: piece.timeRange.start - shift, duration: piece.timeRange.duration))
            }
        }
        return gain(target.start) == 1 ? nil : .volume(target)
    }
}
