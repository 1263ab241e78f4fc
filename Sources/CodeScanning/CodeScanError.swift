import Capture
import Composition

/// Why an ``AssetCodeScanner`` refused its settings or could not scan. Reading failures are `AssetReader`'s own
/// errors (`AssetReaderError`), passed through.
public enum CodeScanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A type the linked libzbar does not decode (not in ``CaptureMetadataOutput/availableMetadataObjectTypes``).
    case unsupportedType(MetadataObjectType)
    /// No type was asked for: nothing would ever be found.
    case noTypes
    /// A rect of interest that is empty, not finite, or not inside the unit square.
    case rectOfInterestOutOfRange(Rect)
    /// A minimum scan interval that is negative or not a number of seconds.
    case invalidScanInterval(MediaTime)
    /// The file (its path) or composition has no video track to scan.
    case noVideoTrack(String)
    /// libzbar could not allocate its scanner.
    case scannerUnavailable

    /// A sentence naming the value and the cause.
    public var description: String {
        switch self {
        case .unsupportedType(let type):
            return "metadata object type '\(type.rawValue)' cannot be read by the linked libzbar"
        case .noTypes: return "no metadata object type to look for"
        case .rectOfInterestOutOfRange(let rect):
            return "rect of interest (x \(rect.x), y \(rect.y), width \(rect.width), height \(rect.height)) is not inside 0…1"
        case .invalidScanInterval(let interval): return "minimum scan interval \(interval) is not a time of 0 s or more"
        case .noVideoTrack(let name): return "\(name): no video track to scan"
        case .scannerUnavailable: return "libzbar could not allocate its image scanner"
        }
    }
}
