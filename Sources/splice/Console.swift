import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The exit statuses of `splice` (documented in `splice --help` and docs/cli.md).
enum ExitStatus: Int32 {
    /// Success.
    case success = 0
    /// Invalid input: a document, media file or plan has problems, a file or device does not exist, settings
    /// cannot be combined, the output exists (without `--overwrite`) or its folder does not exist.
    case invalidInput = 1
    /// Usage: unknown command or option, missing or extra argument, an option value that does not parse or is
    /// outside its choices or its range (also a range the input sets: a time, a segment index).
    case usage = 2
    /// Failed while rendering or writing: an export, a frame, a segment, a join, a recording.
    case renderFailed = 3
    /// Cancelled by SIGINT or SIGTERM.
    case cancelled = 130
}

/// A command's way out: the status to exit with (messages were printed already), and what went wrong in one text
/// for machine-readable output.
struct CommandExit: Error {
    var status: ExitStatus
    var detail: String?

    init(status: ExitStatus, detail: String? = nil) {
        self.status = status
        self.detail = detail
    }
}

/// Writing to the standard streams without buffering surprises (stderr is unbuffered; stdout is flushed per call).
enum Console {
    /// Writes `text` and a newline to standard output.
    static func out(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` as is to standard error (progress bar redraws).
    static func errorRaw(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// True when standard error is a terminal.
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + offset, buffer.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// A time in seconds as `m:ss` (or `h:mm:ss`), for progress.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    /// A byte count for people: `1.2 MB`, `830 kB`, `512 B` (decimal units).
    static func bytes(_ count: Int64) -> String {
        if count >= 1_000_000 { return String(format: "%.1f MB", Double(count) / 1_000_000) }
        if count >= 1_000 { return "\(count / 1_000) kB" }
        return "\(count) B"
    }

    /// A number with at most `decimals` decimals, without trailing zeros (`29.97`, `30`).
    static func number(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
