import Foundation
import Testing
import Splice
import SpliceFFmpeg
import SpliceTestSupport

/// Keeps every segment report and forwards the segments to an ``HLSSegmentFileWriter``.
final class SegmentRecorder: AssetWriterDelegate {
    let files: HLSSegmentFileWriter
    private let recorded = Locked<[(type: AssetSegmentType, report: AssetSegmentReport?, bytes: Int)]>([])

    init(files: HLSSegmentFileWriter) { self.files = files }

    var segments: [(type: AssetSegmentType, report: AssetSegmentReport?, bytes: Int)] { recorded.withLock { $0 } }

    func assetWriter(_ writer: AssetWriter, didOutputSegmentData segmentData: Data, segmentType: AssetSegmentType,
                     segmentReport: AssetSegmentReport?) throws {
        recorded.withLock { $0.append((segmentType, segmentReport, segmentData.count)) }
        try files.assetWriter(writer, didOutputSegmentData: segmentData, segmentType: segmentType, segmentReport: segmentReport)
    }
}

@Suite("AssetWriter segments")
struct AssetWriterSegmentTests {
    /// Writes `seconds` s of generated 160 × 120 pictures at 30 fps (a key frame every `keyFrameInterval` pictures, a
    /// white box moving over grey) and of a 440 Hz stereo sine at 48 kHz as segments into `folder`.
    static func writeSegments(into folder: URL, profile: AssetWriterFileTypeProfile, interval: MediaTime,
                              initialStart: MediaTime = .zero, seconds: Int = 6,
                              keyFrameInterval: Int = 30) async throws -> (AssetWriter, SegmentRecorder) {
        let writer = try AssetWriter(contentType: .mp4)
        writer.outputFileTypeProfile = profile
        writer.preferredOutputSegmentInterval = interval
        writer.initialSegmentStartTime = initialStart
        let recorder = SegmentRecorder(files: try HLSSegmentFileWriter(directory: folder))
        writer.delegate = recorder
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .h264, rateControl: .constantQuality(23), encoderPreset: "veryfast",
                          keyFrameInterval: keyFrameInterval),
            size: Size(width: 160, height: 120)))
        let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .aac, bitRate: 96_000)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.add(audio)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let pictureCount = 30 * seconds, blockCount = 10 * seconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<pictureCount {
                    var picture = adaptor.makePixelBuffer()
                    picture.fill(with: [128, 128, 128, 255])
                    picture.fill(x: index % 128, y: 40, width: 32, height: 32, with: [255, 255, 255, 255])
                    try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
                }
                video.markAsFinished()
            }
            group.addTask {
                let format = FormatDescription(mediaType: .audio, codecName: "pcm_f32le", timeScale: 48_000,
                                               sampleRate: 48_000, channelCount: 2)
                for block in 0..<blockCount {
                    var samples: [Float] = []
                    for index in 0..<4800 {
                        let value = Float(0.25 * sin(2 * Double.pi * 440 * Double(block * 4800 + index) / 48_000))
                        samples += [value, value]
                    }
                    try await audio.append(SampleBuffer(
                        presentationTime: MediaTime(value: Int64(block * 4800), timescale: 48_000),
                        duration: MediaTime(value: 4800, timescale: 48_000), sampleCount: 4800, formatDescription: format,
                        audioBuffer: AudioBuffer(float32: samples, sampleRate: 48_000, channelCount: 2)))
                }
                audio.markAsFinished()
            }
            try await group.waitForAll()
        }
        try await writer.finishWriting()
        return (writer, recorder)
    }

    /// `init.mp4` followed by media segment `index`: the file a client decodes that segment from.
    static func joined(_ folder: URL, segment index: Int) throws -> URL {
        let url = folder.appendingPathComponent("joined\(index).mp4")
        let bytes = try BinaryFile.read(folder.appendingPathComponent("init.mp4"))
            + BinaryFile.read(folder.appendingPathComponent("segment\(index).m4s"))
        try bytes.write(to: url)
        return url
    }

    @Test("HLS segments: an IDR forced at every 2.5 s boundary between the encoder's own key frames, so each lasts exactly 2.5 s; played through by ffmpeg")
    func hlsSegments() async throws {
        let scratch = try ScratchDirectory("segments")
        defer { scratch.remove() }
        let folder = scratch.url
        let (writer, recorder) = try await Self.writeSegments(into: folder, profile: .mpeg4AppleHLS,
                                                             interval: MediaTime(value: 5, timescale: 2))
        #expect(writer.status == .completed)
        #expect(writer.outputURL == nil)
        let playlistURL = try recorder.files.writePlaylist()

        // The encoder's key frames every second; boundaries at 2.5 s and 5 s, where IDR pictures are forced: segments
        // start at 0, 2.5 and 5 s.
        let segments = recorder.segments
        #expect(segments.map(\.type) == [.initialization, .separable, .separable, .separable])
        let reports = segments.compactMap(\.report)
        let videoReports = reports.map { $0.trackReports.first { $0.mediaType == .video } }
        #expect(videoReports.map { $0?.earliestPresentationTimeStamp } == [.zero, MediaTime(value: 5, timescale: 2), MediaTime(seconds: 5)])
        #expect(videoReports.map { $0?.duration } == [MediaTime(value: 5, timescale: 2), MediaTime(value: 5, timescale: 2),
                                                       MediaTime(seconds: 1)])
        #expect(videoReports.map { $0?.sampleCount } == [75, 75, 30])
        #expect(videoReports.allSatisfy { $0?.firstSampleIsSyncSample == true && $0?.trackID == 1 })
        #expect(reports.allSatisfy { $0.trackReports.contains { $0.mediaType == .audio && $0.trackID == 2 } })
        #expect(reports.map(\.sequenceNumber) == [0, 1, 2])

        let text = try TextFile.read(playlistURL)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:3
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2.500000,
            segment0.m4s
            #EXTINF:2.500000,
            segment1.m4s
            #EXTINF:1.000000,
            segment2.m4s
            #EXT-X-ENDLIST

            """)

        // A real client: ffmpeg reads the playlist without an error line and decodes every picture.
        let errors = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", playlistURL.path, "-f", "null", "-", "-y"])
        #expect(errors.isEmpty)
        let frames = try await CommandLineTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                                               "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                               playlistURL.path])
        // (ffprobe lists the HLS stream once per program: the first line is the stream's.)
        #expect(frames.split(separator: "\n").first == "180")
        // Read through the playlist, segment after segment, every picture is at its appended time k/30 s.
        let times = try await CommandLineTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                              "frame=pts_time", "-of", "csv=p=0", playlistURL.path])
        let read = times.split(separator: "\n").compactMap { $0.split(separator: ",").first.map(String.init) }
        #expect(read == (0..<180).map { String(format: "%.6f", Double($0) / 30) })

        // Every segment, read after the initialization segment, starts with an IDR picture at its report's time.
        for (index, report) in videoReports.enumerated() {
            let joined = try Self.joined(folder, segment: index)
            let first = try await CommandLineTool.run("ffprobe", [
                "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries",
                "frame=key_frame,pict_type,pts_time", "-of", "csv=p=0", joined.path])
            // key_frame, pts_time, pict_type
            let expected = String(format: "1,%.6f,I", report?.earliestPresentationTimeStamp.seconds ?? -1)
            #expect(first.split(separator: "\n").first?.hasPrefix(expected) == true, "segment \(index): \(first)")
            let nalTypes = try await CommandLineTool.run("ffprobe", [
                "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries", "packet=flags",
                "-of", "csv=p=0", joined.path])
            #expect(nalTypes.hasPrefix("K"), "segment \(index): first packet flags \(nalTypes)")
        }
    }

    @Test("the m3u8 package parses the playlist: version, target duration, map, EXTINF adding up to the duration",
          .enabled(if: PythonVerifier.isAvailable))
    func playlistParsedByM3u8() async throws {
        let scratch = try ScratchDirectory("segments-m3u8")
        defer { scratch.remove() }
        // The encoder's key frames every 0.5 s and a 1.1 s interval: IDR pictures forced at the boundaries 1.1, 2.2,
        // 3.3 s (pictures 33, 66, 99), where the segments are cut.
        let (_, recorder) = try await Self.writeSegments(into: scratch.url, profile: .mpeg4AppleHLS,
                                                         interval: MediaTime(value: 11, timescale: 10), seconds: 4,
                                                         keyFrameInterval: 15)
        let playlistURL = try recorder.files.writePlaylist()
        let parsed = try await PythonVerifier.run("""
            import sys, m3u8
            p = m3u8.load(sys.argv[1])
            print(p.version, p.target_duration, p.playlist_type, p.is_endlist, p.is_independent_segments,
                  p.segment_map[0].uri, len(p.segments))
            print(' '.join('%.6f' % s.duration for s in p.segments))
            print('%.6f' % sum(s.duration for s in p.segments))
            """, [playlistURL.path])
        let lines = parsed.split(separator: "\n").map(String.init)
        #expect(lines.first == "6 1 vod True True init.mp4 4")
        #expect(lines.dropFirst().first == "1.100000 1.100000 1.100000 0.700000")
        #expect(lines.last == "4.000000")
        // The video track's duration as ffprobe reads the playlist equals the EXTINF sum.
        let duration = try await CommandLineTool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration",
                                                                 "-of", "csv=p=0", playlistURL.path])
        #expect(duration.trimmingCharacters(in: .whitespacesAndNewlines) == "4.000000")
    }

    @Test("CMAF segments carry the cmfc brand and start at the initial segment start time")
    func cmafSegments() async throws {
        let scratch = try ScratchDirectory("segments-cmaf")
        defer { scratch.remove() }
        let (_, recorder) = try await Self.writeSegments(into: scratch.url, profile: .mpeg4CMAFCompliant,
                                                         interval: MediaTime(seconds: 1), initialStart: MediaTime(seconds: 10),
                                                         seconds: 3)
        let reports = recorder.segments.compactMap(\.report)
        let starts = reports.map { $0.trackReports.first { $0.mediaType == .video }?.earliestPresentationTimeStamp }
        #expect(starts == [MediaTime(seconds: 10), MediaTime(seconds: 11), MediaTime(seconds: 12)])
        let initBytes = try BinaryFile.read(scratch.url.appendingPathComponent("init.mp4"))
        #expect(initBytes.range(of: Data("cmfc".utf8)) != nil)
        let first = try await CommandLineTool.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries",
            "frame=key_frame,pict_type,pts_time", "-of", "csv=p=0", try Self.joined(scratch.url, segment: 1).path])
        #expect(first.split(separator: "\n").first?.hasPrefix("1,11.000000,I") == true, "\(first)")
    }

    @Test("a phone clip remuxed into HLS segments: the same packets, cut at its key frames (0, 2, 3 s)",
          .enabled(if: Fixture.sharedMediaIsAvailable))
    func passthroughSegments() async throws {
        let source = Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4")
        let scratch = try ScratchDirectory("segments-remux")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: source)
        let writer = try AssetWriter(contentType: .mp4)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = MediaTime(seconds: 1)
        let recorder = SegmentRecorder(files: try HLSSegmentFileWriter(directory: scratch.url))
        writer.delegate = recorder
        try await PassthroughCopy.copy(asset, into: writer)
        let playlistURL = try recorder.files.writePlaylist()
        let videoReports = recorder.segments.compactMap { $0.report?.trackReports.first { $0.mediaType == .video } }
        #expect(videoReports.map(\.earliestPresentationTimeStamp.seconds) == [0, 2, 3])
        #expect(videoReports.map(\.sampleCount) == [60, 30, 16])
        #expect(recorder.files.playlist.durationsInMicroseconds == [2_000_000, 1_000_000, 533_333])

        let errors = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", playlistURL.path, "-f", "null", "-", "-y"])
        #expect(errors.isEmpty)
        // The playlist's video packets are the source's, byte for byte and in order.
        let arguments = ["-v", "error", "-select_streams", "v:0", "-show_data_hash", "MD5", "-show_entries",
                         "packet=data_hash", "-of", "csv=p=0"]
        let expected = try await CommandLineTool.run("ffprobe", arguments + [source.path])
        let actual = try await CommandLineTool.run("ffprobe", arguments + [playlistURL.path])
        #expect(actual.split(separator: "\n").count == 106)
        #expect(actual == expected)
    }

    @Test("a segment writer cancelled mid-way delivers nothing more and refuses appends")
    func cancelledSegmentWriter() async throws {
        let scratch = try ScratchDirectory("segments-cancelled")
        defer { scratch.remove() }
        let writer = try AssetWriter(contentType: .mp4)
        writer.outputFileTypeProfile = .mpeg4CMAFCompliant
        writer.preferredOutputSegmentInterval = MediaTime(seconds: 1)
        let recorder = SegmentRecorder(files: try HLSSegmentFileWriter(directory: scratch.url))
        writer.delegate = recorder
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast", keyFrameInterval: 15), size: Size(width: 64, height: 48)))
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        for index in 0..<90 {
            var picture = adaptor.makePixelBuffer()
            picture.fill(with: [20, 40, 60, 255])
            try await adaptor.append(picture, withPresentationTime: MediaTime(value: Int64(index), timescale: 30))
        }
        writer.cancelWriting()
        await writer.waitUntilEnded()
        let delivered = recorder.segments.count
        #expect(writer.status == .cancelled)
        var picture = adaptor.makePixelBuffer()
        picture.fill(with: [20, 40, 60, 255])
        await #expect(throws: AssetWriterError.self) {
            try await adaptor.append(picture, withPresentationTime: MediaTime(seconds: 4))
        }
        #expect(recorder.segments.count == delivered)
        #expect(recorder.segments.filter { $0.type == .separable }.count < 3, "the last segments were never cut")
    }

    @Test("segment writers refuse another container, a missing profile or delegate, and a non-positive interval")
    func refusedSegmentSettings() async throws {
        #expect(throws: AssetWriterError.self) { try AssetWriter(contentType: .mov) }
        let scratch = try ScratchDirectory("segments-refused")
        defer { scratch.remove() }
        let files = try HLSSegmentFileWriter(directory: scratch.url)
        func writer(profile: AssetWriterFileTypeProfile?, delegate: (any AssetWriterDelegate)?,
                    interval: MediaTime = .invalid) throws -> AssetWriter {
            let writer = try AssetWriter(contentType: .mp4)
            writer.outputFileTypeProfile = profile
            writer.delegate = delegate
            writer.preferredOutputSegmentInterval = interval
            try writer.add(AssetWriterInput(mediaType: .video, outputSettings: .video(size: Size(width: 64, height: 48))))
            return writer
        }
        let noProfile = try writer(profile: nil, delegate: files)
        #expect(throws: AssetWriterError.invalidState(operation: "start writing", reason: "a writer made with init(contentType:) needs an outputFileTypeProfile")) {
            try noProfile.startWriting()
        }
        #expect(noProfile.status == .failed)
        let noDelegate = try writer(profile: .mpeg4AppleHLS, delegate: nil)
        #expect(throws: AssetWriterError.invalidState(operation: "start writing", reason: "a writer made with init(contentType:) needs a delegate to take its segments")) {
            try noDelegate.startWriting()
        }
        let negative = try writer(profile: .mpeg4AppleHLS, delegate: files, interval: MediaTime(value: -1, timescale: 1))
        #expect(throws: AssetWriterError.invalidState(operation: "start writing", reason: "preferredOutputSegmentInterval -1.000 s (-1/1) is not a positive time")) {
            try negative.startWriting()
        }
        let early = try writer(profile: .mpeg4AppleHLS, delegate: files)
        early.initialSegmentStartTime = MediaTime(seconds: -2)
        #expect(throws: AssetWriterError.invalidState(operation: "start writing", reason: "initialSegmentStartTime -2.000 s (-2/1) is not a time at or after 0")) {
            try early.startWriting()
        }
        #expect(throws: AssetWriterError.invalidState(operation: "write HLS files", reason: "/nonexistent/folder is not an existing folder")) {
            try HLSSegmentFileWriter(directory: URL(fileURLWithPath: "/nonexistent/folder"))
        }
        let fileWriter = try AssetWriter(outputURL: scratch.file("file.mp4"), fileType: .mp4)
        fileWriter.outputFileTypeProfile = .mpeg4AppleHLS
        try fileWriter.add(AssetWriterInput(mediaType: .video, outputSettings: .video(size: Size(width: 64, height: 48))))
        #expect(throws: AssetWriterError.self) { try fileWriter.startWriting() }
    }
}
