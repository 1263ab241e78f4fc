/// Why a recording ended other than by ``CaptureMovieFileOutput/stopRecording()``, or could not start
/// (AVFoundation's `AVError` codes for movie file output). ``recordingSuccessfullyFinished`` says whether the file is
/// complete and playable (AVFoundation's `AVErrorRecordingSuccessfullyFinishedKey`).
public enum CaptureRecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``CaptureMovieFileOutput/maxRecordedDuration`` was reached (`AVError.maximumDurationReached`).
    case maximumDurationReached
    /// ``CaptureMovieFileOutput/maxRecordedFileSize`` was reached (`AVError.maximumFileSizeReached`).
    case maximumFileSizeReached
    /// Free space fell below ``CaptureMovieFileOutput/minFreeDiskSpaceLimit`` (`AVError.diskFull`).
    case diskFull
    /// A device stopped delivering (unplugged, its server gone): its ID (`AVError.deviceWasDisconnected`).
    case deviceWasDisconnected(String)
    /// The session stopped while recording (`AVError.sessionWasInterrupted`).
    case sessionWasInterrupted
    /// The output file exists: it is never overwritten (`AVError.fileAlreadyExists`). Its path.
    case fileAlreadyExists(String)
    /// The session was not running, or the output has no connection with an enabled input.
    case noDataCaptured
    /// Writing failed (a full disk, a removed directory): the path and the cause. The file holds the fragments
    /// written before.
    case writeFailed(path: String, reason: String)
    /// A ``CaptureMovieMetadata/items`` item cannot be written (a `location` that is not ISO 6709 text): the key,
    /// the value and the form expected. Nothing was written.
    case invalidMetadata(key: String, value: String, reason: String)

    /// True when the file was finished and plays in full up to where recording stopped.
    public var recordingSuccessfullyFinished: Bool {
        switch self {
        case .maximumDurationReached, .maximumFileSizeReached, .diskFull, .deviceWasDisconnected, .sessionWasInterrupted: return true
        case .fileAlreadyExists, .noDataCaptured, .writeFailed, .invalidMetadata: return false
        }
    }

    /// A sentence naming the cause and whether the file is playable.
    public var description: String {
        let playable = recordingSuccessfullyFinished ? " (the file is complete and playable)" : ""
        switch self {
        case .maximumDurationReached: return "the maximum recorded duration was reached" + playable
        case .maximumFileSizeReached: return "the maximum recorded file size was reached" + playable
        case .diskFull: return "the disk is full (free space below the limit)" + playable
        case .deviceWasDisconnected(let id): return "\(id) was disconnected" + playable
        case .sessionWasInterrupted: return "the session stopped while recording" + playable
        case .fileAlreadyExists(let path): return "\(path) exists and is never overwritten"
        case .noDataCaptured: return "nothing was captured: the session is not running or has no input for this output"
        case .writeFailed(let path, let reason): return "writing \(path) failed: \(reason)"
        case .invalidMetadata(_, _, let reason): return reason
        }
    }
}
