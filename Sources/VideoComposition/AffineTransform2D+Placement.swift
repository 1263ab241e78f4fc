import Composition

extension AffineTransform2D {
    /// The layer transform that shows a track's upright picture in a canvas: coded pixels → pixel-aspect
    /// correction → `preferredTransform` (the picture upright) → scaled by `mode` and centred in `canvas`.
    ///
    /// This is the transform AVFoundation users build by hand (`preferredTransform.concatenating(scale)
    /// .concatenating(translation)`); `MutableVideoComposition(propertiesOf:)` uses it with ``AspectMode/fit``.
    /// For a 568 × 320 iPhone clip with `preferredTransform (0, 1, −1, 0, 320, 0)` in a 1280 × 720 canvas, the
    /// upright 320 × 568 picture is scaled by 720/568 and centred horizontally.
    ///
    /// - Parameters:
    ///   - naturalSize: the coded picture size in pixels.
    ///   - preferredTransform: the track's display orientation (AVFoundation's `preferredTransform`).
    ///   - pixelAspectRatio: the coded pixels' shape; square by default.
    ///   - canvas: the render size in pixels.
    ///   - mode: fit (letterbox), fill (crop) or stretch.
    /// - Returns: the transform from coded pixels to canvas pixels, or nil when the picture or the canvas has a zero
    ///   or negative width or height, or the orientation is not finite (no placement exists).
    public static func placing(
        naturalSize: Size, preferredTransform: AffineTransform2D = .identity,
        pixelAspectRatio: PixelAspectRatio = .square, in canvas: Size, mode: AspectMode = .fit
    ) -> AffineTransform2D? {
        let track = CompositionSummary.Track(
            trackID: 0, mediaType: .video, timeRange: .zero, segments: [], naturalSize: naturalSize,
            pixelAspectRatio: pixelAspectRatio, preferredTransform: preferredTransform)
        return placing(track, in: canvas, mode: mode)
    }

    /// The layer transform that shows `track`'s upright picture in `canvas` (see
    /// ``placing(naturalSize:preferredTransform:pixelAspectRatio:in:mode:)``).
    public static func placing(_ track: CompositionSummary.Track, in canvas: Size, mode: AspectMode = .fit) -> AffineTransform2D? {
        let orientation = track.displayOrientation
        let box = track.displayBounds
        guard orientation.isFinite, box.isFinite, box.width > 0, box.height > 0, canvas.width > 0, canvas.height > 0
        else { return nil }
        let canvasWidth = Double(canvas.width), canvasHeight = Double(canvas.height)
        var scaleX = canvasWidth / box.width, scaleY = canvasHeight / box.height
        switch mode {
        case .fit: (scaleX, scaleY) = (min(scaleX, scaleY), min(scaleX, scaleY))
        case .fill: (scaleX, scaleY) = (max(scaleX, scaleY), max(scaleX, scaleY))
        case .stretch: break
        }
        let offsetX = (canvasWidth - box.width * scaleX) / 2, offsetY = (canvasHeight - box.height * scaleY) / 2
        return orientation
            .concatenating(AffineTransform2D(translationX: -box.minX, y: -box.minY))
            .concatenating(AffineTransform2D(scaleX: scaleX, y: scaleY))
            .concatenating(AffineTransform2D(translationX: offsetX, y: offsetY))
    }
}
