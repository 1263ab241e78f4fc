import Foundation
import Composition
import Export

/// Why a golden comparison could not be made or its files could not be written.
public enum GoldenFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The two pictures have different sizes (pixels).
    case sizeMismatch(actual: Size, expected: Size)
    /// A picture of this size cannot be made (a zero width or height).
    case invalidShape(Size)
    /// A golden file exists but cannot be read as a picture or text.
    case goldenUnreadable(URL, reason: String)
    /// A golden, actual or difference file could not be written.
    case writeFailed(URL, reason: String)

    /// One sentence naming the files or sizes and the cause.
    public var description: String {
        switch self {
        case .sizeMismatch(let actual, let expected):
            return "the frame is \(actual.width)x\(actual.height) pixels but the golden is \(expected.width)x\(expected.height)"
        case .invalidShape(let size): return "a \(size.width)x\(size.height) picture cannot be made"
        case .goldenUnreadable(let url, let reason): return "cannot read the golden \(url.path): \(reason)"
        case .writeFailed(let url, let reason): return "cannot write \(url.path): \(reason)"
        }
    }
}
