import Composition

extension VideoCompositionLayerInstruction: Codable {
    private enum CodingKeys: String, CodingKey {
        case trackID, transformInterpolation, decomposedInterpolationPivot
        case transform, opacity, cropRectangle, effects
    }

    /// Decodes `{"trackID": 1, "transform": [...], "opacity": [...], "cropRectangle": [...], "effects": [...],
    /// "transformInterpolation": "matrix", "decomposedInterpolationPivot": {...}}`; only `trackID` is required (the
    /// others default to nothing set, no effects, matrix interpolation, pivot at the origin).
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            trackID: try container.decode(Int32.self, forKey: .trackID),
            transformInterpolation:
                try container.decodeIfPresent(TransformInterpolation.self, forKey: .transformInterpolation) ?? .matrix)
        decomposedInterpolationPivot = try container.decodeIfPresent(Point.self, forKey: .decomposedInterpolationPivot) ?? .zero
        transforms = try container.decodeIfPresent(Keyframes<AffineTransform2D>.self, forKey: .transform) ?? Keyframes()
        opacities = try container.decodeIfPresent(Keyframes<Double>.self, forKey: .opacity) ?? Keyframes()
        cropRectangles = try container.decodeIfPresent(Keyframes<Rect>.self, forKey: .cropRectangle) ?? Keyframes()
        effects = try container.decodeIfPresent([VideoEffect].self, forKey: .effects) ?? []
    }

    /// Encodes `trackID`, `transformInterpolation`, the pivot when not the origin, and each parameter that has
    /// entries.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(trackID, forKey: .trackID)
        try container.encode(transformInterpolation, forKey: .transformInterpolation)
        if decomposedInterpolationPivot != .zero {
            try container.encode(decomposedInterpolationPivot, forKey: .decomposedInterpolationPivot)
        }
        if !transforms.isEmpty { try container.encode(transforms, forKey: .transform) }
        if !opacities.isEmpty { try container.encode(opacities, forKey: .opacity) }
        if !cropRectangles.isEmpty { try container.encode(cropRectangles, forKey: .cropRectangle) }
        if !effects.isEmpty { try container.encode(effects, forKey: .effects) }
    }
}
