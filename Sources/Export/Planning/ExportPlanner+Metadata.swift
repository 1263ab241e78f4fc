import Composition
import Foundation

extension ExportPlanner {
    /// Refuses a ``ExportRequest/metadata`` location (an item whose common key is `location`) that is not an ISO 6709
    /// text: latitude then longitude, each signed, in degrees (`+48.8584`), degrees and minutes (`+4851.50`) or
    /// degrees, minutes and seconds (`+485130.2`), an optional signed altitude in metres and an optional `CRS…`
    /// part, ended by `/` (ISO 6709:2008 Annex H, the form QuickTime's `©xyz` and `mdta` location keys hold).
    /// Decimal degrees must lie within ±90 (latitude) and ±180 (longitude).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the key and the value.
    func checkMetadataLocations() throws {
        for item in request.metadata where item.commonKey == "location" {
            guard Self.isISO6709(item.value) else {
                throw ExportError.unsupportedSettings(
                    "metadata '\(item.key)' = '\(item.value)' is not an ISO 6709 location (e.g. '+48.8584+002.2945+035.000/': "
                        + "signed latitude, signed longitude, optional signed altitude, then '/')")
            }
        }
    }

    /// Whether `text` is an ISO 6709 point as ``checkMetadataLocations()`` describes it.
    static func isISO6709(_ text: String) -> Bool {
        let pattern = /^([+-])(\d{2}(?:\d{2}(?:\d{2})?)?(?:\.\d+)?)([+-])(\d{3}(?:\d{2}(?:\d{2})?)?(?:\.\d+)?)([+-]\d+(?:\.\d+)?)?(CRS[^\/]*)?\/$/
        guard let match = text.wholeMatch(of: pattern) else { return false }
        // Degrees only when the integer part has two (latitude) or three (longitude) digits.
        let latitude = match.2, longitude = match.4
        if latitude.prefix(while: { $0 != "." }).count == 2, let value = Double(latitude), value > 90 { return false }
        if longitude.prefix(while: { $0 != "." }).count == 3, let value = Double(longitude), value > 180 { return false }
        return true
    }
}
