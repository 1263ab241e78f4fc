import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// The sound of transitions: an ``AudioCrossfade`` over [1 s, 2 s) between a 1 kHz tone and silence, exported as
/// 16-bit PCM. Per 10 ms window the level is the curve's within 0.3 dB (the expected level computed from the curve
/// applied to the tone itself, which repeats every 48 samples); no sample step at either end exceeds the tone's own.
@Suite("Audio crossfades: curves per 10 ms window")
struct AudioCrossfadeTests {
    static let rate = 48_000
    static let crossfade = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1))

    /// Track A from 0 to 2 s, track B from 1 to 3 s, crossfading over [1 s, 2 s); returns the mixed samples (left).
    static func render(outgoing: SyntheticSource, incoming: SyntheticSource, curve: AudioFadeCurve,
                       in scratch: ScratchDirectory) async throws -> [Float] {
        let two = MediaTime(seconds: 2)
        let a = try await SyntheticMedia.makeAsset(video: nil, audio: outgoing, duration: two, in: scratch.url)
        let b = try await SyntheticMedia.makeAsset(video: nil, audio: incoming, duration: two, in: scratch.url)
        var composition = MutableComposition()
        let first = try composition.addMutableTrack(withMediaType: .audio)
        let second = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: two), of: try #require(a.tracks(withMediaType: .audio).first),
                                        at: .zero, intoTrackWithID: first)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: two), of: try #require(b.tracks(withMediaType: .audio).first),
                                        at: MediaTime(seconds: 1), intoTrackWithID: second)
        let mix = MutableAudioMix(inputParameters: [], crossfades: [AudioCrossfade(from: first, to: second, timeRange: crossfade, curve: curve)])
        #expect(mix.validate(for: CompositionSummary(composition)).isEmpty)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: nil, audio: AudioSettings(codec: .pcm)))
        let url = scratch.file("\(curve.rawValue)-\(UUID().uuidString).mov")
        session.outputURL = url
        session.audioMix = mix
        try await session.export()
        let channels = try await Readback.audio(of: url)
        #expect(channels.first?.count == 3 * rate)
        return channels.first ?? []
    }

    static func rms(_ values: ArraySlice<Float>) -> Double {
        (values.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(values.count)).squareRoot()
    }

    /// Checks the 100 windows of the crossfade against `gain(f)` applied to `reference` (the unfaded tone, same
    /// phase), and the sample steps around both ends.
    static func expectCurve(_ samples: [Float], reference: (Int) -> Float, gain: (Double) -> Double, _ label: String) {
        var worst = 0.0
        for window in 0..<100 {
            let start = rate + window * 480
            let measured = rms(samples[start..<(start + 480)])
            let expected = (0..<480).map { i -> Double in
                let g = gain(Double(window * 480 + i) / Double(rate))
                let value = g * Double(reference(start + i))
                return value * value
            }.reduce(0, +) / 480
            let expectedRMS = expected.squareRoot()
            if expectedRMS > 0.5e-3 {
                let difference = 20 * log10(measured / expectedRMS)
                worst = max(worst, abs(difference))
                #expect(abs(difference) <= 0.3, "\(label) window \(window): \(difference) dB off the curve")
            } else {
                #expect(abs(measured - expectedRMS) <= 1e-4, "\(label) window \(window): RMS \(measured), expected \(expectedRMS)")
            }
        }
        print("crossfade \(label): worst window \(worst) dB off the curve")
        // No click: around each end no step between samples exceeds the 1 kHz tone's largest (0.5·2π/48 ≈ 0.065).
        for edge in [rate, 2 * rate] {
            let steps = (edge - 480..<edge + 480).map { abs(samples[$0 + 1] - samples[$0]) }
            #expect((steps.max() ?? 1) <= 0.0675, "\(label): a step of \(steps.max() ?? 1) at sample \(edge)")
        }
    }

    @Test("fade-out and fade-in follow the curve", arguments: [AudioFadeCurve.linear, .equalPower, .hsin, .exp, .cub, .squ])
    func curveWithinAThirdOfADecibel(_ curve: AudioFadeCurve) async throws {
        let scratch = try ScratchDirectory("crossfade")
        defer { scratch.remove() }
        let tone = SyntheticSource.tone(frequency: 1000, amplitude: 0.5)
        let fadingOut = try await Self.render(outgoing: tone, incoming: .silence(), curve: curve, in: scratch)
        Self.expectCurve(fadingOut, reference: { fadingOut[$0 - Self.rate] }, gain: { curve.gain(1 - $0) }, "\(curve.rawValue) out")
        let fadingIn = try await Self.render(outgoing: .silence(), incoming: tone, curve: curve, in: scratch)
        Self.expectCurve(fadingIn, reference: { fadingIn[$0 + Self.rate] }, gain: { curve.gain($0) }, "\(curve.rawValue) in")
    }

    /// A linear crossfade between two copies of one tone in phase keeps its level: gains sum to 1 at every sample.
    @Test func linearCrossfadeOfOneToneIsSeamless() async throws {
        let scratch = try ScratchDirectory("crossfade")
        defer { scratch.remove() }
        let tone = SyntheticSource.tone(frequency: 1000, amplitude: 0.5)
        let samples = try await Self.render(outgoing: tone, incoming: tone, curve: .linear, in: scratch)
        let level = Self.rms(samples[0..<Self.rate])
        for window in stride(from: 0, to: 3 * Self.rate, by: 480) {
            let difference = 20 * log10(Self.rms(samples[window..<(window + 480)]) / level)
            #expect(abs(difference) < 0.05, "window at sample \(window): \(difference) dB")
        }
    }

    @Test func equalPowerGainsKeepPowerConstant() {
        for f in stride(from: 0.0, through: 1.0, by: 0.125) {
            let crossfade = AudioCrossfade(from: 1, to: 2, timeRange: Self.crossfade)
            let out = crossfade.gain(forTrackID: 1, fraction: f) ?? 0, incoming = crossfade.gain(forTrackID: 2, fraction: f) ?? 0
            #expect(abs(out * out + incoming * incoming - 1) < 1e-12)
        }
        #expect(AudioFadeCurve.exp.gain(0) == Foundation.exp(-11.512925464970227))
        #expect(AudioFadeCurve.log.gain(0) == 0 && AudioFadeCurve.log.gain(1) == 1)
        // Values worked by hand from afade's definitions: qsin ½ = sin(π/4), hsin ¼ = (1 − cos(π/4))/2, exp ½ = −50 dB,
        // cub ½ = ⅛, squ ¼ = ½, ipar ½ = ¾, desi ¼ = 1/16.
        let expected: [(AudioFadeCurve, Double, Double)] = [
            (.qsin, 0.5, 0.7071067811865476), (.hsin, 0.25, 0.14644660940672624), (.exp, 0.5, 0.0031622776601683794),
            (.cub, 0.5, 0.125), (.squ, 0.25, 0.5), (.ipar, 0.5, 0.75), (.desi, 0.25, 0.0625), (.linear, 0.3, 0.3),
        ]
        for (curve, f, value) in expected {
            #expect(abs(curve.gain(f) - value) < 1e-12, "\(curve.rawValue)(\(f)) = \(curve.gain(f)), expected \(value)")
        }
    }
}
