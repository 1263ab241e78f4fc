import Foundation
import SpliceTesting
import Testing
import Splice
import SpliceTestSupport

/// The time effects rendered: reverse (picture and sound), freeze frame, speed ramp — checked frame by frame
/// on a "framecode" source whose pictures carry their own frame number, and sample by sample on tones and chirps.
/// Lossless output (FFV1 + PCM in Matroska), so every picture and sample is compared with what the model predicts.
@Suite("Time effects (export)")
struct TimeEffectExportTests {
    /// Each picture shows its frame number `N` in binary: 8 blocks 16 pixels wide, block `b` white when bit `b` is set.
    static let framecode = "nullsrc=s=128x16:r=30,format=rgb24,geq="
        + "r='255*mod(floor(N/pow(2,floor(X/16))),2)':g='255*mod(floor(N/pow(2,floor(X/16))),2)':"
        + "b='255*mod(floor(N/pow(2,floor(X/16))),2)'"

    static let lossless = ExportSettings(video: VideoSettings(codec: .ffv1), audio: AudioSettings(codec: .pcm))

    /// The frame number a framecode picture shows.
    static func frameNumber(_ frame: VideoFrame) -> Int {
        var number = 0
        for bit in 0..<8 where frame.meanColor(in: Rect(x: Double(bit * 16 + 4), y: 4, width: 8, height: 8)).red > 128 {
            number |= 1 << bit
        }
        return number
    }

    /// The frame numbers of output frames `0 ..< count` of `url` (30 fps).
    static func frameNumbers(of url: URL, count: Int) async throws -> [Int] {
        let frames = try await Readback.frames(of: url, at: (0..<count).map { MediaTime(value: Int64($0), timescale: 30) })
        return frames.map(frameNumber)
    }

    /// Exports `composition` losslessly to `name` in `scratch`.
    static func export(_ composition: MutableComposition, mix: MutableAudioMix? = nil, to url: URL) async throws {
        let session = AssetExportSession(asset: composition, settings: lossless)
        session.outputURL = url
        session.audioMix = mix
        try await session.export()
    }

    /// Frequency in Hz of `samples` from its rising zero crossings, each placed by linear interpolation between the
    /// two samples around it: (crossings − 1) periods between the first and the last.
    static func frequency(_ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        var crossings: [Double] = []
        var index = samples.startIndex
        while index + 1 < samples.endIndex {
            let a = samples[index], b = samples[index + 1]
            if a < 0 && b >= 0 { crossings.append(Double(index) + Double(-a / (b - a))) }
            index += 1
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (last - first)
    }

    /// FFV1 (every frame a key frame) and H.264 with 25-frame groups of pictures and B-frames, so that a chunk of
    /// the reversed reader starts mid-group and spans group boundaries.
    @Test(arguments: [SyntheticMedia.VideoCodec.ffv1, .h264(x264Parameters: "keyint=25:min-keyint=25:scenecut=0:bframes=3")])
    func reverseReadsFrameNumbersStrictlyDescendingWithNoneMissing(codec: SyntheticMedia.VideoCodec) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sourceURL = scratch.file("framecode.mov")
        try SyntheticMedia.write(
            video: Self.framecode, audio: nil, duration: MediaTime(seconds: 3), pixelFormat: codec == .ffv1 ? .rgb : .yuv420p,
            videoCodec: codec, to: sourceURL)
        let source = try #require(try await Asset.load(from: sourceURL).tracks(withMediaType: .video).first)
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        // Frames 0 ..< 15 forward, then source frames 15 ..< 85 (0.5 s ..< 2.833 s) backwards: 84, 83, …, 15.
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(value: 1, timescale: 2)), of: source, at: .zero, intoTrackWithID: id)
        try composition.updateTrack(withTrackID: id) {
            try $0.insertReversedTimeRange(
                TimeRange(start: MediaTime(value: 15, timescale: 30), duration: MediaTime(value: 70, timescale: 30)), of: source, at: .invalid)
        }
        let output = scratch.file("reversed.mkv")
        try await Self.export(composition, to: output)
        let numbers = try await Self.frameNumbers(of: output, count: 85)
        #expect(Array(numbers[0..<15]) == Array(0..<15))
        #expect(Array(numbers[15...]) == Array((15..<85).reversed()), "\(numbers)")
        // An export range cutting into the reversed segment keeps its mirror: output frames 30 ..< 60 show 69 … 40.
        let part = scratch.file("part.mkv")
        let session = AssetExportSession(asset: composition, settings: Self.lossless)
        session.outputURL = part
        session.timeRange = TimeRange(start: MediaTime(value: 1, timescale: 1), duration: MediaTime(value: 1, timescale: 1))
        try await session.export()
        #expect(try await Self.frameNumbers(of: part, count: 30) == Array((40..<70).reversed()))
        // The image generator reads the same pictures (same model map, same reader), in any order.
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        for k in [84, 15, 50, 16, 83] {
            let (frame, _) = try await generator.image(at: MediaTime(value: Int64(k), timescale: 30))
            #expect(Self.frameNumber(frame) == 99 - k, "generator at frame \(k)")
        }
        // With the default (infinite) tolerances a plain segment snaps to a key frame; a reversed one is rendered at
        // the exact time asked (its key frames do not map back linearly).
        let (frame, actual) = try await AssetImageGenerator(asset: composition).image(at: MediaTime(value: 40, timescale: 30))
        #expect(actual == MediaTime(value: 40, timescale: 30))
        #expect(Self.frameNumber(frame) == 59)
    }

    @Test func reversedChirpIsTheTimeMirroredChirp() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sourceURL = scratch.file("chirp.mov")
        // Instantaneous frequency 200 + 800·t Hz over 2 s.
        try SyntheticMedia.write(
            video: nil, audio: "aevalsrc=0.5*sin(2*PI*(200*t+400*t*t)):s=48000:c=stereo", duration: MediaTime(seconds: 2), to: sourceURL)
        let source = try #require(try await Asset.load(from: sourceURL).tracks(withMediaType: .audio).first)
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .audio)
        try composition.updateTrack(withTrackID: id) {
            try $0.insertReversedTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: source, at: .zero)
        }
        let output = scratch.file("reversed.mkv")
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: nil, audio: AudioSettings(codec: .pcm)))
        session.outputURL = output
        try await session.export()
        let audio = try await Readback.audio(of: output)
        #expect(audio[0].count == 96_000)
        // Per 100 ms window: the frequency the mirrored chirp has at the window's centre, 200 + 800·(2 − t).
        for window in 1..<19 {
            let centre = (Double(window) + 0.5) / 10
            let expected = 200 + 800 * (2 - centre)
            let measured = Self.frequency(audio[0][(window * 4800)..<((window + 1) * 4800)], sampleRate: 48_000)
            #expect(abs(measured - expected) / expected < 0.02, "window at \(centre) s: \(measured) Hz, expected \(expected)")
        }
    }

    @Test func freezeHoldsExactlyTheRequestedFrameForExactlyTheRequestedFrames() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sourceURL = scratch.file("framecode.mov")
        try SyntheticMedia.write(
            video: Self.framecode, audio: "sine=f=1000:r=48000", duration: MediaTime(seconds: 2), to: sourceURL)
        let asset = try await Asset.load(from: sourceURL)
        var composition = MutableComposition()
        // 10 frames, then frame 40 held for 17 frames (picture and silence), then frames 10 ..< 20.
        let tenth = MediaTime(value: 10, timescale: 30)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: tenth), of: asset, at: .zero)
        for track in composition.tracks {
            let source = try #require(asset.tracks(withMediaType: track.mediaType).first)
            try composition.updateTrack(withTrackID: track.trackID) {
                try $0.insertFreezeFrame(
                    at: MediaTime(value: 40, timescale: 30), of: source, duration: MediaTime(value: 17, timescale: 30), at: .invalid)
                try $0.insertTimeRange(TimeRange(start: tenth, duration: tenth), of: source, at: .invalid)
            }
        }
        #expect(composition.duration == MediaTime(value: 37, timescale: 30))
        let output = scratch.file("freeze.mkv")
        try await Self.export(composition, to: output)
        let result = try await Asset.load(from: output)
        #expect(result.tracks(withMediaType: .video).first?.video?.frameCount == 37)
        let numbers = try await Self.frameNumbers(of: output, count: 37)
        #expect(numbers == Array(0..<10) + Array(repeating: 40, count: 17) + Array(10..<20), "\(numbers)")
        // Sound: the tone, silence for exactly the 17 frames (27 200 samples from sample 16 000), the tone again.
        let audio = try await Readback.audio(of: output)
        #expect(audio[0].count == 59_200)
        #expect(audio[0][16_000..<43_200].allSatisfy { $0 == 0 })
        // `sine` plays at 1/8 of full scale: an RMS of −21.1 dBFS.
        #expect(abs(Readback.rmsDecibels(audio[0], start: 15_000, count: 1000) - (-21.07)) < 0.5)
        #expect(abs(Readback.rmsDecibels(audio[0], start: 43_200, count: 1000) - (-21.07)) < 0.5)
    }

    /// 1× → 2× over 1 s, 2× for 1 s, 2× → 1× over 1 s (linear): 3 s of output reading 5 s of source.
    static let ramp = SpeedRamp(duration: MediaTime(seconds: 3), keyframes: [
        Keyframe(time: .zero, value: 1), Keyframe(time: MediaTime(seconds: 1), value: 2),
        Keyframe(time: MediaTime(seconds: 2), value: 2), Keyframe(time: MediaTime(seconds: 3), value: 1),
    ])

    /// The source frame (30 fps) the integral puts on screen at output frame `k`, in integers:
    /// `⌊k + k²/60⌋`, then `45 + 2(k − 30)`, then `⌊105 + 2u − u²/60⌋` with `u = k − 60`.
    static func expectedSourceFrame(_ k: Int) -> Int {
        if k <= 30 { return k + (k * k) / 60 }
        if k <= 60 { return 45 + 2 * (k - 30) }
        let u = k - 60
        return 105 + 2 * u - (u * u + 59) / 60  // ⌊−x⌋ = −⌈x⌉
    }

    @Test func speedRampShowsTheSourceFramesTheIntegralPredicts() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sourceURL = scratch.file("framecode.mov")
        try SyntheticMedia.write(video: Self.framecode, audio: nil, duration: MediaTime(seconds: 6), to: sourceURL)
        let source = try #require(try await Asset.load(from: sourceURL).tracks(withMediaType: .video).first)
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.updateTrack(withTrackID: id) { try $0.insertSpeedRamp(Self.ramp, from: .zero, of: source, at: .zero) }
        #expect(composition.duration == MediaTime(seconds: 3))
        let output = scratch.file("ramp.mkv")
        try await Self.export(composition, to: output)
        let numbers = try await Self.frameNumbers(of: output, count: 90)
        let expected = (0..<90).map(Self.expectedSourceFrame)
        #expect(numbers == expected, "\(zip(numbers, expected).enumerated().filter { $1.0 != $1.1 }.map { "frame \($0): \($1.0) not \($1.1)" })")

        // An export range starting inside the ramp still reads the ramp from its own start: frames 20 ..< 75.
        let part = scratch.file("part.mkv")
        let session = AssetExportSession(asset: composition, settings: Self.lossless)
        session.outputURL = part
        session.timeRange = TimeRange(start: MediaTime(value: 20, timescale: 30), duration: MediaTime(value: 55, timescale: 30))
        try await session.export()
        let partNumbers = try await Self.frameNumbers(of: part, count: 55)
        #expect(partNumbers == Array(expected[20..<75]), "\(partNumbers)")
    }

    /// Output seconds at which the burst after `from` starts (first sample above 0.5; the tone under it peaks at 0.2), in `samples` at 48 kHz.
    static func onset(_ samples: [Float], after from: Double) -> Double? {
        let start = Int(from * 48_000)
        guard let index = samples[start...].firstIndex(where: { abs($0) > 0.5 }) else { return nil }
        return Double(index) / 48_000
    }

    @Test(arguments: [AudioTimePitchAlgorithm.varispeed, .timeDomain, .spectral])
    func speedRampKeepsSoundWithPictureAndPitchAsChosen(algorithm: AudioTimePitchAlgorithm) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sourceURL = scratch.file("marked.mov")
        // Pictures: framecode. Sound: a 1 kHz tone at 0.2 of full scale, with 20 ms bursts at full 0.9 where the
        // ramp puts source 0.625 s, 2.5 s and 4.375 s: output 0.5 s, 1.5 s and 2.5 s (frames 15, 45 and 75).
        let marks = [0.625, 2.5, 4.375].map { "lt(abs(t-\($0)),0.01)" }.joined(separator: "+")
        try SyntheticMedia.write(
            video: Self.framecode, audio: "aevalsrc='(0.2+0.7*(\(marks)))*sin(2*PI*1000*t)':s=48000",
            duration: MediaTime(seconds: 6), to: sourceURL)
        let asset = try await Asset.load(from: sourceURL)
        var composition = MutableComposition()
        for source in asset.tracks {
            let id = try composition.addMutableTrack(withMediaType: source.mediaType)
            try composition.updateTrack(withTrackID: id) { try $0.insertSpeedRamp(Self.ramp, from: .zero, of: source, at: .zero) }
        }
        var mix = MutableAudioMix()
        let audioID = try #require(composition.tracks(withMediaType: .audio).first?.trackID)
        mix.inputParameters = [AudioMixInputParameters(trackID: audioID, audioTimePitchAlgorithm: algorithm)]
        let output = scratch.file("ramp.mkv")
        try await Self.export(composition, mix: mix, to: output)
        let audio = try await Readback.audio(of: output)
        #expect(audio[0].count == 144_000)
        let numbers = try await Self.frameNumbers(of: output, count: 90)
        // A/V: each burst starts within one frame (1/30 s) of the picture showing its source time.
        for (mark, outputTime) in zip([0.625, 2.5, 4.375], [0.5, 1.5, 2.5]) {
            let frame = Int(outputTime * 30)
            #expect(numbers[frame] == Int(mark * 30), "frame \(frame) shows \(numbers[frame])")
            let heard = try #require(Self.onset(audio[0], after: outputTime - 0.2), "no burst after \(outputTime - 0.2) s")
            #expect(abs(heard - (outputTime - 0.01 / Self.ramp.rate(at: MediaTime(value: Int64(outputTime * 2), timescale: 2)))) < 1.0 / 30,
                    "burst for source \(mark) s heard at \(heard) s, picture at \(outputTime) s")
        }
        // Pitch: 1 kHz kept within 1 %, or shifted by the rate (2 kHz in the 2× stretch) for varispeed. Windows of
        // 100 ms clear of the bursts.
        for centre in [0.25, 1.25, 1.75, 2.25, 2.85] {
            let start = Int((centre - 0.05) * 48_000)
            let measured = Self.frequency(audio[0][start..<(start + 4800)], sampleRate: 48_000)
            let rate = Self.ramp.rate(at: MediaTime(value: Int64(centre * 100), timescale: 100))
            let expected = algorithm == .varispeed ? 1000 * rate : 1000
            #expect(abs(measured - expected) / expected < 0.01, "\(algorithm) at \(centre) s: \(measured) Hz, expected \(expected)")
        }
    }
}
