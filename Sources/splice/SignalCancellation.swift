import Dispatch
import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT (Ctrl-C) and SIGTERM into a clean cancellation while a long command runs: the first signal calls
/// `cancel` (the export then stops and removes its temporary file); a second one, half a second or more later, exits at once with status 130.
/// The notice names the signal: only SIGINT comes from a keyboard, so only it is told "press Ctrl-C again"; a
/// service stopped with SIGTERM reads "received SIGTERM". The progress bar's line is cleared (`\r`, `ESC [K`) only
/// when `clearsLine` — a bar on a terminal — so plain logs never carry escape codes.
final class SignalCancellation {
    private let source: DispatchSourceRead
    /// Uptime of the first signal, in nanoseconds; nil while none came.
    private let first = Locked<UInt64?>(nil)
    private static let signals: [Int32] = [SIGINT, SIGTERM]
    /// How long after the first signal a second one counts as "quit at once" (nanoseconds): 0.5 s.
    static let repeatInterval: UInt64 = 500_000_000

    /// Installs the handlers; they stay until ``restore()``.
    ///
    /// A `sigaction` handler writes the signal's number to a pipe that a dispatch source reads. A dispatch signal
    /// source alone is not enough on Linux: it reads a `signalfd`, which sees a signal only while every thread blocks
    /// it, and with `SIG_IGN` set a signal that reaches an unblocking thread is discarded (an interrupted export ran
    /// on to the end that way).
    /// - Parameters:
    ///   - clearsLine: erase the current terminal line before the notice (a progress bar is drawn there).
    ///   - cancel: called once, on the first signal.
    init(clearsLine: Bool = false, _ cancel: @escaping @Sendable () -> Void) {
        let readEnd = SignalPipe.readEnd
        let first = self.first
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "splice.signals"))
        source.setEventHandler {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                let now = DispatchTime.now().uptimeNanoseconds
                let earlier = first.withLock { seen -> UInt64? in
                    defer { if seen == nil { seen = now } }
                    return seen
                }
                guard let firstTime = earlier else {
                    if clearsLine { Console.errorRaw("\r\u{1B}[K") }
                    Console.error(Self.notice(for: Int32(byte)))
                    cancel()
                    continue
                }
                // One request can arrive twice at once: GNU `timeout` and service managers signal the process and
                // then its whole group. Only a signal at least `repeatInterval` after the first quits at once.
                if now - firstTime >= Self.repeatInterval {
                    _exit(ExitStatus.cancelled.rawValue)
                }
            }
        }
        source.resume()
        for number in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalReceived
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The line printed on the first signal `number`.
    static func notice(for number: Int32) -> String {
        number == SIGINT
            ? "splice: cancelling (press Ctrl-C again to quit at once)"
            : "splice: received SIGTERM: cancelling (a second signal quits at once)"
    }

    /// Removes the handlers and restores the default actions — unless a signal already cancelled the command: its
    /// run ends with 130 (docs/cli.md), so a signal that comes between here and the process's exit (the second of
    /// a pair, late) exits with 130 at once rather than killing the process with the signal's default action.
    func restore() {
        let cancelled = first.withLock { $0 != nil }
        let action: __sighandler_t? = cancelled ? exitCancelled : SIG_DFL
        for number in Self.signals { signal(number, action) }
        source.cancel()
    }
}

/// The self-pipe between the signal handler and the dispatch source: created once, before any handler is installed,
/// both ends close-on-exec and non-blocking (a full pipe drops a byte rather than block the handler).
private enum SignalPipe {
    static let ends: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        signalWriteEnd = ends[1]
        return (ends[0], ends[1])
    }()

    static var readEnd: Int32 { ends.read }
}

/// The pipe's write end for the handler, which may read nothing but a plain global (async-signal safety).
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// The `sigaction` handler: only `write(2)`, which is async-signal-safe.
private func signalReceived(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalWriteEnd, &byte, 1)
}

/// The handler after a cancelled run's ``SignalCancellation/restore()``: exits with 130 (`_exit(2)`, async-signal-safe).
private func exitCancelled(_ number: Int32) {
    _exit(ExitStatus.cancelled.rawValue)
}
