import Composition
import Foundation

/// An image or text layer drawn above the video — the Linux replacement for AVFoundation's
/// `AVVideoCompositionCoreAnimationTool` with a Core Animation layer tree.
///
/// The layer has a rest ``frame`` in render-canvas pixels (origin top-left, y down) — or is placed with Core
/// Animation's `position`/`bounds`/`anchorPoint` and bottom-left origin through
/// ``init(content:geometry:renderSize:timeRange:opacity:)`` — is shown during ``timeRange``,
/// and has four keyframed properties, each with the rest value as its default before its first entry:
/// - ``positions``: the position of the layer's centre in canvas pixels (default: the centre of ``frame``), as a
///   Core Animation layer's `position` with the default anchor point (½, ½);
/// - ``scales``: a uniform scale factor about the centre (default 1);
/// - ``rotations``: a rotation about the centre in radians, clockwise on screen (default 0);
/// - ``opacities``: 0...1 (default ``opacity``).
///
/// Animation times are composition times (not relative to the layer's start). Overlays are drawn in order of
/// ``MutableVideoComposition/overlays``, index 0 the top-most (as layer instructions), above every video layer, during
/// instructions whose ``VideoCompositionInstruction/enablePostProcessing`` is true.
public struct OverlayLayer: Sendable, Hashable {
    /// What the layer shows.
    public enum Content: Sendable, Hashable {
        /// A PNG or JPEG file (alpha is kept), scaled to the layer's frame.
        case image(URL)
        /// Text drawn in the layer's frame.
        case text(TextLayerContent)
    }

    /// What the layer shows.
    public var content: Content
    /// The layer's frame at rest, in render-canvas pixels.
    public var frame: Rect
    /// The composition time range `[start, end)` during which the layer is shown; an infinite duration shows it to
    /// the end.
    public var timeRange: TimeRange
    /// The opacity at rest, 0...1.
    public var opacity: Double
    /// Keyframed position of the layer's centre, canvas pixels.
    public var positions: Keyframes<Point>
    /// Keyframed uniform scale about the centre (1 = the frame's size).
    public var scales: Keyframes<Double>
    /// Keyframed rotation about the centre, radians clockwise on screen.
    public var rotations: Keyframes<Double>
    /// Keyframed opacity, 0...1.
    public var opacities: Keyframes<Double>

    /// A layer with no animation.
    ///
    /// - Parameters:
    ///   - content: an image file or a text.
    ///   - frame: the rest frame in canvas pixels.
    ///   - timeRange: when the layer is shown (composition time).
    ///   - opacity: rest opacity 0...1; 1 by default.
    public init(content: Content, frame: Rect, timeRange: TimeRange, opacity: Double = 1) {
        self.content = content
        self.frame = frame
        self.timeRange = timeRange
        self.opacity = opacity
        positions = Keyframes()
        scales = Keyframes()
        rotations = Keyframes()
        opacities = Keyframes()
    }

    /// A layer with no animation placed as a Core Animation layer is (`position`, `bounds`, `anchorPoint`, origin
    /// bottom-left unless `geometry.isGeometryFlipped`), on a canvas of `renderSize` — for porting
    /// `AVVideoCompositionCoreAnimationTool` code. The rest ``frame`` is `geometry.frame(inCanvasOf: renderSize)`:
    ///
    /// ```swift
    /// // watermarkLayer.position = CGPoint(x: w / 2, y: h / 4): a quarter of the height above the bottom edge.
    /// let watermark = OverlayLayer(
    ///     content: .image(logoURL),
    ///     geometry: CoreAnimationGeometry(position: Point(x: w / 2, y: h / 4), bounds: Rect(x: 0, y: 0, width: 200, height: 100)),
    ///     renderSize: renderSize, timeRange: TimeRange(start: .zero, duration: composition.duration))
    /// ```
    ///
    /// - Parameters:
    ///   - content: an image file or a text.
    ///   - geometry: the layer's position, bounds and anchor point in Core Animation's coordinates.
    ///   - renderSize: the video composition's render size in pixels (the flip needs its height).
    ///   - timeRange: when the layer is shown (composition time).
    ///   - opacity: rest opacity 0...1; 1 by default.
    public init(
        content: Content, geometry: CoreAnimationGeometry, renderSize: Size, timeRange: TimeRange, opacity: Double = 1
    ) {
        self.init(content: content, frame: geometry.frame(inCanvasOf: renderSize), timeRange: timeRange, opacity: opacity)
    }

    /// True when the layer is shown at `time`: `timeRange` contains it (half-open).
    public func isVisible(at time: MediaTime) -> Bool {
        timeRange.contains(time)
    }

    /// The position of the layer's centre at `time`, canvas pixels.
    public func position(at time: MediaTime) -> Point {
        positions.value(at: time, default: Point(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2))
    }

    /// The uniform scale factor at `time` (1 = rest size).
    public func scale(at time: MediaTime) -> Double {
        scales.value(at: time, default: 1)
    }

    /// The rotation at `time`, radians clockwise about the centre.
    public func rotation(at time: MediaTime) -> Double {
        rotations.value(at: time, default: 0)
    }

    /// The opacity at `time`, 0...1.
    public func opacity(at time: MediaTime) -> Double {
        opacities.value(at: time, default: opacity)
    }

    /// The layer's frame at `time` before rotation, canvas pixels: the rest size times ``scale(at:)``, centred on
    /// ``position(at:)``.
    public func frame(at time: MediaTime) -> Rect {
        let centre = position(at: time), factor = scale(at: time)
        let width = frame.width * factor, height = frame.height * factor
        return Rect(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
    }

    /// The transform from the layer's own pixels (`0...frame.width × 0...frame.height`, the content as laid out at
    /// rest size) to canvas pixels at `time`: scale and rotation about the layer's centre, then the centre moved to
    /// ``position(at:)``.
    public func transform(at time: MediaTime) -> AffineTransform2D {
        let centre = position(at: time), factor = scale(at: time)
        return AffineTransform2D(translationX: -frame.width / 2, y: -frame.height / 2)
            .concatenating(AffineTransform2D(scaleX: factor, y: factor))
            .concatenating(AffineTransform2D(rotationAngle: rotation(at: time)))
            .concatenating(AffineTransform2D(translationX: centre.x, y: centre.y))
    }
}

extension OverlayLayer.Content: Codable {
    private enum CodingKeys: String, CodingKey {
        case image, text
    }

    /// Decodes `{"image": "/path/logo.png"}` (a path or a URL string) or `{"text": {...}}`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when neither key is present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let path = try container.decodeIfPresent(String.self, forKey: .image) {
            self = .image(URL(fileReference: path))
        } else if let text = try container.decodeIfPresent(TextLayerContent.self, forKey: .text) {
            self = .text(text)
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "overlay content needs an \"image\" or a \"text\" key"))
        }
    }

    /// Encodes `{"image": "<URL string>"}` or `{"text": {...}}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .image(let url): try container.encode(url.absoluteString, forKey: .image)
        case .text(let text): try container.encode(text, forKey: .text)
        }
    }
}

extension OverlayLayer: Codable {
    private enum CodingKeys: String, CodingKey {
        case content, frame, timeRange, opacity, position, scale, rotation, opacityAnimation
    }

    /// Decodes a layer; `content`, `frame` and `timeRange` are required; `opacity` defaults to 1 and the
    /// animations (`position`, `scale`, `rotation`, `opacityAnimation`: keyframe arrays) to none.
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            content: try container.decode(Content.self, forKey: .content), frame: try container.decode(Rect.self, forKey: .frame),
            timeRange: try container.decode(TimeRange.self, forKey: .timeRange),
            opacity: try container.decodeIfPresent(Double.self, forKey: .opacity) ?? 1)
        positions = try container.decodeIfPresent(Keyframes<Point>.self, forKey: .position) ?? Keyframes()
        scales = try container.decodeIfPresent(Keyframes<Double>.self, forKey: .scale) ?? Keyframes()
        rotations = try container.decodeIfPresent(Keyframes<Double>.self, forKey: .rotation) ?? Keyframes()
        opacities = try container.decodeIfPresent(Keyframes<Double>.self, forKey: .opacityAnimation) ?? Keyframes()
    }

    /// Encodes the layer; animations only when they have entries.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(content, forKey: .content)
        try container.encode(frame, forKey: .frame)
        try container.encode(timeRange, forKey: .timeRange)
        try container.encode(opacity, forKey: .opacity)
        if !positions.isEmpty { try container.encode(positions, forKey: .position) }
        if !scales.isEmpty { try container.encode(scales, forKey: .scale) }
        if !rotations.isEmpty { try container.encode(rotations, forKey: .rotation) }
        if !opacities.isEmpty { try container.encode(opacities, forKey: .opacityAnimation) }
    }
}
