import Composition

extension VideoCompositionLayerInstruction {
    /// A crop value no user rectangle equals, standing for "no crop" when asking whether the crop changes.
    private static let noCrop = Rect(x: -.infinity, y: -.infinity, width: 0, height: 0)

    /// True when the transform is the same over all of `range` (composition time), so a renderer can apply it with
    /// one fixed filter.
    public func isTransformConstant(in range: TimeRange) -> Bool {
        transforms.isConstant(in: range, default: .identity, interpolate: blendTransforms)
    }

    /// True when the opacity is the same over all of `range` (composition time).
    public func isOpacityConstant(in range: TimeRange) -> Bool {
        opacities.isConstant(in: range, default: 1)
    }

    /// True when the crop (or the absence of one) is the same over all of `range` (composition time).
    public func isCropConstant(in range: TimeRange) -> Bool {
        cropRectangles.isConstant(in: range, default: Self.noCrop)
    }

    /// The transform over `range` as constant and ramping pieces that tile it (see
    /// ``Keyframes/segments(in:default:interpolate:)``); ramping pieces blend as ``transformInterpolation`` says.
    public func transformSegments(in range: TimeRange) -> [KeyframeSegment<AffineTransform2D>] {
        transforms.segments(in: range, default: .identity, interpolate: blendTransforms)
    }

    /// The opacity (0...1) over `range` as constant and ramping pieces that tile it.
    public func opacitySegments(in range: TimeRange) -> [KeyframeSegment<Double>] {
        opacities.segments(in: range, default: 1)
    }

    /// The crop rectangle (source pixels) over `range` as constant and ramping pieces that tile it; the time before
    /// the first crop value is a constant piece of `fullFrame` (pass the source frame's bounds).
    public func cropRectangleSegments(in range: TimeRange, fullFrame: Rect) -> [KeyframeSegment<Rect>] {
        cropRectangles.segments(in: range, default: fullFrame)
    }
}
