import Composition

/// The FFmpeg filters that play a freeze frame's room tone (``FreezeFrameSound/roomTone``, whose discussion is the
/// definition): which source samples are read and the graph that loops them. Every count is on the source's own
/// sample grid (`rate` samples per second, sample 0 at source time 0, as ``AudioSegmentStream`` counts them).
///
/// The graph (`S` span start, `L` span length, `C` seam, `N` hold length, `E = min(C, N)`, `t` the held sample):
/// `asplit` the trimmed source; `acrossfade=ns=C:c1=qsin:c2=qsin` of `x[S+C, S+L)` into `x[S, S+C)` makes one loop
/// period (`L − C` samples, the seam crossfaded), `aloop=loop=-1` repeats it after the head `x[S, S+C)` (`concat`),
/// `atrim=end_sample=N` cuts the hold, and a last `acrossfade=ns=E` ends it on `x[t−E, t)` when the track has those
/// samples. A part of a hold (an export range starting inside it) is the whole hold's samples `[skip, skip + count)`.
struct RoomToneLoop: Hashable, Sendable {
    /// The first source sample read (the trim's start).
    let firstSample: Int64
    /// The source sample after the last one read (the trim's end).
    let lastSample: Int64
    /// The span looped, relative to `firstSample`: `[spanStart, spanStart + spanLength)`.
    let spanStart: Int64
    let spanLength: Int64
    /// Samples in each seam crossfade.
    let seam: Int64
    /// Samples of the whole hold.
    let holdLength: Int64
    /// Samples of the closing crossfade into the sound before the held frame; 0 when the track has none.
    let endFade: Int64
    /// The part of the hold played: samples `[skip, skip + count)` of the whole hold.
    let skip: Int64
    let count: Int64

    /// The loop of `track`'s sound for a hold of source time `held` over `whole` (composition time), of which the
    /// part `part` is played; nil when the track has less than ``FreezeFrameSound/minimumRoomToneSpan`` of sound.
    init?(held: MediaTime, trackRange: TimeRange, whole: TimeRange, part: TimeRange, rate: Int) {
        let grid = AudioOutputFormat(sampleRate: rate, channelCount: 1)
        let trackStart = grid.sampleIndex(of: trackRange.start)
        let trackEnd = grid.sampleIndex(of: trackRange.end)
        guard trackEnd - trackStart >= grid.sampleIndex(of: FreezeFrameSound.minimumRoomToneSpan) else { return nil }
        let length = min(grid.sampleIndex(of: FreezeFrameSound.roomToneSpan), trackEnd - trackStart)
        let t = min(max(grid.sampleIndex(of: held), trackStart), trackEnd)
        let start = max(trackStart, min(t, trackEnd - length))
        seam = grid.sampleIndex(of: FreezeFrameSound.roomToneSeam)
        holdLength = grid.sampleIndex(of: whole.end) - grid.sampleIndex(of: whole.start)
        let fade = min(seam, holdLength)
        endFade = t - fade >= trackStart && fade > 0 ? fade : 0
        firstSample = min(start, t - endFade)
        lastSample = max(start + length, t)
        spanStart = start - firstSample
        spanLength = length
        skip = grid.sampleIndex(of: part.start) - grid.sampleIndex(of: whole.start)
        count = grid.sampleIndex(of: part.end) - grid.sampleIndex(of: whole.start) - skip
        heldOffset = t - firstSample
    }

    /// The held sample, relative to `firstSample`.
    private let heldOffset: Int64

    /// The filter graph from `trimmed` (a chain whose output is the source samples `[firstSample, lastSample)` with
    /// timestamps from 0) to an unterminated chain ending in the hold's part, for the caller to continue with `,`.
    func graph(after trimmed: String) -> String {
        let fade = "c1=qsin:c2=qsin"
        var parts = [
            "\(trimmed),asplit=\(endFade > 0 ? 4 : 3)[rtHead][rtBody][rtSeam]\(endFade > 0 ? "[rtTail]" : "")",
            "[rtHead]\(Self.trim(spanStart, spanStart + seam))[rtH]",
            "[rtBody]\(Self.trim(spanStart + seam, spanStart + spanLength))[rtB]",
            "[rtSeam]\(Self.trim(spanStart, spanStart + seam))[rtS]",
            "[rtB][rtS]acrossfade=ns=\(seam):\(fade),aloop=loop=-1:size=\(spanLength - seam)[rtL]",
        ]
        let looped = "[rtH][rtL]concat=n=2:v=0:a=1,atrim=end_sample=\(holdLength)"
        if endFade > 0 {
            parts.append("[rtTail]\(Self.trim(heldOffset - endFade, heldOffset))[rtT]")
            parts.append("\(looped)[rtN]")
            parts.append("[rtN][rtT]acrossfade=ns=\(endFade):\(fade),\(Self.trim(skip, skip + count))")
        } else {
            parts.append("\(looped),\(Self.trim(skip, skip + count))")
        }
        return parts.joined(separator: ";")
    }

    /// `atrim` by sample counts, timestamps restarted at 0.
    private static func trim(_ start: Int64, _ end: Int64) -> String {
        "atrim=start_sample=\(start):end_sample=\(end),asetpts=PTS-STARTPTS"
    }
}
