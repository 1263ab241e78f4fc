import Foundation
import Composition

/// Why an ``AssetWriter`` or one of its inputs refused a call or failed. Each case names the input (by its index in
/// ``AssetWriter/inputs`` and media type) or the file, and the cause.
public enum AssetWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The output file already exists (AVFoundation's writer refuses it too); remove it first.
    case outputFileExists(URL)
    /// The file type cannot hold this input's media or codec.
    case unsupportedInput(input: String, reason: String)
    /// The call does not fit the writer's status: an input added after `startWriting()`, `startWriting()` twice or
    /// without inputs, `startSession` twice, `finishWriting()` before `startWriting()`.
    case invalidState(operation: String, reason: String)
    /// A sample was appended before ``AssetWriter/startSession(atSourceTime:)``.
    case appendBeforeSessionStart(input: String)
    /// A sample was appended after the input's ``AssetWriterInput/markAsFinished()``.
    case appendAfterMarkAsFinished(input: String)
    /// A sample's presentation (encoded inputs) or decode (passthrough inputs) time is not after the previous one.
    case nonIncreasingTime(input: String, previous: MediaTime, appended: MediaTime)
    /// A sample lies before the session's start time.
    case timeBeforeSessionStart(input: String, time: MediaTime, sessionStart: MediaTime)
    /// A sample lies at or after the time given to ``AssetWriter/endSession(atSourceTime:)``.
    case timeAfterSessionEnd(input: String, time: MediaTime, sessionEnd: MediaTime)
    /// A picture's size or pixel format is not the one the input (or its adaptor) was set up for.
    case pictureMismatch(input: String, expected: String, appended: String)
    /// A sample of the wrong kind: sound on a video input, a decoded sample on a passthrough input, a compressed one
    /// on an encoding input, a compressed sample of another codec than the input's first.
    case sampleMismatch(input: String, reason: String)
    /// A setting is out of range.
    case invalidSettings(input: String, reason: String)
    /// A metadata item cannot be written (a `location` that is not ISO 6709 text): the key, the value and the form
    /// expected.
    case invalidMetadata(key: String, value: String, reason: String)
    /// Encoding or writing failed: the file and FFmpeg's cause.
    case writeFailed(URL, reason: String)
    /// Writing segments (a writer made with ``AssetWriter/init(contentType:)``) failed: the segment and FFmpeg's
    /// cause, or the error the delegate threw.
    case segmentOutputFailed(reason: String)
    /// A live-stream destination the writer cannot stream to: a scheme other than `rtmp`, `rtmps` and `srt`, or a
    /// file URL not ending in `.m3u8`. Refused by ``AssetWriter/init(liveStreamURL:)``.
    case unsupportedLiveStreamDestination(URL)
    /// A live stream (``AssetWriter/init(liveStreamURL:)``) could not connect — refused, unreachable, or no answer
    /// within ``AssetWriter/liveStreamConnectionTimeout`` — or lost its connection and could not make it again: the
    /// destination and the cause, in FFmpeg's words.
    case liveStreamFailed(destination: String, reason: String)
    /// FFmpeg could not allocate memory.
    case outOfMemory

    public var description: String {
        switch self {
        case .outputFileExists(let url): return "\(url.path) already exists"
        case .unsupportedInput(let input, let reason): return "\(input): \(reason)"
        case .invalidState(let operation, let reason): return "cannot \(operation): \(reason)"
        case .appendBeforeSessionStart(let input): return "\(input): sample appended before startSession(atSourceTime:)"
        case .appendAfterMarkAsFinished(let input): return "\(input): sample appended after markAsFinished()"
        case .nonIncreasingTime(let input, let previous, let appended):
            return "\(input): appended time \(appended) (\(appended.secondsText)) is not after the previous \(previous) (\(previous.secondsText))"
        case .timeBeforeSessionStart(let input, let time, let start):
            return "\(input): time \(time) is before the session start \(start)"
        case .timeAfterSessionEnd(let input, let time, let end):
            return "\(input): time \(time) is at or after the session end \(end)"
        case .pictureMismatch(let input, let expected, let appended):
            return "\(input): appended picture is \(appended), the input takes \(expected)"
        case .sampleMismatch(let input, let reason): return "\(input): \(reason)"
        case .invalidSettings(let input, let reason): return "\(input): \(reason)"
        case .invalidMetadata(_, _, let reason): return reason
        case .writeFailed(let url, let reason): return "writing \(url.path) failed: \(reason)"
        case .segmentOutputFailed(let reason): return "writing segments failed: \(reason)"
        case .unsupportedLiveStreamDestination(let url):
            return "\(url.isFileURL ? url.path : url.absoluteString): cannot stream there (rtmp://, rtmps://, srt:// or a folder's .m3u8 playlist)"
        case .liveStreamFailed(let destination, let reason): return "streaming to \(destination) failed: \(reason)"
        case .outOfMemory: return "out of memory"
        }
    }
}
