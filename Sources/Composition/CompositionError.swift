import Foundation

/// Why an editing operation on a ``MutableComposition`` or ``CompositionTrack`` was refused.
///
/// Every case names the composition track (when one is concerned; `nil` for a composition-wide operation or for a
/// stand-alone segment list), the argument at fault and the times involved, so that ``description`` reads as a
/// complete sentence. An operation that throws leaves the track or composition unchanged.
public enum CompositionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A time argument is not a finite number (it is ``MediaTime/invalid``, ``MediaTime/indefinite`` or infinite)
    /// where a finite time is needed. `parameter` names the argument (e.g. `"timeRange.start"`, `"startTime"`).
    case invalidTime(trackID: Int32?, parameter: String, time: MediaTime)
    /// A composition time argument is before zero (composition time starts at 0).
    case negativeTime(trackID: Int32?, parameter: String, time: MediaTime)
    /// A duration argument is zero or negative; every edit needs a positive duration.
    case nonPositiveDuration(trackID: Int32?, parameter: String, duration: MediaTime)
    /// The source range to insert does not lie inside the source track's time range (Splice does not clamp).
    /// `trackID` is the composition track; the source is named by URL and track ID.
    case sourceRangeOutsideSourceTrack(
        trackID: Int32?, sourceURL: URL, sourceTrackID: Int32, range: TimeRange, sourceTimeRange: TimeRange)
    /// The range to insert from an asset does not lie inside `[0, asset.duration)`.
    case rangeOutsideAsset(url: URL, range: TimeRange, assetDuration: MediaTime)
    /// The asset has no video, audio, subtitle or readable timed metadata track, so inserting it would insert nothing.
    case noComposableTracks(url: URL)
    /// The source track's media type differs from the composition track's (e.g. a video source into an audio track).
    case mediaTypeMismatch(trackID: Int32, trackMediaType: MediaType, sourceTrackID: Int32, sourceMediaType: MediaType)
    /// Composition tracks carry video, audio, subtitles or timed metadata; data and unknown tracks can't be composed.
    case unsupportedMediaType(MediaType)
    /// The source is a timed metadata track whose groups Splice cannot read (``AssetTrack/isDecodable`` false:
    /// QuickTime's boxed metadata, `mebx`, which FFmpeg reads as opaque data), so a composition could not place or
    /// write them. `trackID` is the composition track; the source is named by URL and track ID.
    case unreadableTimedMetadata(trackID: Int32, sourceURL: URL, sourceTrackID: Int32)
    /// A track ID must be ≥ 1 (as `CMPersistentTrackID`, where 0 is `kCMPersistentTrackID_Invalid`).
    case invalidTrackID(Int32)
    /// No track of the composition has this ID.
    case unknownTrackID(Int32)
    /// A track with this ID already exists (track IDs are unique within a composition).
    case trackIDInUse(Int32)
    /// A segment would play at a speed (`sourceRange.duration / targetRange.duration`) outside the supported range
    /// `1/32 ... 32` (``CompositionTrack/speedLimit``).
    case speedOutOfRange(trackID: Int32?, sourceRange: TimeRange, targetRange: TimeRange)
    /// An empty range can't be inserted at or after a track's end, as in AVFoundation: a track never ends with an
    /// empty segment. `trackEnd` is the track's end (the composition's duration for a composition-wide insert).
    case emptyRangeAtEnd(trackID: Int32?, range: TimeRange, trackEnd: MediaTime)
    /// The exact result of an edit cannot be represented as a ``MediaTime`` (an `Int64` value over a positive `Int32`
    /// timescale): Splice refuses rather than rounding a segment boundary. `time` is the input that could not be
    /// mapped exactly.
    case timeNotRepresentable(trackID: Int32?, operation: String, time: MediaTime)
    /// A segment list has a gap: segment `index` starts after the previous one ends (or, for the first, after 0).
    case segmentGap(trackID: Int32?, index: Int, expectedStart: MediaTime, start: MediaTime)
    /// A segment list has an overlap: segment `index` starts before the previous one ends (or, for the first,
    /// before 0).
    case segmentOverlap(trackID: Int32?, index: Int, expectedStart: MediaTime, start: MediaTime)
    /// Segment `index` has a source track but no valid source range, or an empty-segment source range with no
    /// source track.
    case inconsistentEmptySegment(trackID: Int32?, index: Int)
    /// The last segment of a segment list is empty; a track never ends with a gap (AVFoundation's rule).
    case trailingEmptySegment(trackID: Int32?, index: Int)
    /// Segment `index` has a time effect (``SegmentTimeEffect``) its ranges do not satisfy: `reason` says which rule
    /// (a reversed range longer than ``SegmentTimeEffect/maximumReversedDuration``, a ramp whose durations do not
    /// match its integral, an invalid ramp).
    case invalidTimeEffect(trackID: Int32?, index: Int, reason: String)
    /// An edit would cut a speed-ramped segment at composition time `time`; a ramp is kept whole (cut the ramp's
    /// keys yourself and insert the pieces). Reversed and frozen segments can be cut.
    case timeEffectCut(trackID: Int32?, operation: String, time: MediaTime)

    /// A sentence naming the track, the argument and the times (seconds with the exact fraction).
    public var description: String {
        switch self {
        case let .invalidTime(trackID, parameter, time):
            return "\(Self.subject(trackID)): \(parameter) is \(time), not a finite time."
        case let .negativeTime(trackID, parameter, time):
            return "\(Self.subject(trackID)): \(parameter) is \(time), before composition time 0."
        case let .nonPositiveDuration(trackID, parameter, duration):
            return "\(Self.subject(trackID)): \(parameter) is \(duration); a duration must be greater than 0."
        case let .sourceRangeOutsideSourceTrack(trackID, url, sourceTrackID, range, sourceTimeRange):
            return "\(Self.subject(trackID)): source range \(range) lies outside \(sourceTimeRange), the time range "
                + "of track \(sourceTrackID) of \(url.lastPathComponent)."
        case let .rangeOutsideAsset(url, range, assetDuration):
            return "Range \(range) lies outside \(url.lastPathComponent), which lasts \(assetDuration)."
        case let .noComposableTracks(url):
            return "\(url.lastPathComponent) has no video, audio, subtitle or timed metadata track to insert."
        case let .mediaTypeMismatch(trackID, trackMediaType, sourceTrackID, sourceMediaType):
            return "Composition track \(trackID) is a \(trackMediaType.rawValue) track; source track \(sourceTrackID) "
                + "is \(sourceMediaType.rawValue)."
        case let .unsupportedMediaType(mediaType):
            return "A composition track can't carry \(mediaType.rawValue); only video, audio, subtitle and metadata tracks are composed."
        case let .unreadableTimedMetadata(trackID, url, sourceTrackID):
            return "Composition track \(trackID): track \(sourceTrackID) of \(url.lastPathComponent) is a timed metadata track whose "
                + "groups cannot be read (QuickTime boxed metadata, which FFmpeg reads as opaque data), so they cannot be composed."
        case let .invalidTrackID(trackID):
            return "Track ID \(trackID) is invalid; track IDs are 1 or more."
        case let .unknownTrackID(trackID):
            return "The composition has no track with ID \(trackID)."
        case let .trackIDInUse(trackID):
            return "The composition already has a track with ID \(trackID)."
        case let .speedOutOfRange(trackID, sourceRange, targetRange):
            return "\(Self.subject(trackID)): source range \(sourceRange) played over \(targetRange) would run at "
                + "speed \(Self.speedText(sourceRange.duration, targetRange.duration)), outside the supported "
                + "1/\(CompositionTrack.speedLimit) ... \(CompositionTrack.speedLimit)."
        case let .emptyRangeAtEnd(trackID, range, trackEnd):
            return "\(Self.subject(trackID)): empty range \(range) starts at or after the end (\(trackEnd)); an "
                + "empty range can only be inserted before the end (as AVFoundation's insertEmptyTimeRange)."
        case let .timeNotRepresentable(trackID, operation, time):
            return "\(Self.subject(trackID)): the exact result of \(operation) at \(time) does not fit a MediaTime "
                + "(Int64 value over an Int32 timescale); Splice does not round segment boundaries."
        case let .segmentGap(trackID, index, expectedStart, start):
            return "\(Self.subject(trackID)): segment \(index) starts at \(start), after \(expectedStart) "
                + "where the previous segment ends: a gap."
        case let .segmentOverlap(trackID, index, expectedStart, start):
            return "\(Self.subject(trackID)): segment \(index) starts at \(start), before \(expectedStart) "
                + "where the previous segment ends: an overlap."
        case let .inconsistentEmptySegment(trackID, index):
            return "\(Self.subject(trackID)): segment \(index) must have both a source track and a valid source "
                + "range, or neither (an empty segment)."
        case let .trailingEmptySegment(trackID, index):
            return "\(Self.subject(trackID)): the last segment (\(index)) is empty; a track never ends with a gap."
        case let .invalidTimeEffect(trackID, index, reason):
            return "\(Self.subject(trackID)): segment \(index)'s time effect is invalid: \(reason)."
        case let .timeEffectCut(trackID, operation, time):
            return "\(Self.subject(trackID)): \(operation) would cut a speed-ramped segment at \(time); a ramp is "
                + "cut only at its ends."
        }
    }

    private static func subject(_ trackID: Int32?) -> String {
        trackID.map { "Composition track \($0)" } ?? "Composition"
    }

    /// `source / target` as a decimal with three places, computed from the exact fraction (no `Double`).
    private static func speedText(_ source: MediaTime, _ target: MediaTime) -> String {
        guard source.isNumeric, target.isNumeric, target.value != 0,
              let ratio = MediaTime.exact(
                  numerator: Int128(source.value) * Int128(target.timescale),
                  denominator: Int128(source.timescale) * Int128(target.value), preferredTimescale: 1)
        else { return "\(source.seconds / target.seconds)" }
        return "\(MediaTime.formatSeconds(ratio))x (\(ratio.value)/\(ratio.timescale))"
    }
}

extension CompositionError: LocalizedError {
    /// Same as ``description``, so `localizedDescription` reads well.
    public var errorDescription: String? { description }
}
