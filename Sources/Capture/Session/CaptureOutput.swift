import Composition

/// Something a session delivers media to (AVFoundation's `AVCaptureOutput`): ``CaptureMovieFileOutput``,
/// ``CapturePhotoOutput``, ``CaptureVideoDataOutput``, ``CaptureAudioDataOutput``, ``CaptureMetadataOutput`` and
/// ``CaptureLiveStreamOutput``. The session rejects other conforming types in ``CaptureSession/canAddOutput(_:)``.
public protocol CaptureOutput: AnyObject, Sendable {
    /// The media types the output takes.
    var acceptedMediaTypes: Set<MediaType> { get }
    /// The connections the session made for it (empty until added to a session).
    var connections: [CaptureConnection] { get }
}

/// An output the session makes connections for when it starts.
protocol ConnectableOutput: CaptureOutput {
    /// Takes the connections made for this output.
    func connect(_ connections: [CaptureConnection])
}
