import Composition
import Foundation

/// What a recording reports (AVFoundation's `AVCaptureFileOutputRecordingDelegate` callbacks, as a stream).
public enum CaptureRecordingEvent: Sendable {
    /// The first frame was written (`fileOutput(_:didStartRecordingTo:from:)`).
    case started(URL)
    /// The recording paused after ``CaptureMovieFileOutput/pauseRecording()``, at the next whole frame
    /// (`fileOutput(_:didPauseRecordingTo:from:)`, macOS).
    case paused(URL)
    /// The recording resumed after ``CaptureMovieFileOutput/resumeRecording()``: the next picture follows the last
    /// one without a gap (`fileOutput(_:didResumeRecordingTo:from:)`, macOS).
    case resumed(URL)
    /// The recording ended (`fileOutput(_:didFinishRecordingTo:from:error:)`).
    case finished(CaptureRecordingResult)
}

/// How a recording ended.
public struct CaptureRecordingResult: Sendable {
    /// The file.
    public var url: URL
    /// Movie time recorded (exact: whole frames, or samples for sound only).
    public var recordedDuration: MediaTime
    /// Bytes in the file.
    public var fileSize: Int64
    /// Why it ended, nil after ``CaptureMovieFileOutput/stopRecording()``.
    public var error: CaptureRecordingError?
    /// Frames dropped because two arrived for the same frame slot.
    public var droppedFrameCount: Int

    /// True when the file is complete and playable (no error, or an error that says so).
    public var recordingSuccessfullyFinished: Bool { error?.recordingSuccessfullyFinished ?? true }
}
