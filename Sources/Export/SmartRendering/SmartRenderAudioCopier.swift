import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Writes smart rendering's copied audio (``SmartRenderAudioPlanner/Copy``) on the calling (worker) thread: an
/// audio-only MP4/MOV file holding the source's AAC packets for the output's whole audio, sample-exact, which
/// ``SmartRenderWriter`` then copies beside the video as it copies a rendered audio file.
///
/// As passthrough's priming (``PassthroughWriter``): the packet containing output sample 0 is kept, preceded by the
/// packet before it (the *pre-roll*: the source's priming packet at the start of a file, which the demuxer marks as
/// discarded) that the decoder needs to rebuild it (AAC frames overlap by one frame, MDCT); both sit before time 0,
/// so the muxer writes an edit list trimming the pre-roll and the part of the first packet before the start (the
/// movie timescale is the sample rate, so `media_time` is exact). Packets then follow end to end up to the one
/// containing the last output sample, whose duration is cut at the audio's end, so the track lasts the composition's
/// audio duration exactly (the edit list's duration). Decoded, the file equals the source's own decode of those
/// samples, sample for sample: the decoder sees the same packets in the same order from the pre-roll on.
final class SmartRenderAudioCopier {
    private let copy: SmartRenderAudioPlanner.Copy
    private let fileType: FileType
    private let cancellation: CancellationFlag
    /// The export's output, for errors.
    private let outputURL: URL

    init(copy: SmartRenderAudioPlanner.Copy, fileType: FileType, outputURL: URL, cancellation: CancellationFlag) {
        self.copy = copy
        self.fileType = fileType
        self.outputURL = outputURL
        self.cancellation = cancellation
    }

    /// Why the source's stream cannot be copied into an AAC output of `format`, or nil: the codec, the profile
    /// (AAC-LC only: HE-AAC's SBR state spans more than one packet), the sample rate and channel count as stored.
    static func mismatch(_ stream: SourceStream, format: AudioOutputFormat) -> String? {
        stream.withCodecParameters { parameters in
            let p = parameters.pointee
            if p.codec_id != AV_CODEC_ID_AAC { return "the source is not AAC" }
            if p.profile != FF_PROFILE_AAC_LOW { return "the source's AAC profile is \(p.profile), not AAC-LC" }
            if Int(p.sample_rate) != format.sampleRate { return "the source has \(p.sample_rate) Hz, the output \(format.sampleRate) Hz" }
            if Int(p.ch_layout.nb_channels) != format.channelCount {
                return "the source has \(p.ch_layout.nb_channels) channels, the output \(format.channelCount)"
            }
            return nil
        }
    }

    /// Opens the source's audio stream.
    func openSource() throws -> SourceStream {
        try SourceStream(url: copy.source.assetURL, index: copy.source.streamIndex, cancellation: cancellation)
    }

    /// Writes the audio-only file into `path`.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the source's packets do not cover the audio;
    ///   ``ExportError/outputNotWritable(_:reason:)``; ``ExportError/writeFailed(_:reason:)``; `CancellationError`.
    func run(source stream: SourceStream, path: String) throws {
        let url = copy.source.assetURL
        let rate = Int32(copy.sampleRate)
        let samples = AVRational(num: 1, den: rate)
        let output = try OutputFile.export(path: path, fileType: fileType, for: outputURL, cancellation: cancellation)
        let index = try writing { try stream.withCodecParameters { try output.addStream(copying: $0, timeBase: samples) } }
        try writing { try output.writeHeader(options: fileType.muxerOptions(optimizeForNetworkUse: false, movieTimescale: rate)) }
        let outputBase = output.timeBase(ofStream: index)
        let nominal = Int64(stream.audioFrameSize.samples > 0 ? stream.audioFrameSize.samples : 1024)

        /// Output sample index of a source timestamp (exact on the source's sample grid: the planner checked).
        func sample(_ timestamp: Int64) -> Int64 {
            let time = MediaTime(pts: timestamp, timeBase: stream.timeBase) ?? .zero
            return (time - copy.source.startTimeOffset - copy.sourceStart).convertScale(rate).value
        }
        let firstSource = copy.sourceStart + copy.source.startTimeOffset
        if copy.sourceStart > .zero, let start = firstSource.timestamp(in: stream.timeBase) {
            // Three packets early, so the packet before the one holding the start (the pre-roll) is read too.
            try? stream.seek(toTimestamp: start - av_rescale_q(3 * nominal, samples, stream.timeBase))
        }
        let packet = try Packet(), held = try Packet()
        var hasHeld = false
        var cursor: Int64?  // output sample where the next packet starts, once the first kept one is found
        func put(_ packet: Packet, at start: Int64, samples count: Int64) throws {
            let pts = av_rescale_q(start, samples, outputBase)
            packet.setTiming(presentation: pts, decoding: pts, duration: av_rescale_q(count, samples, outputBase))
            packet.prepareForMuxing(stream: index)
            try writing { try output.write(packet) }
        }
        while true {
            if cancellation.isCancelled { throw CancellationError() }
            guard try stream.readPacket(into: packet, context: "reading the audio packets to copy") else { break }
            guard let pts = packet.presentationTimestamp else { continue }
            let duration = packet.duration > 0 ? sample(pts + packet.duration) - sample(pts) : nominal
            guard let start = cursor else {
                let begin = sample(pts)
                if begin + duration <= 0 {
                    packet.swapContents(with: held)  // before the audio: the pre-roll candidate
                    hasHeld = true
                    continue
                }
                guard begin <= 0 else {
                    throw ExportError.sourceUnreadable(url, reason: "its audio packets start \(begin) samples after the copied audio's start")
                }
                if hasHeld { try put(held, at: begin - nominal, samples: nominal) }
                try put(packet, at: begin, samples: min(duration, copy.sampleCount - begin))
                cursor = begin + duration
                if begin + duration >= copy.sampleCount { break }
                continue
            }
            try put(packet, at: start, samples: min(duration, copy.sampleCount - start))
            cursor = start + duration
            if start + duration >= copy.sampleCount { break }
        }
        guard let end = cursor, end >= copy.sampleCount else {
            throw ExportError.sourceUnreadable(
                url, reason: "its audio ends \(copy.sampleCount - (cursor ?? 0)) samples before the copied audio's end")
        }
        try writing { try output.finish() }
    }

    private func writing<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw ExportError.writing(error, to: outputURL, cancelled: cancellation.isCancelled)
        }
    }
}
