/// Which way up the picture of a video connection is shown (AVFoundation's `AVCaptureVideoOrientation`), named, as
/// there, after where a phone's home button would be.
///
/// A camera's own picture is ``landscapeRight`` (as an iPhone back camera's sensor): no turn. The others turn the
/// picture on display by a quarter or a half turn. In a movie file this is only a display matrix (the pixels stay
/// as the camera gave them; players and Splice's loader turn them); in stills and data-output frames the pixels
/// are turned.
public enum CaptureVideoOrientation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Upright portrait: the camera's picture turned a quarter turn clockwise (EXIF orientation 6; a `tkhd` matrix
    /// of a = 0, b = 1, c = −1, d = 0, which FFmpeg reports as "rotation −90").
    case portrait
    /// Upside-down portrait: turned a quarter turn counter-clockwise (EXIF 8).
    case portraitUpsideDown
    /// Landscape with the home button on the right: the camera's own orientation, no turn (EXIF 1). The default.
    case landscapeRight
    /// Landscape with the home button on the left: turned a half turn (EXIF 3).
    case landscapeLeft

    /// Clockwise quarter turns applied on display: 1, 3, 0, 2.
    var clockwiseQuarterTurns: Int {
        switch self {
        case .portrait: return 1
        case .portraitUpsideDown: return 3
        case .landscapeRight: return 0
        case .landscapeLeft: return 2
        }
    }
}
