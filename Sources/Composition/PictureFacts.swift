/// Bounds on the picture facts a composition document carries (its natural size, each track's natural size and
/// preferred transform, each source track's coded size, pixel aspect ratio and transform), checked when a document
/// is decoded. Loaders never produce values outside them; a document that does is refused with the field named,
/// because the display-size arithmetic (`squarePixelSize`, `displaySize`, the default video composition) is done in
/// `Int` and would trap on sizes near `Int.max` or on transforms of 1e300.
enum PictureFacts {
    /// The largest width or height in pixels: MP4/MOV store picture sizes as 16.16 fixed point, and no codec
    /// Splice decodes goes beyond it.
    static let maximumDimension = 65_535
    /// The largest pixel-aspect-ratio term (H.264/HEVC store each in 16 bits).
    static let maximumAspectTerm = 65_535
    /// The largest magnitude of a transform component: a scale factor or a translation in pixels.
    static let maximumTransformComponent = 1_000_000.0

    /// Why `size` is not a picture size (each side 0 ... 65535 pixels), or nil.
    static func problem(size: Size) -> String? {
        (0...maximumDimension).contains(size.width) && (0...maximumDimension).contains(size.height) ? nil
            : "\(size.width) × \(size.height) pixels is not a picture size (each side 0 ... \(maximumDimension))"
    }

    /// Why `transform` is not a picture transform (finite, each component within ±1,000,000), or nil.
    static func problem(transform t: AffineTransform2D) -> String? {
        [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy { $0.isFinite && $0.magnitude <= maximumTransformComponent } ? nil
            : "(a \(t.a), b \(t.b), c \(t.c), d \(t.d), tx \(t.tx), ty \(t.ty)) is not a picture transform "
                + "(each component finite, within ±\(Int(maximumTransformComponent)))"
    }

    /// Why `ratio` is not a pixel aspect ratio (each term 0 ... 65535; 0 means unknown), or nil.
    static func problem(aspect ratio: PixelAspectRatio) -> String? {
        (0...maximumAspectTerm).contains(ratio.horizontalSpacing) && (0...maximumAspectTerm).contains(ratio.verticalSpacing)
            ? nil : "\(ratio.horizontalSpacing):\(ratio.verticalSpacing) is not a pixel aspect ratio (each term 0 ... \(maximumAspectTerm))"
    }

    /// The first problem with a source track's picture facts, as (field path below the track, reason).
    static func problem(source track: AssetTrack) -> (field: String, reason: String)? {
        guard let video = track.video else { return nil }
        if let reason = problem(size: video.naturalSize) { return ("video.naturalSize", reason) }
        if let reason = problem(aspect: video.pixelAspectRatio) { return ("video.pixelAspectRatio", reason) }
        if let reason = problem(transform: video.preferredTransform) { return ("video.preferredTransform", reason) }
        return nil
    }
}
