import Foundation
import Testing
import SpliceTestSupport

extension FFmpegCommandLine {
    /// Channel 0 of the first audio stream of `url` as the `ffmpeg` tool decodes it: 32-bit float samples at the
    /// stream's own rate, with FFmpeg's own handling of the container's timing (an MP4/MOV edit list applied as
    /// libavformat applies it); nil when the tool is not installed.
    /// - Parameter timeout: seconds before the child is killed by PID (then this throws).
    /// - Throws: ``Failure/timedOut(_:)``; the child's spawn errors; a read error of the decoded file.
    static func audio(of url: URL, timeout: Double = 60) async throws -> [Float]? {
        guard let path else { return nil }
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ffmpeg-\(UUID().uuidString)")
        let raw = scratch.appendingPathExtension("f32"), log = scratch.appendingPathExtension("log")
        defer {
            try? FileManager.default.removeItem(at: raw)
            try? FileManager.default.removeItem(at: log)
        }
        let child = try ChildProcess(
            executable: path,
            arguments: ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le", "-ac", "2", raw.path],
            standardOutput: log, standardError: log)
        defer { child.stop() }
        guard await child.wait(seconds: timeout) else { throw Failure.timedOut(url.path) }
        let data = try BinaryFile.read(raw)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Interleaved stereo: every other sample is channel 0.
        return stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
    }
}
