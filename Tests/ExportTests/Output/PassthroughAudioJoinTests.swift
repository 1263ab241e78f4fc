import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Passthrough audio joined off the AAC packet grid with the source's packets kept
/// (``PassthroughAudioCuts/nearestPacket``): copied AAC starts and ends on its 1024-sample packets, so each join is
/// placed at the nearest packet boundary and its error does not add up along the track.
///
/// Source: `markers/flash-beep.mp4` (H.264 30 fps, key frames at 0, 1, 2 s; AAC 48 kHz stereo with 1024 priming
/// samples; white frame 30, 1 kHz beep from sample 48000). Every piece starts at 1 s — 46.875 packets into the
/// source's samples, off the grid — so each piece begins with its flash and its beep, and with 1600 samples per
/// frame most joins fall off the grid too. A beep's onset is the first sample above 0.05 (sin 0 = 0: one after the
/// beep's first sample); its offset is that minus the flash's first sample + 1, in samples at 48 kHz.
@Suite("Passthrough audio joins")
struct PassthroughAudioJoinTests {
    static let samplesPerFrame = 1600
    /// One AAC packet, in samples.
    static let packet = 1024
    static func frames(_ count: Int) -> MediaTime { MediaTime(value: Int64(count), timescale: 30) }

    /// Pieces of `lengths` frames, each from the source's 1 s, back to back from 0.
    static func composition(_ lengths: [Int]) async throws -> MutableComposition {
        let clip = try await Fixture.asset("markers/flash-beep.mp4")
        var composition = MutableComposition()
        var at = 0
        for length in lengths {
            try composition.insertTimeRange(TimeRange(start: MediaTime(seconds: 1), duration: frames(length)), of: clip, at: frames(at))
            at += length
        }
        return composition
    }

    /// The first sample index of each beep (magnitude above 0.05; a beep lasts 1600 samples, pieces at least 9
    /// frames).
    static func onsets(_ samples: [Float]) -> [Int] {
        var onsets: [Int] = []
        var from = 0
        while let onset = Measure.onset(samples, from: from) {
            onsets.append(onset)
            from = onset + 2 * samplesPerFrame
        }
        return onsets
    }

    /// MP4 and MOV: the source's priming or the packet before a piece is written as its pre-roll (trimmed by the
    /// muxer's edit list at the start, in place of the previous piece's last packet at a join), so each beep is
    /// within half a packet (512 samples) of its flash. Matroska has no edit list and leaves the pre-roll out: the
    /// first packet of a piece decodes without its predecessor, and a beep is within one packet (1024 samples).
    /// Either way each join's error is bounded on its own — it does not add up across the joins.
    @Test(arguments: [
        ([13, 17], FileType.mp4), ([13, 17, 9], .mp4), ([17, 13], .mp4), ([13, 17, 9], .mov),
        ([13, 17], .mkv), ([13, 17, 9], .mkv),
    ])
    func eachBeepStaysNearItsFlashWithoutBuildingUp(lengths: [Int], fileType: FileType) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("joined.\(fileType.rawValue)")
        try await PassthroughTests.export(try await Self.composition(lengths), to: output) {
            $0.outputFileType = fileType
            $0.passthroughAudioCuts = .nearestPacket
        }
        let starts = lengths.indices.map { lengths[..<$0].reduce(0, +) }
        let total = lengths.reduce(0, +)
        let label = "\(fileType.rawValue), pieces \(lengths) frames"
        let bound = fileType == .mkv ? Self.packet : Self.packet / 2

        // The flashes are on the pieces' first frames (video is exact to the frame).
        let pictures = try await MeasuredExport.frames(of: output, frameDuration: Self.frames(1), count: total)
        #expect(Measure.whiteFrames(pictures) == starts, "\(label): white frames")

        // Splice's own reader (the loader's timing, through libavformat) and the ffmpeg tool.
        let copy = try await Asset.load(from: output)
        let audioTrack = try #require(copy.tracks(withMediaType: .audio).first)
        let loaded = audioTrack.timeRange.duration.seconds * 48_000
        #expect(abs(loaded - Double(total * Self.samplesPerFrame)) <= Double(Self.packet),
                "\(label): the loader's audio lasts \(loaded) samples, the pieces \(total * Self.samplesPerFrame)")
        var decoded: [(String, [Float])] = [("Splice", try await Readback.audio(of: output)[0])]
        if let samples = try await FFmpegCommandLine.audio(of: output) {
            #expect(abs(samples.count - total * Self.samplesPerFrame) <= Self.packet,
                    "\(label): ffmpeg decodes \(samples.count) samples, the pieces last \(total * Self.samplesPerFrame)")
            decoded.append(("ffmpeg", samples))
        }
        for (reader, samples) in decoded {
            let onsets = Self.onsets(samples)
            let offsets = zip(onsets, starts).map { $0 - ($1 * Self.samplesPerFrame + 1) }
            print("\(label), \(reader): beep offsets \(offsets) samples")
            #expect(onsets.count == lengths.count, "\(label), \(reader): beep onsets \(onsets), flashes at \(starts) frames")
            for (index, offset) in offsets.enumerated() {
                #expect(abs(offset) <= bound,
                        "\(label), \(reader): beep \(index) off its flash by \(offset) samples (all: \(offsets)), bound \(bound)")
            }
        }
    }
}
