import Foundation
import SpliceFFmpeg

extension AssetLoadingError {
    /// The public error for a file ``InputFile`` could not open: the one place where open failures get their words.
    init(_ error: InputFileError, url: URL) {
        switch error {
        case .notAFileURL: self = .notAFileURL(url)
        case .fileNotFound: self = .fileNotFound(url)
        case .permissionDenied: self = .permissionDenied(url)
        case .isADirectory: self = .isADirectory(url)
        case .notARegularFile(let kind): self = .notARegularFile(url, kind: kind)
        case .emptyFile: self = .emptyFile(url)
        case .refersToOtherFiles(let cause):
            self = .notAMediaFile(
                url, reason: "it refers to other files (a playlist or concat script), which Splice does not follow: "
                    + cause.description)
        case .notAMediaFile(let cause): self = .notAMediaFile(url, reason: cause.description)
        case .unreadableHeader(let cause, let format?):
            self = .corruptOrTruncated(url, reason: "the \(format) header could not be read: \(cause.description)")
        case .unreadableHeader(let cause, nil): self = .corruptOrTruncated(url, reason: "opening: \(cause.description)")
        case .unreadableStreamInformation(let cause):
            self = .corruptOrTruncated(url, reason: "reading stream information: \(cause)")
        case .readFailed(let reason): self = .readFailed(url, reason: reason)
        }
    }
}

extension InputFile {
    /// Opens `url` as ``InputFile/init(url:cancellation:)`` does, with failures as ``AssetLoadingError``.
    /// - Throws: ``AssetLoadingError`` naming the file and the cause; `CancellationError`.
    package static func open(_ url: URL, cancellation: CancellationFlag? = nil) throws -> InputFile {
        do {
            return try InputFile(url: url, cancellation: cancellation)
        } catch let error as InputFileError {
            throw AssetLoadingError(error, url: url)
        }
    }
}
