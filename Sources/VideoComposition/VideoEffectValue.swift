import Foundation

/// A ``VideoEffect`` evaluated at one time: what one frame's filter draws.
public enum VideoEffectValue: Sendable, Hashable {
    /// `parameter` at an amount in its unit (never its neutral value).
    case adjustment(VideoEffectParameter, Double)
    /// A `.cube` lookup table.
    case lookupTable(URL)
}
