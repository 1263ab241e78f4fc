import Composition

/// Where a layer sits in Core Animation's terms — `position`, `bounds` and `anchorPoint` — for placing an
/// ``OverlayLayer`` as a port of `AVVideoCompositionCoreAnimationTool` code placed its `CALayer`s.
///
/// Core Animation's geometry differs from the rest of Splice in two ways, both kept here:
/// - **The origin is the bottom-left corner and y goes up** (``isGeometryFlipped`` false, the default of a layer tree
///   given to the animation tool): `position = (w/2, h/4)` is a quarter of the canvas height *above the bottom*,
///   i.e. `3h/4` from the top in Splice's canvas pixels. Set ``isGeometryFlipped`` for the top-left origin.
/// - **`position` is where the layer's anchor point sits**, not its corner: ``anchorPoint`` is in unit coordinates of
///   the layer's bounds, (½, ½) the centre (the default), (0, 0) the corner at the origin side (bottom-left when not
///   flipped, top-left when flipped), as `CALayer.anchorPoint`.
///
/// ``frame(inCanvasOf:)`` turns it into the top-left-origin frame ``OverlayLayer/frame`` stores (what
/// `CALayer.frame` would be after flipping); the frame-based way of placing an overlay stays the primary one.
public struct CoreAnimationGeometry: Sendable, Hashable {
    /// Where the anchor point sits, in canvas pixels from the origin (bottom-left, y up, unless
    /// ``isGeometryFlipped``), as `CALayer.position`.
    public var position: Point
    /// The layer's bounds in pixels, as `CALayer.bounds`: its width and height size the layer; its origin (usually
    /// zero) scrolls the layer's content in Core Animation and does not move the layer, so it is not used here.
    public var bounds: Rect
    /// The point of the layer that sits at ``position``, in unit coordinates of its bounds (0…1 each; values outside
    /// are allowed, as in Core Animation); (½, ½) by default, as `CALayer.anchorPoint`.
    public var anchorPoint: Point
    /// False (the default, as the animation tool's layer tree): origin bottom-left, y up. True: origin top-left,
    /// y down, as `CALayer.isGeometryFlipped` set on the parent layer.
    public var isGeometryFlipped: Bool

    /// A layer's geometry in Core Animation's terms.
    ///
    /// - Parameters:
    ///   - position: the anchor point's place in canvas pixels (origin bottom-left unless `isGeometryFlipped`).
    ///   - bounds: the layer's bounds in pixels (its width and height count).
    ///   - anchorPoint: unit coordinates in the layer; (½, ½), the centre, by default.
    ///   - isGeometryFlipped: false (default) for Core Animation's bottom-left origin.
    public init(position: Point, bounds: Rect, anchorPoint: Point = Point(x: 0.5, y: 0.5), isGeometryFlipped: Bool = false) {
        self.position = position
        self.bounds = bounds
        self.anchorPoint = anchorPoint
        self.isGeometryFlipped = isGeometryFlipped
    }

    /// The layer's frame in Splice's canvas pixels (origin top-left, y down) on a canvas of `renderSize`.
    ///
    /// Not flipped: `x = position.x − anchorPoint.x × width`, `y = renderHeight − position.y − (1 − anchorPoint.y) ×
    /// height`. Flipped: `y = position.y − anchorPoint.y × height`.
    public func frame(inCanvasOf renderSize: Size) -> Rect {
        let width = bounds.width, height = bounds.height
        let x = position.x - anchorPoint.x * width
        let y = isGeometryFlipped
            ? position.y - anchorPoint.y * height
            : Double(renderSize.height) - position.y - (1 - anchorPoint.y) * height
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// The layer's centre in Splice's canvas pixels when its anchor point sits at `position` (Core Animation
    /// coordinates, as ``position``), on a canvas of `renderSize`: turns a `CABasicAnimation` of `position` into
    /// keyframes of ``OverlayLayer/positions``, which hold the layer's centre.
    public func centre(atPosition position: Point, inCanvasOf renderSize: Size) -> Point {
        var moved = self
        moved.position = position
        let frame = moved.frame(inCanvasOf: renderSize)
        return Point(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
    }
}

extension CoreAnimationGeometry: Codable {
    private enum CodingKeys: String, CodingKey {
        case position, bounds, anchorPoint, isGeometryFlipped
    }

    /// Decodes `{"position": {"x", "y"}, "bounds": {"x", "y", "width", "height"}}` with optional `anchorPoint`
    /// (default `{"x": 0.5, "y": 0.5}`) and `isGeometryFlipped` (default false).
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            position: try container.decode(Point.self, forKey: .position), bounds: try container.decode(Rect.self, forKey: .bounds),
            anchorPoint: try container.decodeIfPresent(Point.self, forKey: .anchorPoint) ?? Point(x: 0.5, y: 0.5),
            isGeometryFlipped: try container.decodeIfPresent(Bool.self, forKey: .isGeometryFlipped) ?? false)
    }

    /// Encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(bounds, forKey: .bounds)
        try container.encode(anchorPoint, forKey: .anchorPoint)
        try container.encode(isGeometryFlipped, forKey: .isGeometryFlipped)
    }
}
