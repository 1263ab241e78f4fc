import Foundation
import SpliceTesting
import Testing
import Splice
import SpliceTestSupport

/// A freeze frame with room tone (``FreezeFrameSound/roomTone``): a clip cut at 1 s, source frame 30 held for
/// 2.5 s, the clip continued from 1 s. The source sound is band-limited noise (white noise through a 2 kHz
/// low-pass: steady level per 100 ms, and smooth enough that a seam without a crossfade is a visible jump).
/// Lossless output (FFV1 + PCM), so the held sound is compared sample by sample with ``FreezeFrameSound``'s
/// definition rebuilt here from the source's own samples.
@Suite("Freeze frame with room tone (export)")
struct FreezeRoomToneTests {
    static let rate = 48_000
    /// The held frame's sample, the span's length, the seam and the hold, in samples (48 kHz).
    static let held = 48_000, span = 48_000, seam = 2_400, hold = 120_000

    /// `FreezeFrameSound`'s hold rebuilt from source samples `x`: the span `[held, held + 1 s)` played from its start,
    /// looped with period `span − seam` through an equal-power seam, its last 50 ms crossfaded into `x[held − 50 ms,
    /// held)`. Gains as FFmpeg's `acrossfade` with `qsin` curves: out `sin(π/2 · (C − 1 − k)/C)`, in
    /// `sin(π/2 · k/C)`.
    static func expectedHold(_ x: [Float]) -> [Float] {
        let c = seam, s = held, l = span
        func fadeOut(_ k: Int) -> Double { sin(Double.pi / 2 * Double(c - 1 - k) / Double(c)) }
        func fadeIn(_ k: Int) -> Double { sin(Double.pi / 2 * Double(k) / Double(c)) }
        func loop(_ n: Int) -> Double {
            if n < c { return Double(x[s + n]) }
            let m = (n - c) % (l - c)
            if m < l - 2 * c { return Double(x[s + c + m]) }
            let k = m - (l - 2 * c)
            return Double(x[s + l - c + k]) * fadeOut(k) + Double(x[s + k]) * fadeIn(k)
        }
        return (0..<hold).map { n in
            guard n >= hold - c else { return Float(loop(n)) }
            let k = n - (hold - c)
            return Float(loop(n) * fadeOut(k) + Double(x[s - c + k]) * fadeIn(k))
        }
    }

    /// The largest sample-to-sample step of `samples[range]`.
    static func largestStep(_ samples: [Float], _ range: Range<Int>) -> Float {
        range.dropFirst().map { abs(samples[$0] - samples[$0 - 1]) }.max() ?? 0
    }

    @Test func roomToneLoopsTheSpanSeamlesslyForExactlyTheHold() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sourceURL = scratch.file("tone.mov")
        try SyntheticMedia.write(
            video: TimeEffectExportTests.framecode, audio: "anoisesrc=r=48000:a=0.5:c=white:s=7,lowpass=f=2000",
            duration: MediaTime(seconds: 3), to: sourceURL)
        let asset = try await Asset.load(from: sourceURL)
        var composition = MutableComposition()
        let second = MediaTime(seconds: 1)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: second), of: asset, at: .zero)
        for track in composition.tracks {
            let source = try #require(asset.tracks(withMediaType: track.mediaType).first)
            try composition.updateTrack(withTrackID: track.trackID) {
                try $0.insertFreezeFrame(
                    at: second, of: source, duration: MediaTime(value: 5, timescale: 2), at: .invalid, sound: .roomTone)
                try $0.insertTimeRange(TimeRange(start: second, duration: second), of: source, at: .invalid)
            }
        }
        let output = scratch.file("roomtone.mkv")
        try await TimeEffectExportTests.export(composition, to: output)

        // Picture: frames 0 ..< 30, frame 30 for exactly 75 frames, frames 30 ..< 60.
        let numbers = try await TimeEffectExportTests.frameNumbers(of: output, count: 135)
        #expect(numbers == Array(0..<30) + Array(repeating: 30, count: 75) + Array(30..<60), "\(numbers)")

        let x = try await Readback.audio(of: sourceURL)[0]
        let y = try await Readback.audio(of: output)[0]
        // Duration to the sample: 4.5 s; the sound after the hold is the source from 1 s again, sample for sample.
        #expect(y.count == 216_000)
        guard y.count == 216_000, x.count == 144_000 else { return }
        #expect(Array(y[0..<48_000]) == Array(x[0..<48_000]))
        #expect(Array(y[168_000..<216_000]) == Array(x[48_000..<96_000]))

        // The hold is the definition, within 16-bit PCM rounding (1/32768 and a little).
        let expected = Self.expectedHold(x)
        let worst = (0..<Self.hold).map { abs(y[48_000 + $0] - expected[$0]) }.max() ?? 0
        #expect(worst < 1e-4, "largest difference from the definition: \(worst)")

        // Level: every 100 ms window of the hold within 1 dB of the looped span's RMS.
        let spanLevel = Readback.rmsDecibels(x, start: Self.held, count: Self.span)
        for window in 0..<(Self.hold / 4_800) {
            let level = Readback.rmsDecibels(y, start: 48_000 + window * 4_800, count: 4_800)
            #expect(abs(level - spanLevel) < 1, "window \(window): \(level) dBFS, span \(spanLevel) dBFS")
        }
        // No click: no step across the hold and its two edges larger than 1.5 × the source's largest step (a
        // crossfade of two signals can add their slopes by up to √2); a plain cut at a seam would jump by the
        // sound's full amplitude.
        let sourceStep = Self.largestStep(x, 0..<144_000)
        let heldStep = Self.largestStep(y, 47_999..<168_001)
        #expect(heldStep <= 1.5 * sourceStep, "largest step in the hold \(heldStep), in the source \(sourceStep)")
        #expect(sourceStep < 0.2, "the source is smooth enough for the click check: \(sourceStep)")

        // An export range starting inside the hold (2 s … 3.5 s) plays the same part of the same loop.
        let part = scratch.file("part.mkv")
        let session = AssetExportSession(asset: composition, settings: TimeEffectExportTests.lossless)
        session.outputURL = part
        session.timeRange = TimeRange(start: MediaTime(seconds: 2), duration: MediaTime(value: 3, timescale: 2))
        try await session.export()
        let partSound = try await Readback.audio(of: part)[0]
        #expect(partSound.count == 72_000)
        #expect(partSound == Array(y[96_000..<168_000]), "the part differs from the whole hold's samples 48 000 ..< 120 000")
    }
}
