import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Passthrough keeps AAC priming: the source's priming packet (the demuxer's discarded first packet, trimmed by the
/// source's edit list) is copied as pre-roll and trimmed by the output's edit list, so the copy decodes to the
/// source's samples at the source's times; at a join, the next piece's pre-roll takes the place of the previous
/// piece's last packet, so the joined piece's first sample is on time (exact when the join falls on the packet grid,
/// 1024 samples at 48 kHz; within half a packet otherwise).
@Suite("Passthrough AAC priming")
struct PassthroughPrimingTests {
    static let frameDuration = MediaTime(value: 1, timescale: 30)
    /// 32 frames at 30 fps = 51200 samples at 48 kHz = 50 AAC packets: joins fall on the packet grid.
    static let clipFrames = 32
    static let clipSamples = 51_200
    /// The flash is the first frame and the beep starts on the first sample, where the priming matters.
    static let flashFrame = 0
    static let beepSample = 0
    /// 0.1 ms at 48 kHz.
    static let tolerance = 4.8

    /// An H.264 (x264 ultrafast: no B-frames) + AAC flash/beep clip, made by exporting synthetic media: its audio
    /// starts with the AAC encoder's priming packet and an edit list that trims it.
    static func makeClip(in scratch: ScratchDirectory) async throws -> Asset {
        let duration = frameDuration * Int64(clipFrames)
        let lossless = try await SyntheticMedia.makeAsset(
            video: .flash(atFrame: flashFrame), audio: .beep(atSample: beepSample), duration: duration, in: scratch.url, name: "source")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: duration), of: lossless, at: .zero)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(18), encoderPreset: "ultrafast"), audio: AudioSettings()))
        session.outputURL = scratch.file("clip.mp4")
        try await session.export()
        return try await Asset.load(from: scratch.file("clip.mp4"))
    }

    /// Copies `copies` back-to-back copies of the whole clip and returns the beep onsets (first sample above 0.05,
    /// one after the beep's start) and the white frames of the result.
    static func copy(_ clip: Asset, copies: Int, in scratch: ScratchDirectory) async throws -> (onsets: [Int], flashes: [Int]) {
        var composition = MutableComposition()
        let duration = frameDuration * Int64(clipFrames)
        for index in 0..<copies {
            try composition.insertTimeRange(TimeRange(start: .zero, duration: duration), of: clip, at: duration * Int64(index))
        }
        let output = scratch.file("copy\(copies).mp4")
        try await PassthroughTests.export(composition, to: output)
        let audio = try await Readback.audio(of: output)[0]
        var onsets: [Int] = []
        var from = 0
        while let onset = Measure.onset(audio, from: from) {
            onsets.append(onset)
            from = onset + 2400
        }
        let frames = try await MeasuredExport.frames(of: output, frameDuration: frameDuration, count: clipFrames * copies)
        return (onsets, Measure.whiteFrames(frames))
    }

    @Test func copiedAloneAndJoinedTwiceBeepsStayOnTheFlashes() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Self.makeClip(in: scratch)
        // The source itself: the beep on its sample (the decoder trims the priming by the edit list).
        let source = try await Readback.audio(of: scratch.file("clip.mp4"))[0]
        #expect(Measure.onset(source) == Self.beepSample + 1)

        for copies in [1, 3] {
            let (onsets, flashes) = try await Self.copy(clip, copies: copies, in: scratch)
            let expectedFlashes = (0..<copies).map { Self.flashFrame + $0 * Self.clipFrames }
            #expect(flashes == expectedFlashes, "\(copies) copies: white frames \(flashes)")
            let expectedOnsets = expectedFlashes.map { $0 * 1600 + 1 }  // 1600 samples per frame; sin 0 = 0
            #expect(onsets.count == copies, "\(copies) copies: beep onsets \(onsets), expected \(expectedOnsets)")
            for (onset, expected) in zip(onsets, expectedOnsets) {
                #expect(abs(Double(onset - expected)) <= Self.tolerance,
                        "\(copies) copies: beep onset \(onset), expected \(expected) (the flash), within 0.1 ms")
            }
        }
    }

    /// A piece starting between packets keeps its sub-packet offset: the edit list trims the pre-roll and the
    /// part of the first packet before the start.
    @Test func aCopyStartingBetweenPacketsIsSampleExact() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Fixture.asset("markers/flash-beep.mp4")  // flash frame 30, beep on sample 48000
        var composition = MutableComposition()
        // From the key frame at 1 s: the flash is the first frame, the beep the first sample (1 s = 46.875 packets).
        try composition.insertTimeRange(TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        let output = scratch.file("trim.mp4")
        try await PassthroughTests.export(composition, to: output)
        let audio = try await Readback.audio(of: output)[0]
        let onset = try #require(Measure.onset(audio))
        #expect(abs(Double(onset - 1)) <= Self.tolerance, "beep onset \(onset), expected 1")
    }
}
