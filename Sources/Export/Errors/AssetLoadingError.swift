import Foundation

/// Why ``Composition/Asset/load(from:)`` could not describe a file. Every case names the file and the cause.
///
/// The loader checks the file system first (missing, unreadable, a directory, a FIFO or device, empty), so those
/// causes are reported exactly and never reach libavformat; what libavformat rejects is split into "not a media file"
/// (no demuxer recognises the bytes) and "corrupt or truncated" (a demuxer recognised the container but could not
/// read it). Task cancellation is reported as `CancellationError`, not as a case of this enum.
public enum AssetLoadingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not a `file:` URL. Splice loads local files only (no network protocols).
    case notAFileURL(URL)
    /// Nothing exists at the path (`ENOENT`).
    case fileNotFound(URL)
    /// The file exists but this process may not read it (`EACCES`/`EPERM`).
    case permissionDenied(URL)
    /// The path names a directory.
    case isADirectory(URL)
    /// The path names something that is not a regular file: `kind` is `"FIFO"`, `"socket"`, `"character device"`
    /// or `"block device"`. Refused because reading it could block forever or never end.
    case notARegularFile(URL, kind: String)
    /// The file is empty (0 bytes).
    case emptyFile(URL)
    /// No container or image format recognises the file's bytes; `reason` is FFmpeg's message.
    case notAMediaFile(URL, reason: String)
    /// A format was recognised but the file could not be read to the end of what it declares: a truncated download,
    /// a damaged header, an unreadable packet. `reason` names the failing step and FFmpeg's message.
    case corruptOrTruncated(URL, reason: String)
    /// The file is a media container but has no video or audio track at all.
    case noDecodableStream(URL)
    /// The file's video and audio tracks all use codecs the linked FFmpeg cannot decode; the first such track
    /// (1-based ``Composition/AssetTrack/trackID``) and its codec name are given.
    case unsupportedCodec(URL, trackID: Int32, codec: String)
    /// Reading the file failed for another operating-system reason (I/O error, out of memory); `reason` is the
    /// system's or FFmpeg's message.
    case readFailed(URL, reason: String)
    /// A sidecar SubRip or WebVTT file breaks its format's cue syntax at `line`, `column` (1-based, columns counted
    /// in characters): a bad timestamp, a timing line without `-->`, a blank line missing between cues. libavformat
    /// would read such a file leniently (dropping or merging cues), so it is refused; `reason` says what is wrong.
    case malformedSubtitles(URL, line: Int, column: Int, reason: String)
    /// A sidecar subtitle file's text is in no encoding Splice accepts: not UTF-8 (nor UTF-16 with a byte order
    /// mark), and for SubRip and ASS not Windows-1252 either; WebVTT is always UTF-8. `line` and `column` (1-based)
    /// locate the first byte that cannot be decoded; `reason` names the byte and the encodings tried.
    case undecodableText(URL, line: Int, column: Int, reason: String)

    /// The file the error is about.
    public var url: URL {
        switch self {
        case .notAFileURL(let url), .fileNotFound(let url), .permissionDenied(let url), .isADirectory(let url),
             .notARegularFile(let url, _), .emptyFile(let url), .notAMediaFile(let url, _),
             .corruptOrTruncated(let url, _), .noDecodableStream(let url), .unsupportedCodec(let url, _, _),
             .readFailed(let url, _), .malformedSubtitles(let url, _, _, _), .undecodableText(let url, _, _, _):
            return url
        }
    }

    /// A one-line English message naming the file and the cause.
    public var description: String {
        let name = url.isFileURL ? url.path : url.absoluteString
        switch self {
        case .notAFileURL: return "cannot load \(name): only file URLs are supported"
        case .fileNotFound: return "cannot load \(name): no such file"
        case .permissionDenied: return "cannot load \(name): permission denied"
        case .isADirectory: return "cannot load \(name): it is a directory, not a media file"
        case .notARegularFile(_, let kind): return "cannot load \(name): it is a \(kind), not a regular file"
        case .emptyFile: return "cannot load \(name): the file is empty (0 bytes)"
        case .notAMediaFile(_, let reason): return "cannot load \(name): not a media file (\(reason))"
        case .corruptOrTruncated(_, let reason): return "cannot load \(name): corrupt or truncated (\(reason))"
        case .noDecodableStream: return "cannot load \(name): it has no video or audio track"
        case .unsupportedCodec(_, let trackID, let codec):
            return "cannot load \(name): track \(trackID) uses codec '\(codec)', which this FFmpeg cannot decode"
        case .readFailed(_, let reason): return "cannot load \(name): read failed (\(reason))"
        case .malformedSubtitles(_, let line, let column, let reason):
            return "cannot load \(name): line \(line), column \(column): \(reason)"
        case .undecodableText(_, let line, let column, let reason):
            return "cannot load \(name): line \(line), column \(column): undecodable text: \(reason)"
        }
    }
}
