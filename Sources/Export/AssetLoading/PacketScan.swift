import SpliceFFmpeg
internal import CMedia
import Composition

/// One pass over a file's packets (no decoding) that measures what the container's headers don't say exactly:
/// where each video and audio track's first *presented* sample lies, how long the presented samples last, how many
/// frames there are and how long each frame is shown.
///
/// **Rules** (FFmpeg's own, so the export engine's decoder agrees with the loader):
/// - A packet flagged `AV_PKT_FLAG_DISCARD` (libavformat marks samples before an edit list's start that way) is
///   decoded but never presented.
/// - Audio: the `AV_PKT_DATA_SKIP_SAMPLES` side data (AAC priming from an edit list or iTunSMPB, MP3 encoder delay,
///   Opus pre-skip, Matroska's `CodecDelay` as ``InputFile/markPriming(of:)`` marks it) drops that many samples from
///   the start, counting the discarded packets' samples first, exactly as
///   libavcodec's `decode.c` applies it; its "discard padding" drops samples from the end of that packet. Each
///   packet's sample count is the codec's (`av_get_audio_frame_duration2`, e.g. 1024 for AAC), shortened to the
///   container's packet duration when the container's clock counts whole samples and says less (the last packet of
///   an edit-list-trimmed track).
/// - Video: the presented frames are the non-discarded packets; their presentation timestamps (sorted: B-frames
///   arrive out of order) give the first picture time, the frame intervals and the end (last pts + its duration).
///
/// **Cost.** Only packet headers are inspected, but libavformat reads the packet data, so a scan reads the whole
/// file. It stops after ``AssetProbe/packetScanLimit`` packets (all streams together); the timings of a longer file are
/// then completed from the container's declared durations and the frame count is left unknown.
struct PacketScan {
    /// What the scan measured for one video stream.
    struct Video {
        /// Presentation timestamps (ticks) and packet durations of every presented frame, in file order.
        var frames: [(pts: Int64, duration: Int64)] = []
        /// Packets without any timestamp (counted, not timed).
        var untimedFrames = 0
    }

    /// What the scan measured for one audio stream.
    struct Audio {
        /// Timestamp (ticks) of the first presented sample, before adding `skipAtFirstPresented`.
        var firstPresentedPTS: Int64?
        /// Samples skipped inside the first presented packet (priming remainder).
        var skipAtFirstPresented: Int64 = 0
        /// Number of presented samples.
        var presentedSamples: Int64 = 0
        /// Priming samples announced by skip-samples side data (for reporting).
        var primingSamples: Int64 = 0
        /// True when some packet's sample count was unknown (neither codec nor container said).
        var hasUncountedPackets = false
        fileprivate var pendingSkip: Int64 = 0
    }

    /// Measurements per stream index (only the streams asked for).
    var video: [Int: Video] = [:]
    var audio: [Int: Audio] = [:]
    /// Bytes of packet data per stream index.
    var bytes: [Int: Int64] = [:]
    /// Packets read per stream index (discarded ones included).
    var packetCount: [Int: Int] = [:]
    /// False when the scan stopped at the packet limit before the end of the file.
    var isComplete = true

    /// Reads packets of `file` until the end (or `limit` packets), measuring the streams in `streams`; every other
    /// stream is set to `AVDISCARD_ALL` so libavformat skips its data.
    ///
    /// - Throws: `CancellationError` when the file's cancellation flag is set; ``AssetLoadingError/corruptOrTruncated``
    ///   when a packet cannot be read or libavformat marks one corrupt, or when the file ends before the samples its
    ///   index lists (``InputFile/truncation()``; checked at the packet limit too).
    init(file: InputFile, streams: [StreamInfo], limit: Int) throws {
        let wanted = Dictionary(uniqueKeysWithValues: streams.map { ($0.index, $0) })
        for index in 0..<file.streamCount where wanted[index] == nil {
            file.stream(at: index).pointee.discard = AVDISCARD_ALL
        }
        for info in streams {
            if info.mediaType == .video { video[info.index] = Video() }
            if info.mediaType == .audio { audio[info.index] = Audio() }
        }
        let packet = try Packet()
        var count = 0
        while true {
            if file.cancellation.isCancelled { throw CancellationError() }
            if count >= limit {
                // The rest is not read, but a file whose index lists samples beyond its end is cut short all the same.
                if let truncation = file.truncation() {
                    throw AssetLoadingError.corruptOrTruncated(file.url, reason: truncation.description)
                }
                isComplete = false
                break
            }
            let more: Bool
            do {
                more = try file.readPacket(into: packet)
                if more { try file.markPriming(of: packet) }
            } catch let error as FFmpegError {
                if FFmpegError.isCancellation(error, cancelled: file.cancellation.isCancelled) { throw CancellationError() }
                throw AssetLoadingError.corruptOrTruncated(
                    file.url, reason: "reading packet \(count + 1): \(error)")
            } catch let truncation as SourceTruncation {
                throw AssetLoadingError.corruptOrTruncated(file.url, reason: truncation.description)
            }
            guard more else { break }
            count += 1
            let index = packet.streamIndex
            guard let info = wanted[index] else { continue }
            if packet.isCorrupt {
                throw AssetLoadingError.corruptOrTruncated(
                    file.url, reason: "packet \(count) of track \(index + 1) is incomplete (the file ends inside it)")
            }
            bytes[index, default: 0] += Int64(packet.size)
            packetCount[index, default: 0] += 1
            if info.mediaType == .video {
                record(videoPacket: packet, stream: index)
            } else if info.mediaType == .audio {
                record(audioPacket: packet, info: info, parameters: file.stream(at: index).pointee.codecpar)
            }
        }
    }

    private mutating func record(videoPacket packet: Packet, stream index: Int) {
        guard !packet.isDiscarded else { return }
        if let pts = packet.presentationTimestamp ?? packet.decodingTimestamp {
            video[index]?.frames.append((pts, max(0, packet.duration)))
        } else {
            video[index]?.untimedFrames += 1
        }
    }

    private mutating func record(audioPacket packet: Packet, info: StreamInfo, parameters: UnsafeMutablePointer<AVCodecParameters>) {
        guard var state = audio[info.index] else { return }
        defer { audio[info.index] = state }
        var samples = PacketScan.sampleCount(packet: packet, info: info, parameters: parameters)
        if samples == nil { state.hasUncountedPackets = true }
        var discardPadding: Int64 = 0
        if let (skip, padding) = packet.skipSamples {
            discardPadding = padding
            state.pendingSkip = max(0, skip)
            if state.firstPresentedPTS == nil { state.primingSamples = max(0, skip) }
        }
        let count = samples ?? 0
        if packet.isDiscarded {
            state.pendingSkip = max(0, state.pendingSkip - count)
            return
        }
        if state.pendingSkip > 0 && state.pendingSkip >= count && samples != nil {
            state.pendingSkip -= count
            return
        }
        if state.firstPresentedPTS == nil {
            state.firstPresentedPTS = packet.presentationTimestamp ?? packet.decodingTimestamp
            state.skipAtFirstPresented = state.pendingSkip
        }
        samples = count - state.pendingSkip
        state.pendingSkip = 0
        if discardPadding > 0, let kept = samples, discardPadding <= kept { samples = kept - discardPadding }
        state.presentedSamples += samples ?? 0
    }

    /// The number of samples in an audio packet: the codec's count (`av_get_audio_frame_duration2`), shortened to
    /// the container's packet duration when the stream's clock counts whole samples (e.g. time base 1/44100 at
    /// 44.1 kHz) and the container says less; the container's duration alone when the codec can't tell; nil when
    /// neither can.
    static func sampleCount(packet: Packet, info: StreamInfo, parameters: UnsafeMutablePointer<AVCodecParameters>) -> Int64? {
        let codecCount = Int64(av_get_audio_frame_duration2(parameters, Int32(packet.size)))
        var containerCount: Int64?
        let ticksPerSecond = Int64(info.timeBase.den), tickUnit = Int64(info.timeBase.num)
        if packet.duration > 0, info.sampleRate > 0, tickUnit > 0, ticksPerSecond > 0 {
            let perSample = tickUnit * Int64(info.sampleRate)
            if ticksPerSecond % perSample == 0 {
                containerCount = packet.duration / (ticksPerSecond / perSample)
            } else if codecCount <= 0 {
                // Coarse clock (e.g. 1/1000 in Matroska) and no codec count: round the duration to samples.
                let (product, overflow) = packet.duration.multipliedReportingOverflow(by: perSample)
                if !overflow { containerCount = (product + ticksPerSecond / 2) / ticksPerSecond }
            }
        }
        if codecCount > 0 { return min(codecCount, containerCount ?? codecCount) }
        return containerCount
    }
}
