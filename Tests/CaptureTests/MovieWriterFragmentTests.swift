@testable import Capture
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
internal import CMedia

/// The first fragment of a recording carries its `ftyp` and `moov` (made from the first packets, so the AAC priming
/// is in an edit list): nothing is on disk before it — a recording killed in its first second leaves an empty file,
/// which ``MovieFileRepair`` names as such — and from then on the file holds what ``MovieWriter/recordedFileSize``
/// counts, the rest waiting in the muxer for the next fragment.
@Suite("Movie writer: the first fragment")
struct MovieWriterFragmentTests {
    @Test("nothing on disk before the first 1 s fragment; then ftyp, moov, moof, mdat, counted to the byte")
    func theMovieBoxGoesOutWithTheFirstFragment() async throws {
        let scratch = try ScratchDirectory("movie-writer-fragment")
        defer { scratch.remove() }
        let url = scratch.file("take.mp4")
        let writer = try MovieWriter(settings: MovieWriterSettings(
            url: url, video: (width: 64, height: 48, frameRate: 30), audioSampleRate: 48_000,
            fragmentInterval: 1_000_000, initialFragmentInterval: 1_000_000), requestedStart: 0)
        let source = try Source(writer)
        func record(slots: Range<Int64>) throws {
            for slot in slots {
                try source.picture(slot)
                try source.sound(until: (slot + 1) * 48_000 / 30)
            }
        }
        func sizeOnDisk() throws -> Int64 { try Source.size(of: url) }

        // 0.9 s: encoded, held by the muxer, nothing written.
        try record(slots: 0..<27)
        #expect(try sizeOnDisk() == 0)
        #expect(writer.recordedFileSize > 10_000, "\(writer.recordedFileSize) bytes counted")
        #expect(throws: MovieFileRepair.Failure.empty(path: url.path)) { try MovieFileRepair.repair(at: url) }

        // Past 1 s: the first fragment, with the ftyp and moov before it; the next fragment's packets counted beside.
        try record(slots: 27..<36)
        let size = try sizeOnDisk()
        #expect(try topLevelBoxes(url) == ["ftyp", "moov", "moof", "mdat"])
        #expect(writer.muxer.output.bytesWritten == size)
        #expect(writer.pendingBytes > 0 && writer.recordedFileSize == size + writer.pendingBytes,
                "\(writer.recordedFileSize) counted, \(size) on disk, \(writer.pendingBytes) pending")
        let copy = scratch.file("copy.mp4")
        try FileManager.default.copyItem(at: url, to: copy)
        #expect(try MovieFileRepair.repair(at: copy) == MovieFileRepair.Report(originalSize: size, keptSize: size, completeFragments: 1))
        if Executable.required("ffprobe") != nil {
            // A second reader: the sound's 1024 priming samples before 0 (the moov's edit list), the pictures from 0.
            let start = try await Executable.output(of: "ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time",
                                                                    "-of", "csv=p=0", copy.path])
            #expect(start.split(separator: "\n") == ["video,0.000000", "audio,-0.021333"], "\(start)")
        }
        try writer.finish()
    }

    @Test("sound that starts 1.5 s after the first picture: the first fragment waits for it, then starts it there")
    func theFirstFragmentWaitsForTheSound() async throws {
        let scratch = try ScratchDirectory("movie-writer-late-sound")
        defer { scratch.remove() }
        let url = scratch.file("late.mp4")
        let writer = try MovieWriter(settings: MovieWriterSettings(
            url: url, video: (width: 64, height: 48, frameRate: 30), audioSampleRate: 48_000,
            fragmentInterval: 1_000_000, initialFragmentInterval: 1_000_000), requestedStart: 0)
        let source = try Source(writer)
        for slot: Int64 in 0..<45 { try source.picture(slot) }
        #expect(try Source.size(of: url) == 0, "1.5 s of pictures and no sound: the moov waits for the sound")
        source.nextSample = 72_000
        for slot: Int64 in 45..<54 {
            try source.sound(until: (slot + 1) * 48_000 / 30)
            try source.picture(slot)
        }
        #expect(try topLevelBoxes(url) == ["ftyp", "moov", "moof", "mdat"])
        let copy = scratch.file("copy.mp4")
        try FileManager.default.copyItem(at: url, to: copy)
        try writer.finish()
        if Executable.required("ffprobe") != nil {
            // Both the file a crash would have left and the finished movie: the sound's priming just before 1.5 s,
            // after an empty edit of 70 976 samples (1.478667 s), exact in the movie timescale of 48 000 a second.
            for file in [copy, url] {
                let start = try await Executable.output(of: "ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time",
                                                                        "-of", "csv=p=0", file.path])
                #expect(start.split(separator: "\n") == ["video,0.000000", "audio,1.478667"], "\(file.lastPathComponent): \(start)")
            }
        }
        // Box by box: the sound's edit list is an empty edit of exactly 72 000 - 1024 samples in the movie timescale of
        // 48 000 (1.478 s, 70 944 samples, in milliseconds), then its media from its first sample, the priming.
        for file in [copy, url] {
            let scan = try MovieFragmentScan(url: file)
            #expect(scan.movieTimescale == 48_000, "\(file.lastPathComponent)")
            let edits = scan.edits[2]?.map { [$0.segmentDuration, $0.mediaTime] }
            #expect(edits?.first == [70_976, -1] && edits?.dropFirst().first?.last == 0, "\(file.lastPathComponent): \(edits ?? [])")
        }
    }

    /// Grey 64 × 48 pictures on the frame grid and a 440 Hz tone in blocks of 1024 samples, for a writer recording
    /// 30 frames and 48 000 samples a second, stamped with session times from 0.
    final class Source {
        let writer: MovieWriter
        let picture: Frame
        let block: Frame
        /// The first sample of the next block of sound.
        var nextSample: Int64 = 0

        init(_ writer: MovieWriter) throws {
            self.writer = writer
            picture = try Frame()
            block = try Frame()
        }

        func picture(_ slot: Int64) throws {
            try picture.allocatePicture(width: 64, height: 48, pixelFormat: AV_PIX_FMT_YUV420P)
            for plane in 0..<3 {
                if let data = picture.plane(plane) { memset(data, 128, picture.bytesPerRow(ofPlane: plane) * (plane == 0 ? 48 : 24)) }
            }
            try writer.appendVideo(picture, at: slot * 1_000_000 / 30)
        }

        /// Appends blocks of sound until the next one starts at or after sample `end`.
        func sound(until end: Int64) throws {
            while nextSample < end {
                try block.allocateAudio(sampleCount: 1024, sampleFormat: AV_SAMPLE_FMT_FLTP, sampleRate: 48_000, channelCount: 2)
                for channel in 0..<2 {
                    block.plane(channel)?.withMemoryRebound(to: Float.self, capacity: 1024) { samples in
                        for index in 0..<1024 {
                            samples[index] = 0.1 * Float(sin(2 * Double.pi * 440 * Double(nextSample + Int64(index)) / 48_000))
                        }
                    }
                }
                try writer.appendAudio(block, at: nextSample * 1_000_000 / 48_000)
                nextSample += 1024
            }
        }

        static func size(of url: URL) throws -> Int64 {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? -1
        }
    }
}
