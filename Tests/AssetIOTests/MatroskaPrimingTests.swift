import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Priming in Matroska (docs/timed-text-metadata.md). AAC written by the `ffmpeg` tool states none, which FFmpeg 5.1 cannot
/// know: 1 s of it into MP4 loads as 1 s, the priming trimmed by the edit list; into Matroska as 1.024 s, the priming
/// decoded as sound — by Splice's loader and reader as by FFmpeg's own decode. A track stating its priming as
/// `CodecDelay` (Opus, as FFmpeg writes it; AAC, as other muxers do) loads and decodes without it.
@Suite struct MatroskaPrimingTests {
    /// The sample frames an ``AssetReaderTrackOutput`` decodes from `asset`'s audio track.
    static func decodedSampleCount(of asset: Asset) async throws -> Int {
        try await decodedSound(of: asset).count
    }

    /// The sample frames an ``AssetReaderTrackOutput`` decodes from `asset`'s audio track, and the presentation time
    /// of the first.
    static func decodedSound(of asset: Asset) async throws -> (count: Int, start: MediaTime?) {
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0],
                                            outputSettings: .audio(sampleFormat: .float32))
        try reader.add(output)
        reader.startReading()
        var count = 0
        var start: MediaTime?
        for try await sample in output {
            start = start ?? sample.presentationTime
            count += sample.sampleCount
        }
        #expect(reader.status == .completed)
        return (count, start)
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
        let bytes = try BinaryFile.read(mkv)
        let cluster = try #require(bytes.range(of: Data([0x1F, 0x43, 0xB6, 0x75])))
        #expect(bytes[..<cluster.lowerBound].range(of: Data([0x56, 0xAA])) == nil)
        let loaded = try await Asset.load(from: mkv)
        #expect(loaded.tracks(withMediaType: .audio).first?.timeRange
            == TimeRange(start: .zero, duration: MediaTime(value: 1024, timescale: 1000)))
        #expect(try await CommandLineTool.decodedSampleCount(of: mkv, channels: 1) == 49_152)
        #expect(try await Self.decodedSampleCount(of: loaded) == 49_152)
    }

    /// Little-endian 32-bit float samples of a raw `f32le` file.
    static func floats(_ url: URL) throws -> [Float] {
        let data = try BinaryFile.read(url)
        return stride(from: 0, to: data.count - 3, by: 4).map { (offset: Int) -> Float in
            var bits: UInt32 = 0
            for byte in (0..<4).reversed() { bits = bits << 8 | UInt32(data[data.startIndex + offset + byte]) }
            return Float(bitPattern: bits)
        }
    }

    /// FFmpeg's decode of `url`'s first audio stream as 32-bit floats.
    static func decodedSamples(of url: URL, in scratch: ScratchDirectory) async throws -> [Float] {
        let raw = scratch.file(url.lastPathComponent + ".f32")
        _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le", "-y", raw.path])
        return try floats(raw)
    }

    @Test func opusCodecDelayIsTheTracksStartAsFFmpegDecodesIt() async throws {
        let scratch = try ScratchDirectory("matroska-codec-delay")
        defer { scratch.remove() }
        // 1 s of 30 fps pictures and 1 s of a 48 kHz mono tone in Opus: libopus primes 312 samples (6.5 ms), which
        // FFmpeg's muxer writes as CodecDelay and its demuxer gives back as initial_padding, the track's timestamps
        // moved back by it rounded to the millisecond (first packet at -7 ms).
        let mkv = scratch.file("opus.mkv")
        _ = try await CommandLineTool.run("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=s=160x120:r=30:d=1", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=1",
            "-c:v", "libx264", "-bf", "0", "-c:a", "libopus", mkv.path])
        let bytes = try BinaryFile.read(mkv)
        let cluster = try #require(bytes.range(of: Data([0x1F, 0x43, 0xB6, 0x75])))
        #expect(bytes[..<cluster.lowerBound].range(of: Data([0x56, 0xAA])) != nil)
        #expect(try await CommandLineTool.probe(mkv, stream: "a:0", section: "packet", entries: "pts").first == ["-7"])

        // FFmpeg's decode: 48 000 samples, the first kept one at 0 ms; the first picture at 7 ms (the muxer moved
        // every track later by the priming, rounded, so that none starts before 0).
        let firstSound = try await CommandLineTool.probe(mkv, stream: "a:0", section: "frame", entries: "best_effort_timestamp").first
        let firstPicture = try await CommandLineTool.probe(mkv, stream: "v:0", section: "frame", entries: "best_effort_timestamp").first
        #expect(firstSound == ["0"])
        #expect(firstPicture == ["7"])
        #expect(try await CommandLineTool.decodedSampleCount(of: mkv, channels: 1) == 48_000)

        let asset = try await Asset.load(from: mkv)
        let sound = try #require(asset.tracks(withMediaType: .audio).first)
        let picture = try #require(asset.tracks(withMediaType: .video).first)
        // The sound starts where FFmpeg's decode starts it, 7 ms before the first picture.
        #expect(sound.startTimeOffset == .zero)
        #expect(picture.startTimeOffset == MediaTime(value: 7, timescale: 1000))
        #expect(sound.timeRange == TimeRange(start: .zero, duration: MediaTime(value: 1000, timescale: 1000)))
        // The reader gives FFmpeg's samples, the first at FFmpeg's time.
        let decoded = try await Self.decodedSound(of: asset)
        #expect(decoded.count == 48_000)
        #expect(decoded.start == .zero)

        // An export of its second half plays the sound sample for sample as FFmpeg decodes it there (PCM out: the
        // export's decode is exactly what its encoder was given; the cut seeks, and the first frame decoded is
        // placed by its timestamp against the track's start).
        let session = AssetExportSession(asset: try MutableComposition(asset: asset), settings: ExportSettings(
            video: VideoSettings(codec: .ffv1), audio: AudioSettings(codec: .pcm, channelCount: 1)))
        session.timeRange = TimeRange(start: MediaTime(value: 1, timescale: 2), duration: MediaTime(value: 1, timescale: 2))
        let exported = scratch.file("export.mkv")
        session.outputURL = exported
        try await session.export()
        let source = try await Self.decodedSamples(of: mkv, in: scratch)
        let export = try await Self.decodedSamples(of: exported, in: scratch)
        #expect(source.count == 48_000)
        #expect(export.count == 24_000)
        let worst = zip(source.dropFirst(24_000).prefix(4800), export.prefix(4800)).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 0.001)
    }

    @Test func aacCodecDelayIsTrimmedAsMP4sEditListTrimsIt() async throws {
        let scratch = try ScratchDirectory("matroska-aac-codec-delay")
        defer { scratch.remove() }
        // FFmpeg writes no CodecDelay for AAC: its Language element ("und", 7 bytes) is replaced by a CodecDelay of
        // the same size stating the encoder's 1024 samples (21 333 333 ns), as other muxers write it.
        let plain = scratch.file("plain.mkv")
        _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=1",
                                                     "-c:a", "aac", "-write_crc32", "0", plain.path])
        var bytes = try BinaryFile.read(plain)
        let language = try #require(bytes.range(of: Data([0x22, 0xB5, 0x9C, 0x83, 0x75, 0x6E, 0x64])))
        bytes.replaceSubrange(language, with: [0x56, 0xAA, 0x84, 0x01, 0x45, 0x85, 0x55])
        let mkv = scratch.file("delay.mkv")
        try bytes.write(to: mkv)
        // FFmpeg 5.1 moves the timestamps back by it (the first packet at -21 ms) but decodes the priming as sound.
        #expect(try await CommandLineTool.probe(mkv, stream: "a:0", section: "packet", entries: "pts").first == ["-21"])
        #expect(try await CommandLineTool.decodedSampleCount(of: mkv, channels: 1) == 49_152)

        // Splice drops it, as from MP4: the 48 128 samples FFmpeg decodes from the same second in MP4, from 0.
        let mp4 = try await Self.tone("tone.m4a", in: scratch)
        #expect(try await CommandLineTool.decodedSampleCount(of: mp4, channels: 1) == 48_128)
        let asset = try await Asset.load(from: mkv)
        let sound = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(sound.startTimeOffset == .zero)
        #expect(sound.timeRange == TimeRange(start: .zero, duration: MediaTime(value: 48_128, timescale: 48_000)))
        let decoded = try await Self.decodedSound(of: asset)
        #expect(decoded.count == 48_128)
        #expect(decoded.start == .zero)
    }
}
