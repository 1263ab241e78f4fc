import Foundation
import Composition

/// Why an ``AssetReader`` or one of its outputs cannot do what was asked. Each case names the file or track and the
/// cause.
public enum AssetReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An output was added after ``AssetReader/startReading()`` (AVFoundation raises an exception here).
    case outputAddedAfterStartReading(trackID: Int32)
    /// The output's track does not belong to the reader's asset.
    case trackNotInAsset(trackID: Int32, asset: URL)
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

    public var description: String {
        switch self {
        case .outputAddedAfterStartReading(let track):
            return "cannot add an output for track \(track): the reader has already started reading"
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
            let at = time.map { " after \($0.seconds) s" } ?? ""
            return "reading track \(track) of \(url.path) failed\(at): \(reason)"
        }
    }
}
