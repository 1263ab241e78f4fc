import Foundation
import Composition

/// Why an adaptive-bitrate package was refused or failed. Nothing is left at the output folder when one is thrown.
public enum PackagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ladder has no rendition.
    case emptyLadder
    /// Rung `index` (from 0) of the ladder is not usable, for `reason`.
    case invalidRendition(index: Int, reason: String)
    /// The segment duration is not a positive time.
    case invalidSegmentDuration(MediaTime)
    /// Neither HLS nor DASH was asked for.
    case noManifestFormat
    /// The composition has no video to package (an enabled video track with media).
    case noVideo
    /// The output folder exists and overwriting was not asked for.
    case outputExists(URL)
    /// The folder's parent does not exist or is not a folder.
    case outputParentMissing(URL)
    /// Encoding rendition `rendition` (its name, or `audio`) failed, for `reason`.
    case encodingFailed(rendition: String, reason: String)
    /// A file of the package could not be written, for `reason` (disk full, permissions, …).
    case writeFailed(URL, reason: String)
    /// ``AdaptiveBitratePackager/write(to:)`` was called while the packager is writing, or after it wrote its
    /// package: make a new packager.
    case alreadyWritten

    public var description: String {
        switch self {
        case .emptyLadder: "the ladder has no rendition"
        case .invalidRendition(let index, let reason): "rendition \(index) of the ladder: \(reason)"
        case .invalidSegmentDuration(let duration): "segment duration \(duration) is not a positive time"
        case .noManifestFormat: "neither HLS nor DASH was asked for"
        case .noVideo: "the composition has no video track with media to package"
        case .outputExists(let url): "\(url.path) already exists (ask to overwrite it)"
        case .outputParentMissing(let url): "\(url.deletingLastPathComponent().path) is not an existing folder"
        case .encodingFailed(let rendition, let reason): "encoding rendition \(rendition) failed: \(reason)"
        case .writeFailed(let url, let reason): "cannot write \(url.path): \(reason)"
        case .alreadyWritten: "this packager is writing or has written its package; make a new packager to package again"
        }
    }
}
