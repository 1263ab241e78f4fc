/// Why a ``CaptureLiveStreamOutput`` could not start or keep streaming. Each case names the destination.
public enum CaptureLiveStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A destination the output cannot stream to: a scheme other than `rtmp`, `rtmps` and `srt`, or a file URL not
    /// ending in `.m3u8`. Refused when streaming is asked for.
    case unsupportedDestination(String)
    /// The output is already streaming, or the session has not made its connections (it is not running).
    case notReady(String)
    /// The server could not be reached or refused the stream (FFmpeg's words), or did not answer within
    /// ``CaptureLiveStreamOutput/connectionTimeout``.
    case connectionFailed(destination: String, reason: String)
    /// The connection broke while streaming (the server went away): the stream ended, the session runs on.
    case connectionLost(destination: String, reason: String)

    /// A sentence naming the destination and the cause.
    public var description: String {
        switch self {
        case .unsupportedDestination(let url):
            return "\(url): cannot stream there (rtmp://, rtmps://, srt:// or a folder's .m3u8 playlist)"
        case .notReady(let url): return "\(url): the output is streaming already or its session is not running"
        case .connectionFailed(let url, let reason): return "\(url): could not connect: \(reason)"
        case .connectionLost(let url, let reason): return "\(url): the connection was lost: \(reason)"
        }
    }
}
