import Foundation
import SpliceFFmpeg
import Composition
internal import CMedia

/// One timed text event of a subtitle track: when it shows, in the track's source time, and what it says.
struct SubtitleCue: Hashable, Sendable {
    /// When the cue shows: source time (seconds), exact in the stream's time base.
    var timeRange: TimeRange
    /// The event in libavcodec's ASS form without its read order: `Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`
    /// (line breaks as `\N`, styling as ASS override tags such as `{\i1}`), as every text decoder gives it.
    var dialogue: String

    /// The ASS `Text` field: what the cue says, with ASS override tags and `\N` line breaks.
    var text: String {
        var rest = Substring(dialogue)
        for _ in 0..<7 {
            guard let comma = rest.firstIndex(of: ",") else { return String(rest) }
            rest = rest[rest.index(after: comma)...]
        }
        return String(rest)
    }
}

/// The cues of one subtitle track and the ASS script header their styles refer to.
struct SubtitleCues: Sendable {
    /// The decoder's script header (`[Script Info]`, `[V4+ Styles]`, …): an ASS file's own, or libavcodec's default
    /// style for SubRip, WebVTT and mov_text.
    var header: String
    /// Every cue, in file order (overlapping cues are kept).
    var cues: [SubtitleCue]
}

/// Reads every cue of a subtitle stream, decoded by libavcodec's text decoders (SubRip, WebVTT, mov_text, ASS/SSA):
/// packets through ``SourceStream`` (other streams discarded), each decoded with
/// ``SpliceFFmpeg/Decoder/decodeSubtitle(_:)``. A cue starts at its packet's presentation time plus the event's start
/// offset and lasts the packet's duration (or the event's own end when the packet states none); times are moved
/// into source time by the track's ``Composition/AssetTrack/startTimeOffset``. Empty samples (mov_text's gaps between
/// cues) carry no event and are skipped.
enum SubtitleCueReader {
    /// Reads the cues of stream `streamIndex` of `url`.
    /// - Parameter startTimeOffset: the stream time (seconds) that is source time 0.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming the file, the track and FFmpeg's reason;
    ///   `CancellationError`.
    static func read(url: URL, streamIndex: Int, startTimeOffset: MediaTime, cancellation: CancellationFlag) throws -> SubtitleCues {
        var source = try SourceStream(url: url, index: streamIndex, cancellation: cancellation)
        let label = "subtitle track \(streamIndex + 1)"
        let decoder: Decoder
        var converted: URL?
        defer { if let converted { try? FileManager.default.removeItem(at: converted) } }
        do {
            // A sidecar's text encoding, decided as the loader decided it; UTF-16 read from a UTF-8 copy.
            let text = try SubtitleTextFile.Kind(formatName: source.input.formatName).map { try SubtitleTextFile(url: url, kind: $0) }
            if let utf8 = text?.utf8Text {
                let copy = FileManager.default.temporaryDirectory
                    .appendingPathComponent("splice-subtitles-\(UUID().uuidString).\(url.pathExtension)")
                converted = copy
                do {
                    try utf8.write(to: copy)
                } catch {
                    throw ExportError.sourceUnreadable(url, reason: "its UTF-8 copy \(copy.path) cannot be written: \(error.localizedDescription)")
                }
                source = try SourceStream(url: copy, index: streamIndex, cancellation: cancellation)
            }
            decoder = try source.makeDecoder(threads: 1, strict: false, characterEncoding: text?.decoderCharacterEncoding)
        } catch let error as ExportError {
            throw error
        } catch let error as AssetLoadingError {
            throw ExportError.sourceUnreadable(url, reason: "\(error)")
        } catch {
            throw ExportError.sourceUnreadable(url, reason: "no usable decoder for \(label): \(error)")
        }
        let timeBase = source.timeBase
        let packet = try Packet()
        var cues: [SubtitleCue] = []
        while true {
            if cancellation.isCancelled { throw CancellationError() }
            let more: Bool
            do {
                more = try source.input.readPacket(into: packet)
            } catch {
                if cancellation.isCancelled { throw CancellationError() }
                throw ExportError.sourceUnreadable(url, reason: "reading \(label) failed: \(error)")
            }
            guard more else { break }
            guard packet.streamIndex == streamIndex, let pts = packet.presentationTimestamp else { continue }
            let event: Decoder.SubtitleEvent?
            do {
                event = try decoder.decodeSubtitle(packet)
            } catch {
                throw ExportError.sourceUnreadable(
                    url, reason: "\(label) has a cue at \(pts) × \(timeBase.num)/\(timeBase.den) s that cannot be decoded: \(error)")
            }
            guard let event, let packetStart = MediaTime(pts: pts, timeBase: timeBase) else { continue }
            let start = packetStart + MediaTime(value: Int64(event.startDisplayTime), timescale: 1000) - startTimeOffset
            let end: MediaTime
            if packet.duration > 0, let duration = MediaTime(pts: packet.duration, timeBase: timeBase) {
                end = packetStart + duration - startTimeOffset
            } else if let endDisplay = event.endDisplayTime {
                end = packetStart + MediaTime(value: Int64(endDisplay), timescale: 1000) - startTimeOffset
            } else {
                continue  // an event with no end cannot be placed on a timeline
            }
            guard start.isNumeric, end.isNumeric, end > start else { continue }
            for line in event.dialogueLines {
                // Drop the read order (the first field): the writer numbers events afresh.
                let dialogue = line.firstIndex(of: ",").map { String(line[line.index(after: $0)...]) } ?? line
                cues.append(SubtitleCue(timeRange: TimeRange(start: start, end: end), dialogue: dialogue))
            }
        }
        return SubtitleCues(header: decoder.subtitleHeader ?? "", cues: cues)
    }
}
