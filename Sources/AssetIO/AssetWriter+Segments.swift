import Composition
import Export
import SpliceFFmpeg

/// A writer that writes no file but cuts fragmented MP4 into segments for its delegate (AVFoundation's segment
/// output).
extension AssetWriter {
    /// The segment interval used when ``preferredOutputSegmentInterval`` is invalid: 6 s, the target duration
    /// Apple's HLS authoring rules recommend.
    public static let defaultOutputSegmentInterval = MediaTime(seconds: 6)

    /// A writer that writes no file but hands fragmented-MP4 segments to its ``delegate`` (AVFoundation's
    /// `init(contentType:)`); set ``outputFileTypeProfile`` and ``delegate`` before ``startWriting()``.
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` for another type than ``FileType/mp4`` (segments
    ///   are fragmented MPEG-4).
    public convenience init(contentType fileType: FileType) throws {
        guard fileType == .mp4 else {
            throw AssetWriterError.invalidState(operation: "create a segment writer",
                                                reason: "segments are fragmented MPEG-4 (.mp4), not .\(fileType.rawValue)")
        }
        self.init(outputURL: nil, fileType: fileType, liveStreamURL: nil, liveStream: nil)
    }

    /// The segments' format (AVFoundation's `outputFileTypeProfile`); required for a writer made with
    /// ``init(contentType:)``, refused (at ``startWriting()``) for one that writes a file. Set before ``startWriting()``.
    public var outputFileTypeProfile: AssetWriterFileTypeProfile? {
        get { state.withLock { $0.outputFileTypeProfile } }
        set { state.withLock { if $0.status == .unknown { $0.outputFileTypeProfile = newValue } } }
    }

    /// The segment duration wanted (AVFoundation's `preferredOutputSegmentInterval`): a segment is cut at the first
    /// video key frame at or after each ``initialSegmentStartTime`` + k × interval (k = 1, 2, …), without drift. An
    /// encoding video input forces an IDR picture on the first picture at or after each boundary, so its segments
    /// last exactly the interval, rounded to pictures; a passthrough input's segments last the interval rounded up
    /// to the key frames it was given. Invalid (the default) means
    /// ``defaultOutputSegmentInterval``; it must otherwise be positive and numeric (AVFoundation's indefinite
    /// interval with `flushSegment()` is not available). Set before ``startWriting()``.
    public var preferredOutputSegmentInterval: MediaTime {
        get { state.withLock { $0.preferredOutputSegmentInterval } }
        set { state.withLock { if $0.status == .unknown { $0.preferredOutputSegmentInterval = newValue } } }
    }

    /// Where the segments' timeline starts (AVFoundation's `initialSegmentStartTime`): the sample appended at the
    /// session's start time is at this time in the segments, and the interval's boundaries count from it. Zero by
    /// default (AVFoundation's default is invalid, which it then refuses); a negative time fails ``startWriting()``.
    /// Set before ``startWriting()``.
    public var initialSegmentStartTime: MediaTime {
        get { state.withLock { $0.initialSegmentStartTime } }
        set { state.withLock { if $0.status == .unknown { $0.initialSegmentStartTime = newValue } } }
    }

    /// Receives the segments of a writer made with ``init(contentType:)``. Held strongly until the writer ends
    /// (AVFoundation holds its delegate weakly), so an object made only to receive the segments stays alive. Set
    /// before ``startWriting()``.
    public var delegate: (any AssetWriterDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { if $0.status == .unknown { $0.delegate = newValue } } }
    }

    /// The segment settings checked: nil for a file writer, else the profile, interval, start and delegate.
    func segmentation(of state: State) throws(AssetWriterError) -> WriterJob.Segmentation? {
        guard outputURL == nil, liveStream == nil else {
            guard state.outputFileTypeProfile == nil else {
                throw .invalidState(operation: "start writing", reason: "an output file type profile needs a writer made with init(contentType:), which writes segments instead of a file")
            }
            return nil
        }
        guard let profile = state.outputFileTypeProfile else {
            throw .invalidState(operation: "start writing", reason: "a writer made with init(contentType:) needs an outputFileTypeProfile")
        }
        guard let delegate = state.delegate else {
            throw .invalidState(operation: "start writing", reason: "a writer made with init(contentType:) needs a delegate to take its segments")
        }
        var interval = state.preferredOutputSegmentInterval
        if !interval.isValid { interval = Self.defaultOutputSegmentInterval }
        guard interval.isNumeric, interval > .zero else {
            throw .invalidState(operation: "start writing", reason: "preferredOutputSegmentInterval \(interval) is not a positive time")
        }
        guard state.initialSegmentStartTime.isNumeric, state.initialSegmentStartTime >= .zero else {
            throw .invalidState(operation: "start writing", reason: "initialSegmentStartTime \(state.initialSegmentStartTime) is not a time at or after 0")
        }
        return WriterJob.Segmentation(profile: profile == .mpeg4CMAFCompliant ? .cmaf : .hls, interval: interval,
                                      initialStart: state.initialSegmentStartTime, delegate: delegate, writer: self)
    }
}
