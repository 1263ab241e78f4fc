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
        let picture = try Frame()
        let sound = try Frame()
        var nextSample: Int64 = 0
        // Grey pictures on the frame grid and a 440 Hz tone in blocks of 1024 samples, in session-time order.
        func record(slots: Range<Int64>) throws {
            for slot in slots {
                try picture.allocatePicture(width: 64, height: 48, pixelFormat: AV_PIX_FMT_YUV420P)
                for plane in 0..<3 {
                    if let data = picture.plane(plane) { memset(data, 128, picture.bytesPerRow(ofPlane: plane) * (plane == 0 ? 48 : 24)) }
                }
                try writer.appendVideo(picture, at: slot * 1_000_000 / 30)
                while nextSample * 30 < (slot + 1) * 48_000 {
                    try sound.allocateAudio(sampleCount: 1024, sampleFormat: AV_SAMPLE_FMT_FLTP, sampleRate: 48_000, channelCount: 2)
                    for channel in 0..<2 {
                        sound.plane(channel)?.withMemoryRebound(to: Float.self, capacity: 1024) { samples in
                            for index in 0..<1024 {
                                samples[index] = 0.1 * Float(sin(2 * Double.pi * 440 * Double(nextSample + Int64(index)) / 48_000))
                            }
                        }
                    }
                    try writer.appendAudio(sound, at: nextSample * 1_000_000 / 48_000)
                    nextSample += 1024
                }
            }
        }
        func sizeOnDisk() throws -> Int64 {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? -1
        }

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
}
