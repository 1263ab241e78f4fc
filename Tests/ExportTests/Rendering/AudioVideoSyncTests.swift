import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Difficult input: edit lists, AAC priming and start offsets; audio shorter or longer than its video; a clip without audio
/// between clips with audio; very short clips and sub-frame ranges. Sync is measured with the marker clips
/// (`markers/flash-beep*`: frame 30 white, a 1 kHz beep on samples 48000 ..< 49600, Fixtures/README.md) and
/// synthetic clips whose audio and video lengths differ on purpose.
@Suite("Difficult inputs: audio/video sync")
struct AudioVideoSyncTests {
    static let frameDuration = MediaTime(value: 1, timescale: 30)

    /// The output frames and audio of an export of `composition`, checked for flashes at exactly `flashFrames` and
    /// beeps starting at `beepSamples` (± 3 samples; the first sample above 0.05 is one after the beep's start, where
    /// sin 0 = 0), with silence (peak < 0.01) everywhere else except inside `audibleRanges`.
    @discardableResult
    static func checkMarkers(
        _ composition: MutableComposition, in scratch: ScratchDirectory, name: String,
        flashFrames: [Int], beepSamples: [Int], audibleRanges: [Range<Int>] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (frames: [VideoFrame], audio: [[Float]]) {
        let output = scratch.file(name)
        let result = try await MeasuredExport.export(composition, to: output, settings: MeasuredExport.settings(crf: 30))
        let duration = composition.duration
        let count = MeasuredExport.frameCount(duration, frameDuration)
        let video = try #require(result.tracks(withMediaType: .video).first, sourceLocation: sourceLocation)
        let audioTrack = try #require(result.tracks(withMediaType: .audio).first, sourceLocation: sourceLocation)
        #expect(video.video?.frameCount == count, sourceLocation: sourceLocation)
        #expect(video.timeRange.duration == duration, sourceLocation: sourceLocation)
        #expect(audioTrack.timeRange.duration == MediaTime(value: duration.convertScale(48_000).value, timescale: 48_000),
                sourceLocation: sourceLocation)

        let frames = try await MeasuredExport.frames(of: output, frameDuration: frameDuration, count: count)
        // The markers' frames are uniformly black or white: a central patch tells them apart.
        let centre = Rect(x: 128, y: 96, width: 64, height: 48)
        let white = frames.indices.filter { Measure.meanLevel(frames[$0].cropped(centre)) > 200 }
        #expect(white == flashFrames, sourceLocation: sourceLocation)
        let audio = try await Readback.audio(of: output)
        var onsets: [Int] = []
        var i = 0
        while i < audio[0].count {
            if let range = audibleRanges.first(where: { $0.contains(i) }) {
                i = range.upperBound
            } else if abs(audio[0][i]) > 0.05 {
                onsets.append(i)
                i += 2400  // past this beep's 1600 samples and its coding ringing
            } else {
                i += 1
            }
        }
        #expect(onsets.count == beepSamples.count, "beep onsets \(onsets), expected \(beepSamples)", sourceLocation: sourceLocation)
        for (onset, expected) in zip(onsets, beepSamples) {
            #expect(abs(onset - (expected + 1)) <= 3, "beep onset \(onset), expected \(expected + 1)", sourceLocation: sourceLocation)
        }
        // Nothing audible outside the beeps and the given ranges: no click at a cut, no shifted tail.
        var expectedSound = [Bool](repeating: false, count: audio[0].count)
        for range in beepSamples.map({ ($0 - 100)..<($0 + 1700) }) + audibleRanges {
            for i in max(0, range.lowerBound)..<min(expectedSound.count, range.upperBound) { expectedSound[i] = true }
        }
        var loud: Int?
        for i in expectedSound.indices where !expectedSound[i] && (abs(audio[0][i]) >= 0.01 || abs(audio[1][i]) >= 0.01) {
            loud = i
            break
        }
        #expect(loud == nil, "sound at sample \(loud ?? -1) outside the beeps", sourceLocation: sourceLocation)
        return (frames, audio)
    }

    /// Source time 0 is the first presented sample: the H.264 + AAC file's B-frame edit list and 1024 priming
    /// samples and the lossless file's plain start are folded in, so the flash (source 1.000 s) and the beep (source
    /// sample 48000) appear at insertion time + 1 s − trim start, whatever the file.
    @Test(arguments: ["markers/flash-beep.mp4", "markers/flash-beep-lossless.mkv"], [
        (trim: MediaTime.zero, at: MediaTime.zero),
        (trim: MediaTime.zero, at: MediaTime.ms(500)),
        (trim: MediaTime.ms(500), at: MediaTime(value: 1, timescale: 3)),
    ])
    func firstPictureAndSampleAtTheInsertionTime(file: String, placement: (trim: MediaTime, at: MediaTime)) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Fixture.asset(file)
        var composition = MutableComposition()
        let range = TimeRange(start: placement.trim, end: MediaTime(seconds: 3))
        try composition.insertTimeRange(range, of: asset, at: placement.at)
        let flash = MediaTime(seconds: 1) - placement.trim + placement.at
        try await Self.checkMarkers(
            composition, in: scratch, name: "sync.mp4",
            flashFrames: [MeasuredExport.frameIndex(flash, Self.frameDuration)],
            beepSamples: [Int(flash.convertScale(48_000).value)])
    }

    /// Difficult input: audio timestamps that jump where the sound does not (M03's Android writer: first packet 8471 ticks for
    /// 1024 samples). AAC at 48 kHz, a beep at counted sample 48000, every timestamp after the first packet 7447
    /// ticks late. Source time counts samples, so the beep is at source 1.000 s; a piece from 0.5 s inserted at
    /// 0.25 s beeps at 0.75 s (sample 36000) — a timestamp seek would put it 155 ms early.
    @Test func audioTimestampJumpDoesNotShiftATrim() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = scratch.file("jump.mov")
        try PaintedMedia.write(to: url, video: nil, audio: .init(
            sampleRate: 48_000, channels: 2, sampleCount: 96_000, codec: .aac, timestampJumpAfterFirstPacket: 7447
        ) { index, _ in
            (48_000..<49_600).contains(index) ? Float(0.5 * sin(2 * Double.pi * 1000 * Double(index - 48_000) / 48_000)) : 0
        })
        let asset = try await Asset.load(from: url)
        let track = try #require(asset.tracks.first)
        // Counted samples (2 s; the muxer's last stts entry trims 7), not the timestamps' span (2.155 s).
        #expect(track.timeRange.duration > .ms(1990) && track.timeRange.duration <= MediaTime(seconds: 2))
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .ms(500), duration: MediaTime(seconds: 1)), of: asset, at: .ms(250))
        let output = scratch.file("jump.m4a")
        try await MeasuredExport.export(composition, to: output, settings: ExportSettings(video: nil, audio: AudioSettings()))
        let audio = try await Readback.audio(of: output)
        #expect(audio[0].count == 60_000)
        let onset = try #require(Measure.onset(audio[0], threshold: 0.05))
        #expect(abs(onset - 36_001) <= 3, "beep onset \(onset), expected 36001")
    }

    /// Clip S: 1 s of video, 0.8 s of 440 Hz audio. Clip L: 1 s of video, 1.2 s of audio (inserted for its video's
    /// 1 s). Edit: S, flash-beep, L, flash-beep. S's missing 0.2 s is silence, L's extra 0.2 s is cut at its end,
    /// and both flash-beeps stay exactly in sync (flashes at 2 s and 6 s, beeps at samples 96000 and 288000).
    @Test func audioShorterOrLongerThanVideoNeverShiftsLaterClips() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        func clip(_ name: String, audioSamples: Int) throws -> URL {
            let url = scratch.file(name)
            try PaintedMedia.write(to: url, video: .constantRate(
                width: 320, height: 240, timescale: 600, frameDuration: 20, count: 30,
                picture: { PaintedMedia.indexed($0) }),
                audio: .init(sampleRate: 44_100, channels: 1, sampleCount: audioSamples, codec: .aac) { index, _ in
                    Float(0.25 * sin(2 * Double.pi * 440 * Double(index) / 44_100))
                })
            return url
        }
        let short = try await Asset.load(from: clip("short.mov", audioSamples: 35_280))
        let long = try await Asset.load(from: clip("long.mov", audioSamples: 52_920))
        #expect(short.tracks(withMediaType: .audio)[0].timeRange.duration == MediaTime(value: 35_280, timescale: 44_100))
        #expect(long.tracks(withMediaType: .audio)[0].timeRange.duration == MediaTime(value: 52_920, timescale: 44_100))
        #expect(short.duration == MediaTime(seconds: 1))
        let markers = try await Fixture.asset("markers/flash-beep.mp4")

        var composition = MutableComposition()
        let second = TimeRange(start: .zero, duration: MediaTime(seconds: 1))
        try composition.insertTimeRange(second, of: short, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: markers, at: MediaTime(seconds: 1))
        try composition.insertTimeRange(second, of: long, at: MediaTime(seconds: 4))
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: markers, at: MediaTime(seconds: 5))
        #expect(composition.duration == MediaTime(seconds: 8))

        let (_, audio) = try await Self.checkMarkers(
            composition, in: scratch, name: "lengths.mp4", flashFrames: [60, 180], beepSamples: [96_000, 288_000],
            audibleRanges: [0..<38_500, 192_000..<240_200])
        // S's tone fills [0, 0.8 s) and stops there; L's tone fills [4 s, 5 s) and is cut at 5 s.
        #expect(abs(Measure.frequency(audio[0], start: 4800, count: 28_800, sampleRate: 48_000) - 440) < 1)
        #expect(Measure.peak(audio[0], start: 38_500, count: 9_500) < 0.01, "silence where S's audio ran out")
        #expect(abs(Measure.frequency(audio[0], start: 196_800, count: 38_400, sampleRate: 48_000) - 440) < 1)
        #expect(Measure.peak(audio[0], start: 239_000, count: 700) > 0.2, "L's tone lasts to its video's end")
        #expect(Measure.peak(audio[0], start: 240_200, count: 9_600) < 0.01, "L's extra audio is cut at 5 s")
    }

    /// flash-beep (3 s), `rates/no-audio-25.mp4` (2 s, no audio track), flash-beep: silence under the silent clip, the
    /// second flash at 6 s and its beep at sample 288000 — not shifted by the missing audio.
    @Test func clipWithoutAudioBetweenClipsWithAudio() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let markers = try await Fixture.asset("markers/flash-beep.mp4")
        let silent = try await Fixture.asset("rates/no-audio-25.mp4")
        #expect(silent.tracks(withMediaType: .audio).isEmpty)
        var composition = MutableComposition()
        let three = TimeRange(start: .zero, duration: MediaTime(seconds: 3))
        try composition.insertTimeRange(three, of: markers, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: silent, at: MediaTime(seconds: 3))
        try composition.insertTimeRange(three, of: markers, at: MediaTime(seconds: 5))
        let (frames, _) = try await Self.checkMarkers(
            composition, in: scratch, name: "no-audio.mp4", flashFrames: [30, 180], beepSamples: [48_000, 288_000])
        // The silent clip's pictures are there (testsrc, not black) from 3 s to 5 s.
        #expect(Measure.meanLevel(frames[90]) > 60 && Measure.meanLevel(frames[149]) > 60)
    }

    /// A 10 ms piece (less than a frame) of the lossless marker clip between two full ones: the composition is
    /// 6.010 s, the export 181 frames and 288480 samples, and the second clip's flash and beep are 10 ms late exactly
    /// (flash at 4.010 s shown by frame 121 = 4.033 s, beep at sample 192480).
    @Test func subFrameRangeBetweenClips() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let markers = try await Fixture.asset("markers/flash-beep-lossless.mkv")
        var composition = MutableComposition()
        let three = TimeRange(start: .zero, duration: MediaTime(seconds: 3))
        try composition.insertTimeRange(three, of: markers, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .ms(500), duration: .ms(10)), of: markers, at: MediaTime(seconds: 3))
        try composition.insertTimeRange(three, of: markers, at: .ms(3010))
        #expect(composition.duration == .ms(6010))
        try await Self.checkMarkers(
            composition, in: scratch, name: "sub-frame.mp4", flashFrames: [30, 121], beepSamples: [48_000, 192_480])
    }

    /// A composition that is only 10 ms long exports one 10 ms frame and 480 samples — no absurd durations.
    @Test func tenMillisecondComposition() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let markers = try await Fixture.asset("markers/flash-beep-lossless.mkv")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .ms(1000), duration: .ms(10)), of: markers, at: .zero)
        let output = scratch.file("ten-ms.mp4")
        let result = try await MeasuredExport.export(composition, to: output)
        #expect(result.duration == .ms(10))
        let video = try #require(result.tracks(withMediaType: .video).first)
        #expect(video.video?.frameCount == 1)
        #expect(video.timeRange.duration == .ms(10))
        #expect(result.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(value: 480, timescale: 48_000))
        let frame = try #require(try await Readback.frames(of: output, at: [.zero]).first)
        #expect(Measure.meanLevel(frame) > 250, "the flash frame (source 1.000 s)")
    }

    /// Sample-exact audio cuts, through the engine's own track renderer at the source's rate (no resampling, no
    /// coding): 40 pieces of a 20 s PCM source whose every sample is distinct, mostly in order — contiguous, with
    /// gaps, one inside the frame where the previous piece ended — and twice jumping back. Each output sample is
    /// exactly the source sample its piece maps to: a piece that continues the previous one's decoder (cuts in
    /// order) and a piece that starts over (a jump back) agree with the source to the bit.
    @Test func audioCutsAreSampleExactInAndOutOfOrder() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = scratch.file("numbered.mov")
        @Sendable func value(_ index: Int, _ channel: Int) -> Float {
            Float((index * 7919 + channel * 4099) % 20_000 - 10_000) / 32_767
        }
        try PaintedMedia.write(to: url, video: nil, audio: .init(sampleRate: 48_000, channels: 2, sampleCount: 960_000, sample: value))
        let asset = try await Asset.load(from: url)
        let source = try #require(asset.tracks.first)
        #expect(source.timeRange.duration == MediaTime(seconds: 20))

        var pieces: [(start: Int, length: Int)] = []
        var cursor = 1_000
        for i in 0..<40 {
            let length = 700 + (i * 337) % 3_000
            if i == 13 || i == 29 { cursor = max(0, cursor - 50_000) }         // jump back
            pieces.append((cursor, length))
            cursor += length + [0, 0, 5_000, 1_000, 0, 24_001][i % 6] - (i % 7 == 3 ? length / 2 : 0)
        }
        var segments: [RenderSegment] = []
        var at = 0
        for piece in pieces {
            let sourceRange = TimeRange(start: MediaTime(value: Int64(piece.start), timescale: 48_000),
                                        duration: MediaTime(value: Int64(piece.length), timescale: 48_000))
            segments.append(RenderSegment(source: source, mapping: TimeMapping(
                source: sourceRange, target: TimeRange(start: MediaTime(value: Int64(at), timescale: 48_000), duration: sourceRange.duration))))
            at += piece.length
        }
        let renderer = AudioTrackRenderer(
            track: RenderTrack(trackID: 1, segments: segments), format: AudioOutputFormat(sampleRate: 48_000, channelCount: 2),
            varispeed: false, cancellation: CancellationFlag())
        var channels = Array(repeating: [Float](repeating: 9, count: at), count: 2)
        // Read in encoder-sized chunks, as the mixer does.
        var position = 0
        while position < at {
            let count = min(1024, at - position)
            var chunk = Array(repeating: [Float](repeating: 9, count: count), count: 2)
            try renderer.read(into: &chunk, offset: 0, start: Int64(position), count: count)
            for c in 0..<2 { channels[c].replaceSubrange(position..<(position + count), with: chunk[c]) }
            position += count
        }
        var wrong: [String] = []
        var offset = 0
        for (index, piece) in pieces.enumerated() {
            for i in 0..<piece.length {
                for c in 0..<2 where abs(channels[c][offset + i] - Float(Int16((value(piece.start + i, c) * 32_767).rounded())) / 32_768) > 1e-6 {
                    wrong.append("piece \(index) (source \(piece.start)) sample \(i) channel \(c)")
                    break
                }
                if wrong.count > 5 { break }
            }
            offset += piece.length
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
