import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Produces exactly the output samples of one audio segment: the source range decoded, trimmed to the sample,
/// tempo-changed for a speed change (pitch kept, or varispeed), resampled and remixed to the output format
/// (all by FFmpeg: `atrim`, `atempo`/`asetrate`, `pan`, `aresample`/`aformat`), then padded with silence or cut so
/// it fills its composition range exactly.
///
/// Channel rule: a mono source is copied to both output channels at unity gain (`pan=stereo|c0=c0|c1=c0`);
/// other layouts are downmixed by libswresample's default matrix.
final class AudioSegmentStream {
    let track: AssetTrack
    let format: AudioOutputFormat
    /// Output samples this segment must produce.
    let sampleCount: Int64
    private(set) var produced: Int64 = 0

    /// The track's packets and decoder, shared along a run of segments that cut the source in order.
    private let sourceDecoder: StreamDecoder
    private let graph: FilterGraph
    private let decoded: Frame
    private let converted: Frame
    private let timeBase: AVRational
    private let sourceRate: Int
    private let sourceLayout: AVChannelLayout
    private var convertedOffset = 0
    private var hasConverted = false
    private var graphDrained = false
    /// True once this segment needs no more decoded frames (its range is reached, or the source ended).
    private var decoderDrained = false
    private var nextSourceSample: Int64?
    /// True while `decoded` holds a frame taken over from the previous segment that this one must see first.
    private var replay = false
    private let firstSourceSample: Int64
    private let lastSourceSample: Int64

    /// Prepares the segment mapping `source` (source time of `track`) onto `target` (composition time).
    /// - Parameters:
    ///   - varispeed: when true a speed change also changes pitch (resampling); otherwise pitch is kept (`atempo`).
    ///   - previous: the stream of the track's previous segment, if any. When it decoded the same source no further
    ///     than this segment's start, its file and decoder are taken over (see the note on decoding below).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming the file.
    ///   - reversed: when true the trimmed range is played backwards (`areverse`, which holds the range's decoded
    ///     samples in memory: at most ``SegmentTimeEffect/maximumReversedDuration`` of them) before any tempo change.
    ///   - roomToneHold: for a freeze frame with room tone, the whole hold's composition range (`target` is the part
    ///     played): the sound is ``RoomToneLoop``'s loop from the held time `source.start`, with no tempo change.
    init(track: AssetTrack, source: TimeRange, target: TimeRange, format: AudioOutputFormat, varispeed: Bool,
         reversed: Bool = false, roomToneHold: TimeRange? = nil, continuing previous: AudioSegmentStream? = nil,
         cancellation: CancellationFlag) throws {
        self.track = track
        self.format = format
        sampleCount = format.sampleIndex(of: target.end) - format.sampleIndex(of: target.start)
        let loop = { (rate: Int) in
            roomToneHold.flatMap {
                RoomToneLoop(held: source.start, trackRange: track.timeRange, whole: $0, part: target, rate: rate)
            }
        }
        let readStart = { (rate: Int) in
            loop(rate)?.firstSample ?? AudioOutputFormat(sampleRate: rate, channelCount: 1).sampleIndex(of: source.start)
        }
        if let previous, previous.track.assetURL == track.assetURL, previous.track.streamIndex == track.streamIndex,
           previous.resumePosition <= readStart(previous.sourceRate) {
            sourceDecoder = previous.sourceDecoder
            decoded = previous.decoded
            nextSourceSample = previous.nextSourceSample
            replay = previous.decoded.hasData
        } else {
            sourceDecoder = try StreamDecoder(track: track, threads: 1, cancellation: cancellation)
            decoded = try Frame()
        }
        let decoder = sourceDecoder.decoder
        timeBase = sourceDecoder.timeBase
        sourceRate = decoder.sampleRate
        guard sourceRate > 0 else {
            throw ExportError.sourceUnreadable(track.assetURL, reason: "track \(track.trackID) has no sample rate")
        }
        var layout = decoder.channelLayoutOrDefault
        let channels = layout.nb_channels
        sourceLayout = layout
        var layoutName = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &layoutName, layoutName.count)

        // Source samples wanted: [first, last) in the source's own sample grid.
        let sourceGrid = AudioOutputFormat(sampleRate: sourceRate, channelCount: Int(channels))
        let roomTone = loop(sourceRate)
        if roomToneHold != nil, roomTone == nil {
            throw ExportError.sourceUnreadable(
                track.assetURL, reason: "track \(track.trackID) has less sound than room tone loops "
                    + "(\(FreezeFrameSound.minimumRoomToneSpan))")
        }
        firstSourceSample = roomTone?.firstSample ?? sourceGrid.sampleIndex(of: source.start)
        lastSourceSample = roomTone?.lastSample ?? sourceGrid.sampleIndex(of: source.end)

        // Speed = source duration / target duration. atempo takes 0.5 ... 100 per instance: chain instances.
        var chain = ["[in]atrim=start_pts=\(firstSourceSample):end_pts=\(lastSourceSample)", "asetpts=PTS-STARTPTS"]
        if reversed { chain.append("areverse") }
        if let roomTone { chain = [roomTone.graph(after: chain.joined(separator: ","))] }
        let speed = source.duration.seconds / target.duration.seconds
        if roomTone == nil, abs(speed - 1) > 1e-9 {
            if varispeed {
                chain.append("asetrate=\(Double(sourceRate) * speed)")
            } else {
                var remaining = speed
                while remaining < 0.5 { chain.append("atempo=0.5"); remaining /= 0.5 }
                while remaining > 100 { chain.append("atempo=100"); remaining /= 100 }
                chain.append("atempo=\(remaining)")
            }
        }
        if channels == 1 && format.channelCount == 2 {
            chain.append("pan=stereo|c0=c0|c1=c0")
        }
        chain.append("aresample=\(format.sampleRate)")
        chain.append("aformat=sample_fmts=fltp:sample_rates=\(format.sampleRate):channel_layouts=\(format.layoutName)[out]")
        let description = chain.joined(separator: ",")
        let sampleFormat = decoder.sampleFormat
        do {
            graph = try FilterGraph(
                description: description,
                sources: [.audio(.init(label: "in", sampleRate: sourceRate, sampleFormat: sampleFormat,
                                       channelLayout: String(cBuffer: layoutName), timeBase: AVRational(num: 1, den: Int32(sourceRate))))],
                sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
        } catch {
            throw ExportError.renderingFailed(stage: "building the audio graph '\(description)'", reason: "\(error)")
        }
        converted = try Frame()

        // No seek: the source is decoded from its first packet and the samples before the segment are dropped
        // unfiltered (feedGraph). Source time counts decoded samples (see sampleIndex(of:)), and real files' timestamps
        // do not say which counted sample a packet holds: one Android writer gives its first packet 8471 ticks for
        // 1024 samples, so after a seek every timestamp is 155 ms off the count; another's timestamps jump 145 samples;
        // a libfaac first packet decodes to nothing; Matroska rounds to whole milliseconds. A seek placed trimmed audio
        // up to 155 ms out of sync. Cost: decoding the source up to the segment (AAC: about 1 s per 10 min), paid
        // once per run of segments that cut a source in order, since each takes over the previous one's decoder.
    }

    /// The source sample from which this stream's decoder can still deliver: the start of the frame it holds, else
    /// the next sample it would decode.
    private var resumePosition: Int64 {
        decoded.hasData ? decoded.pts : (nextSourceSample ?? 0)
    }

    deinit {
        var layout = sourceLayout
        av_channel_layout_uninit(&layout)
    }

    /// Writes the next `count` output samples of this segment into `channels` (one buffer per output channel)
    /// starting at `offset`, adding nothing: the destination is overwritten. Past the source's end, silence.
    func read(into channels: inout [[Float]], offset: Int, count: Int) throws {
        var written = 0
        while written < count {
            if produced >= sampleCount { break }
            if !hasConverted || convertedOffset >= converted.sampleCount {
                if graphDrained { break }
                let fetched = try fetchConverted()
                if !fetched { break }
            }
            let available = min(converted.sampleCount - convertedOffset, count - written, Int(sampleCount - produced))
            for channel in 0..<format.channelCount {
                guard let plane = converted.plane(channel) else { continue }
                plane.withMemoryRebound(to: Float.self, capacity: converted.sampleCount) { samples in
                    for i in 0..<available {
                        channels[channel][offset + written + i] = samples[convertedOffset + i]
                    }
                }
            }
            convertedOffset += available
            written += available
            produced += Int64(available)
        }
        // Silence for whatever the source could not supply (audio shorter than its segment).
        if written < count {
            for channel in 0..<format.channelCount {
                for i in written..<count { channels[channel][offset + i] = 0 }
            }
            produced += Int64(count - written)
        }
    }

    /// Pulls the next converted frame; returns false when the graph is drained.
    private func fetchConverted() throws -> Bool {
        while true {
            if sourceDecoder.cancellation.isCancelled { throw CancellationError() }
            switch try graph.pull(from: 0, into: converted) {
            case .frame:
                convertedOffset = 0
                hasConverted = true
                return true
            case .endOfStream:
                graphDrained = true
                return false
            case .needsInput:
                try feedGraph()
            }
        }
    }

    /// Decodes one frame and pushes it into the graph, timestamped by its source sample index; at the end of the
    /// source (or past the wanted range) signals end of stream.
    private func feedGraph() throws {
        while true {
            if decoderDrained {
                try graph.push(nil, to: 0)
                return
            }
            let sample: Int64
            if replay {
                replay = false
                sample = decoded.pts
            } else if try sourceDecoder.decode(into: decoded) {
                sample = sampleIndex(of: decoded)
            } else {
                decoderDrained = true
                continue
            }
            decoded.pts = sample
            nextSourceSample = sample + Int64(decoded.sampleCount)
            // Wholly before the segment: atrim would drop it; skip the graph.
            if sample + Int64(decoded.sampleCount) <= firstSourceSample {
                decoded.unref()
                continue
            }
            decoded.fillUnspecifiedChannelLayout(with: sourceLayout)
            // Keep the frame: the next segment may take it over (it can reach past this segment's end). Stop
            // decoding at the frame that reaches the end, so it is the one kept.
            do {
                try graph.push(decoded, to: 0, keepReference: true)
            } catch let error as FFmpegError {
                // e.g. a damaged packet changed the channel count mid-stream
                throw ExportError.sourceUnreadable(
                    track.assetURL, reason: "decoding \(sourceDecoder.label): \(error)")
            }
            if sample + Int64(decoded.sampleCount) >= lastSourceSample { decoderDrained = true }
            return
        }
    }

    /// The source sample index of a decoded frame's first sample. The first frame decoded (after the seek, if any)
    /// is placed by its timestamp (stream time minus `startTimeOffset`); every later frame follows the previous one
    /// contiguously. Samples are counted, not timestamped: the asset loader measures audio durations the same way,
    /// and real files have timestamp gaps that are not gaps in the sound (an Android writer's first-packet duration,
    /// one Android writer; a 145-sample jump in another).
    private func sampleIndex(of frame: Frame) -> Int64 {
        if let expected = nextSourceSample { return expected }
        let timestamp = frame.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? frame.bestEffortTimestamp : frame.pts
        guard let streamTime = MediaTime(pts: timestamp, timeBase: timeBase) else { return 0 }
        return (streamTime - track.startTimeOffset).convertScale(Int32(sourceRate)).value
    }
}
