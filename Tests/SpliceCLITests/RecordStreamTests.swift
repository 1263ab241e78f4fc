import Foundation
import SpliceTestSupport
import Testing

/// `splice record --stream URL`: live HLS into a folder beside a local movie, RTMP alone into an `ffmpeg` listener
/// started here on 127.0.0.1 and stopped by PID; destinations the output cannot send to refused as usage errors.
@Suite("splice record --stream", .serialized)
struct RecordStreamTests {
    /// The pictures and sound of `url` as ffprobe counts them: (H.264 pictures, AAC frames).
    static func count(_ url: String) async throws -> (video: Int, audio: Int) {
        let ffprobe = try #require(Executable.find("ffprobe"), "ffprobe is not on PATH")
        let scratch = try ScratchDirectory("cli-stream-probe")
        defer { scratch.remove() }
        let out = scratch.file("probe.txt")
        let child = try ChildProcess(executable: ffprobe, arguments: ["-v", "error", "-count_frames", "-show_entries",
                                                                      "stream=codec_name,nb_read_frames", "-of", "csv=p=0", url],
                                     standardOutput: out)
        #expect(await child.wait(seconds: 60) && child.exitCode == 0)
        let lines = try TextFile.read(out).split(separator: "\n").map { $0.split(separator: ",") }
        let video = lines.first { $0.first == "h264" }.flatMap { Int($0.last ?? "") } ?? 0
        let audio = lines.first { $0.first == "aac" }.flatMap { Int($0.last ?? "") } ?? 0
        return (video, audio)
    }

    @Test("-o take.mp4 --stream live/index.m3u8 for 3 s: the movie has 90 pictures, the finished playlist 3 s of segments read back by ffprobe (90 ± 2 pictures, AAC), both reported")
    func hlsBesideMovie() async throws {
        guard Executable.find("ffprobe") != nil else { return }
        let scratch = try ScratchDirectory("cli-stream-hls")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.file("live"), withIntermediateDirectories: true)
        let movie = scratch.file("take.mp4"), playlist = scratch.file("live/index.m3u8")
        let run = try await SpliceTool.run(["record", "--video", "virtual:camera-markers", "--max-duration", "3s",
                                            "-o", movie.path, "--stream", playlist.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("streaming to \(playlist.path)"), "\(run.stderr)")
        #expect(run.stdout.contains("\(playlist.path): streamed 3"), "\(run.stdout)")
        #expect(run.stdout.contains("\(movie.path): 3 s"), "\(run.stdout)")
        let local = try await Self.count(movie.path), live = try await Self.count(playlist.path)
        print("record --stream HLS: movie \(local), stream \(live)")
        #expect(local.video == 90 && local.audio >= 140)
        // The stream starts after the movie and stops after it ends: a picture more or less.
        #expect(abs(live.video - 90) <= 2 && live.audio >= 138)
        let text = try TextFile.read(playlist)
        #expect(text.contains("#EXT-X-ENDLIST"), "\(text)")
    }

    @Test("--stream rtmp://… alone, --max-duration 3s, into an ffmpeg RTMP listener: it receives 30 H.264 pictures and 46.9 AAC frames per second the command reports streamed; no movie is written")
    func rtmpAlone() async throws {
        guard let ffmpeg = Executable.find("ffmpeg"), Executable.find("ffprobe") != nil else { return }
        let scratch = try ScratchDirectory("cli-stream-rtmp")
        defer { scratch.remove() }
        let port = LoopbackPort.free()
        let received = scratch.file("received.flv")
        let listener = try ChildProcess(executable: ffmpeg, arguments: ["-nostdin", "-v", "error", "-listen", "1", "-i",
                                                                        "rtmp://127.0.0.1:\(port)/live/splice", "-c", "copy", received.path],
                                        standardError: scratch.file("listener.log"))
        defer { listener.stop() }
        let deadline = Date().addingTimeInterval(10)
        while !LoopbackPort.hasListener(port), listener.isRunning, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let run = try await SpliceTool.run(["record", "--video", "virtual:camera-markers", "--max-duration", "3s",
                                            "--stream", "rtmp://127.0.0.1:\(port)/live/splice"])
        #expect(run.status == 0, "\(run.stderr) \(TextFile.text(of: scratch.file("listener.log")))")
        // --max-duration counts wall time when only streaming: a loaded machine sends less stream time than that.
        let prefix = "rtmp://127.0.0.1:\(port)/live/splice: streamed "
        let streamed = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count).dropLast(2)) }, "\(run.stdout)")
        #expect(await listener.wait(seconds: 30), "the listener did not end with the stream")
        let counted = try await Self.count(received.path)
        print("record --stream RTMP: streamed \(streamed) s, the listener received \(counted)")
        #expect(streamed >= 1 && streamed <= 3.1)
        #expect(abs(Double(counted.video) - streamed * 30) <= 2, "\(counted.video) pictures for \(streamed) s")
        #expect(abs(Double(counted.audio) - streamed * 48_000 / 1024) <= 4, "\(counted.audio) AAC frames for \(streamed) s")
        let written = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(Set(written) == ["received.flv", "listener.log"], "\(written)")
    }

    @Test("refused before any device is opened (exit 2, named): an http:// stream, a .mp4 file as a stream, neither -o nor --stream",
          arguments: [(["--stream", "http://127.0.0.1/live"], "--stream: http://127.0.0.1/live: cannot stream there"),
                      (["--stream", "/tmp/out.mp4"], "--stream: /tmp/out.mp4: cannot stream there"),
                      ([], "record needs -o OUT.mp4, --stream URL or both")])
    func refusesDestinations(options: [String], message: String) async throws {
        let run = try await SpliceTool.run(["record", "--video", "virtual:camera-markers"] + options)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
