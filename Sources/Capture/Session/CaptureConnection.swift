import Composition
import SpliceFFmpeg

/// The link between one input's media and one output (AVFoundation's `AVCaptureConnection`): made by the session
/// when an output is added, one per media type the output takes and an input delivers.
public final class CaptureConnection: Sendable {
    /// The media type carried.
    public let mediaType: MediaType
    /// The device whose media is carried.
    public let inputDevice: CaptureDevice
    /// The channels of an audio connection, one per channel of the device's active format (left then right for
    /// stereo), with their levels updated while the session runs (AVFoundation's `audioChannels`); empty for video.
    /// See ``CaptureAudioChannel`` for the window and the peak hold.
    public let audioChannels: [CaptureAudioChannel]
    private let enabled = Locked(true)
    private let display = Locked(FrameOrientation.identity)

    init(mediaType: MediaType, inputDevice: CaptureDevice) {
        self.mediaType = mediaType
        self.inputDevice = inputDevice
        let channelCount = mediaType == .audio ? max(0, inputDevice.activeFormat?.channelCount ?? 0) : 0
        audioChannels = (0..<channelCount).map { _ in CaptureAudioChannel() }
    }

    /// Meters one buffer of the device's sound into ``audioChannels`` (extra device channels are ignored).
    func meter(_ frame: Frame) {
        guard !audioChannels.isEmpty else { return }
        let rate = frame.sampleRate
        frame.forEachChannel { channel, samples in
            if channel < audioChannels.count { audioChannels[channel].measure(samples, sampleRate: rate) }
        }
    }

    /// True when media flows through the connection (default true; AVFoundation's `isEnabled`). A disabled
    /// connection delivers nothing to its output: no frames or buffers to a data output (from the next one on), no
    /// photo (``CapturePhotoError/noVideoConnection``), no metering of ``audioChannels``, and no track in a movie:
    /// a movie file output makes a track only for the connections enabled when a recording starts, so a movie whose
    /// audio connection was disabled has no audio track (not a silent one). Changed during a recording, it takes
    /// effect with the next recording (the tracks of a movie are fixed when it starts).
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set {
            enabled.withLock { $0 = newValue }
            // No metering while disabled: the levels fall to the floor at once, not when the last block ages out.
            for channel in audioChannels { channel.setMetering(newValue) }
        }
    }

    /// Which way up the picture is shown (AVFoundation's `videoOrientation`; default ``CaptureVideoOrientation/landscapeRight``,
    /// the camera's own). In a movie file it is written as the video track's display matrix when a recording starts
    /// (no pixel work: players and Splice's loader turn the picture, `preferredTransform`); stills and data-output
    /// frames are turned in pixels, from the next frame on. Ignored on an audio connection.
    public var videoOrientation: CaptureVideoOrientation {
        get { display.withLock { $0.orientation } }
        set { display.withLock { $0.orientation = newValue } }
    }

    /// True to flip the picture left to right after the turn (AVFoundation's `isVideoMirrored`, as for a front
    /// camera's preview); written and applied as ``videoOrientation`` is. Default false.
    public var isVideoMirrored: Bool {
        get { display.withLock { $0.isMirrored } }
        set { display.withLock { $0.isMirrored = newValue } }
    }

    /// True for a video connection (AVFoundation's `isVideoOrientationSupported`).
    public var isVideoOrientationSupported: Bool { mediaType == .video }
    /// True for a video connection (AVFoundation's `isVideoMirroringSupported`).
    public var isVideoMirroringSupported: Bool { mediaType == .video }

    /// The orientation and mirroring together, read once per frame by the engine.
    var frameOrientation: FrameOrientation { display.withLock { $0 } }
}
