import Foundation

/// Why a storyboard or a poster frame could not be made.
public enum StoryboardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A setting is out of range: which, and the range.
    case invalidSettings(String)
    /// The composition has no picture to take thumbnails of.
    case noVideo
    /// A file the storyboard would write already exists (and overwriting was not asked for).
    case outputFileExists(URL)
    /// A file could not be written: the file and the reason.
    case writeFailed(URL, reason: String)
    /// The poster's file name ends in neither `.jpg`/`.jpeg` nor `.png`.
    case unsupportedImageType(URL)

    /// The refusal in words.
    public var description: String {
        switch self {
        case .invalidSettings(let why): return "invalid storyboard settings: \(why)"
        case .noVideo: return "the composition has no video track to take thumbnails of"
        case .outputFileExists(let url): return "\(url.path) already exists"
        case .writeFailed(let url, let reason): return "\(url.path) could not be written: \(reason)"
        case .unsupportedImageType(let url): return "\(url.lastPathComponent): a poster is written as .jpg, .jpeg or .png"
        }
    }
}
