/// Transfer function of a video composition, by AVFoundation's names (`AVVideoTransferFunction_…` string values).
public enum VideoTransferFunction: String, Sendable, Hashable, Codable, CaseIterable {
    /// ITU-R BT.709 (SDR): `AVVideoTransferFunction_ITU_R_709_2`.
    case itu709 = "ITU_R_709_2"
    /// Hybrid log-gamma, ITU-R BT.2100 (iPhone HDR): `AVVideoTransferFunction_ITU_R_2100_HLG`.
    case hlg = "ITU_R_2100_HLG"
    /// Perceptual quantizer, SMPTE ST 2084 (HDR10): `AVVideoTransferFunction_SMPTE_ST_2084_PQ`.
    case pq = "SMPTE_ST_2084_PQ"
}
