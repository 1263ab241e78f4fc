/// A point in pixels (origin top-left, y down). Fractional values are allowed (sub-pixel positions).
public struct Point: Sendable, Hashable, Codable {
    /// Horizontal position in pixels.
    public var x: Double
    /// Vertical position in pixels (down is positive).
    public var y: Double

    /// The point `(x, y)` in pixels.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin `(0, 0)`.
    public static let zero = Point(x: 0, y: 0)
}

/// A size in whole pixels: picture sizes (natural size, render size) are integral.
public struct Size: Sendable, Hashable, Codable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width × height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `0 × 0`.
    public static let zero = Size(width: 0, height: 0)

    /// The rectangle `(0, 0, width, height)`.
    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
}

/// A rectangle in pixels (origin top-left, y down); used for crop rectangles and overlay frames.
/// Fractional values are allowed. A rectangle is normalised when its width and height are ≥ 0.
public struct Rect: Sendable, Hashable, Codable {
    /// Left edge in pixels.
    public var x: Double
    /// Top edge in pixels.
    public var y: Double
    /// Width in pixels.
    public var width: Double
    /// Height in pixels.
    public var height: Double

    /// The rectangle with top-left `(x, y)` and the given size, all in pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle `(0, 0, 0, 0)`.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// Left edge (pixels).
    public var minX: Double { x }
    /// Top edge (pixels).
    public var minY: Double { y }
    /// Right edge `x + width` (pixels).
    public var maxX: Double { x + width }
    /// Bottom edge `y + height` (pixels).
    public var maxY: Double { y + height }
    /// Horizontal centre `x + width / 2` (pixels).
    public var midX: Double { x + width / 2 }
    /// Vertical centre `y + height / 2` (pixels).
    public var midY: Double { y + height / 2 }
    /// True when width or height is zero or negative.
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    /// True when every component is finite.
    public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// True when `other` lies inside this rectangle (edges inclusive).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY
    }
}
