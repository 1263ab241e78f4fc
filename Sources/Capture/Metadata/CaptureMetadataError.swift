import Composition

/// Why a ``CaptureMetadataOutput`` refused a setting.
public enum CaptureMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type is not one the linked libzbar decodes (not in ``CaptureMetadataOutput/availableMetadataObjectTypes``).
    /// AVFoundation raises `NSInvalidArgumentException` there.
    case unsupportedType(MetadataObjectType)
    /// A rect of interest that is not inside the unit square (x, y ≥ 0, x + width ≤ 1, y + height ≤ 1, width and
    /// height > 0, every value finite).
    case rectOfInterestOutOfRange(Rect)

    /// A sentence naming the value and the cause.
    public var description: String {
        switch self {
        case .unsupportedType(let type):
            return "metadata object type '\(type.rawValue)' cannot be read by the linked libzbar"
        case .rectOfInterestOutOfRange(let rect):
            return "rect of interest (x \(rect.x), y \(rect.y), width \(rect.width), height \(rect.height)) is not inside 0…1"
        }
    }
}
