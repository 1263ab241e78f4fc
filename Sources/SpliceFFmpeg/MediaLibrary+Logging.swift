import Synchronization
internal import CMedia

/// The severity of an FFmpeg log message (FFmpeg's `AV_LOG_*` levels).
public enum LogLevel: Int32, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// Something went wrong and cannot be recovered.
    case fatal = 8
    /// Something went wrong (e.g. a corrupt packet).
    case error = 16
    /// Something looks wrong and may lead to problems.
    case warning = 24
    /// Informative messages.
    case info = 32
    /// Detailed messages.
    case verbose = 40
    /// Debugging output.
    case debug = 48

    /// Orders by FFmpeg level value: more severe levels are smaller (`error < warning`).
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level of an `AV_LOG_*` value (panic counts as fatal, trace as debug).
    package init(ffmpegLevel: Int32) {
        self = LogLevel.allCases.last { $0.rawValue <= max(ffmpegLevel, LogLevel.fatal.rawValue) } ?? .debug
    }
}

extension MediaLibrary {
    /// A receiver of FFmpeg's log lines: the level and one line of text (no trailing newline), prefixed by FFmpeg
    /// with the component that logged it (e.g. `[h264 @ 0x…] `).
    public typealias LogHandler = @Sendable (LogLevel, String) -> Void

    private struct LogRouting: Sendable {
        var handler: LogHandler?
        var level: LogLevel = .warning
    }

    private static let routing = Locked(LogRouting())

    /// The most verbose FFmpeg level a handler wants, `Int32.min` when none is set: read on every FFmpeg log call
    /// (thousands a second from decoder and filter threads), so it is one atomic load, not a lock.
    private static let threshold = Atomic<Int32>(Int32.min)

    /// Routes FFmpeg's log output (process-wide) to `handler` for messages at `level` or more severe.
    ///
    /// By default nothing is printed: Splice installs its own `av_log_set_callback` the first time it touches
    /// FFmpeg and drops every message until a handler is set. Pass nil to drop messages again. The handler may be
    /// called from any thread (export workers, FFmpeg's own threads) and must not block.
    public static func setLogHandler(level: LogLevel = .warning, _ handler: LogHandler?) {
        installLogRouting()
        routing.withLock {
            $0 = LogRouting(handler: handler, level: level)
            threshold.store(handler == nil ? Int32.min : level.rawValue, ordering: .sequentiallyConsistent)
        }
    }

    private static let installation: Void = {
        applyCPUFlagsOverride()
        av_log_set_level(Int32(AV_LOG_DEBUG))
        av_log_set_callback(spliceLogCallback)
    }()

    /// Installs Splice's log callback (and applies ``cpuFlagsVariable``) once; called before any FFmpeg work so the
    /// library never writes to stderr.
    package static func installLogRouting() { _ = installation }

    fileprivate static func deliver(level: Int32, message: String) {
        let route = routing.withLock { $0 }
        guard let handler = route.handler else { return }
        let logLevel = LogLevel(ffmpegLevel: level)
        guard logLevel <= route.level else { return }
        handler(logLevel, message)
    }

    fileprivate static func wants(_ level: Int32) -> Bool {
        LogLevel(ffmpegLevel: level).rawValue <= threshold.load(ordering: .relaxed)
    }
}

/// FFmpeg's log callback: formats the line with FFmpeg's own prefix rules and hands it to the Swift handler.
private func spliceLogCallback(
    _ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) {
    guard let format, let arguments, MediaLibrary.wants(level) else { return }
    var line = [CChar](repeating: 0, count: 1024)
    var printPrefix: Int32 = 1
    _ = line.withUnsafeMutableBufferPointer {
        av_log_format_line2(context, level, format, arguments, $0.baseAddress, Int32($0.count), &printPrefix)
    }
    var text = String(cBuffer: line)
    while text.hasSuffix("\n") { text.removeLast() }
    guard !text.isEmpty else { return }
    MediaLibrary.deliver(level: level, message: text)
}
