import AudioMix
import Composition
import Foundation
import VideoComposition
internal import CMedia

/// Stream copy for the passthrough preset: packets are copied from the source files without decoding, as
/// `AVAssetExportPresetPassthrough` does, when the composition allows it. Every condition that rules copying out is
/// reported by ``ExportError/passthroughNotPossible(_:)`` with the track, time and reason, before anything is
/// written:
///
/// - no video composition and no audio mix (they need rendering);
/// - each exported track is one continuous piece of one source track at normal speed (a trim or a whole track;
///   several cuts would need re-encoding at the joins), not a still image;
/// - a video piece starts on a key frame and ends on a key frame or at the source's end (the error names the
///   nearest key frames);
/// - the container accepts the codec.
///
/// Audio is cut at packet boundaries (AAC: 1024 samples, 21.3 ms at 48 kHz): the first copied packet is the one
/// containing the start, the last the one containing the end.
struct PassthroughPlan: Sendable {
    struct Piece: Sendable {
        var source: AssetTrack
        /// Source time copied.
        var sourceRange: TimeRange
        /// Composition (output) time of `sourceRange.start`, after the export range shift.
        var targetStart: MediaTime
    }

    var pieces: [Piece]
    var fileType: FileType
    var outputURL: URL
    var overwritesExistingFile: Bool
    var metadata: [(String, String)]
    var optimizeForNetworkUse: Bool

    static func make(
        composition: MutableComposition, configuration: AssetExportSession.Configuration, fileType: FileType,
        outputURL: URL, range: TimeRange
    ) throws -> PassthroughPlan {
        if configuration.videoComposition != nil {
            throw ExportError.passthroughNotPossible("a video composition is set; applying it needs re-encoding")
        }
        if configuration.audioMix != nil {
            throw ExportError.passthroughNotPossible("an audio mix is set; applying it needs re-encoding")
        }
        var pieces: [Piece] = []
        for track in composition.tracks where track.isEnabled && (track.mediaType == .video || track.mediaType == .audio) {
            if track.mediaType == .video && !fileType.supportsVideo { continue }
            let segments = RenderTrack(track, exporting: range).segments.filter { $0.source != nil }
            guard !segments.isEmpty else { continue }
            guard segments.count == 1, let segment = segments.first, let source = segment.source else {
                throw ExportError.passthroughNotPossible(
                    "track \(track.trackID) cuts \(segments.count) pieces together; passthrough copies one continuous "
                        + "piece per track (joins need re-encoding) — choose a preset such as AVAssetExportPresetHighestQuality")
            }
            let mapping = segment.mapping
            guard mapping.source.duration == mapping.target.duration else {
                throw ExportError.passthroughNotPossible(
                    "track \(track.trackID) plays at speed \(mapping.speed) from \(mapping.target.start); speed changes need re-encoding")
            }
            if source.video?.isStillImage == true {
                throw ExportError.passthroughNotPossible("track \(track.trackID) shows a still image; it must be encoded as video")
            }
            if RenderTrack(track, exporting: range).segments.first?.mapping.target.start != mapping.target.start {
                throw ExportError.passthroughNotPossible(
                    "track \(track.trackID) starts with an empty segment; a gap cannot be stream-copied")
            }
            pieces.append(Piece(source: source, sourceRange: mapping.source, targetStart: mapping.target.start))
        }
        guard !pieces.isEmpty else {
            throw ExportError.invalidComposition("it has no enabled video or audio track with media to copy")
        }
        return PassthroughPlan(
            pieces: pieces, fileType: fileType, outputURL: outputURL,
            overwritesExistingFile: configuration.overwritesExistingFile,
            metadata: configuration.metadata.map { ($0.key, $0.value) },
            optimizeForNetworkUse: configuration.shouldOptimizeForNetworkUse)
    }
}

/// Copies the pieces of a ``PassthroughPlan`` into one file, interleaved by output timestamp.
final class PassthroughWriter {
    /// One source stream being copied.
    private final class PieceReader {
        let piece: PassthroughPlan.Piece
        let input: InputFile
        let stream: UnsafeMutablePointer<AVStream>
        let timeBase: AVRational
        let packet: Packet
        var outputIndex = -1
        var finished = false
        var started = false
        /// Stream timestamps of the copied range.
        let startTimestamp: Int64
        let endTimestamp: Int64
        /// Output timestamp offset, in the source time base.
        let shift: Int64

        init(piece: PassthroughPlan.Piece, cancellation: CancellationFlag) throws {
            self.piece = piece
            let url = piece.source.assetURL
            do {
                input = try InputFile(url: url, cancellation: cancellation)
            } catch let error as AssetLoadingError {
                throw ExportError.sourceUnreadable(url, reason: error.description)
            }
            guard piece.source.streamIndex < input.streamCount else {
                throw ExportError.sourceUnreadable(url, reason: "it has no stream \(piece.source.streamIndex) any more")
            }
            stream = input.stream(at: piece.source.streamIndex)
            timeBase = stream.pointee.time_base
            for index in 0..<input.streamCount where index != piece.source.streamIndex {
                input.stream(at: index).pointee.discard = AVDISCARD_ALL
            }
            let offset = piece.source.startTimeOffset
            startTimestamp = (piece.sourceRange.start + offset).timestamp(in: timeBase) ?? 0
            endTimestamp = (piece.sourceRange.end + offset).timestamp(in: timeBase) ?? Int64.max
            shift = (piece.targetStart - piece.sourceRange.start - offset).timestamp(in: timeBase) ?? 0
            packet = try Packet()
            if piece.sourceRange.start > .zero {
                try? input.seek(streamIndex: piece.source.streamIndex, toTimestamp: startTimestamp)
            }
        }

        /// Reads the next packet to copy into `packet`; false when the piece is done.
        func advance() throws -> Bool {
            while !finished {
                let more: Bool
                do {
                    more = try input.readPacket(into: packet)
                } catch let error as FFmpegError where error == .exit {
                    throw CancellationError()
                } catch {
                    throw ExportError.sourceUnreadable(piece.source.assetURL, reason: "reading: \(error)")
                }
                guard more else { finished = true; return false }
                guard packet.streamIndex == piece.source.streamIndex, let pts = packet.presentationTimestamp else { continue }
                let duration = packet.duration
                if pts >= endTimestamp {
                    finished = true
                    // Video may only end where a new group of pictures starts (or at the source's end): a picture
                    // before the end could otherwise depend on one after it.
                    if piece.source.mediaType == .video && !(packet.isKeyFrame && pts == endTimestamp) {
                        throw ExportError.passthroughNotPossible(
                            "track \(piece.source.trackID) of \(piece.source.assetURL.lastPathComponent) ends at "
                                + "\(piece.sourceRange.end), which is not a key frame; end on a key frame, at the source's end, or re-encode")
                    }
                    return false
                }
                if !started {
                    if piece.source.mediaType == .audio {
                        if pts + max(duration, 1) <= startTimestamp { continue }
                    } else {
                        if pts < startTimestamp { continue }
                        guard packet.isKeyFrame, pts == startTimestamp else {
                            let at = MediaTime(pts: pts, timeBase: timeBase).map { $0 - piece.source.startTimeOffset }
                            throw ExportError.passthroughNotPossible(
                                "track \(piece.source.trackID) of \(piece.source.assetURL.lastPathComponent) starts at "
                                    + "\(piece.sourceRange.start), which is not a key frame (the next picture, at "
                                    + "\(at.map(\.description) ?? "an unknown time"), is \(packet.isKeyFrame ? "a key frame" : "not one")); "
                                    + "trim on a key frame or re-encode")
                        }
                    }
                    started = true
                }
                packet.pointer.pointee.pts = pts + shift
                if let dts = packet.decodingTimestamp { packet.pointer.pointee.dts = dts + shift }
                packet.pointer.pointee.pos = -1
                return true
            }
            return false
        }

        /// The output timestamp (in seconds, for ordering) of the packet waiting in `packet`.
        var waitingTime: Double {
            let ts = packet.decodingTimestamp.map { $0 + shift } ?? packet.pointer.pointee.pts
            return Double(ts) * Double(timeBase.num) / Double(timeBase.den)
        }
    }

    private let plan: PassthroughPlan
    private let cancellation: CancellationFlag
    private let progress: (Double) -> Void

    init(plan: PassthroughPlan, cancellation: CancellationFlag, progress: @escaping (Double) -> Void) {
        self.plan = plan
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Writes the copy into `path`.
    func run(path: String) throws {
        let output: OutputFile
        do {
            output = try OutputFile(path: path, formatName: plan.fileType.muxerName, cancellation: cancellation)
        } catch {
            throw ExportError.outputNotWritable(plan.outputURL, reason: "\(error)")
        }
        let readers = try plan.pieces.map { try PieceReader(piece: $0, cancellation: cancellation) }
        for reader in readers {
            guard let parameters = reader.stream.pointee.codecpar else { throw FFmpegError.invalidData }
            if avformat_query_codec(output.pointer.pointee.oformat, parameters.pointee.codec_id, FF_COMPLIANCE_NORMAL) != 1 {
                throw ExportError.passthroughNotPossible(
                    "a .\(plan.fileType.rawValue) file cannot hold \(reader.piece.source.codecName) without re-encoding")
            }
            guard let stream = avformat_new_stream(output.pointer, nil) else { throw FFmpegError.posix(ENOMEM) }
            try FFmpegError.check(avcodec_parameters_copy(stream.pointee.codecpar, parameters))
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = reader.timeBase
            reader.outputIndex = Int(stream.pointee.index)
        }
        output.setMetadata(plan.metadata)
        var options: [String: String] = [:]
        if plan.optimizeForNetworkUse && [.mp4, .mov, .m4a].contains(plan.fileType) { options["movflags"] = "+faststart" }
        try output.writeHeader(options: options)

        var waiting = try readers.filter { try $0.advance() }
        let total = plan.pieces.map(\.sourceRange.duration.seconds).max() ?? 1
        while let next = waiting.min(by: { $0.waitingTime < $1.waitingTime }) {
            if cancellation.isCancelled { throw CancellationError() }
            progress(min(max(next.waitingTime / max(total, 1e-9), 0), 1))
            next.packet.pointer.pointee.stream_index = Int32(next.outputIndex)
            av_packet_rescale_ts(next.packet.pointer, next.timeBase, output.timeBase(ofStream: next.outputIndex))
            do {
                try output.write(next.packet)
            } catch let error as FFmpegError {
                if error == .exit || cancellation.isCancelled { throw CancellationError() }
                throw ExportError.writeFailed(plan.outputURL, reason: error.description)
            }
            if try !next.advance() { waiting.removeAll { $0 === next } }
        }
        do {
            try output.finish()
        } catch let error as FFmpegError {
            throw ExportError.writeFailed(plan.outputURL, reason: error.description)
        }
        progress(1)
    }
}
