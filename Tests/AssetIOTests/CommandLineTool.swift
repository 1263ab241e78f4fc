import Foundation
import SpliceTestSupport

/// The `ffmpeg` and `ffprobe` command-line tools: the second reader of every file these tests read or write.
enum CommandLineTool {
    /// Runs `<tool>` (found on `PATH`) with `arguments` and returns its standard output as text.
    /// - Throws: ``Executable/RunFailure`` with its standard error when it does not exit with 0 within 120 s.
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        try await Executable.output(of: tool, arguments)
    }

    /// FFmpeg's MD5 of every picture of `url`'s first video stream decoded to `pixelFormat`, in order
    /// (`-f framemd5`, every frame kept: `-fps_mode passthrough`; coded orientation: `-noautorotate`, as a reader
    /// hands out pictures, the display matrix aside).
    static func frameDigests(of url: URL, pixelFormat: String) async throws -> [String] {
        let text = try await run("ffmpeg", ["-v", "error", "-noautorotate", "-i", url.path, "-map", "0:v:0", "-fps_mode", "passthrough",
                                            "-pix_fmt", pixelFormat, "-f", "framemd5", "-"])
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
    }

    /// `ffprobe -show_entries <section>=<entries>` for stream `stream` (`v:0`, `a:0`) as rows of values.
    static func probe(_ url: URL, stream: String, section: String, entries: String) async throws -> [[String]] {
        let text = try await run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                             "\(section)=\(entries)", "-of", "csv=p=0", url.path])
        // A row may end with a comma (side data in its own section): empty fields are dropped.
        return text.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    }

    /// The number of sample frames FFmpeg decodes from `url`'s first audio stream (raw `f32le` output bytes ÷ 4 ÷
    /// channels).
    static func decodedSampleCount(of url: URL, channels: Int) async throws -> Int {
        let scratch = try ScratchDirectory("pcm")
        defer { scratch.remove() }
        let file = scratch.file("out.raw")
        _ = try await run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le", "-y", file.path])
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        return size / 4 / channels
    }
}
