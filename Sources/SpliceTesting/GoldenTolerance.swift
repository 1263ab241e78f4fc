/// How close a rendered frame must be to its golden: a minimum PSNR, a maximum channel difference, or both (then
/// both must hold). With neither, the frame must be identical.
///
/// Choose the figure from the pipeline: exact for lossless paths (``exact``), a channel difference of 2–3 where only
/// YUV 4:2:0 rounding is involved, a PSNR (e.g. 40 dB) where an encoder or resampling filter is involved.
public struct GoldenTolerance: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The smallest acceptable PSNR over R, G, B, in dB (``FrameComparison/psnr``); nil for no PSNR limit.
    public var minimumPSNR: Double?
    /// The largest acceptable absolute difference of any channel at any pixel, 0…255
    /// (``FrameComparison/maximumDifference``); nil for no such limit.
    public var maximumChannelDifference: Int?

    /// A tolerance with the given limits; with both nil, only identical frames pass.
    /// - Parameters:
    ///   - minimumPSNR: dB.
    ///   - maximumChannelDifference: 0…255.
    public init(minimumPSNR: Double? = nil, maximumChannelDifference: Int? = nil) {
        self.minimumPSNR = minimumPSNR
        self.maximumChannelDifference = maximumChannelDifference
    }

    /// Identical pixels only.
    public static let exact = GoldenTolerance(maximumChannelDifference: 0)

    /// At least `decibels` of PSNR.
    public static func psnr(atLeast decibels: Double) -> GoldenTolerance { GoldenTolerance(minimumPSNR: decibels) }

    /// No channel of any pixel further than `levels` (0…255) from the golden.
    public static func maximumDifference(_ levels: Int) -> GoldenTolerance {
        GoldenTolerance(maximumChannelDifference: levels)
    }

    /// True when `comparison` is within every stated limit (identical when none is stated).
    public func accepts(_ comparison: FrameComparison) -> Bool {
        if minimumPSNR == nil && maximumChannelDifference == nil { return comparison.isIdentical }
        if let minimumPSNR, !(comparison.psnr >= minimumPSNR) { return false }
        if let maximumChannelDifference, comparison.maximumDifference > maximumChannelDifference { return false }
        return true
    }

    /// `PSNR ≥ 40 dB and max difference ≤ 3`, or `identical`.
    public var description: String {
        var parts: [String] = []
        if let minimumPSNR { parts.append("PSNR ≥ \(minimumPSNR) dB") }
        if let maximumChannelDifference { parts.append("max difference ≤ \(maximumChannelDifference)") }
        return parts.isEmpty ? "identical" : parts.joined(separator: " and ")
    }
}
