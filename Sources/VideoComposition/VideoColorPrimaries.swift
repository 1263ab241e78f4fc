/// Colour primaries of a video composition, by AVFoundation's names (`AVVideoColorPrimaries_…` string values).
public enum VideoColorPrimaries: String, Sendable, Hashable, Codable, CaseIterable {
    /// ITU-R BT.709 (HD, sRGB): `AVVideoColorPrimaries_ITU_R_709_2`.
    case itu709 = "ITU_R_709_2"
    /// ITU-R BT.2020 (UHD, HDR): `AVVideoColorPrimaries_ITU_R_2020`.
    case itu2020 = "ITU_R_2020"
}
