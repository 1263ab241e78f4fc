import Foundation
import Testing
import Splice
import SpliceTestSupport

@Suite("AssetWriter settings")
struct AssetWriterSettingsTests {
    /// Appends 64 × 48 pictures `range` at k/30 s to `adaptor`: a flat colour with a white box moving 1 px a picture
    /// (standing still when not `moving`: then x264 finds no scene cut).
    static func appendPictures(_ adaptor: AssetWriterInputPixelBufferAdaptor, _ range: Range<Int>, moving: Bool = true) async throws {
        for index in range {
            var picture = adaptor.makePixelBuffer()
            picture.fill(with: [100, 120, 140, 255])
            picture.fill(x: moving ? index % 32 : 8, y: 8, width: 16, height: 16, with: [255, 255, 255, 255])
            try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
        }
    }

    /// Appends 0.1 s blocks `range` of a 440 Hz stereo sine at 48 kHz to `input`, each stamped `delay` samples
    /// after its place on the sine.
    static func appendSound(_ input: AssetWriterInput, _ range: Range<Int>, delay: Int = 0) async throws {
        let format = FormatDescription(mediaType: .audio, codecName: "pcm_f32le", timeScale: 48_000, sampleRate: 48_000, channelCount: 2)
        for block in range {
            let samples = (0..<4800).flatMap { index -> [Float] in
                let value = Float(0.25 * sin(2 * Double.pi * 440 * Double(block * 4800 + index) / 48_000))
                return [value, value]
            }
            try await input.append(SampleBuffer(
                presentationTime: MediaTime(value: Int64(block * 4800 + delay), timescale: 48_000),
                duration: MediaTime(value: 4800, timescale: 48_000), sampleCount: 4800, formatDescription: format,
                audioBuffer: AudioBuffer(float32: samples, sampleRate: 48_000, channelCount: 2)))
        }
    }

    /// The top-level box types of an MP4/MOV file, in order.
    static func topLevelBoxes(of url: URL) throws -> [String] {
        let data = try BinaryFile.read(url)
        var boxes: [String] = [], offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count { size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = data.count - offset }
            guard size >= 8 else { break }
            boxes.append(type)
            offset += size
        }
        return boxes
    }

    /// A writer of `url` (MOV for a `.mov` path, else MP4) with `metadata`, one 64 × 48 H.264 input (x264
    /// `ultrafast`) and a BGRA8 adaptor, started, its session at 0; fragmented when `movieFragmentInterval` is given.
    static func startedVideoWriter(_ url: URL, movieFragmentInterval: MediaTime? = nil, metadata: [MetadataItem] = []) throws
        -> (AssetWriter, AssetWriterInput, AssetWriterInputPixelBufferAdaptor) {
        let writer = try AssetWriter(outputURL: url, fileType: url.pathExtension == "mov" ? .mov : .mp4)
        if let movieFragmentInterval { writer.movieFragmentInterval = movieFragmentInterval }
        writer.metadata = metadata
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        return (writer, video, adaptor)
    }

    static func ffprobe(_ arguments: [String]) async throws -> String {
        try await CommandLineTool.run("ffprobe", ["-v", "error"] + arguments)
    }

    @Test("metadata, a display matrix, track languages and faststart are read back by ffprobe", arguments: [false, true])
    func fileDescription(faststart: Bool) async throws {
        let scratch = try ScratchDirectory("described")
        defer { scratch.remove() }
        let target = scratch.file("described.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        writer.metadata = [MetadataItem(key: "title", value: "Segments and settings"),
                           MetadataItem(key: "creation_time", value: "2026-12-04T12:00:00.000000Z")]
        writer.shouldOptimizeForNetworkUse = faststart
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        // Stored sideways, shown a quarter turn clockwise (an iPhone portrait clip's matrix).
        video.transform = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 48, ty: 0)
        video.languageCode = "eng"
        let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac)))
        audio.languageCode = "fra"
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.add(audio)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        try await Self.appendPictures(adaptor, 0..<15)
        video.markAsFinished()
        try await Self.appendSound(audio, 0..<5)
        audio.markAsFinished()
        try await writer.finishWriting()

        let tags = try await Self.ffprobe(["-show_entries", "format_tags=title,creation_time", "-of", "default=nw=1", target.path])
        #expect(tags.split(separator: "\n").sorted() == ["TAG:creation_time=2026-12-04T12:00:00.000000Z", "TAG:title=Segments and settings"])
        let languages = try await Self.ffprobe(["-show_entries", "stream=codec_type:stream_tags=language", "-of", "csv=p=0", target.path])
        // (The video row ends with an empty column for its side data.)
        #expect(languages.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) } == ["video,eng", "audio,fra"])
        let rotation = try await Self.ffprobe(["-select_streams", "v:0", "-show_entries", "stream_side_data=rotation",
                                               "-of", "csv=p=0", target.path])
        #expect(rotation.trimmingCharacters(in: .whitespacesAndNewlines) == "-90")
        let boxes = try Self.topLevelBoxes(of: target).filter { $0 == "moov" || $0 == "mdat" }
        #expect(boxes == (faststart ? ["moov", "mdat"] : ["mdat", "moov"]))
        // Splice's own reader sees the same transform.
        let asset = try await Asset.load(from: target)
        #expect(asset.tracks(withMediaType: .video).first?.preferredTransform == video.transform)
    }

    @Test("profile, level, key-frame interval and no B-frames reach the H.264 stream")
    func profileLevelAndReordering() async throws {
        let scratch = try ScratchDirectory("profile")
        defer { scratch.remove() }
        for reordering in [false, true] {
            let target = scratch.file("profile-\(reordering).mp4")
            let writer = try AssetWriter(outputURL: target, fileType: .mp4)
            let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
                VideoSettings(codec: .h264, encoderPreset: "medium", keyFrameInterval: 10), size: Size(width: 64, height: 48),
                profile: "main", level: "3.1", allowsFrameReordering: reordering))
            let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
            try writer.add(video)
            try writer.startWriting()
            writer.startSession(atSourceTime: .zero)
            try await Self.appendPictures(adaptor, 0..<30, moving: false)
            video.markAsFinished()
            try await writer.finishWriting()
            // profile, has_b_frames, level (ffprobe's order)
            let stream = try await Self.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=profile,level,has_b_frames",
                                                 "-of", "csv=p=0", target.path])
            #expect(stream.trimmingCharacters(in: .whitespacesAndNewlines) == (reordering ? "Main,2,31" : "Main,0,31"),
                    "allowsFrameReordering \(reordering)")
            let packets = try await Self.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=pts,dts,flags",
                                                  "-of", "csv=p=0", target.path])
            let rows = packets.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            #expect(rows.count == 30)
            #expect(rows.indices.filter { rows[$0][2].hasPrefix("K") } == [0, 10, 20])
            if !reordering { #expect(rows.allSatisfy { $0[0] == $0[1] }, "B-frames: presentation and decode order differ") }
        }
        let vp9 = try AssetWriter(outputURL: scratch.file("vp9.webm"), fileType: .webm)
        let refused = AssetWriterInput(mediaType: .video, outputSettings: .video(VideoSettings(codec: .vp9), size: Size(width: 64, height: 48), profile: "main"))
        #expect(throws: AssetWriterError.invalidSettings(input: "video input 0", reason: "a profile or level is set for H.264 or HEVC, not vp9")) {
            try vp9.add(refused)
        }
    }

    @Test("endSession: the tracks end at its time, sound cut at the sample, later appends refused by name")
    func endSession() async throws {
        let scratch = try ScratchDirectory("end-session")
        defer { scratch.remove() }
        let target = scratch.file("ended.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.add(audio)
        try writer.startWriting()
        #expect(throws: AssetWriterError.invalidState(operation: "end the session", reason: "the session has not started")) {
            try writer.endSession(atSourceTime: MediaTime(seconds: 1))
        }
        writer.startSession(atSourceTime: .zero)
        let end = MediaTime(value: 145, timescale: 100)   // 1.45 s
        try await Self.appendPictures(adaptor, 0..<44)    // the last at 43/30 ≈ 1.433 s
        try await Self.appendSound(audio, 0..<15)         // up to 1.5 s: past the end
        #expect(throws: AssetWriterError.invalidState(operation: "end the session at 1.450 s (145/100)",
                                                      reason: "audio input 1 already has a sample reaching 1.500 s (72000/48000)")) {
            try writer.endSession(atSourceTime: end)
        }
        try writer.endSession(atSourceTime: MediaTime(value: 3, timescale: 2))   // 1.5 s
        await #expect(throws: AssetWriterError.timeAfterSessionEnd(input: "video input 0", time: MediaTime(value: 45, timescale: 30),
                                                                   sessionEnd: MediaTime(value: 3, timescale: 2))) {
            try await Self.appendPictures(adaptor, 45..<46)
        }
        #expect(throws: AssetWriterError.self) { try writer.endSession(atSourceTime: end) }
        video.markAsFinished()
        audio.markAsFinished()
        try await writer.finishWriting()
        #expect(writer.status == .completed)
        let videoStream = try await Self.ffprobe(["-select_streams", "v:0", "-count_frames", "-show_entries",
                                                  "stream=duration_ts,nb_read_frames", "-of", "csv=p=0", target.path])
        // 44 pictures; the last lasts until 1.5 s (135000 ticks of 1/90000 s).
        #expect(videoStream.trimmingCharacters(in: .whitespacesAndNewlines) == "135000,44")
        let audioStream = try await Self.ffprobe(["-select_streams", "a:0", "-show_entries", "stream=duration", "-of", "csv=p=0", target.path])
        #expect(audioStream.trimmingCharacters(in: .whitespacesAndNewlines) == "1.500000")
    }

    @Test("endSession cuts sound appended after it at the sample")
    func endSessionCutsSound() async throws {
        let scratch = try ScratchDirectory("end-session-sound")
        defer { scratch.remove() }
        let target = scratch.file("ended.m4a")
        let writer = try AssetWriter(outputURL: target, fileType: .m4a)
        let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac)))
        try writer.add(audio)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        try await Self.appendSound(audio, 0..<14)                          // to 1.4 s
        try writer.endSession(atSourceTime: MediaTime(value: 145, timescale: 100))
        try await Self.appendSound(audio, 14..<15)                         // 1.4 ... 1.5 s, cut at 1.45 s
        audio.markAsFinished()
        try await writer.finishWriting()
        let stream = try await Self.ffprobe(["-select_streams", "a:0", "-show_entries", "stream=duration", "-of", "csv=p=0", target.path])
        #expect(stream.trimmingCharacters(in: .whitespacesAndNewlines) == "1.450000")
    }
}

@Suite("AssetWriter movie fragments")
struct AssetWriterFragmentTests {
    @Test("movieFragmentInterval: the file on disk mid-write plays up to its last fragment; the finished one is whole")
    func fragmentsReadableBeforeTheEnd() async throws {
        let scratch = try ScratchDirectory("fragments")
        defer { scratch.remove() }
        let target = scratch.file("fragmented.mp4")
        let (writer, video, adaptor) = try AssetWriterSettingsTests.startedVideoWriter(target, movieFragmentInterval: MediaTime(seconds: 1))
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<120)    // 4 s
        // What a kill now would leave: a copy of the file as it is on disk, read while the writer is still open.
        var decoded = 0
        for _ in 0..<100 where decoded < 60 {
            let copy = scratch.file("copy.mp4")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: target, to: copy)
            let frames = try? await CommandLineTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                                                    "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", copy.path])
            decoded = Int(frames?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            if decoded < 60 { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        // A fragment is written each time an appended picture reaches a whole second (holding what the encoder has
        // given by then): at least 2 s (60 pictures) become readable while the last ones are still being encoded.
        #expect(decoded >= 60 && decoded < 120, "\(decoded) pictures readable mid-write")
        video.markAsFinished()
        try await writer.finishWriting()
        let frames = try await CommandLineTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                                               "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", target.path])
        #expect(frames.trimmingCharacters(in: .whitespacesAndNewlines) == "120")
        let boxes = try AssetWriterSettingsTests.topLevelBoxes(of: target)
        #expect(boxes.filter { $0 == "moof" }.count >= 4, "\(boxes)")
    }

    @Test("movieFragmentInterval: a cancelled writer leaves nothing; other containers, intervals and text inputs are refused")
    func fragmentsRefusedAndCancelled() async throws {
        let scratch = try ScratchDirectory("fragments-refused")
        defer { scratch.remove() }
        let target = scratch.file("cancelled.mp4")
        let (writer, _, adaptor) = try AssetWriterSettingsTests.startedVideoWriter(target, movieFragmentInterval: MediaTime(seconds: 1))
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<60)
        writer.cancelWriting()
        await writer.waitUntilEnded()
        #expect(!FileManager.default.fileExists(atPath: target.path))

        let mkv = try AssetWriter(outputURL: scratch.file("a.mkv"), fileType: .mkv)
        mkv.movieFragmentInterval = MediaTime(seconds: 1)
        try mkv.add(AssetWriterInput(mediaType: .video, outputSettings: .video(size: Size(width: 64, height: 48))))
        #expect(throws: AssetWriterError.invalidState(operation: "start writing", reason: "movieFragmentInterval: a .mkv file is not fragmented")) {
            try mkv.startWriting()
        }
        let zero = try AssetWriter(outputURL: scratch.file("b.mp4"), fileType: .mp4)
        zero.movieFragmentInterval = .zero
        try zero.add(AssetWriterInput(mediaType: .video, outputSettings: .video(size: Size(width: 64, height: 48))))
        #expect(throws: AssetWriterError.invalidState(operation: "start writing", reason: "movieFragmentInterval: 0.000 s (0/1) is not a positive time")) {
            try zero.startWriting()
        }
        // A timed metadata input: a text track, whose samples come out of fragments without their durations.
        let timed = try AssetWriter(outputURL: scratch.file("c.mp4"), fileType: .mp4)
        timed.movieFragmentInterval = MediaTime(seconds: 1)
        try timed.add(AssetWriterInput(mediaType: .video, outputSettings: .video(size: Size(width: 64, height: 48))))
        try timed.add(AssetWriterInput(mediaType: .metadata, outputSettings: nil))
        #expect(throws: AssetWriterError.invalidState(
            operation: "start writing", reason: "movieFragmentInterval: metadata input 1 is written as a text track, whose samples "
                + "FFmpeg's fragmented movie muxer cannot end (their durations are lost, or the muxer aborts)")) {
            try timed.startWriting()
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("c.mp4").path))
    }
}

@Suite("AssetWriter task cancellation")
struct AssetWriterTaskCancellationTests {
    @Test("a cancelled finishWriting cancels the writer: CancellationError, status cancelled, nothing at the URL")
    func cancelledFinish() async throws {
        let scratch = try ScratchDirectory("cancelled-finish")
        defer { scratch.remove() }
        let target = scratch.file("cancelled.mp4")
        // Fragmented: written under its own name, so there is something to remove.
        let (writer, _, adaptor) = try AssetWriterSettingsTests.startedVideoWriter(target, movieFragmentInterval: MediaTime(seconds: 1))
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<30)
        #expect(FileManager.default.fileExists(atPath: target.path))
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            try await writer.finishWriting()
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(writer.status == .cancelled)
        await writer.waitUntilEnded()
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("an append in a cancelled task throws CancellationError and queues nothing")
    func cancelledAppend() async throws {
        let scratch = try ScratchDirectory("cancelled-append")
        defer { scratch.remove() }
        let (writer, _, adaptor) = try AssetWriterSettingsTests.startedVideoWriter(scratch.file("a.mp4"), movieFragmentInterval: nil)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<1)
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The refused picture did not pin the input's time: the same time is still accepted.
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<1)
        writer.cancelWriting()
    }
}
