/// How a picture is sized into a canvas, as AVFoundation's `AVLayerVideoGravity`.
public enum AspectMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The whole picture, as large as fits, aspect ratio kept, centred; bars fill the rest (`resizeAspect`).
    case fit
    /// The whole canvas covered, aspect ratio kept, centred; the overflow is cut off (`resizeAspectFill`).
    case fill
    /// The picture stretched to the canvas in each direction independently (`resize`).
    case stretch
}
