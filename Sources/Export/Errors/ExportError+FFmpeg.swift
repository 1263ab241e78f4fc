import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// The one place where Export's failures of FFmpeg and of the file system become public errors; the words for a
/// cause are ``FailureReason``'s (SpliceFFmpeg), the same in Capture (a full disk is "the disk is full" whether the
/// render, the stream copy or a recording hit it).
extension ExportError {
    /// The public error for a failed write of `url` (opening excluded).
    ///
    /// - Returns: `CancellationError` when FFmpeg was interrupted (`AVERROR_EXIT`) or `cancelled` is true;
    ///   ``writeFailed(_:reason:)`` naming the cause otherwise (``FailureReason/words(for:)``: disk full, quota, file
    ///   too large, I/O error, or FFmpeg's message and function); any error that is not an ``FFmpegError`` unchanged.
    static func writing(_ error: any Error, to url: URL, cancelled: Bool) -> any Error {
        guard let error = error as? FFmpegError else { return error }
        if FFmpegError.isCancellation(error, cancelled: cancelled) { return CancellationError() }
        return ExportError.writeFailed(url, reason: FailureReason.words(for: error))
    }

    /// The public error for an output file that could not be created for `url` (a temporary file beside it):
    /// ``outputNotWritable(_:reason:)`` naming `url`'s directory and the cause in ``FailureReason``'s words.
    static func openingOutput(_ error: any Error, for url: URL) -> ExportError {
        .outputNotWritable(url.deletingLastPathComponent(), reason: FailureReason.words(for: error))
    }

    /// The public error for a source file `url` that could not be opened or read while `doing` (e.g.
    /// `"reading audio track 2 (aac)"`; nil: opening).
    ///
    /// - Returns: `CancellationError` for an interrupted read or a cancelled open; ``sourceUnreadable(_:reason:)``
    ///   with the loader's words for an open failure, and with `doing` and FFmpeg's message otherwise;
    ///   ``sourceTruncated(_:trackID:dataEnd:indexedEnd:)`` for a file cut short; any error of another kind (already
    ///   public) unchanged.
    static func reading(_ error: any Error, source url: URL, doing: String? = nil) -> any Error {
        switch error {
        case let error where FFmpegError.isCancellation(error): return CancellationError()
        case let truncation as SourceTruncation: return truncated(truncation, source: url)
        case let error as FFmpegError:
            return ExportError.sourceUnreadable(url, reason: doing.map { "\($0): \(error)" } ?? error.description)
        case let error as InputFileError:
            return ExportError.sourceUnreadable(url, reason: AssetLoadingError(error, url: url).description)
        case let error as AssetLoadingError: return ExportError.sourceUnreadable(url, reason: error.description)
        case let error as TimedMetadataTrack.MalformedSample: return ExportError.sourceUnreadable(url, reason: error.description)
        default: return error
        }
    }

    /// The public error for `url` cut short as `truncation` found: ``sourceTruncated(_:trackID:dataEnd:indexedEnd:)``
    /// naming the track as the loader numbers it (stream index + 1).
    static func truncated(_ truncation: SourceTruncation, source url: URL) -> ExportError {
        .sourceTruncated(url, trackID: Int32(truncation.streamIndex + 1), dataEnd: truncation.dataEnd,
                         indexedEnd: truncation.indexedEnd)
    }

    /// The public error for a filter graph that failed while `stage` (e.g. `"filtering frame 12"`).
    /// - Returns: `CancellationError` for an interrupted graph; ``renderingFailed(stage:reason:)`` otherwise, or the
    ///   error unchanged when it is already public.
    static func rendering(_ error: any Error, stage: String) -> any Error {
        switch error {
        case let error where FFmpegError.isCancellation(error): return CancellationError()
        case let error as FFmpegError: return ExportError.renderingFailed(stage: stage, reason: error.description)
        default: return error
        }
    }
}
