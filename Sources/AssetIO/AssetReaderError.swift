import Foundation
import Composition

/// Why an ``AssetReader`` or one of its outputs cannot do what was asked. Each case names the file or track and the
/// cause.
public enum AssetReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An output (named: "track 1", "the video composition output of tracks [1, 2]") was added after
    /// ``AssetReader/startReading()`` (AVFoundation raises an exception here).
    case outputAddedAfterStartReading(output: String)
    /// The output's track does not belong to the reader's asset.
    case trackNotInAsset(trackID: Int32, asset: URL)
    /// A track output was added to a reader of a composition: track outputs read a file's stored tracks; a
    /// composition is read through ``AssetReaderVideoCompositionOutput`` and ``AssetReaderAudioMixOutput``.
    case trackOutputOnComposition(trackID: Int32)
    /// A composition output names a track the reader's composition has not, or one of another media type.
    case trackNotInComposition(trackID: Int32, mediaType: MediaType)
    /// The composition cannot be rendered as asked: Export's planner's reason (an invalid video composition or
    /// audio mix with every problem, a time range outside the composition, a missing filter).
    case invalidComposition(String)
    /// Rendering or mixing a composition failed while reading: the output and the cause (a source that cannot be
    /// decoded, with its file and time, as Export names it).
    case renderingFailed(output: String, reason: String)
    /// ``AssetReaderOutput/reset(forReadingTimeRanges:)`` was called when AVFoundation's rules forbid it: the rule.
    case cannotReset(reason: String)
    /// The time ranges of a reset break AVFoundation's rules (empty, not increasing, overlapping): which and why.
    case invalidTimeRanges([TimeRange], reason: String)
    /// The output settings do not fit the track: decoded video settings on a sound track, and so on.
    case settingsDoNotMatchTrack(trackID: Int32, mediaType: MediaType, reason: String)
    /// The output's track cannot be decoded by the linked FFmpeg.
    case trackNotDecodable(trackID: Int32, codecName: String)
    /// `startReading()` was called on a reader with no outputs, twice, or after it was cancelled.
    case cannotStartReading(reason: String)
    /// The time range is empty, negative, or not numeric.
    case invalidTimeRange(TimeRange)
    /// A setting is out of range (a size of 0, a channel count of 0, …).
    case invalidSettings(String)
    /// Reading or decoding the file failed: the file, the track, the time reached (nil before the first sample) and
    /// FFmpeg's cause.
    case readFailed(URL, trackID: Int32, time: MediaTime?, reason: String)
    /// A picture read with ``AssetReaderOutput/alwaysCopiesSampleData`` false was used after the output's next
    /// ``AssetReaderOutput/copyNextSampleBuffer()`` call (or after the reader ended): its bytes went back to the
    /// reader. Names the output.
    case sampleDataNoLongerValid(output: String)

    public var description: String {
        switch self {
        case .outputAddedAfterStartReading(let output):
            return "cannot add \(output): the reader has already started reading"
        case .trackOutputOnComposition(let track):
            return "cannot add a track output for track \(track) to a reader of a composition: read a composition "
                + "through AssetReaderVideoCompositionOutput and AssetReaderAudioMixOutput"
        case .trackNotInComposition(let track, let type):
            return "the reader's composition has no \(type.rawValue) track \(track)"
        case .invalidComposition(let reason):
            return "the composition cannot be read: \(reason)"
        case .renderingFailed(let output, let reason):
            return "rendering \(output) failed: \(reason)"
        case .cannotReset(let reason):
            return "cannot reset for reading new time ranges: \(reason)"
        case .invalidTimeRanges(_, let reason):
            return "invalid time ranges for reset: \(reason)"
        case .trackNotInAsset(let track, let asset):
            return "track \(track) is not a track of \(asset.path)"
        case .settingsDoNotMatchTrack(let track, let type, let reason):
            return "the output settings do not fit track \(track) (\(type.rawValue)): \(reason)"
        case .trackNotDecodable(let track, let codec):
            return "track \(track) cannot be decoded: the linked FFmpeg has no \(codec) decoder"
        case .cannotStartReading(let reason):
            return "cannot start reading: \(reason)"
        case .invalidTimeRange(let range):
            return "invalid time range \(range.start)+\(range.duration)"
        case .invalidSettings(let reason):
            return "invalid output settings: \(reason)"
        case .readFailed(let url, let track, let time, let reason):
            let at = time.map { " after \($0.secondsText)" } ?? ""
            return "reading track \(track) of \(url.path) failed\(at): \(reason)"
        case .sampleDataNoLongerValid(let output):
            return "a picture of \(output) read with alwaysCopiesSampleData false is no longer valid: it lasts only "
                + "until the next copyNextSampleBuffer() call (set alwaysCopiesSampleData to true to keep pictures)"
        }
    }
}
