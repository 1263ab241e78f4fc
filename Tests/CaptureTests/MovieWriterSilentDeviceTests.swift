@testable import Capture
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
internal import CMedia

/// A device that delivers nothing (and does not fail) must not hold the recording in memory: the first fragment and
/// the `moov` wait for every stream's first packet only up to ``MovieWriter/movieBoxDeadline`` (10 s here, with 1 s
/// first fragments), then go out with an empty track for the silent stream. Pictures 64 × 48 at 30 frames a second,
/// sound at 48 kHz from ``MovieWriterFragmentTests/Source``; read back with ffprobe.
@Suite("Movie writer: a device that delivers nothing")
struct MovieWriterSilentDeviceTests {
    static func settings(_ url: URL) -> MovieWriterSettings {
        MovieWriterSettings(url: url, video: (width: 64, height: 48, frameRate: 30), audioSampleRate: 48_000,
                            fragmentInterval: 10_000_000, initialFragmentInterval: 1_000_000)
    }

    @Test("no sound for 30 s: the moov goes out at 10 s, fragments every 10 s; a clean stop leaves a video-only movie")
    func aMicrophoneThatNeverDelivers() async throws {
        let scratch = try ScratchDirectory("movie-writer-silent-microphone")
        defer { scratch.remove() }
        let url = scratch.file("silent.mp4")
        let writer = try MovieWriter(settings: Self.settings(url), requestedStart: 0)
        #expect(writer.movieBoxDeadline == 10_000_000)
        let source = try MovieWriterFragmentTests.Source(writer)
        for slot: Int64 in 0..<299 { try source.picture(slot) }
        #expect(try MovieWriterFragmentTests.Source.size(of: url) == 0, "9.967 s without sound: still waiting for it")
        #expect(writer.pendingBytes == writer.recordedFileSize)
        for slot: Int64 in 299..<900 { try source.picture(slot) }

        // 30 s: the fragments up to 21 s are on disk (the first with the moov), the 9 s since in memory.
        let size = try MovieWriterFragmentTests.Source.size(of: url)
        #expect(try Array(topLevelBoxes(url).prefix(4)) == ["ftyp", "moov", "moof", "mdat"])
        #expect(writer.recordedFileSize == size + writer.pendingBytes)
        #expect(writer.pendingBytes > 0 && writer.pendingBytes * 2 < writer.recordedFileSize,
                "\(writer.pendingBytes) of \(writer.recordedFileSize) bytes held by the muxer")
        let copy = scratch.file("copy.mp4")
        try FileManager.default.copyItem(at: url, to: copy)
        #expect(try MovieFileRepair.repair(at: copy) == MovieFileRepair.Report(originalSize: size, keptSize: size, completeFragments: 3))

        writer.end(at: 30_000_000, reason: nil)
        try writer.finish()
        guard Executable.required("ffprobe") != nil else { return }
        // What a crash at 30 s leaves: 21 s of pictures on the frame grid from 0.
        let times = try await Self.packetTimes(copy, stream: "v")
        #expect(times.count == 630 && times.first == "0.000000" && times.last == "20.966667", "\(times.count) pictures")
        // The clean stop: one video track of 900 frames from 0 (the empty sound track is not in the finished movie).
        let streams = try await Executable.output(of: "ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                                  "stream=codec_type,start_time,duration,nb_read_packets",
                                                                  "-of", "csv=p=0", url.path])
        #expect(streams.split(separator: "\n") == ["video,0.000000,30.000000,900"], "\(streams)")
    }

    @Test("sound from 12 s: the moov went out at 10 s without it; its packets keep their own time, priming included")
    func aMicrophoneThatStartsAfterTheDeadline() async throws {
        let scratch = try ScratchDirectory("movie-writer-very-late-microphone")
        defer { scratch.remove() }
        let url = scratch.file("late.mp4")
        let writer = try MovieWriter(settings: Self.settings(url), requestedStart: 0)
        let source = try MovieWriterFragmentTests.Source(writer)
        for slot: Int64 in 0..<360 { try source.picture(slot) }
        source.nextSample = 576_000
        for slot: Int64 in 360..<660 {
            try source.picture(slot)
            try source.sound(until: (slot + 1) * 1_600)
        }
        let copy = scratch.file("copy.mp4")
        try FileManager.default.copyItem(at: url, to: copy)
        try writer.finish()
        guard Executable.required("ffprobe") != nil else { return }
        // The file a crash at 22 s leaves: pictures from 0 on the grid to 21 s, the sound's first packet (the AAC
        // priming, which no edit list hides now) 1024 samples before 12 s.
        let pictures = try await Self.packetTimes(copy, stream: "v")
        #expect(pictures.count == 630 && pictures.first == "0.000000" && pictures[360] == "12.000000", "\(pictures.count) pictures, from \(pictures.first ?? "none")")
        let sound = try await Self.packetTimes(copy, stream: "a")
        #expect(sound.first == "11.978667" && sound.dropFirst().first == "12.000000", "\(sound.prefix(2))")
        // The finished movie: the same, its empty edit exact to the sample (the movie timescale is the sample rate).
        let start = try await Executable.output(of: "ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time",
                                                                "-of", "csv=p=0", url.path])
        #expect(start.split(separator: "\n") == ["video,0.000000", "audio,11.978667"], "\(start)")
    }

    /// The presentation times (ffprobe's `pts_time`, seconds with 6 decimals) of the packets of `stream` (`v`, `a`).
    static func packetTimes(_ url: URL, stream: String) async throws -> [Substring] {
        try await Executable.output(of: "ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time",
                                                    "-of", "csv=p=0", url.path]).split(separator: "\n")
    }
}
