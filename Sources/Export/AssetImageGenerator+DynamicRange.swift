import Composition

extension AssetImageGenerator {
    /// Whether the generator's pictures keep a high dynamic range, as AVFoundation's
    /// `AVAssetImageGenerator.DynamicRangePolicy` (`forceSDR`, `matchSource`).
    public enum DynamicRangePolicy: String, Sendable, Hashable, Codable, CaseIterable {
        /// RGBA8 (``VideoFrame/PixelFormat-swift.enum/rgba8``), SDR BT.709 (the default): an HDR composition is
        /// composited in SDR, its HDR sources tone-mapped exactly as an SDR export does (the same filters: HLG 75 %
        /// lands near SDR diffuse white), whatever the video composition's colour fields say.
        case forceSDR
        /// RGBA64 (``VideoFrame/PixelFormat-swift.enum/rgba64``, 16 bits a channel) in the composition's own colour
        /// space, decided as an export to a 10-bit codec decides it (``VideoComposition/MutableVideoComposition/colorPrimaries``):
        /// BT.2100 HLG or PQ (BT.2020 primaries, R'G'B' code values, not tone-mapped) when the fields say so or every
        /// video source is HDR, else SDR BT.709. The 10-bit canvas's limited-range values are scaled to full range
        /// (HLG 75 %, 10-bit Y 721, is 49151 = 0.75 × 65535), never passing through 8 bits. ``VideoFrame/dynamicRange``
        /// says which space a frame is in.
        case matchSource
    }
}
