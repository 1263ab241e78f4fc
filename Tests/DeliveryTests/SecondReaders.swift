import Foundation
import SpliceTestSupport

/// The readers Delivery's outputs are checked with: FFmpeg's command-line tools (its own `ebur128` summary,
/// `ffprobe`) and pyloudnorm from the repository's `.venv`.
enum SecondReaders {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `ffmpeg`/`ffprobe` from `PATH`.
    static func tool(_ name: String) -> String { Executable.find(name) ?? "/usr/bin/\(name)" }

    /// Runs `tool` with `arguments`; returns (standard output, standard error).
    /// - Throws: ``Failure`` when it does not exit with 0 within 120 s.
    static func run(_ name: String, _ arguments: [String]) async throws -> (output: String, errors: String) {
        let scratch = try ScratchDirectory("reader")
        defer { scratch.remove() }
        let output = scratch.file("stdout"), errors = scratch.file("stderr")
        let child = try ChildProcess(executable: tool(name), arguments: arguments, standardOutput: output, standardError: errors)
        guard await child.wait(seconds: 120) else {
            child.stop()
            throw Failure(description: "\(name) did not end within 120 s")
        }
        let result = (TextFile.text(of: output), TextFile.text(of: errors))
        guard child.exitCode == 0 else { throw Failure(description: "\(name) \(arguments) failed: \(result.1)") }
        return result
    }

    /// The `ffmpeg -af ebur128=peak=true` summary of `url`: integrated loudness (LUFS) and true peak (dBFS, as the
    /// filter prints it, to 0.1).
    static func ebur128Summary(of url: URL) async throws -> (integrated: Double, truePeak: Double) {
        let (_, log) = try await run("ffmpeg", ["-hide_banner", "-nostats", "-i", url.path, "-map", "0:a:0",
                                                "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = log.components(separatedBy: "Summary:").last ?? ""
        func value(after label: String) -> Double? {
            guard let range = summary.range(of: label) else { return nil }
            return Double(summary[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? "")
        }
        guard let integrated = value(after: "I:"), let peak = value(after: "Peak:") else {
            throw Failure(description: "no ebur128 summary in: \(summary)")
        }
        return (integrated, peak)
    }

    /// pyloudnorm's integrated loudness (LUFS) of `url`'s first audio stream, decoded to 48 kHz float by `ffmpeg`.
    static func pyloudnormIntegrated(of url: URL) async throws -> Double {
        let script = """
            import subprocess, sys
            import numpy as np, pyloudnorm
            raw = subprocess.run([sys.argv[2], '-v', 'error', '-i', sys.argv[1], '-map', '0:a:0', '-ac', '2', '-ar', '48000',
                                  '-f', 'f32le', '-'], capture_output=True, check=True).stdout
            samples = np.frombuffer(raw, dtype='<f4').reshape(-1, 2).astype(np.float64)
            print(pyloudnorm.Meter(48000).integrated_loudness(samples))
            """
        let output = try await PythonVerifier.run(script, [url.path, tool("ffmpeg")])
        guard let value = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "pyloudnorm printed '\(output)'")
        }
        return value
    }

    /// Serves `folder` on 127.0.0.1 (Python's `http.server`, from the `.venv` interpreter); returns the server, its
    /// base URL and the request log.
    static func serve(_ folder: URL, in scratch: ScratchDirectory) async throws -> (ChildProcess, String, URL) {
        let portFile = scratch.file("port"), log = scratch.file("server.log")
        let server = try ChildProcess(executable: PythonVerifier.interpreter.path, arguments: ["-c", """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, folder.path], standardOutput: portFile, standardError: log)
        var port: String?
        for _ in 0..<500 where port == nil {
            let text = TextFile.text(of: portFile)
            if text.hasSuffix("\n") { port = text.trimmingCharacters(in: .whitespacesAndNewlines) } else { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        guard let port else {
            server.stop()
            throw Failure(description: "the HTTP server never said its port")
        }
        return (server, "http://127.0.0.1:\(port)", log)
    }
}
