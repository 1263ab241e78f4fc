import Foundation
import Testing
import Splice
import SpliceTestSupport

/// AAC priming in Matroska, which FFmpeg 5.1 cannot know (docs/timed-text.md): 1 s of AAC written by the `ffmpeg`
/// tool into MP4 loads as 1 s, the priming trimmed by the edit list; into Matroska as 1.024 s, the priming decoded as
/// sound — by Splice's loader and reader as by FFmpeg's own decode.
@Suite struct MatroskaPrimingTests {
    /// The sample frames an ``AssetReaderTrackOutput`` decodes from `asset`'s audio track.
    static func decodedSampleCount(of asset: Asset) async throws -> Int {
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0],
                                            outputSettings: .audio(sampleFormat: .float32))
        try reader.add(output)
        reader.startReading()
        var count = 0
        for try await sample in output { count += sample.sampleCount }
        #expect(reader.status == .completed)
        return count
    }

    /// 1 s of a 48 kHz mono tone encoded by FFmpeg's AAC encoder (1024 samples of priming) into `name`.
    static func tone(_ name: String, in scratch: ScratchDirectory) async throws -> URL {
        let url = scratch.file(name)
        _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=1",
                                                     "-c:a", "aac", url.path])
        return url
    }

    @Test func matroskaAACLoadsAndDecodesWithItsPrimingAsFFmpegDoes() async throws {
        let scratch = try ScratchDirectory("matroska-priming")
        defer { scratch.remove() }

        // MP4: the edit list trims the priming, and the track lasts exactly 1 s; FFmpeg 5.1's decode keeps the last
        // packet whole (47 packets after the priming one: 48 128 samples), and so does the reader.
        let mp4 = try await Self.tone("tone.m4a", in: scratch)
        let trimmed = try await Asset.load(from: mp4)
        #expect(trimmed.tracks(withMediaType: .audio).first?.timeRange == TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        #expect(try await CommandLineTool.decodedSampleCount(of: mp4, channels: 1) == 48_128)
        #expect(try await Self.decodedSampleCount(of: trimmed) == 48_128)

        // Matroska: FFmpeg 5.1's muxer writes no CodecDelay for AAC and moves the priming packet to 0, so nothing in
        // the file tells the priming from the sound. 48 packets of 1024 samples: 49 152, 1.024 s.
        let mkv = try await Self.tone("tone.mkv", in: scratch)
        let first = try await CommandLineTool.probe(mkv, stream: "a:0", section: "packet", entries: "pts").first
        #expect(first == ["0"])
        // The headers before the first Cluster (0x1F43B675) hold no CodecDelay element (0x56AA).
        let bytes = try Data(contentsOf: mkv)
        let cluster = try #require(bytes.range(of: Data([0x1F, 0x43, 0xB6, 0x75])))
        #expect(bytes[..<cluster.lowerBound].range(of: Data([0x56, 0xAA])) == nil)
        let loaded = try await Asset.load(from: mkv)
        #expect(loaded.tracks(withMediaType: .audio).first?.timeRange
            == TimeRange(start: .zero, duration: MediaTime(value: 1024, timescale: 1000)))
        #expect(try await CommandLineTool.decodedSampleCount(of: mkv, channels: 1) == 49_152)
        #expect(try await Self.decodedSampleCount(of: loaded) == 49_152)
    }
}
