internal import CMedia
import Composition

/// Cuts a stream of encoded packets into fragmented-MP4 segments held in memory: one initialization segment
/// (`ftyp` + `moov`) and then media segments (`moof` + `mdat`, with `styp`/`sidx` as the profile asks), each media
/// segment starting on a key frame of the lead stream (the first video stream, else the first stream).
///
/// The boxes are libavformat's `mp4` muxer's, in fragmented mode over an ``OutputBuffer`` (`movflags=frag_custom`
/// with `delay_moov`, plus `dash` for HLS as FFmpeg's own HLS muxer does, or `cmaf`); this type only decides where
/// fragments end and flushes them (`av_write_frame(s, NULL)`). It orders the streams' packets itself by decode time
/// (a packet waits until every stream not yet ended has one), so a cut puts every packet of every stream that
/// decodes before the cutting key frame in the segment before it.
///
/// Segments are cut at the first lead key frame presented at or after each boundary `initialStart + k × interval`
/// (k = 1, 2, …): the interval is rounded up to key frames (exact when the encoder forces one at each boundary,
/// ``SegmentKeyFrameSchedule``), and the boundaries do not drift. Each segment is handed
/// to `deliver` on the calling thread as soon as it is complete, with the time span of every track in it. Any
/// number of writers (an asset writer, a ladder's renditions) can feed one each. Confined to one thread.
package final class FragmentedMP4Segmenter {
    /// The brands and boxes of the segments.
    package enum Profile: Sendable, Hashable {
        /// CMAF (ISO/IEC 23000-19): `movflags=cmaf` (brand `cmfc`, signed composition offsets, no edit lists where
        /// the muxer can avoid them).
        case cmaf
        /// Fragmented MP4 for HLS: `movflags=dash` (brands `iso6`/`dash`, a `sidx` per segment), as FFmpeg's HLS muxer.
        case hls
    }

    /// One track's samples in a media segment.
    package struct TrackReport: Sendable, Hashable {
        /// The stream index in ``FragmentedMP4Segmenter/output``.
        package var stream: Int
        /// The earliest presentation time of its samples.
        package var earliestPresentationTime: MediaTime
        /// From the earliest presentation time to the latest presentation end (time + duration) of its samples.
        package var duration: MediaTime
        /// How many samples (packets).
        package var sampleCount: Int
        /// True when its first sample (in decode order) is a key frame.
        package var startsWithKeyFrame: Bool
    }

    /// A segment: its bytes and, for a media segment, what is in it.
    package struct Segment: Sendable {
        /// The initialization segment (once, first) or a media segment.
        package enum Kind: Sendable, Hashable { case initialization, media }
        package var kind: Kind
        /// Media segments count from 0; the initialization segment has 0 too.
        package var sequenceNumber: Int
        /// The segment's bytes (whole boxes).
        package var bytes: [UInt8]
        /// Per stream with samples in it, in stream order; empty for the initialization segment.
        package var tracks: [TrackReport]
    }

    /// The muxer: add the streams to it (or through an ``EncodingMuxer``) before ``writeHeader(options:)``.
    package let output: OutputFile
    private let buffer: OutputBuffer
    private let profile: Profile
    private let interval: MediaTime
    private let initialStart: MediaTime
    private let deliver: (Segment) throws -> Void
    private var nextBoundary: MediaTime
    private var leadStream = 0
    private var streamCount = 0
    private var queues: [[Packet]] = []
    private var ended: Set<Int> = []
    private var spans: [Int: Span] = [:]
    private var initializationDelivered = false
    private var mediaSegmentCount = 0
    private var spare: [Packet] = []

    private struct Span {
        var earliest: MediaTime
        var end: MediaTime
        var count: Int
        var startsWithKeyFrame: Bool
    }

    /// A segmenter whose segments are cut near every `interval` after `initialStart` (both on the packets'
    /// presentation timeline), delivered to `deliver`.
    /// - Parameters:
    ///   - interval: the preferred segment duration; positive and numeric (the caller checks).
    ///   - deliver: called with each segment, in order; what it throws fails the write that completed the segment.
    /// - Throws: ``FFmpegError`` (ENOMEM) from the buffer or the muxer.
    package init(profile: Profile, initialStart: MediaTime, interval: MediaTime,
                 deliver: @escaping (Segment) throws -> Void) throws {
        buffer = try OutputBuffer()
        output = try OutputFile(formatName: "mp4", writingTo: buffer)
        self.profile = profile
        self.interval = interval
        self.deliver = deliver
        self.initialStart = initialStart
        nextBoundary = initialStart + interval
    }

    /// Writes the header with `options` plus the fragmenting `movflags` (`frag_custom`, `delay_moov`,
    /// `skip_trailer`, and the profile's flag). Call after every stream is added.
    /// - Throws: ``FFmpegError`` from `avformat_write_header`.
    package func writeHeader(options: [String: String]) throws {
        var options = options
        var flags = "+frag_custom+delay_moov+skip_trailer" + (profile == .cmaf ? "+cmaf" : "+dash")
        // A timeline that does not start at 0: `frag_discont` makes the first fragment's decode time (`tfdt`) the
        // first packet's own instead of 0.
        if initialStart > .zero { flags += "+frag_discont" }
        options["movflags"] = (options["movflags"] ?? "") + flags
        // FFmpeg 5.1's `cmaf` drops edit lists but cannot write the negative composition offsets that would replace
        // them: every picture would be presented the encoder's reordering delay late. One edit keeps the times exact.
        if profile == .cmaf { options["use_editlist"] = "1" }
        streamCount = Int(output.pointer.pointee.nb_streams)
        queues = Array(repeating: [], count: streamCount)
        leadStream = (0..<streamCount).first { index in
            output.pointer.pointee.streams[index]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        } ?? 0
        try output.writeHeader(options: options)
    }

    /// Takes `packet` (stream index set, timestamps in the stream's time base after the header; its reference
    /// moves here and `packet` is left empty), and writes every packet that can now be ordered, cutting segments on
    /// the way.
    /// - Throws: ``FFmpegError`` from the muxer, or what `deliver` throws.
    package func write(_ packet: Packet) throws {
        let index = packet.streamIndex
        guard index >= 0, index < streamCount else {
            packet.unref()
            throw FFmpegError.posix(EINVAL)
        }
        let held = try spare.popLast() ?? Packet()
        held.swapContents(with: packet)
        queues[index].append(held)
        try drain(flushing: false)
    }

    /// No more packets will come for stream `index`: the other streams' packets no longer wait for it.
    package func endStream(_ index: Int) throws {
        ended.insert(index)
        try drain(flushing: false)
    }

    /// Writes every waiting packet, delivers the last media segment (and the initialization segment if no segment
    /// was cut yet) and ends the muxer.
    /// - Throws: ``FFmpegError`` from the muxer, or what `deliver` throws.
    package func finish() throws {
        try drain(flushing: true)
        guard !spans.isEmpty else {
            try output.finish()
            return
        }
        try deliverInitializationSegment()
        try output.writeFragment()
        let reports = takeReports()
        try output.finish()
        try deliverMediaSegment(bytes: buffer.takeBytes(), tracks: reports)
    }

    /// The decode time of `packet` (its presentation time when it has none).
    private func decodeTime(of packet: Packet) -> MediaTime {
        let timeBase = output.timeBase(ofStream: packet.streamIndex)
        let ticks = packet.decodingTimestamp ?? packet.presentationTimestamp ?? 0
        return MediaTime(pts: ticks, timeBase: timeBase) ?? .zero
    }

    /// Writes waiting packets in decode order while every stream not ended has one waiting (all of them when
    /// `flushing`).
    private func drain(flushing: Bool) throws {
        while true {
            var next: (stream: Int, time: MediaTime)?
            for stream in 0..<streamCount {
                guard let head = queues[stream].first else {
                    if !flushing && !ended.contains(stream) { return }
                    continue
                }
                let time = decodeTime(of: head)
                if next == nil || time < next!.time { next = (stream, time) }
            }
            guard let next else { return }
            let packet = queues[next.stream].removeFirst()
            try place(packet)
            spare.append(packet)
        }
    }

    /// Cuts before `packet` when it is the lead stream's key frame at or after the next boundary, records it in the
    /// segment's spans and writes it.
    private func place(_ packet: Packet) throws {
        let stream = packet.streamIndex
        let timeBase = output.timeBase(ofStream: stream)
        let start = packet.presentationTimestamp.flatMap { MediaTime(pts: $0, timeBase: timeBase) } ?? decodeTime(of: packet)
        if stream == leadStream, packet.isKeyFrame, start >= nextBoundary, !spans.isEmpty {
            try cut()
            while nextBoundary <= start { nextBoundary = nextBoundary + interval }
        }
        let end = start + (MediaTime(pts: packet.duration, timeBase: timeBase) ?? .zero)
        if var span = spans[stream] {
            span.earliest = min(span.earliest, start)
            span.end = max(span.end, end)
            span.count += 1
            spans[stream] = span
        } else {
            spans[stream] = Span(earliest: start, end: end, count: 1, startsWithKeyFrame: packet.isKeyFrame)
        }
        try output.writeWithoutInterleaving(packet)
    }

    /// Ends the current fragment and delivers it (after the initialization segment, the first time).
    private func cut() throws {
        try deliverInitializationSegment()
        try output.writeFragment()
        try deliverMediaSegment(bytes: buffer.takeBytes(), tracks: takeReports())
    }

    /// With `delay_moov`, the first fragment flush writes only the `moov` (after the header's `ftyp`): those bytes
    /// are the initialization segment, and the fragment stays for the next flush.
    private func deliverInitializationSegment() throws {
        guard !initializationDelivered else { return }
        try output.writeFragment()
        initializationDelivered = true
        try deliver(Segment(kind: .initialization, sequenceNumber: 0, bytes: buffer.takeBytes(), tracks: []))
    }

    private func deliverMediaSegment(bytes: [UInt8], tracks: [TrackReport]) throws {
        let number = mediaSegmentCount
        mediaSegmentCount += 1
        try deliver(Segment(kind: .media, sequenceNumber: number, bytes: bytes, tracks: tracks))
    }

    private func takeReports() -> [TrackReport] {
        defer { spans = [:] }
        return spans.keys.sorted().map { stream in
            let span = spans[stream]!
            return TrackReport(stream: stream, earliestPresentationTime: span.earliest, duration: span.end - span.earliest,
                               sampleCount: span.count, startsWithKeyFrame: span.startsWithKeyFrame)
        }
    }
}
