/// How a transform ramp blends its start and end transforms.
public enum TransformInterpolation: String, Sendable, Hashable, Codable, CaseIterable {
    /// The six matrix components blended linearly — what AVFoundation's `setTransformRamp` does. Exact for
    /// translations and scales; a rotation ramped this way shrinks the picture mid-way (a quarter turn passes
    /// through a scale of √½ at its middle).
    case matrix
    /// Scale, shear, rotation (the shortest way round) and translation blended separately, then recombined
    /// (``AffineTransform2D/interpolatedDecomposed(to:fraction:pivot:)``): a rotation stays rigid. The layer
    /// instruction's pivot (a source pixel) travels in a straight line.
    case decomposed
}
