import Foundation
import Testing
import Splice
import SpliceTestSupport

@Suite("AssetWriter")
struct AssetWriterTests {
    /// Decoded RGB24 pictures of `url` (via the `ffmpeg` CLI), one byte array per picture.
    static func decodedPictures(of url: URL, width: Int, height: Int) async throws -> [[UInt8]] {
        let scratch = try ScratchDirectory("rgb")
        defer { scratch.remove() }
        let raw = scratch.file("out.rgb")
        _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-fps_mode", "passthrough",
                                                     "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw.path])
        let bytes = [UInt8](try BinaryFile.read(raw))
        let size = width * height * 3
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    static func rgb(_ picture: [UInt8], width: Int, x: Int, y: Int) -> [Int] {
        let start = (y * width + x) * 3
        return picture[start..<start + 3].map(Int.init)
    }

    static func close(_ a: [Int], _ b: [Int], within tolerance: Int) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test("passthrough remux: packets byte-identical to the source, timestamps identical",
          .enabled(if: Fixture.sharedMediaIsAvailable))
    func passthroughRemux() async throws {
        let source = Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4")
        let scratch = try ScratchDirectory("remux")
        defer { scratch.remove() }
        let target = scratch.file("remux.mp4")
        let asset = try await Asset.load(from: source)
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let reader = try await PassthroughCopy.copy(asset, into: writer)
        #expect(writer.status == .completed && reader.status == .completed)

        for stream in ["v:0", "a:0"] {
            let arguments = ["-v", "error", "-select_streams", stream, "-show_data_hash", "MD5", "-show_entries",
                             "packet=pts,dts,duration,size,flags,data_hash", "-of", "csv=p=0"]
            let expected = try await CommandLineTool.run("ffprobe", arguments + [source.path])
            let actual = try await CommandLineTool.run("ffprobe", arguments + [target.path])
            #expect(actual.split(separator: "\n").count == expected.split(separator: "\n").count)
            #expect(actual == expected, "stream \(stream) differs")
        }
    }

    @Test("generated pictures, constant and variable frame rate, decode to their colours at the appended times",
          arguments: [false, true])
    func generatedPictures(variableRate: Bool) async throws {
        let scratch = try ScratchDirectory("generated")
        defer { scratch.remove() }
        let target = scratch.file("generated.mp4")
        let width = 320, height = 240
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .h264, rateControl: .constantQuality(18), encoderPreset: "veryfast"),
            size: Size(width: width, height: height)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: input, pixelFormat: .bgra8)
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)

        // 30 pictures: a background of red, green, blue (10 each) with a 32 × 32 white box moving 8 px right each.
        let backgrounds: [[UInt8]] = [[0, 0, 255, 255], [0, 255, 0, 255], [255, 0, 0, 255]]  // BGRA
        // Variable rate: the gaps alternate 1/30 s and 2/30 s; constant: 1/30 s.
        var ticks: [Int64] = [0]
        for index in 1..<30 { ticks.append(ticks[index - 1] + (variableRate && index % 2 == 0 ? 6000 : 3000)) }
        let times = ticks.map { MediaTime(value: $0, timescale: 90_000) }
        for index in 0..<30 {
            var picture = adaptor.makePixelBuffer()
            picture.fill(with: backgrounds[index / 10])
            picture.fill(x: 16 + 8 * index, y: 100, width: 32, height: 32, with: [255, 255, 255, 255])
            try await adaptor.append(picture, withPresentationTime: times[index])
        }
        input.markAsFinished()
        try await writer.finishWriting()
        #expect(writer.status == .completed)

        let frames = try await CommandLineTool.probe(target, stream: "v:0", section: "frame", entries: "pts")
        #expect(frames.map { Int64($0[0])! } == ticks)
        // Each packet lasts until the next picture; the last one the nominal 1/30 s.
        // The track lasts until the last picture's time plus the nominal 1/30 s (3000 ticks).
        let stream = try await CommandLineTool.probe(target, stream: "v:0", section: "stream", entries: "duration_ts")
        #expect(stream == [["\(ticks.last! + 3000)"]])
        #expect(writer.peakQueuedSampleCount <= 8)
        // Pictures made far faster than x264 encodes them: the queue fills, to its one picture and no more.
        #expect(writer.peakQueuedPictureCount == 1, "pictures queued at once: \(writer.peakQueuedPictureCount)")
        let pictures = try await Self.decodedPictures(of: target, width: width, height: height)
        #expect(pictures.count == 30)
        let expected = [[255, 0, 0], [0, 255, 0], [0, 0, 255]]
        for (index, picture) in pictures.enumerated() {
            // x264 at CRF 18 through BT.709 4:2:0: flat colours come back within 6 levels.
            let background = Self.rgb(picture, width: width, x: 300, y: 20)
            let box = Self.rgb(picture, width: width, x: 16 + 8 * index + 16, y: 116)
            #expect(Self.close(background, expected[index / 10], within: 6), "picture \(index): background \(background)")
            #expect(Self.close(box, [255, 255, 255], within: 6), "picture \(index): box \(box)")
        }
    }

    @Test("one picture changed and appended again and again: each is written as it was when appended")
    func pictureChangedAfterAppend() async throws {
        // The writer reads an appended picture's own bytes where they are, later; the producer changing its copy at
        // once must not reach them.
        let scratch = try ScratchDirectory("changed")
        defer { scratch.remove() }
        let target = scratch.file("changed.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .h264, rateControl: .constantQuality(18), encoderPreset: "ultrafast"),
            size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: input, pixelFormat: .bgra8)
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let colours: [[UInt8]] = [[0, 0, 255, 255], [0, 255, 0, 255], [255, 0, 0, 255], [255, 255, 255, 255]]  // BGRA
        var picture = adaptor.makePixelBuffer()
        for index in 0..<24 {
            picture.fill(with: colours[index % 4])
            try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
        }
        picture.fill(with: [0, 0, 0, 255])
        input.markAsFinished()
        try await writer.finishWriting()
        #expect(writer.status == .completed)
        let pictures = try await Self.decodedPictures(of: target, width: 64, height: 48)
        #expect(pictures.count == 24)
        let expected = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]
        for (index, decoded) in pictures.enumerated() {
            let centre = Self.rgb(decoded, width: 64, x: 32, y: 24)
            #expect(Self.close(centre, expected[index % 4], within: 6), "picture \(index): \(centre)")
        }
    }

    @Test("MOV and Matroska files from NV12 and planar 4:2:0 pictures: every picture, its time and a mid grey", arguments: [
        (FileType.mov, PixelBuffer.PixelFormat.nv12), (.mkv, .yuv420p), (.mov, .yuv420p), (.mkv, .nv12),
    ])
    func yuvPicturesInOtherContainers(fileType: FileType, format: PixelBuffer.PixelFormat) async throws {
        let scratch = try ScratchDirectory("containers")
        defer { scratch.remove() }
        let target = scratch.file("grey.\(fileType.rawValue)")
        let writer = try AssetWriter(outputURL: target, fileType: fileType)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: input, pixelFormat: format)
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for index in 0..<10 {
            var picture = adaptor.makePixelBuffer()
            // Y 126, Cb = Cr = 128: BT.709 limited-range mid grey, RGB 128.
            picture.planes[0].bytes = [UInt8](repeating: 126, count: picture.planes[0].bytes.count)
            for plane in 1..<picture.planes.count {
                picture.planes[plane].bytes = [UInt8](repeating: 128, count: picture.planes[plane].bytes.count)
            }
            try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
        }
        input.markAsFinished()
        try await writer.finishWriting()
        let frames = try await CommandLineTool.probe(target, stream: "v:0", section: "frame", entries: "pts_time")
        // Matroska stores whole milliseconds.
        let expected = (0..<10).map { index in
            fileType == .mkv ? String(format: "%.6f", (Double(index) * 1000 / 30).rounded() / 1000)
                             : String(format: "%.6f", Double(index) / 30)
        }
        #expect(frames.map { $0[0] } == expected)
        let pictures = try await Self.decodedPictures(of: target, width: 64, height: 48)
        #expect(pictures.count == 10)
        for picture in pictures {
            let centre = Self.rgb(picture, width: 64, x: 32, y: 24)
            #expect(Self.close(centre, [128, 128, 128], within: 3), "centre \(centre)")
        }
    }

    @Test("a reader → writer transcode keeps every picture and its time, at the bit rate asked")
    func transcodeLoop() async throws {
        let source = Fixture.url("canonical/clipA.mp4")
        let scratch = try ScratchDirectory("transcode")
        defer { scratch.remove() }
        let target = scratch.file("transcode.mp4")
        let asset = try await Asset.load(from: source)
        let video = asset.tracks(withMediaType: .video)[0], audio = asset.tracks(withMediaType: .audio)[0]
        let reader = AssetReader(asset: asset)
        let pictures = AssetReaderTrackOutput(track: video, outputSettings: .video(pixelFormat: .yuv420p))
        let sound = AssetReaderTrackOutput(track: audio, outputSettings: .audio(sampleFormat: .float32))
        try reader.add(pictures)
        try reader.add(sound)
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let videoInput = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .h264, rateControl: .averageBitRate(500_000), encoderPreset: "veryfast"),
            size: video.naturalSize!, frameDuration: video.video!.minFrameDuration, timeScale: video.naturalTimeScale))
        let audioInput = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac, bitRate: 96_000)))
        try writer.add(videoInput)
        try writer.add(audioInput)
        reader.startReading()
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (output, input) in [(pictures, videoInput), (sound, audioInput)] {
                group.addTask {
                    for try await sample in output { try await input.append(sample) }
                    input.markAsFinished()
                }
            }
            try await group.waitForAll()
        }
        try await writer.finishWriting()
        let frames = try await CommandLineTool.probe(target, stream: "v:0", section: "frame", entries: "pts_time")
        let expected = try await CommandLineTool.probe(source, stream: "v:0", section: "frame", entries: "pts_time")
        #expect(frames.count == 120)
        #expect(frames == expected)
        let streams = try await CommandLineTool.probe(target, stream: "a:0", section: "stream", entries: "codec_name,sample_rate,channels")
        #expect(streams == [["aac", "48000", "2"]])
    }

    @Test("generated sound is encoded to AAC with every sample appended, at the appended level")
    func generatedSound() async throws {
        let scratch = try ScratchDirectory("sound")
        defer { scratch.remove() }
        let target = scratch.file("tone.m4a")
        let writer = try AssetWriter(outputURL: target, fileType: .m4a)
        let input = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac, bitRate: 128_000)))
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        // 2 s of a 1 kHz sine at 0.5 (−6 dBFS), stereo 48 kHz, appended in blocks of 4800 samples (0.1 s).
        for block in 0..<20 {
            var samples: [Float] = []
            for index in 0..<4800 {
                let value = Float(0.5 * sin(2 * Double.pi * 1000 * Double(block * 4800 + index) / 48_000))
                samples += [value, value]
            }
            let buffer = AudioBuffer(float32: samples, sampleRate: 48_000, channelCount: 2)
            let format = FormatDescription(mediaType: .audio, codecName: "pcm_f32le", timeScale: 48_000,
                                           sampleRate: 48_000, channelCount: 2)
            try await input.append(SampleBuffer(presentationTime: MediaTime(value: Int64(block * 4800), timescale: 48_000),
                                                duration: MediaTime(value: 4800, timescale: 48_000), sampleCount: 4800,
                                                formatDescription: format, audioBuffer: buffer))
        }
        input.markAsFinished()
        try await writer.finishWriting()
        // The track says exactly the 2 s appended (mdhd and edit list); FFmpeg 5.1 decodes an AAC track up to one
        // frame (1024 samples) long (Fixtures/README.md: 144384 samples for a 144000-sample track).
        let stream = try await CommandLineTool.probe(target, stream: "a:0", section: "stream", entries: "duration")
        #expect(stream == [["2.000000"]])
        let count = try await CommandLineTool.decodedSampleCount(of: target, channels: 2)
        #expect((96_000...97_024).contains(count), "decoded \(count) samples")
        let asset = try await Asset.load(from: target)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks[0], outputSettings: .audio(sampleFormat: .float32))
        try reader.add(output)
        reader.startReading()
        var decoded: [Float] = []
        for try await sample in output { decoded += sample.audioBuffer?.floatSamples ?? [] }
        // AAC at 128 kb/s, between 0.1 s and 1.9 s: RMS within 1 % of the sine's 0.35355, peak within 3 % of 0.5.
        let middle = decoded[9600..<182_400]
        let rms = (middle.reduce(0) { $0 + Double($1) * Double($1) } / Double(middle.count)).squareRoot()
        let peak = middle.map(abs).max() ?? 0
        #expect(abs(rms - 0.353553) < 0.0035, "RMS \(rms)")
        #expect(abs(peak - 0.5) < 0.015, "peak \(peak)")
    }

    @Test("appends out of order, before the session, after markAsFinished, or of the wrong picture are refused by name")
    func refusedAppends() async throws {
        let scratch = try ScratchDirectory("errors")
        defer { scratch.remove() }
        let target = scratch.file("errors.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: input, pixelFormat: .rgba8)
        try writer.add(input)
        try writer.startWriting()
        #expect(throws: AssetWriterError.invalidState(operation: "add an input", reason: "the writer has already started")) {
            try writer.add(AssetWriterInput(mediaType: .audio, outputSettings: nil))
        }
        let picture = adaptor.makePixelBuffer()
        let second = MediaTime(value: 1, timescale: 1)
        await #expect(throws: AssetWriterError.appendBeforeSessionStart(input: "video input 0")) {
            try await adaptor.append(picture, withPresentationTime: .zero)
        }
        writer.startSession(atSourceTime: .zero)
        try await adaptor.append(picture, withPresentationTime: second)
        await #expect(throws: AssetWriterError.nonIncreasingTime(input: "video input 0", previous: second, appended: .zero)) {
            try await adaptor.append(picture, withPresentationTime: .zero)
        }
        let wrongSize = PixelBuffer(width: 32, height: 48, pixelFormat: .rgba8)
        await #expect(throws: AssetWriterError.pictureMismatch(input: "video input 0", expected: "64×48 rgba8", appended: "32×48 rgba8")) {
            try await adaptor.append(wrongSize, withPresentationTime: second + second)
        }
        let wrongFormat = PixelBuffer(width: 64, height: 48, pixelFormat: .bgra8)
        await #expect(throws: AssetWriterError.pictureMismatch(input: "video input 0", expected: "64×48 rgba8", appended: "64×48 bgra8")) {
            try await adaptor.append(wrongFormat, withPresentationTime: second + second)
        }
        input.markAsFinished()
        await #expect(throws: AssetWriterError.appendAfterMarkAsFinished(input: "video input 0")) {
            try await adaptor.append(picture, withPresentationTime: second + second)
        }
        try await writer.finishWriting()
        let frames = try await CommandLineTool.probe(target, stream: "v:0", section: "frame", entries: "pts_time")
        #expect(frames == [["1.000000"]])
        #expect(throws: AssetWriterError.outputFileExists(target)) { try AssetWriter(outputURL: target, fileType: .mp4) }
    }

    @Test("a refused sample leaves the input as it was: a picture before the session start does not pin its format")
    func refusedSampleChangesNothing() async throws {
        let scratch = try ScratchDirectory("refused")
        defer { scratch.remove() }
        let target = scratch.file("refused.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        try writer.add(input)
        try writer.startWriting()
        let start = MediaTime(value: 1, timescale: 1)
        writer.startSession(atSourceTime: start)
        func sample(_ format: PixelBuffer.PixelFormat, at time: MediaTime) -> SampleBuffer {
            SampleBuffer(presentationTime: time, duration: .zero,
                         formatDescription: FormatDescription(mediaType: .video, codecName: "rawvideo", timeScale: 30),
                         imageBuffer: PixelBuffer(width: 64, height: 48, pixelFormat: format))
        }
        let early = MediaTime(value: 1, timescale: 2)
        await #expect(throws: AssetWriterError.timeBeforeSessionStart(input: "video input 0", time: early, sessionStart: start)) {
            try await input.append(sample(.nv12, at: early))
        }
        try await input.append(sample(.bgra8, at: start))
        input.markAsFinished()
        try await writer.finishWriting()
        // The session start lands at 0 in the file.
        let frames = try await CommandLineTool.probe(target, stream: "v:0", section: "frame", entries: "pts_time")
        #expect(frames == [["0.000000"]])
    }

    @Test("cancelWriting leaves nothing at the output URL or beside it")
    func cancelLeavesNothing() async throws {
        let scratch = try ScratchDirectory("cancel")
        defer { scratch.remove() }
        let target = scratch.file("cancelled.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let input = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: input)
        try writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for index in 0..<20 {
            try await adaptor.append(adaptor.makePixelBuffer(), withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
        }
        writer.cancelWriting()
        await writer.waitUntilEnded()
        #expect(writer.status == .cancelled)
        #expect(scratch.contents.isEmpty, "left \(scratch.contents)")
        await #expect(throws: AssetWriterError.self) {
            try await adaptor.append(adaptor.makePixelBuffer(), withPresentationTime: MediaTime(value: 40, timescale: 30))
        }
    }
}
