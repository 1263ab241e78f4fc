import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting
import Testing

/// Loudness measured with libavfilter's `ebur128` and normalised in two passes, read back by FFmpeg's own `ebur128`
/// summary and by pyloudnorm.
@Suite struct LoudnessTests {
    /// Pink-noise syllables (0.3 s on, 0.2 s near-silent), band-limited like a voice: a speech-like programme with
    /// a high crest factor and pauses, made in-process.
    static let speech = "anoisesrc=color=pink:amplitude=0.5:sample_rate=48000:seed=7,bandpass=f=1000:width_type=q:w=0.7,"
        + "volume='if(lt(mod(t,0.5),0.3),1,0.02)':eval=frame,aformat=sample_fmts=s16:channel_layouts=stereo"

    /// An audio-only composition of `sources`, each from zero, at the linear volumes given.
    static func programme(_ sources: [(Asset, Double)]) throws -> (MutableComposition, MutableAudioMix) {
        var composition = MutableComposition()
        var mix = MutableAudioMix()
        for (asset, volume) in sources {
            let id = try composition.addMutableTrack(withMediaType: .audio)
            let track = asset.tracks(withMediaType: .audio)[0]
            try composition.insertTimeRange(TimeRange(start: .zero, duration: track.timeRange.duration), of: track, at: .zero,
                                             intoTrackWithID: id)
            var parameters = AudioMixInputParameters(trackID: id)
            parameters.setVolume(volume, at: .zero)
            mix.inputParameters.append(parameters)
        }
        return (composition, mix)
    }

    static func session(_ composition: MutableComposition, _ mix: MutableAudioMix, to url: URL) -> AssetExportSession {
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: nil, audio: AudioSettings()))
        session.outputURL = url
        session.audioMix = mix
        return session
    }

    static func speechAsset(in scratch: ScratchDirectory, seconds: Int = 6) async throws -> Asset {
        let url = scratch.file("speech.mkv")
        try SyntheticMedia.write(video: nil, audio: speech, duration: MediaTime(value: Int64(seconds), timescale: 1), to: url)
        return try await Asset.load(from: url)
    }

    @Test func meterAgreesWithFFmpegAndPyloudnormOnAFixture() async throws {
        let url = Fixture.url("canonical/clipA.mp4")
        let measured = try await LoudnessMeter.measure(url)
        let ffmpeg = try await SecondReaders.ebur128Summary(of: url)
        // ffmpeg prints its summary to 0.1: −12.7 LUFS, true peak −11.8 dBFS for the −12 dBFS 440 Hz tone.
        #expect(abs(measured.integratedLoudness - ffmpeg.integrated) <= 0.05 + 1e-9, "meter \(measured.integratedLoudness), ffmpeg \(ffmpeg.integrated)")
        #expect(abs(measured.truePeak - ffmpeg.truePeak) <= 0.05 + 1e-9, "meter \(measured.truePeak), ffmpeg \(ffmpeg.truePeak)")
        #expect(abs(measured.integratedLoudness - -12.69) < 0.02)
        #expect(abs(measured.loudnessRange) < 0.1)  // a steady tone has no loudness range
        if PythonVerifier.isAvailable {
            let reference = try await SecondReaders.pyloudnormIntegrated(of: url)
            #expect(abs(measured.integratedLoudness - reference) < 0.2, "meter \(measured.integratedLoudness), pyloudnorm \(reference)")
        }
    }

    @Test func meterRefusesAFileWithoutSoundAMissingFileAndADamagedOne() async throws {
        await #expect(throws: LoudnessError.noAudio(Fixture.url("rates/no-audio-25.mp4"))) {
            try await LoudnessMeter.measure(Fixture.url("rates/no-audio-25.mp4"))
        }
        await #expect(throws: AssetLoadingError.self) { try await LoudnessMeter.measure(Fixture.url("no/such/file.mp4")) }
        await #expect(throws: AssetLoadingError.self) { try await LoudnessMeter.measure(Fixture.url("broken/garbage.mp4")) }
        // Cut off inside its media data: refused as cut short, named with the file, not a figure for half of it.
        do {
            _ = try await LoudnessMeter.measure(Fixture.url("broken/truncated.mp4"))
            Issue.record("a truncated file was measured")
        } catch LoudnessError.unreadable(let url, let reason) {
            #expect(url.lastPathComponent == "truncated.mp4")
            #expect(reason.contains("the file is cut short"), "\(reason)")
        }
    }

    /// Speech quieter than the music under it, normalised to −23 LUFS; then the output, already at the target, again
    /// (a gain of about 0 dB).
    @Test(.enabled(if: PythonVerifier.isAvailable)) func speechUnderMusicReachesTheTargetAndStaysThere() async throws {
        let scratch = try ScratchDirectory("loudness")
        defer { scratch.remove() }
        let music = try await Fixture.asset("canonical/music.m4a")
        let speech = try await Self.speechAsset(in: scratch)
        // The premise: the speech, at its volume of 0.2 (−14 dB) in the mix, is quieter than the music.
        let speechAlone = try await LoudnessMeter.measure(scratch.file("speech.mkv"))
        let musicAlone = try await LoudnessMeter.measure(Fixture.url("canonical/music.m4a"))
        #expect(speechAlone.integratedLoudness + 20 * log10(0.2) < musicAlone.integratedLoudness - 3,
                "speech \(speechAlone.integratedLoudness) LUFS − 14 dB, music \(musicAlone.integratedLoudness) LUFS")
        let (composition, mix) = try Self.programme([(music, 1), (speech, 0.2)])
        let output = scratch.file("normalised.m4a")
        let target = LoudnessNormalization(integratedLoudness: -23, truePeakCeiling: -1)
        let report = try await Self.session(composition, mix, to: output).export(normalizingLoudness: target)
        #expect(report.measured.integratedLoudness > -22, "the mix as rendered is louder than the target: \(report.measured)")
        #expect(report.gain < -1)

        let ffmpeg = try await SecondReaders.ebur128Summary(of: output)
        let reference = try await SecondReaders.pyloudnormIntegrated(of: output)
        #expect(abs(ffmpeg.integrated - -23) <= 0.5, "ebur128: \(ffmpeg.integrated) LUFS")
        #expect(abs(reference - -23) <= 0.5, "pyloudnorm: \(reference) LUFS")
        #expect(ffmpeg.truePeak <= -1 + 0.1, "true peak \(ffmpeg.truePeak) dBTP")

        // Already at the target: the second pass measures it there and changes nothing that matters.
        let again = try await Asset.load(from: output)
        let (recomposed, remix) = try Self.programme([(again, 1)])
        let second = scratch.file("again.m4a")
        let secondReport = try await Self.session(recomposed, remix, to: second).export(normalizingLoudness: target)
        #expect(abs(secondReport.gain) < 0.3, "gain \(secondReport.gain) dB on a file at the target")
        let secondReference = try await SecondReaders.pyloudnormIntegrated(of: second)
        #expect(abs(secondReference - -23) <= 0.5, "pyloudnorm: \(secondReference) LUFS")
        let secondFFmpeg = try await SecondReaders.ebur128Summary(of: second)
        #expect(abs(secondFFmpeg.integrated - -23) <= 0.5, "ebur128: \(secondFFmpeg.integrated) LUFS")
        #expect(secondFFmpeg.truePeak <= -1 + 0.1, "true peak \(secondFFmpeg.truePeak) dBTP")
        #expect(scratch.contents == ["again.m4a", "normalised.m4a", "speech.mkv"], "only the outputs are left: \(scratch.contents)")
    }

    /// Music alone brought up to the streaming target, −16 LUFS (about +2 dB: its true peak stays far below −1 dBTP).
    @Test(.enabled(if: PythonVerifier.isAvailable)) func musicIsRaisedToTheStreamingTarget() async throws {
        let scratch = try ScratchDirectory("loudness")
        defer { scratch.remove() }
        let (composition, mix) = try Self.programme([(try await Fixture.asset("canonical/music.m4a"), 0.5)])
        let output = scratch.file("music.m4a")
        let report = try await Self.session(composition, mix, to: output)
            .export(normalizingLoudness: LoudnessNormalization(integratedLoudness: -16, truePeakCeiling: -1))
        #expect(report.gain > 3, "gain \(report.gain) dB")
        let ffmpeg = try await SecondReaders.ebur128Summary(of: output)
        let reference = try await SecondReaders.pyloudnormIntegrated(of: output)
        #expect(abs(ffmpeg.integrated - -16) <= 0.5, "ebur128: \(ffmpeg.integrated) LUFS")
        #expect(abs(reference - -16) <= 0.5, "pyloudnorm: \(reference) LUFS")
        #expect(ffmpeg.truePeak <= -1 + 0.1)
    }

    /// Speech raised so far that its peaks would pass −1 dBTP: refused without the limiter, and with it the peaks
    /// stay under the ceiling while the loudness still reaches the target.
    @Test(.enabled(if: PythonVerifier.isAvailable)) func theLimiterHoldsPeaksUnderTheCeilingOnlyWhenAsked() async throws {
        let scratch = try ScratchDirectory("loudness")
        defer { scratch.remove() }
        let (composition, mix) = try Self.programme([(try await Self.speechAsset(in: scratch), 1)])
        var target = LoudnessNormalization(integratedLoudness: -10, truePeakCeiling: -1)
        await #expect(throws: LoudnessError.self) {
            try await Self.session(composition, mix, to: scratch.file("refused.m4a")).export(normalizingLoudness: target)
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("refused.m4a").path))
        target.usesTruePeakLimiter = true
        let output = scratch.file("limited.m4a")
        let report = try await Self.session(composition, mix, to: output).export(normalizingLoudness: target)
        #expect(report.limiterLimit == -1.5)
        #expect(report.measured.truePeak + report.gain > -1, "the gain alone would pass the ceiling: \(report)")
        let ffmpeg = try await SecondReaders.ebur128Summary(of: output)
        let reference = try await SecondReaders.pyloudnormIntegrated(of: output)
        #expect(ffmpeg.truePeak <= -1 + 0.1, "true peak \(ffmpeg.truePeak) dBTP")
        #expect(abs(ffmpeg.integrated - -10) <= 0.5, "ebur128: \(ffmpeg.integrated) LUFS")
        #expect(abs(reference - -10) <= 0.5, "pyloudnorm: \(reference) LUFS")
        // The limiter moves no sample: the output lasts the programme's 6 s exactly (288 000 samples at 48 kHz).
        let samples = try await SecondReaders.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                              "stream=duration_ts", "-of", "csv=p=0", output.path])
        #expect(samples.output == "288000\n")
    }

    @Test func silenceTargetsOutOfRangeAndPeaksOverTheCeilingAreRefusedWithoutAFile() async throws {
        let scratch = try ScratchDirectory("loudness")
        defer { scratch.remove() }
        let silentURL = scratch.file("silence.mkv")
        try SyntheticMedia.write(video: nil, audio: SyntheticSource.silence().description, duration: MediaTime(value: 2, timescale: 1), to: silentURL)
        let (silent, silentMix) = try Self.programme([(try await Asset.load(from: silentURL), 1)])
        let output = scratch.file("out.m4a")
        await #expect(throws: LoudnessError.silentProgramme(integratedLoudness: -70)) {
            try await Self.session(silent, silentMix, to: output).export(normalizingLoudness: LoudnessNormalization())
        }
        // A target outside −70…0 LUFS is refused by name, before the (silent) mix is measured: not as silence.
        for target in [-80.0, -70.1, 0.1, 1.0] {
            await #expect(throws: LoudnessError.targetOutOfRange(target)) {
                try await Self.session(silent, silentMix, to: output)
                    .export(normalizingLoudness: LoudnessNormalization(integratedLoudness: target))
            }
        }
        do {
            try await Self.session(silent, silentMix, to: output)
                .export(normalizingLoudness: LoudnessNormalization(integratedLoudness: .nan))
            Issue.record("a target that is not a number was accepted")
        } catch LoudnessError.targetOutOfRange(let target) {
            #expect(target.isNaN)
        }
        // The ends of the ranges are targets and ceilings like any other.
        for (target, ceiling) in [(-70.0, -1.0), (0.0, 0.0), (-23.0, -70.0)] {
            #expect(throws: Never.self) { try LoudnessNormalization(integratedLoudness: target, truePeakCeiling: ceiling).validate() }
        }
        #expect(throws: LoudnessError.ceilingOutOfRange(-70.5)) {
            try LoudnessNormalization(integratedLoudness: -23, truePeakCeiling: -70.5).validate()
        }
        await #expect(throws: LoudnessError.ceilingOutOfRange(3)) {
            try await Self.session(silent, silentMix, to: output)
                .export(normalizingLoudness: LoudnessNormalization(integratedLoudness: -23, truePeakCeiling: 3))
        }
        // Speech raised to −5 LUFS would peak far above −1 dBTP: refused, not limited behind the caller's back.
        let (speech, speechMix) = try Self.programme([(try await Self.speechAsset(in: scratch, seconds: 3), 1)])
        do {
            try await Self.session(speech, speechMix, to: output)
                .export(normalizingLoudness: LoudnessNormalization(integratedLoudness: -5, truePeakCeiling: -1))
            Issue.record("a gain past the ceiling was not refused")
        } catch LoudnessError.truePeakAboveCeiling(let peak, let gain, let ceiling) {
            #expect(peak + gain > ceiling)
            #expect(ceiling == -1)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(scratch.contents.allSatisfy { !$0.hasPrefix("out") })
        #expect(!scratch.contents.contains { $0.hasPrefix(".splice-loudness") }, "a measuring folder was left: \(scratch.contents)")
    }

    @Test func scalingAMixScalesTheDefaultVolumeAndEveryRamp() throws {
        var composition = MutableComposition()
        let a = try composition.addMutableTrack(withMediaType: .audio)
        let b = try composition.addMutableTrack(withMediaType: .audio)
        var ramped = AudioMixInputParameters(trackID: a)
        ramped.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0.5,
                             timeRange: TimeRange(start: MediaTime(value: 2, timescale: 1), duration: MediaTime(value: 2, timescale: 1)))
        let scaled = MutableAudioMix(inputParameters: [ramped]).scaled(by: 0.5, for: composition)
        #expect(scaled.volume(forTrackID: a, at: .zero) == 0.5)            // the default 1.0 before the ramp
        #expect(scaled.volume(forTrackID: a, at: MediaTime(value: 3, timescale: 1)) == 0.375)
        #expect(scaled.volume(forTrackID: a, at: MediaTime(value: 9, timescale: 1)) == 0.25)
        #expect(scaled.volume(forTrackID: b, at: MediaTime(value: 5, timescale: 1)) == 0.5)  // no parameters before
    }
}
