import Foundation
import SpliceFFmpeg
import Composition
internal import CMedia

/// Writes an export's subtitle tracks: each track's cues placed on the export's timeline, encoded by libavcodec's
/// text encoder for the container (``SubtitleCodec``) and muxed beside the picture and sound.
///
/// **Placing cues.** ``SourceTimePlacement``: a segment shows the cues of its source range, clipped to that range and
/// moved (and scaled) with its exact mapping; pieces of one cue that meet again are joined; segments with a time
/// effect show none; times in milliseconds (the time base every text subtitle format keeps).
///
/// Opened before the file header (it adds the streams); ``write(through:)`` is called as the picture and sound
/// advance so the muxer interleaves cues with them. Owns its encoders (through the ``EncodingMuxer``) and one
/// ``Packet``. Confined to the export's thread.
final class SubtitleWriter {
    /// One output cue, in milliseconds on the export's timeline.
    struct PlacedCue: Equatable {
        var start: Int64
        var end: Int64
        var dialogue: String
    }

    private struct Output {
        var stream: Int
        var encoder: Encoder
        var cues: [PlacedCue]
        var next = 0
    }

    private static let timeBase = AVRational(num: 1, den: 1000)
    private let muxer: EncodingMuxer
    private var outputs: [Output] = []
    private let packet: Packet

    /// One track's cues placed on the export's timeline, with the text header its encoder starts from.
    struct PlacedTrack {
        var plan: SubtitleTrackPlan
        var header: String
        var cues: [PlacedCue]
    }

    /// Reads the cues of every source of each plan and places them (``SourceTimePlacement``); a track that shows no
    /// cue is left out.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` for a source whose cues cannot be read;
    ///   `CancellationError`.
    static func place(_ plans: [SubtitleTrackPlan], cancellation: CancellationFlag) throws -> [PlacedTrack] {
        var cache: [String: SubtitleCues] = [:]
        func cues(of source: AssetTrack) throws -> SubtitleCues {
            let key = "\(source.assetURL.path)#\(source.streamIndex)@\(source.startTimeOffset)"
            if let cached = cache[key] { return cached }
            let read = try SubtitleCueReader.read(
                url: source.assetURL, streamIndex: source.streamIndex, startTimeOffset: source.startTimeOffset,
                cancellation: cancellation)
            cache[key] = read
            return read
        }
        return try plans.compactMap { plan in
            var header: String?
            let ordered = try SourceTimePlacement.place(plan.track.segments) { source in
                guard source.mediaType == .subtitle else { return [] }
                let read = try cues(of: source)
                if header == nil { header = read.header }
                return read.cues.map { ($0.timeRange, $0.dialogue) }
            }.map { PlacedCue(start: $0.start, end: $0.end, dialogue: $0.item) }
            guard let header, !ordered.isEmpty else { return nil }
            return PlacedTrack(plan: plan, header: header, cues: ordered)
        }
    }

    /// Reads the cues of every source, places them, and adds one stream per plan to `muxer` (before its header).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` for a source whose cues cannot be read;
    ///   ``ExportError/encoderUnavailable(_:)`` when the linked FFmpeg lacks the text encoder;
    ///   ``ExportError/unsupportedSettings(_:)`` when it refuses the track; `CancellationError`.
    convenience init(plans: [SubtitleTrackPlan], muxer: EncodingMuxer, cancellation: CancellationFlag) throws {
        try self.init(placed: Self.place(plans, cancellation: cancellation), muxer: muxer)
    }

    /// Adds one stream per placed track to `muxer` (before its header), to write its cues (even none).
    /// - Throws: ``ExportError/encoderUnavailable(_:)``, ``ExportError/unsupportedSettings(_:)``.
    init(placed tracks: [PlacedTrack], muxer: EncodingMuxer) throws {
        self.muxer = muxer
        packet = try Packet()
        for placed in tracks {
            let plan = placed.plan
            let encoder: Encoder
            do {
                encoder = try Encoder(subtitleEncoderNamed: plan.codec.encoderName, timeBase: Self.timeBase, header: placed.header)
            } catch {
                throw ExportError.encoderUnavailable(plan.codec.encoderName)
            }
            let stream: Int
            do {
                stream = try muxer.addStream(encoder)
            } catch {
                throw ExportError.unsupportedSettings(
                    "the \(plan.codec.encoderName) encoder refused subtitle track \(plan.trackID): \(error)")
            }
            var tags: [(String, String)] = []
            if let language = plan.languageCode { tags.append(("language", language)) }
            if let title = plan.title { tags.append(("title", title)) }
            muxer.output.setMetadata(tags, ofStream: stream)
            muxer.output.setDisposition(isDefault: plan.isDefault, isForced: plan.isForced, ofStream: stream)
            outputs.append(Output(stream: stream, encoder: encoder, cues: placed.cues))
        }
    }

    /// The placed cues of each written track, in output order (for tests and reports).
    var placedCues: [[PlacedCue]] { outputs.map(\.cues) }

    /// Writes every cue that starts at or before `time` (export time); `.positiveInfinity` writes the rest.
    /// - Throws: ``EncodingMuxer/Failure``: `.encoding` when the encoder refuses a cue, `.writing` when the muxer
    ///   fails.
    func write(through time: MediaTime) throws {
        let limit = time.isNumeric ? SourceTimePlacement.milliseconds(time) : Int64.max
        for index in outputs.indices {
            while outputs[index].next < outputs[index].cues.count, outputs[index].cues[outputs[index].next].start <= limit {
                let cue = outputs[index].cues[outputs[index].next]
                outputs[index].next += 1
                let order = outputs[index].next - 1
                do {
                    try outputs[index].encoder.encodeSubtitle(dialogue: "\(order),\(cue.dialogue)", into: packet)
                } catch let error as FFmpegError {
                    throw EncodingMuxer.Failure.encoding(error)
                }
                packet.setTiming(presentation: cue.start, decoding: cue.start, duration: cue.end - cue.start)
                packet.pointer.pointee.stream_index = Int32(outputs[index].stream)
                packet.rescaleTimestamps(from: Self.timeBase, to: muxer.output.timeBase(ofStream: outputs[index].stream))
                do {
                    try muxer.output.write(packet)
                } catch let error as FFmpegError {
                    throw EncodingMuxer.Failure.writing(error)
                }
            }
        }
    }

    /// ``write(through:)`` with its failures as the export's errors.
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` when the encoder refuses a cue; the write errors of
    ///   ``ExportError/writing(_:to:cancelled:)`` naming `url`.
    func write(through time: MediaTime, into url: URL, cancellation: CancellationFlag) throws {
        do {
            try write(through: time)
        } catch EncodingMuxer.Failure.encoding(let error) {
            throw ExportError.renderingFailed(stage: "encoding subtitles", reason: "\(error)")
        } catch EncodingMuxer.Failure.writing(let error) {
            throw ExportError.writing(error, to: url, cancelled: cancellation.isCancelled)
        }
    }

    /// Writes the placed cues of `plan` alone into a subtitle file at `path` in `plan.codec`'s own format (the `ass`
    /// muxer for ``SubtitleCodec/ass``, `srt` for SubRip, `webvtt` for WebVTT).
    /// - Returns: false (and no file) when the track shows no cue.
    /// - Throws: as ``init(plans:muxer:cancellation:)``; ``ExportError/writing(_:to:cancelled:)`` when the file
    ///   cannot be written.
    static func writeFile(_ plan: SubtitleTrackPlan, to path: String, cancellation: CancellationFlag) throws -> Bool {
        guard let placed = try place([plan], cancellation: cancellation).first else { return false }
        try writeFile(placed, to: path, cancellation: cancellation)
        return true
    }

    /// Writes `placed`'s cues (all of them, even none) into a subtitle file at `path` in its plan's codec's own
    /// format (the `ass`, `srt` or `webvtt` muxer).
    /// - Throws: as ``init(placed:muxer:)``; ``ExportError/openingOutput(_:for:)``,
    ///   ``ExportError/writing(_:to:cancelled:)`` when the file cannot be written.
    static func writeFile(_ placed: PlacedTrack, to path: String, cancellation: CancellationFlag) throws {
        let formatName: String
        switch placed.plan.codec {
        case .ass: formatName = "ass"
        case .subRip: formatName = "srt"
        case .webVTT: formatName = "webvtt"
        case .movText: formatName = "mp4"
        }
        let url = URL(fileURLWithPath: path)
        let muxer: EncodingMuxer
        do {
            muxer = try EncodingMuxer(path: path, formatName: formatName, cancellation: cancellation)
        } catch {
            throw ExportError.openingOutput(error, for: url)
        }
        let writer = try SubtitleWriter(placed: [placed], muxer: muxer)
        do {
            try muxer.writeHeader()
            try writer.write(through: .positiveInfinity)
            try muxer.finish()
        } catch {
            throw ExportError.writing(error, to: url, cancelled: cancellation.isCancelled)
        }
    }
}
