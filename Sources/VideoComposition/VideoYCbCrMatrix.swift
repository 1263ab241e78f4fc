/// Y'CbCr matrix of a video composition, by AVFoundation's names (`AVVideoYCbCrMatrix_…` string values).
public enum VideoYCbCrMatrix: String, Sendable, Hashable, Codable, CaseIterable {
    /// ITU-R BT.709: `AVVideoYCbCrMatrix_ITU_R_709_2`.
    case itu709 = "ITU_R_709_2"
    /// ITU-R BT.2020 non-constant luminance: `AVVideoYCbCrMatrix_ITU_R_2020`.
    case itu2020 = "ITU_R_2020"
}
