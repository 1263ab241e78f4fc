import SpliceFFmpeg
import Composition
import VideoComposition
internal import CMedia

/// Decodes one video track of one file for a reversed segment: answers "which picture was on screen just before
/// source time S" for times that decrease from call to call, without decoding the range once per output frame.
///
/// It holds a chunk of decoded pictures: on a miss at `S` it seeks to the key frame at or before
/// `S − window` (`window` = ``SegmentTimeEffect/maximumReversedChunkFrames`` − 2 frame durations of the source),
/// decodes forward to `S`, and keeps the pictures in `[S − window, S)` plus the one on screen at `S − window`; the
/// following requests (earlier times) are answered from the chunk until they fall before it. So the range is decoded
/// about once plus one group of pictures per chunk, and memory is bounded by
/// ``SegmentTimeEffect/maximumReversedChunkFrames`` decoded pictures whatever the segment's length (a variable frame
/// rate source that packs more pictures into the window drops the earliest ones of the chunk and refills sooner).
///
/// Source time and the rounding of a track's frame times follow ``VideoSourceReader``. Confined to one export worker.
final class ReversedSourceReader {
    let track: AssetTrack
    private let source: StreamDecoder
    private let timeBase: AVRational
    private let halfTick: MediaTime
    /// How far back (seconds) a chunk reaches before the time that caused the refill.
    private let window: MediaTime
    /// Decoded pictures in increasing source time, complete from the first one's time up to `heldUntil`.
    private var held: [(time: MediaTime, frame: Frame)] = []
    private var heldUntil: MediaTime = .negativeInfinity
    /// Frames of earlier chunks, recycled.
    private var spare: [Frame] = []
    private let capacity = SegmentTimeEffect.maximumReversedChunkFrames

    /// Opens the file and a decoder for `track`.
    /// - Throws: ``ExportError`` naming the file when it cannot be opened or decoded.
    init(track: AssetTrack, cancellation: CancellationFlag) throws {
        self.track = track
        source = try StreamDecoder(track: track, cancellation: cancellation)
        timeBase = source.timeBase
        halfTick = VideoSourceReader.halfTick(of: track, timeBase: timeBase)
        var frameDuration = MutableVideoComposition.standardFrameDuration(of: track)
        if !frameDuration.isNumeric || frameDuration <= .zero { frameDuration = MediaTime(value: 1, timescale: 60) }
        window = frameDuration * Int64(capacity - 2)
    }

    /// The picture on screen just before source time `time` (the latest frame whose time is `< time`), or the
    /// track's first picture when `time` is at or before it; nil when the track has no picture at all. The frame is
    /// owned by the reader and valid until the next call.
    func frame(before time: MediaTime) throws -> Frame? {
        if let answer = answer(before: time) { return answer }
        try refill(before: time)
        return answer(before: time) ?? held.first?.frame
    }

    /// The held picture for `time`, when the chunk covers it.
    private func answer(before time: MediaTime) -> Frame? {
        guard time <= heldUntil, let first = held.first, first.time < time else { return nil }
        return held.last { $0.time < time }?.frame
    }

    /// Decodes the chunk of pictures that ends just before `time`.
    private func refill(before time: MediaTime) throws {
        for entry in held {
            entry.frame.unref()
            spare.append(entry.frame)
        }
        held.removeAll(keepingCapacity: true)
        let chunkStart = time - window
        let streamTime = chunkStart + track.startTimeOffset
        let timestamp = streamTime.timestamp(in: timeBase, method: .towardNegativeInfinity) ?? 0
        try source.seek(toTimestamp: timestamp, describedAs: chunkStart)
        heldUntil = .positiveInfinity  // unless a frame at or after `time` says otherwise
        while true {
            let frame = try spare.popLast() ?? Frame()
            guard try source.decode(into: frame) else {
                spare.append(frame)
                break
            }
            let stamp = frame.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? frame.bestEffortTimestamp : frame.pts
            guard let decodedTime = MediaTime(pts: stamp, timeBase: timeBase) else {
                frame.unref()
                spare.append(frame)
                continue  // a frame without a usable timestamp cannot be placed: skip it
            }
            let sourceTime = decodedTime - track.startTimeOffset - halfTick
            if sourceTime >= time, !held.isEmpty {
                frame.unref()
                spare.append(frame)
                heldUntil = time
                break
            }
            // Before the window only the latest picture matters (it is on screen at the window's start).
            if let first = held.first, first.time < chunkStart, sourceTime <= chunkStart || held.count >= capacity {
                held.removeFirst()
                first.frame.unref()
                spare.append(first.frame)
            } else if held.count >= capacity {
                let dropped = held.removeFirst()
                dropped.frame.unref()
                spare.append(dropped.frame)
            }
            held.append((sourceTime, frame))
            if sourceTime >= time {
                heldUntil = time  // the track starts at or after `time`: its first picture stands in
                break
            }
        }
    }
}
