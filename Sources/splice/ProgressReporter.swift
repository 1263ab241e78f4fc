import Foundation
import Splice

/// Shows an export's progress: a redrawn bar on a terminal, a line every 5 % in logs, JSON lines for services.
struct ProgressReporter {
    /// How progress is shown (`--progress`).
    enum Mode: String {
        case bar, plain, json, none
    }

    let mode: Mode
    let start = Date()
    private var lastPercent = -1
    private var lastDraw = Date.distantPast
    private var lastJSON = Date.distantPast

    /// A reporter in `mode`.
    init(mode: Mode) {
        self.mode = mode
    }

    /// Seconds since the reporter was made.
    var elapsed: Double { Date().timeIntervalSince(start) }

    /// The export began: `output` is the file, `duration` the exported length in seconds.
    func started(output: String, duration: Double) {
        switch mode {
        case .json: Console.out(ProgressEvent(event: "started", output: output, duration: duration).line)
        case .plain: Console.error("exporting \(output) (\(Console.number(duration)) s)")
        case .bar, .none: break
        }
    }

    /// A new progress value, 0…1.
    mutating func update(_ progress: Double) {
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        let eta = progress > 0.01 ? elapsed * (1 - progress) / progress : Double.nan
        switch mode {
        case .bar:
            guard now.timeIntervalSince(lastDraw) >= 0.1 || progress >= 1 else { return }
            lastDraw = now
            let width = 30
            let filled = min(width, Int(progress * Double(width)))
            let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
            let percent = Int(progress * 100)
            let padded = String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0) + "\(percent)%"
            Console.errorRaw("\r[\(bar)] \(padded)  \(Console.clock(elapsed)) elapsed  ETA \(Console.clock(eta))\u{1B}[K")
        case .plain:
            let percent = Int(progress * 100) / 5 * 5
            guard percent > lastPercent else { return }
            lastPercent = percent
            Console.error("progress \(percent)%  elapsed \(Console.clock(elapsed))  eta \(Console.clock(eta))")
        case .json:
            guard now.timeIntervalSince(lastJSON) >= 0.25 || progress >= 1 else { return }
            lastJSON = now
            Console.out(ProgressEvent(
                event: "progress", progress: (progress * 10_000).rounded() / 10_000, elapsed: (elapsed * 1000).rounded() / 1000,
                eta: eta.isFinite ? (eta * 1000).rounded() / 1000 : nil).line)
        case .none:
            break
        }
    }

    /// The export finished: `output` is in place with `bytes` bytes.
    func completed(output: String, bytes: Int64) {
        switch mode {
        case .bar:
            Console.errorRaw("\r\u{1B}[K")
            Console.error("wrote \(output) (\(Console.bytes(bytes))) in \(Console.clock(elapsed))")
        case .plain:
            Console.error("wrote \(output) (\(Console.bytes(bytes))) in \(Console.clock(elapsed))")
        case .json:
            Console.out(ProgressEvent(event: "completed", output: output, elapsed: (elapsed * 1000).rounded() / 1000, bytes: bytes).line)
        case .none:
            break
        }
    }

    /// The export stopped: cancelled, or failed with `message`.
    func stopped(status: ExitStatus, message: String) {
        if mode == .bar { Console.errorRaw("\r\u{1B}[K") }
        if mode == .json {
            let cancelled = status == .cancelled
            Console.out(ProgressEvent(
                event: cancelled ? "cancelled" : "failed", exitCode: status.rawValue, error: cancelled ? nil : message).line)
        }
        Console.error("splice: \(message)")
    }
}

/// One line of `--progress json` output; fields that do not apply are left out.
struct ProgressEvent: Encodable {
    var event: String
    var output: String?
    var duration: Double?
    var progress: Double?
    var elapsed: Double?
    var eta: Double?
    var bytes: Int64?
    var exitCode: Int32?
    var error: String?

    /// The event as compact JSON.
    var line: String {
        (try? JSONText.compact(self)) ?? "{\"event\":\"\(event)\"}"
    }
}
