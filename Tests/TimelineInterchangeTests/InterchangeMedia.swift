import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting

/// Media and second readers for the interchange tests: framecode clips (each picture's colour says which source
/// frame it is), OpenTimelineIO's Python package, and the `ffmpeg` CLI decoding an export.
enum InterchangeMedia {
    /// The clips' frame rate: NTSC film, 24000/1001 fps.
    static let frameDuration = MediaTime(value: 1001, timescale: 24000)
    /// Frames in each clip (its framecode counts 0 ..< 64).
    static let frameCount: Int64 = 64

    /// Writes `name` (a `.mov`): 64 × 64 pixels at 24000/1001 fps (or `frameDuration`) for 64 frames, frame N
    /// coloured (4N, 252 − 4N, `blue`), with a 440 Hz tone (or the lavfi source `audio`).
    static func framecodeClip(
        _ name: String, blue: Int, frameDuration: MediaTime = frameDuration, audio: String = "sine=f=440:r=48000",
        in scratch: ScratchDirectory
    ) throws -> URL {
        let url = scratch.file(name)
        try SyntheticMedia.write(
            video: "color=c=black:s=64x64:r=\(frameDuration.timescale)/\(frameDuration.value),format=rgb24,geq=r='4*N':g='252-4*N':b=\(blue)",
            audio: audio, duration: frameDuration * frameCount, to: url)
        return url
    }

    /// The two clips most tests cut between: `a.mov` (blue 64) and `b.mov` (blue 192) in `scratch`, at
    /// `frameDuration` (``framecodeClip(_:blue:frameDuration:audio:in:)``).
    /// - Returns: their URLs.
    /// - Throws: the clips' write failure.
    @discardableResult
    static func framecodeClips(in scratch: ScratchDirectory, frameDuration: MediaTime = frameDuration) throws -> (a: URL, b: URL) {
        (try framecodeClip("a.mov", blue: 64, frameDuration: frameDuration, in: scratch),
         try framecodeClip("b.mov", blue: 192, frameDuration: frameDuration, in: scratch))
    }

    /// What one decoded output picture shows: a source frame of the clip whose blue is `blue`, or black.
    struct Shown: Equatable, CustomStringConvertible {
        var blue: Int
        var frame: Int
        static let black = Shown(blue: 0, frame: -1)
        var description: String { self == .black ? "black" : "b\(blue)#\(frame)" }
    }

    /// Every picture of `url` as the ffmpeg CLI decodes it (averaged to one pixel), read back as framecodes.
    static func shownFrames(of url: URL) async throws -> [Shown] {
        try await averageColours(of: url).map { colour in
            let (red, green, blue) = (colour[0], colour[1], colour[2])
            if red + green + blue < 24 { return .black }
            let frame = Int((Double(red + 252 - green) / 8).rounded())
            return Shown(blue: blue < 128 ? 64 : 192, frame: frame)
        }
    }

    /// Every picture of `url` as the ffmpeg CLI decodes it, averaged to one RGB pixel.
    static func averageColours(of url: URL) async throws -> [[Int]] {
        let scratch = try ScratchDirectory("frames")
        defer { scratch.remove() }
        let raw = scratch.file("frames.rgb")
        _ = try await run(tool: "ffmpeg", ["-v", "error", "-i", url.path, "-fps_mode", "passthrough", "-vf", "scale=1:1:flags=area",
                                           "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw.path])
        let bytes = [UInt8](try BinaryFile.read(raw))
        return stride(from: 0, to: bytes.count - 2, by: 3).map { index in bytes[index..<index + 3].map(Int.init) }
    }

    /// The first sample of each burst of sound in `url` (its first audio track, decoded by the ffmpeg CLI to mono
    /// 48 kHz): where the level rises above `threshold` after at least 100 ms below it.
    static func soundOnsets(of url: URL, threshold: Float = 0.25) async throws -> [Int] {
        let scratch = try ScratchDirectory("sound")
        defer { scratch.remove() }
        let raw = scratch.file("sound.f32")
        _ = try await run(tool: "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-ac", "1", "-ar", "48000",
                                           "-f", "f32le", "-y", raw.path])
        let samples = try BinaryFile.read(raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var onsets: [Int] = []
        var lastLoud = -4800
        for (index, sample) in samples.enumerated() {
            if abs(sample) > threshold {
                if index - lastLoud >= 4800 { onsets.append(index) }
                lastLoud = index
            }
        }
        return onsets
    }

    /// `ffprobe`'s duration of the first stream of `kind` (`v` or `a`) in `url`, in seconds as it prints it.
    static func probedDuration(of url: URL, stream kind: String) async throws -> String {
        try await run(tool: "ffprobe", ["-v", "error", "-select_streams", "\(kind):0", "-show_entries", "stream=duration",
                                        "-of", "default=nw=1:nk=1", url.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool found on `PATH` and returns its standard output.
    static func run(tool: String, _ arguments: [String]) async throws -> String {
        guard let executable = Executable.find(tool) else { throw ToolFailure(description: "\(tool) is not on PATH") }
        let scratch = try ScratchDirectory("tool")
        defer { scratch.remove() }
        let output = scratch.file("stdout"), errors = scratch.file("stderr")
        let child = try ChildProcess(executable: executable, arguments: arguments, standardOutput: output, standardError: errors)
        guard await child.wait(seconds: 120) else {
            child.stop()
            throw ToolFailure(description: "\(tool) did not end within 120 s")
        }
        guard child.exitCode == 0 else { throw ToolFailure(description: "\(tool) failed: \(TextFile.text(of: errors))") }
        return TextFile.text(of: output)
    }
}
