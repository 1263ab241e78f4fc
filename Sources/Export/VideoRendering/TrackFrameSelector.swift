import SpliceFFmpeg
import Composition

/// Answers, for one composition video track, which source picture is on screen at a composition time: the segment
/// containing the time, its exact source time (`CMTimeMapTimeFromRangeToRange`), and the source frame shown then
/// (sample-and-hold, through a ``VideoSourceReader``). Empty segments and times past the end give nil: the track is
/// not drawn there. A segment with a time effect maps the time through the model's own map
/// (``TimeMapping/sourceTime(at:effect:)``); a reversed one is read backwards by a ``ReversedSourceReader``.
///
/// Readers are kept per source file and track, so later segments cut further on in the same clip decode on without
/// reopening; a reader whose next segment starts earlier in its source (which would seek anyway) is closed when
/// another segment takes over. Times must be visited in non-decreasing order for efficiency (earlier times seek).
final class TrackFrameSelector {
    let track: RenderTrack
    private let cancellation: CancellationFlag
    /// Threads of each source's decoder (0: FFmpeg's choice, one per core).
    private let decoderThreads: Int32
    /// The open readers by source stream, each with the segment index that last showed its source.
    private var readers: [String: (reader: VideoSourceReader, shownAt: Int)] = [:]
    private var reversedReaders: [String: ReversedSourceReader] = [:]
    private var segmentHint = 0
    /// For each segment, true when a later segment shows the same source stream (by
    /// ``AssetTrack/sourceStreamKey``) from where this one ends or further on: its reader decodes on to it.
    private let readerContinues: [Bool]
    /// The segment index at which `readers` were last pruned.
    private var readersCheckedAt = -1
    /// The most source readers (open files with their decoders) this selector has held at once.
    private(set) var mostReadersOpen = 0
    /// The natural size (pixels) of the source whose frame the last ``frame(at:)`` returned.
    private(set) var shownNaturalSize: Size?
    /// The colour description of that source (the loader's, or the caller's correction of it).
    private(set) var shownColor: ColorProperties?

    /// Selects the pictures of `track`, decoding each source with `decoderThreads` threads (0: FFmpeg's choice).
    init(track: RenderTrack, decoderThreads: Int32 = 0, cancellation: CancellationFlag) {
        self.track = track
        self.decoderThreads = decoderThreads
        self.cancellation = cancellation
        var continues = [Bool](repeating: false, count: track.segments.count)
        var next: [String: Int] = [:]  // the next segment showing each source stream, walking backwards
        for (index, segment) in track.segments.enumerated().reversed() {
            guard let key = segment.source?.sourceStreamKey else { continue }
            if let later = next[key] {
                continues[index] = track.segments[later].mapping.source.start >= segment.mapping.source.end
            }
            next[key] = index
        }
        readerContinues = continues
    }

    /// The frame to draw at composition time `time`, or nil when the track shows nothing then.
    /// The frame belongs to the renderer and stays valid until the next call.
    func frame(at time: MediaTime) throws -> Frame? {
        guard let index = track.segmentIndex(containing: time, from: segmentHint) else { return nil }
        segmentHint = index
        let segment = track.segments[index]
        guard let source = segment.source, !segment.mapping.isEmpty else { return nil }
        shownNaturalSize = source.video?.naturalSize
        shownColor = source.video?.color
        if segment.effect?.playsBackward == true, source.video?.isStillImage != true {
            return try reversedReader(for: source).frame(before: segment.sourceTime(at: time))
        }
        if !reversedReaders.isEmpty, !track.segments[index...].contains(where: { $0.effect?.playsBackward == true }) {
            reversedReaders = [:]  // no reversed segment ahead: free its chunk of pictures
        }
        // Close readers as soon as no later segment decodes on from where they are: a decoder holds its reference
        // pictures and frame threads' buffers (tens of MiB at 1080p), so open decoders (and files) stay bounded on
        // any timeline, and a clip shown again from an earlier point (which seeks anyway) is reopened rather than
        // kept open under the clips in between. Closed before the next source is opened, so that source's probe and
        // first pictures never coexist with the pictures of a decoder that is done (at a cut from one 1080p clip to
        // another: about 4 MiB of peak).
        let key = source.sourceStreamKey
        if index != readersCheckedAt {
            readersCheckedAt = index
            readers = readers.filter { $0.key == key || readerContinues[$0.value.shownAt] }
        }
        let reader = try readers[key]?.reader
            ?? VideoSourceReader(track: source, decoderThreads: decoderThreads, cancellation: cancellation)
        readers[key] = (reader, index)
        mostReadersOpen = max(mostReadersOpen, readers.count)
        return try reader.frame(at: segment.sourceTime(at: time))
    }

    /// The reader of reversed segments of `source` (one per source stream, kept while the track uses it; at most
    /// one chunk of ``SegmentTimeEffect/maximumReversedChunkFrames`` pictures each).
    private func reversedReader(for source: AssetTrack) throws -> ReversedSourceReader {
        let key = source.sourceStreamKey
        if let existing = reversedReaders[key] { return existing }
        let reader = try ReversedSourceReader(track: source, cancellation: cancellation)
        // Keep one: a reversed chunk is large, and reversed segments of different sources rarely alternate.
        reversedReaders = [key: reader]
        return reader
    }
}
