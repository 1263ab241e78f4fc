internal import CZBar

/// A kind of machine-readable code a ``CaptureMetadataOutput`` can report (AVFoundation's `AVMetadataObject.ObjectType`
/// for codes). The raw values are AVFoundation's names without the `org.iso.`/`org.gs1.` prefixes.
public enum MetadataObjectType: String, Sendable, Hashable, Codable, CaseIterable {
    /// QR Code (ISO/IEC 18004). AVFoundation's `.qr`.
    case qr
    /// EAN-13 (ISO/IEC 15420); a UPC-A symbol is read as the EAN-13 with a leading 0, as AVFoundation reports it.
    case ean13
    /// EAN-8 (ISO/IEC 15420).
    case ean8
    /// UPC-E (ISO/IEC 15420), reported as its 8 digits.
    case upce
    /// Code 39 (ISO/IEC 16388), without a check digit.
    case code39
    /// Code 93.
    case code93
    /// Code 128 (ISO/IEC 15417).
    case code128
    /// Interleaved 2 of 5 (ISO/IEC 16390). AVFoundation's `.interleaved2of5`.
    case interleaved2of5
    /// PDF417 (ISO/IEC 15438). libzbar detects PDF417 but does not decode it (it reports no text): see
    /// ``CaptureMetadataOutput/availableMetadataObjectTypes``.
    case pdf417

    /// libzbar's symbology for this type.
    var zbarSymbol: zbar_symbol_type_t {
        switch self {
        case .qr: return ZBAR_QRCODE
        case .ean13: return ZBAR_EAN13
        case .ean8: return ZBAR_EAN8
        case .upce: return ZBAR_UPCE
        case .code39: return ZBAR_CODE39
        case .code93: return ZBAR_CODE93
        case .code128: return ZBAR_CODE128
        case .interleaved2of5: return ZBAR_I25
        case .pdf417: return ZBAR_PDF417
        }
    }

    /// The type libzbar's symbology `symbol` is reported as, nil for one this enumeration does not name.
    init?(zbarSymbol symbol: zbar_symbol_type_t) {
        guard let type = Self.allCases.first(where: { $0.zbarSymbol == symbol }) else { return nil }
        self = type
    }

    /// The types the linked libzbar decodes to text: every case but ``pdf417`` (zbar 0.23 finds PDF417 symbols but
    /// its decoder stops before the text, so it would never report one).
    package static var decodable: [MetadataObjectType] { allCases.filter { $0 != .pdf417 } }
}
