import Foundation
import Testing
import Splice
import SpliceTestSupport

/// ``AssetWriter/movieFragmentInterval`` against a regular movie written by the same writer from the same samples:
/// H.264 with B-frames (x264 `veryfast`) and AAC, so the pictures' reordering delay and the encoder's 1024 priming
/// samples must both be hidden by the tracks' edit lists. Read back by `ffprobe` (packet times) and `ffmpeg`
/// (decoded sound), and box by box (``MovieFragmentScan``).
@Suite("AssetWriter fragmented timing")
struct AssetWriterFragmentTimingTests {
    /// 440 Hz at 0.25 (linear), the sound ``AssetWriterSettingsTests/appendSound(_:_:)`` appends.
    static func sine(_ sample: Int) -> Float { Float(0.25 * sin(2 * Double.pi * 440 * Double(sample) / 48_000)) }

    /// Writes 3 s to `url`: 90 pictures of 64 × 48 at 30 fps and 30 blocks of 0.1 s of stereo sound at 48 kHz,
    /// encoded as H.264 (`veryfast`) and AAC; a fragment every `movieFragmentInterval` when given. `interleaved`:
    /// appended 3 pictures, then 0.1 s of sound, and so on; else every picture first, then all the sound.
    static func write(_ url: URL, movieFragmentInterval: MediaTime?, interleaved: Bool = true) async throws {
        let (writer, video, audio, adaptor) = try startedWriter(url, movieFragmentInterval: movieFragmentInterval)
        if interleaved {
            for block in 0..<30 {
                try await AssetWriterSettingsTests.appendPictures(adaptor, 3 * block..<3 * block + 3)
                try await AssetWriterSettingsTests.appendSound(audio, block..<block + 1)
            }
        } else {
            try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<90)
            try await AssetWriterSettingsTests.appendSound(audio, 0..<30)
        }
        video.markAsFinished()
        audio.markAsFinished()
        try await writer.finishWriting()
    }

    /// An MP4 writer of `url` with a 64 × 48 H.264 input (`veryfast`: B-frames) with a BGRA8 adaptor and an AAC
    /// input, started, its session at 0; fragmented every `movieFragmentInterval` when given.
    static func startedWriter(_ url: URL, movieFragmentInterval: MediaTime?) throws
        -> (AssetWriter, video: AssetWriterInput, audio: AssetWriterInput, AssetWriterInputPixelBufferAdaptor) {
        let writer = try AssetWriter(outputURL: url, fileType: .mp4)
        if let movieFragmentInterval { writer.movieFragmentInterval = movieFragmentInterval }
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "veryfast"), size: Size(width: 64, height: 48)))
        let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.add(audio)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        return (writer, video, audio, adaptor)
    }

    /// The left channel of the sound `ffmpeg` decodes from `url` (edit lists applied), as Float32.
    static func decodedLeftChannel(of url: URL, in scratch: ScratchDirectory) async throws -> [Float] {
        let raw = scratch.file(url.deletingPathExtension().lastPathComponent + ".raw")
        _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le", "-y", raw.path])
        let data = try BinaryFile.read(raw)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
    }

    /// Interleaved samples with 1 s fragments; and every picture before any sound with 0.5 s fragments, where the
    /// first fragment (with the `moov`) waits until the sound's first packets reach the muxer.
    @Test("movieFragmentInterval: pictures and sound start where the regular movie's do, priming and B-frame delay hidden",
          arguments: [(true, MediaTime(seconds: 1)), (false, MediaTime(value: 1, timescale: 2))])
    func fragmentedStartsAsTheRegularMovie(interleaved: Bool, interval: MediaTime) async throws {
        let scratch = try ScratchDirectory("fragment-timing")
        defer { scratch.remove() }
        let regular = scratch.file("regular.mp4"), fragmented = scratch.file("fragmented.mp4")
        try await Self.write(regular, movieFragmentInterval: nil, interleaved: interleaved)
        try await Self.write(fragmented, movieFragmentInterval: interval, interleaved: interleaved)

        // The regular movie: B-frames (the first picture decoded before time 0), pictures shown from 0.
        let regularPackets = try await CommandLineTool.probe(regular, stream: "v:0", section: "packet", entries: "pts_time,dts_time")
        #expect(regularPackets.count == 90)
        #expect(regularPackets.first?.first == "0.000000" && (Double(regularPackets.first?.last ?? "") ?? 0) < 0,
                "\(regularPackets.prefix(3))")
        // The fragmented one: the same packets at the same times.
        let fragmentedPackets = try await CommandLineTool.probe(fragmented, stream: "v:0", section: "packet", entries: "pts_time,dts_time")
        let samePackets = fragmentedPackets == regularPackets
        #expect(samePackets, "fragmented \(fragmentedPackets.prefix(3)) vs regular \(regularPackets.prefix(3))")
        // The sound: in the regular movie from 0, the priming cut off by FFmpeg's demuxer; in the fragmented one the
        // priming before 0 (FFmpeg 5.1's demuxer places a fragmented track by its edit list but decodes the samples
        // it hides, at negative times), then the same samples from 0. Without the edit list the fragmented sound would
        // start at 0 with the priming: every sample 21.3 ms late.
        let regularStart = try await CommandLineTool.probe(regular, stream: "a:0", section: "stream", entries: "start_time")
        let fragmentedStart = try await CommandLineTool.probe(fragmented, stream: "a:0", section: "stream", entries: "start_time")
        #expect(regularStart == [["0.000000"]] && fragmentedStart == [["-0.021333"]], "\(regularStart) \(fragmentedStart)")
        let regularSound = try await Self.decodedLeftChannel(of: regular, in: scratch)
        let fragmentedSound = Array(try await Self.decodedLeftChannel(of: fragmented, in: scratch).dropFirst(1024))
        // The sine's own samples from sample 0 (AAC within 0.02); 3 s (144 000 samples, the last packet's padding aside).
        let error = (0..<4800).map { abs(regularSound[$0] - Self.sine($0)) }.max() ?? 1
        #expect(error < 0.02, "regular: max difference from the sine over the first 0.1 s: \(error)")
        #expect(regularSound.count >= 144_000 && regularSound.count < 144_000 + 1024, "\(regularSound.count)")
        #expect(fragmentedSound.count == regularSound.count)
        let firstDifference = fragmentedSound.indices.first { $0 >= regularSound.count || fragmentedSound[$0] != regularSound[$0] }
        #expect(firstDifference == nil, "fragmented differs from the regular movie from sample \(firstDifference ?? -1)")

        // Splice's reader: both tracks start at 0, and the sound decodes to the same samples from 0 in both files.
        var sounds: [[Float]] = []
        for url in [regular, fragmented] {
            let asset = try await Asset.load(from: url)
            #expect(asset.tracks.map(\.timeRange.start) == [.zero, .zero], "\(url.lastPathComponent)")
            let reader = AssetReader(asset: asset)
            let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: .audio(sampleFormat: .float32))
            try reader.add(output)
            reader.startReading()
            var samples: [Float] = []
            for try await sample in output { samples += try #require(sample.audioBuffer).floatSamples }
            sounds.append(samples)
        }
        #expect(sounds[0].count == 2 * regularSound.count && sounds[1] == sounds[0], "\(sounds.map(\.count))")

        // Box by box: the moov written with the first fragment, edit lists hiding the priming and reordering delay.
        let scan = try MovieFragmentScan(url: fragmented)
        #expect(Array(scan.topLevel.prefix(4)) == ["ftyp", "moov", "moof", "mdat"], "\(scan.topLevel)")
        #expect(scan.editStart[2] == 1024, "\(scan.editStart)")
        #expect((scan.editStart[1] ?? 0) > 0, "\(scan.editStart)")
        #expect(scan.fragments.count >= 3, "\(scan.fragments.count) fragments")
        #expect(scan.durations(ofTrack: 1).count == 90)
    }

    /// Sound appended 2000 samples (41.667 ms) after the first picture: its edit list starts it with an empty edit of
    /// exactly 2000 - 1024 samples (the priming just before it), in a movie timescale of the sample rate, where
    /// milliseconds would give 960 (20 ms) and start every sample 16 samples early.
    @Test("movieFragmentInterval: sound starting 2000 samples late is placed to the sample, in both the fragments and the regular movie",
          arguments: [nil, MediaTime(seconds: 1)])
    func lateSoundIsPlacedToTheSample(interval: MediaTime?) async throws {
        let scratch = try ScratchDirectory("fragment-late-sound")
        defer { scratch.remove() }
        let url = scratch.file("late.mp4")
        let (writer, video, audio, adaptor) = try Self.startedWriter(url, movieFragmentInterval: interval)
        for block in 0..<10 {
            try await AssetWriterSettingsTests.appendPictures(adaptor, 3 * block..<3 * block + 3)
            try await AssetWriterSettingsTests.appendSound(audio, block..<block + 1, delay: 2000)
        }
        video.markAsFinished()
        audio.markAsFinished()
        try await writer.finishWriting()

        let scan = try MovieFragmentScan(url: url)
        #expect(scan.movieTimescale == 48_000)
        let edits = scan.edits[2]?.map { [$0.segmentDuration, $0.mediaTime] }
        #expect(edits?.first == [976, -1] && edits?.dropFirst().first?.last == 0, "\(edits ?? [])")
        let start = try await CommandLineTool.probe(url, stream: "a:0", section: "stream", entries: "start_time")
        #expect(start == [["0.020333"]], "\(start)")
    }
}
