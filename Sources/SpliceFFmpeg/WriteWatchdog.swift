import Dispatch

/// Interrupts a connection whose write waits longer than `limit` seconds (checked 10 times a second), through the
/// connection's cancellation flag, which FFmpeg's interrupt callback reads.
final class WriteWatchdog {
    private let state = Locked<(start: UInt64?, flag: CancellationFlag?, timedOut: Bool)>((nil, nil, false))
    private let timer: DispatchSourceTimer
    let limit: Double

    init(limit: Double) {
        self.limit = limit
        timer = DispatchSource.makeTimerSource(queue: .global())
        let (state, nanoseconds) = (state, UInt64(limit * 1e9))
        timer.setEventHandler {
            let now = DispatchTime.now().uptimeNanoseconds
            state.withLock { state in
                guard let start = state.start, now > start + nanoseconds, !state.timedOut else { return }
                state.timedOut = true
                state.flag?.cancel()
            }
        }
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
        timer.resume()
    }

    /// Watches the writes of the connection interrupted through `flag`.
    func watch(_ flag: CancellationFlag) { state.withLock { $0 = (nil, flag, false) } }

    /// Runs one write under the watch.
    /// - Throws: ``SenderError`` naming the timeout when the watchdog interrupted it, else the write's error in words.
    func run(_ write: () throws -> Void) throws(SenderError) {
        state.withLock { $0.start = DispatchTime.now().uptimeNanoseconds }
        defer { state.withLock { $0.start = nil } }
        do { try write() } catch {
            if state.withLock({ $0.timedOut }) {
                throw SenderError(reason: "the server took nothing for \(String(format: "%g", limit)) s (write timeout)")
            }
            throw SenderError(reason: FailureReason.words(for: error))
        }
    }

    func stop() { timer.cancel() }
}
