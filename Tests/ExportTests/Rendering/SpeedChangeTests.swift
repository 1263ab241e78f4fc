import Foundation
import Testing
import Splice
import SpliceTestSupport

/// scaleTimeRange: video retimed, audio tempo-changed with pitch kept (or varispeed), durations exact.
@Suite("Speed changes")
struct SpeedChangeTests {
    /// Frequency in Hz from rising zero crossings over `samples`.
    static func frequency(_ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        var crossings = 0
        var previous = samples.first ?? 0
        for sample in samples.dropFirst() {
            if previous < 0 && sample >= 0 { crossings += 1 }
            previous = sample
        }
        return Double(crossings) / (Double(samples.count) / sampleRate)
    }

    @Test(arguments: [(AudioTimePitchAlgorithm.spectral, 1000.0), (.varispeed, 2000.0)])
    func doubleSpeedAudioKeepsOrDoublesPitch(algorithm: AudioTimePitchAlgorithm, expectedHertz: Double) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tone = try await Fixture.asset("tone/sine-1k-48k-stereo.wav")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: tone, at: .zero)
        try composition.scaleTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), toDuration: MediaTime(seconds: 1))
        #expect(composition.duration == MediaTime(seconds: 1))
        var mix = MutableAudioMix()
        mix.inputParameters = [AudioMixInputParameters(trackID: composition.tracks[0].trackID, audioTimePitchAlgorithm: algorithm)]
        let session = AssetExportSession(asset: composition, preset: .appleM4A)
        session.outputURL = scratch.file("fast.m4a")
        session.audioMix = mix
        try await session.export()
        let audio = try await Readback.audio(of: scratch.file("fast.m4a"))
        #expect(audio[0].count == 48_000)
        let measured = Self.frequency(audio[0][4800..<43200], sampleRate: 48_000)
        #expect(abs(measured - expectedHertz) / expectedHertz < 0.02, "\(measured) Hz")
        // The level is kept: a -6 dBFS sine has an RMS of about -9 dBFS.
        #expect(abs(Readback.rmsDecibels(audio[0], start: 4800, count: 38_400) - (-9.03)) < 1.0)
    }

    @Test func doubleSpeedVideoShowsEveryOtherSourceFrame() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // A single white frame at source 1.000 s (frame 30 of 90 at 30 fps).
        let marker = try await Fixture.asset("markers/flash-beep-lossless.mkv")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: marker, at: .zero)
        try composition.scaleTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), toDuration: MediaTime(value: 3, timescale: 2))
        let session = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(10), encoderPreset: "ultrafast")))
        session.outputURL = scratch.file("fast.mp4")
        try await session.export()
        let output = try await Asset.load(from: scratch.file("fast.mp4"))
        #expect(output.tracks(withMediaType: .video).first?.video?.frameCount == 45)
        // Output frame 15 (0.5 s) shows source time 1.0 s: the white frame; its neighbours are black.
        let frames = try await Readback.frames(of: scratch.file("fast.mp4"), at: [14, 15, 16].map { MediaTime(value: $0, timescale: 30) })
        let centre = Rect(x: 150, y: 110, width: 20, height: 20)
        #expect(frames[0].meanColor(in: centre).red < 20)
        #expect(frames[1].meanColor(in: centre).red > 235)
        #expect(frames[2].meanColor(in: centre).red < 20)
    }
}
