import Composition

/// How one composition video track is drawn during one ``VideoCompositionInstruction``: its transform into the render
/// canvas, its opacity and its crop, each set at times or ramped over ranges — AVFoundation's
/// `AVMutableVideoCompositionLayerInstruction`.
///
/// **Rules (as AVFoundation).** Before the first value set, the defaults hold: the identity transform, opacity 1.0,
/// no crop (the full source frame). After the last value set, it holds. Ramps are linear in time (other easings and
/// keyframes are Splice additions); a ramp's start value applies from the ramp's start; at and after its end the end
/// value holds; a value set at a time wins from that time. See ``Keyframes`` for the full rules.
///
/// **Coordinates.** The transform maps source pixels (the track's coded frame; origin top-left, y down) to render
/// canvas pixels; like AVFoundation, it does *not* include the track's `preferredTransform` unless you concatenate
/// it (``AffineTransform2D/placing(_:in:mode:)`` builds the usual one). The crop rectangle is in source pixels,
/// applied before the transform, as AVFoundation's `setCropRectangle`.
///
/// **Effects.** ``effects`` (a Splice addition) lists built-in per-frame effects, each keyframed like opacity.
///
/// The renderer draws every frame from ``transform(at:)``, ``opacity(at:)``, ``cropRectangle(at:)`` and
/// ``effectValues(at:)`` (or the equivalent pieces from ``transformSegments(in:)`` & co.), so the model is the single
/// source of truth.
public struct VideoCompositionLayerInstruction: Sendable, Hashable {
    /// The composition track this layer draws (AVFoundation's `trackID`).
    public var trackID: Int32
    /// How transform ramps blend: ``TransformInterpolation/matrix`` (AVFoundation's behaviour, the default) or
    /// ``TransformInterpolation/decomposed``.
    public var transformInterpolation: TransformInterpolation
    /// For ``TransformInterpolation/decomposed`` ramps: the source pixel whose canvas position moves in a straight
    /// line (the origin by default; the frame centre makes a rotation spin in place).
    public var decomposedInterpolationPivot: Point
    /// The transform's values and ramps (source pixels → canvas pixels); default identity.
    public var transforms: Keyframes<AffineTransform2D>
    /// The opacity's values and ramps (0 transparent ... 1 opaque); default 1.
    public var opacities: Keyframes<Double>
    /// The crop rectangle's values and ramps (source pixels); default none (the full frame).
    public var cropRectangles: Keyframes<Rect>
    /// Built-in per-frame effects (colour, lookup table, blur, sharpen, vignette), applied in order to the cropped
    /// picture before the transform (``VideoEffect``); default none. A Splice addition.
    public var effects: [VideoEffect]

    /// A layer instruction for `trackID` with nothing set: identity, opacity 1, no crop.
    public init(trackID: Int32, transformInterpolation: TransformInterpolation = .matrix) {
        self.trackID = trackID
        self.transformInterpolation = transformInterpolation
        decomposedInterpolationPivot = .zero
        transforms = Keyframes()
        opacities = Keyframes()
        cropRectangles = Keyframes()
        effects = []
    }

    // MARK: - Transform

    /// Sets the transform from `time` on, as AVFoundation's `setTransform(_:at:)`.
    ///
    /// - Parameters:
    ///   - transform: source pixels → canvas pixels.
    ///   - time: composition time (should lie in the instruction's range; must be numeric).
    public mutating func setTransform(_ transform: AffineTransform2D, at time: MediaTime) {
        transforms.setValue(transform, at: time)
    }

    /// Ramps the transform over `timeRange`, as AVFoundation's `setTransformRamp(fromStart:toEnd:timeRange:)`;
    /// blended as ``transformInterpolation`` says.
    ///
    /// - Parameters:
    ///   - start: the transform at `timeRange.start`.
    ///   - end: the transform at `timeRange.end`, held afterwards.
    ///   - timeRange: composition time; a positive duration (validation reports others).
    ///   - easing: the curve; linear as AVFoundation.
    public mutating func setTransformRamp(
        fromStart start: AffineTransform2D, toEnd end: AffineTransform2D, timeRange: TimeRange, easing: Easing = .linear
    ) {
        transforms.setRamp(from: start, to: end, timeRange: timeRange, easing: easing)
    }

    /// Adds a transform curve through `keyframes` (see ``Keyframes/setKeyframes(_:)``).
    public mutating func setTransform(keyframes: [Keyframe<AffineTransform2D>]) {
        transforms.setKeyframes(keyframes)
    }

    /// The transform at composition time `time` (source pixels → canvas pixels); identity before the first value.
    public func transform(at time: MediaTime) -> AffineTransform2D {
        transforms.value(at: time, interpolate: blendTransforms) ?? .identity
    }

    // MARK: - Opacity

    /// Sets the opacity (0...1) from `time` on, as AVFoundation's `setOpacity(_:at:)`.
    public mutating func setOpacity(_ opacity: Double, at time: MediaTime) {
        opacities.setValue(opacity, at: time)
    }

    /// Ramps the opacity (0...1) over `timeRange`, as AVFoundation's
    /// `setOpacityRamp(fromStartOpacity:toEndOpacity:timeRange:)`.
    public mutating func setOpacityRamp(
        fromStartOpacity start: Double, toEndOpacity end: Double, timeRange: TimeRange, easing: Easing = .linear
    ) {
        opacities.setRamp(from: start, to: end, timeRange: timeRange, easing: easing)
    }

    /// Adds an opacity curve through `keyframes` (see ``Keyframes/setKeyframes(_:)``).
    public mutating func setOpacity(keyframes: [Keyframe<Double>]) {
        opacities.setKeyframes(keyframes)
    }

    /// The opacity at composition time `time`, 0 (transparent) ... 1 (opaque); 1.0 before the first value.
    public func opacity(at time: MediaTime) -> Double {
        opacities.value(at: time, default: 1)
    }

    // MARK: - Crop

    /// Sets the crop rectangle (source pixels) from `time` on, as AVFoundation's `setCropRectangle(_:at:)`.
    public mutating func setCropRectangle(_ rectangle: Rect, at time: MediaTime) {
        cropRectangles.setValue(rectangle, at: time)
    }

    /// Ramps the crop rectangle (source pixels; origin and size blended linearly) over `timeRange`, as AVFoundation's
    /// `setCropRectangleRamp(fromStartCropRectangle:toEndCropRectangle:timeRange:)`.
    public mutating func setCropRectangleRamp(
        fromStartCropRectangle start: Rect, toEndCropRectangle end: Rect, timeRange: TimeRange, easing: Easing = .linear
    ) {
        cropRectangles.setRamp(from: start, to: end, timeRange: timeRange, easing: easing)
    }

    /// Adds a crop curve through `keyframes` (see ``Keyframes/setKeyframes(_:)``).
    public mutating func setCropRectangle(keyframes: [Keyframe<Rect>]) {
        cropRectangles.setKeyframes(keyframes)
    }

    /// The crop rectangle in source pixels at composition time `time`, or nil for none (the full source frame)
    /// before the first value.
    public func cropRectangle(at time: MediaTime) -> Rect? {
        cropRectangles.value(at: time)
    }

    // MARK: - Shared

    /// Blends two transforms by ``transformInterpolation``.
    func blendTransforms(_ start: AffineTransform2D, _ end: AffineTransform2D, _ fraction: Double) -> AffineTransform2D {
        switch transformInterpolation {
        case .matrix: return start.interpolated(to: end, fraction: fraction)
        case .decomposed: return start.interpolatedDecomposed(to: end, fraction: fraction, pivot: decomposedInterpolationPivot)
        }
    }
}
