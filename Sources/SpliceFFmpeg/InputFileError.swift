import Foundation

/// Why ``InputFile/init(url:cancellation:)`` could not open a file, as facts for the engines to turn into their
/// public errors (Export: `AssetLoadingError`). Carries no URL: the caller knows which file it opened.
package enum InputFileError: Error, Hashable {
    /// The URL is not a `file:` URL (only local files are opened).
    case notAFileURL
    /// Nothing exists at the path (`ENOENT`, `ENOTDIR`).
    case fileNotFound
    /// The process may not read the file (`EACCES`, `EPERM`).
    case permissionDenied
    /// The path names a directory.
    case isADirectory
    /// The path names something other than a regular file: `"FIFO"`, `"socket"`, `"character device"`,
    /// `"block device"` or `"special file"`.
    case notARegularFile(kind: String)
    /// The file has 0 bytes.
    case emptyFile
    /// The file refers to other files (a playlist or concat script) that libavformat refused to open.
    case refersToOtherFiles(FFmpegError)
    /// No demuxer recognises the content (`AVERROR_INVALIDDATA` and no confident content match).
    case notAMediaFile(FFmpegError)
    /// A demuxer recognised the content (`format`, from `av_probe_input_format3`; nil when only the open said so)
    /// but the header could not be read.
    case unreadableHeader(FFmpegError, format: String?)
    /// The header was read but `avformat_find_stream_info` failed.
    case unreadableStreamInformation(FFmpegError)
    /// An operating-system failure (I/O error, out of memory): the system's or FFmpeg's message.
    case readFailed(String)
}
