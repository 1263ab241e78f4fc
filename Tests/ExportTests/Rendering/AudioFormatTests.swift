import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Difficult input: mixed sample rates (44.1 / 48 kHz), mono and stereo, PCM with no channel layout. The export has one audio
/// format; every segment keeps its true length and pitch; mono reaches both channels at unity gain
/// (`pan=stereo|c0=c0|c1=c0`, AudioSegmentStream's documented rule).
@Suite("Difficult inputs: audio formats")
struct AudioFormatTests {
    /// `tone/sine-1k-48k-stereo.wav` (48 kHz stereo, no layout stored) for 2 s, then `tone/sine-440-44k1-mono.wav`
    /// (44.1 kHz mono, no layout stored) for 2 s, exported at 48 and at 44.1 kHz: per 100 ms window the frequency
    /// (zero crossings) is 1000 Hz then 440 Hz within 1 Hz, the level −9.03 dBFS (a −6 dBFS sine) within 0.3 dB on
    /// BOTH channels, and the change happens at 2.000 s to within a window of 5 ms.
    @Test(arguments: [48_000, 44_100])
    func mixedRatesAndChannelCountsKeepLengthPitchAndLevel(outputRate: Int) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let stereo = try await Fixture.asset("tone/sine-1k-48k-stereo.wav")
        let mono = try await Fixture.asset("tone/sine-440-44k1-mono.wav")
        #expect(stereo.tracks[0].audio?.channelLayout == "stereo" && mono.tracks[0].audio?.channelLayout == "mono")
        // Both on ONE track (a whole-asset insert would give each format its own track, as AVFoundation does).
        var composition = MutableComposition()
        let trackID = try composition.addMutableTrack(withMediaType: .audio)
        let two = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        try composition.insertTimeRange(two, of: stereo.tracks[0], at: .zero, intoTrackWithID: trackID)
        try composition.insertTimeRange(two, of: mono.tracks[0], at: MediaTime(seconds: 2), intoTrackWithID: trackID)

        let output = scratch.file("tones.m4a")
        let result = try await MeasuredExport.export(
            composition, to: output, settings: ExportSettings(video: nil, audio: AudioSettings(sampleRate: outputRate)))
        #expect(result.tracks.count == 1)
        let track = try #require(result.tracks.first)
        #expect(track.audio?.sampleRate == outputRate && track.audio?.channelCount == 2)
        #expect(track.timeRange.duration == MediaTime(seconds: 4))

        let audio = try await Readback.audio(of: output, sampleRate: outputRate)
        #expect(audio[0].count == 4 * outputRate)
        let window = outputRate / 10
        let expectedLevel = 20 * log10(0.501187 / 2.0.squareRoot())
        for w in 0..<40 where w != 0 && w != 19 && w != 20 && w != 39 {
            let start = w * window
            let frequency = w < 20 ? 1000.0 : 440.0
            for channel in 0..<2 {
                let measured = Measure.frequency(audio[channel], start: start, count: window, sampleRate: outputRate)
                let level = Readback.rmsDecibels(audio[channel], start: start, count: window)
                #expect(abs(measured - frequency) < 1, "window \(w) channel \(channel): \(measured) Hz, expected \(frequency)")
                #expect(abs(level - expectedLevel) < 0.3, "window \(w) channel \(channel): \(level) dBFS, expected \(expectedLevel)")
            }
        }
        // The switch at 2.000 s: 20 ms windows just before and just after.
        let edge = 2 * outputRate, short = outputRate / 50
        #expect(abs(Measure.frequency(audio[0], start: edge - short - outputRate / 200, count: short, sampleRate: outputRate) - 1000) < 5)
        #expect(abs(Measure.frequency(audio[0], start: edge + outputRate / 200, count: short, sampleRate: outputRate) - 440) < 5)
    }
}
