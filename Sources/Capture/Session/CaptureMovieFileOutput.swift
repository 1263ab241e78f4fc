import Composition
import Foundation
import SpliceFFmpeg

/// Records a session's video and audio into a QuickTime or MPEG-4 movie (AVFoundation's
/// `AVCaptureMovieFileOutput`): H.264 and AAC, `.mov` or `.mp4` by the file's extension.
///
/// Crash-safe: while recording, the file is a fragmented movie whose fragments are written and flushed at
/// ``initialMovieFragmentInterval`` and then every ``movieFragmentInterval`` of movie time (time-based, not only at
/// key frames), so after a crash (`kill -9`, power loss after the kernel wrote it back) the file plays up to its
/// last complete fragment (``MovieFileRepair`` drops a torn one). A clean end rewrites it as a regular movie.
/// An existing file is never overwritten.
public final class CaptureMovieFileOutput: CaptureOutput, ConnectableOutput {
    struct Settings: Sendable {
        var maxRecordedDuration: MediaTime = .invalid
        var maxRecordedFileSize: Int64 = 0
        var minFreeDiskSpaceLimit: Int64 = 0
        var movieFragmentInterval = MediaTime(seconds: 10)
        var initialMovieFragmentInterval = MediaTime(seconds: 1)
        var metadata = CaptureMovieMetadata()
    }

    struct State: Sendable {
        var settings = Settings()
        var connections: [CaptureConnection] = []
        var pendingStart: (URL, AsyncStream<CaptureRecordingEvent>.Continuation)?
        var stopRequested = false
        var pauseRequested = false
        var isRecording = false
        var recordedDuration = MediaTime.zero
        var recordedFileSize: Int64 = 0
    }

    let state = Locked(State())

    /// An output with AVFoundation's defaults: no limits, 10 s fragments after a 1 s first one.
    public init() {}

    /// Video and audio.
    public var acceptedMediaTypes: Set<MediaType> { [.video, .audio] }

    /// The connections made when the session started.
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func connect(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The longest recording; `.invalid` (the default) for no limit. Reaching it ends the recording on that exact
    /// frame with ``CaptureRecordingError/maximumDurationReached`` (playable).
    public var maxRecordedDuration: MediaTime {
        get { state.withLock { $0.settings.maxRecordedDuration } }
        set { state.withLock { $0.settings.maxRecordedDuration = newValue } }
    }

    /// The largest file, bytes; 0 (the default) for no limit. Recording ends before the file would exceed it, with
    /// ``CaptureRecordingError/maximumFileSizeReached`` (playable).
    public var maxRecordedFileSize: Int64 {
        get { state.withLock { $0.settings.maxRecordedFileSize } }
        set { state.withLock { $0.settings.maxRecordedFileSize = newValue } }
    }

    /// Free bytes to leave on the file's file system; 0 (the default) for none. Checked four times a second of
    /// movie time; falling below ends the recording with ``CaptureRecordingError/diskFull`` (playable).
    public var minFreeDiskSpaceLimit: Int64 {
        get { state.withLock { $0.settings.minFreeDiskSpaceLimit } }
        set { state.withLock { $0.settings.minFreeDiskSpaceLimit = newValue } }
    }

    /// Movie time between fragments after the first (default 10 s): at most this much is lost in a crash.
    public var movieFragmentInterval: MediaTime {
        get { state.withLock { $0.settings.movieFragmentInterval } }
        set { state.withLock { $0.settings.movieFragmentInterval = newValue } }
    }

    /// The first fragment's length (default 1 s), so a crash soon after starting still leaves a playable file.
    public var initialMovieFragmentInterval: MediaTime {
        get { state.withLock { $0.settings.initialMovieFragmentInterval } }
        set { state.withLock { $0.settings.initialMovieFragmentInterval = newValue } }
    }

    /// The movie's title, creation date and location (AVFoundation's `metadata`), written from the first fragment on;
    /// read when a recording starts. The default has none but the creation date, which is then the start's.
    public var metadata: CaptureMovieMetadata {
        get { state.withLock { $0.settings.metadata } }
        set { state.withLock { $0.settings.metadata = newValue } }
    }

    /// True from ``startRecording(to:)`` until the recording's `.finished` event.
    public var isRecording: Bool { state.withLock { $0.isRecording || $0.pendingStart != nil } }
    /// Movie time recorded so far.
    public var recordedDuration: MediaTime { state.withLock { $0.recordedDuration } }
    /// Bytes written so far (the file plus the fragment being gathered).
    public var recordedFileSize: Int64 { state.withLock { $0.recordedFileSize } }

    /// Starts recording to `url` (AVFoundation's `startRecording(to:recordingDelegate:)`, with a stream for the
    /// delegate): the movie starts at the next picture the session reads. The stream ends after `.finished`.
    ///
    /// A recording that cannot start — the file exists, the session is not running, a recording is under way —
    /// reports `.finished` at once with the error (``CaptureRecordingError/fileAlreadyExists(_:)``,
    /// ``CaptureRecordingError/noDataCaptured``).
    public func startRecording(to url: URL) -> AsyncStream<CaptureRecordingEvent> {
        let (stream, continuation) = AsyncStream<CaptureRecordingEvent>.makeStream(bufferingPolicy: .unbounded)
        let accepted = state.withLock { state -> Bool in
            guard !state.isRecording, state.pendingStart == nil, !state.connections.isEmpty else { return false }
            state.pendingStart = (url, continuation)
            state.stopRequested = false
            state.pauseRequested = false
            return true
        }
        if !accepted {
            let error: CaptureRecordingError = FileManager.default.fileExists(atPath: url.path)
                ? .fileAlreadyExists(url.path) : .noDataCaptured
            continuation.yield(.finished(CaptureRecordingResult(url: url, recordedDuration: .zero, fileSize: 0, error: error,
                                                                droppedFrameCount: 0)))
            continuation.finish()
        }
        return stream
    }

    /// Ends the recording cleanly at the next frame (AVFoundation's `stopRecording`); the file is finished as a
    /// regular movie and `.finished` reports no error.
    public func stopRecording() { state.withLock { $0.stopRequested = true } }

    /// Pauses the recording (AVFoundation's `pauseRecording()`, macOS): from the next whole frame nothing is
    /// written until ``resumeRecording()``, and the paused time is left out of the file. The cut is on a frame
    /// boundary for the picture and at that frame's exact sample for the sound (the sound of a whole number of
    /// frames is left out with the pictures), so the timestamps go on without a gap and picture and sound stay in
    /// sync; ``recordedDuration`` does not count the pause. The recording's stream reports `.paused`. Does nothing
    /// when no recording is under way. A ``stopRecording()`` while paused ends the file at the cut.
    public func pauseRecording() { state.withLock { if $0.isRecording || $0.pendingStart != nil { $0.pauseRequested = true } } }

    /// Resumes a paused recording (AVFoundation's `resumeRecording()`, macOS): the next picture the session reads
    /// follows the last one recorded (the sound likewise, from the same instant). The stream reports `.resumed`.
    public func resumeRecording() { state.withLock { $0.pauseRequested = false } }

    /// True between ``pauseRecording()`` and ``resumeRecording()`` while a recording is under way
    /// (AVFoundation's `isRecordingPaused`).
    public var isRecordingPaused: Bool { state.withLock { ($0.isRecording || $0.pendingStart != nil) && $0.pauseRequested } }
}
