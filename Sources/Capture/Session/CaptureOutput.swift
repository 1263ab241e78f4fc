import Composition

/// Something a session delivers media to (AVFoundation's `AVCaptureOutput`). ``CaptureMovieFileOutput`` is the
/// output this version has; the session rejects other conforming types in ``CaptureSession/canAddOutput(_:)``.
public protocol CaptureOutput: AnyObject, Sendable {
    /// The media types the output takes.
    var acceptedMediaTypes: Set<MediaType> { get }
    /// The connections the session made for it (empty until added to a session).
    var connections: [CaptureConnection] { get }
}
