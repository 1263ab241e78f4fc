import Dispatch
import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT (Ctrl-C) and SIGTERM into a clean cancellation while a long command runs: the first signal calls
/// `cancel` (the export then stops and removes its temporary file); a second one exits at once with status 130.
/// The notice names the signal: only SIGINT comes from a keyboard, so only it is told "press Ctrl-C again"; a
/// service stopped with SIGTERM reads "received SIGTERM". The progress bar's line is cleared (`\r`, `ESC [K`) only
/// when `clearsLine` — a bar on a terminal — so plain logs never carry escape codes.
final class SignalCancellation {
    private let sources: [DispatchSourceSignal]
    private static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Installs the handlers; they stay until ``restore()``.
    /// - Parameters:
    ///   - clearsLine: erase the current terminal line before the notice (a progress bar is drawn there).
    ///   - cancel: called once, on the first signal.
    init(clearsLine: Bool = false, _ cancel: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "splice.signals")
        let received = Counter()
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if received.increment() == 1 {
                    if clearsLine { Console.errorRaw("\r\u{1B}[K") }
                    Console.error(Self.notice(for: number))
                    cancel()
                } else {
                    _exit(ExitStatus.cancelled.rawValue)
                }
            }
            source.resume()
            return source
        }
    }

    /// The line printed on the first signal `number`.
    static func notice(for number: Int32) -> String {
        number == SIGINT
            ? "splice: cancelling (press Ctrl-C again to quit at once)"
            : "splice: received SIGTERM: cancelling (a second signal quits at once)"
    }

    /// Removes the handlers and restores the default actions.
    func restore() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }

    private final class Counter: Sendable {
        private let count = Locked(0)

        func increment() -> Int {
            count.withLock { value in
                value += 1
                return value
            }
        }
    }
}
