import Composition
import Foundation
internal import CMedia

/// How a movie holds timed metadata (AVFoundation's `AVTimedMetadataGroup`s) when written through FFmpeg 5.1: a
/// 3GPP timed-text track (`tx3g`, FFmpeg's `mov_text`) in MP4 or MOV whose handler is named ``handlerName``, one
/// sample per group over exactly the group's range (milliseconds, the track's timescale 1000), the sample's text
/// one `key=value` line per item in order, with `%`, `=`, line breaks, `{`, `}` and `\` percent-encoded
/// (`%25`, `%3D`, `%0A`, `%0D`, `%7B`, `%7D`, `%5C`). The track is not marked default, so players that list it
/// among subtitles do not show it unasked.
///
/// AVFoundation writes a timed metadata track as a `meta` track with `mebx` sample entries (boxed metadata keyed
/// by `keys`); FFmpeg 5.1's `mov` muxer cannot write one (a data stream takes only GoPro's `gpmd` entry, in MOV
/// only), and its demuxer reads `mebx` samples as opaque data. The text track is what both FFmpeg's muxer and demuxer
/// carry with exact times: `ffprobe -show_packets -show_data` lists each group's start, duration and text.
package enum TimedMetadataTrack {
    /// The handler name (`hdlr`) that marks the text track as timed metadata rather than subtitles.
    package static let handlerName = "Timed Metadata"
    /// The codec tag libavformat gives a QuickTime boxed metadata track (the `mebx` sample entry AVFoundation writes
    /// timed metadata with), little-endian as `MKTAG('m','e','b','x')`. FFmpeg 5.1 reads its samples as opaque data.
    package static let boxedMetadataTag: UInt32 = "mebx".utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    /// The track's time base: milliseconds.
    static let timeBase = AVRational(num: 1, den: 1000)

    /// Characters percent-encoded in keys and values.
    private static let escaped: [Character: String] = [
        "%": "%25", "=": "%3D", "\n": "%0A", "\r": "%0D", "{": "%7B", "}": "%7D", "\\": "%5C",
    ]

    /// The text of a sample holding `items`: one `key=value` line each, escaped as the type describes.
    package static func text(of items: [MetadataItem]) -> String {
        func escape(_ text: String) -> String { text.map { escaped[$0] ?? String($0) }.joined() }
        return items.map { escape($0.key) + "=" + escape($0.value) }.joined(separator: "\n")
    }

    /// The items of a sample's text made by ``text(of:)``; nil when a line has no `=` or an escape is malformed.
    package static func items(ofText text: String) -> [MetadataItem]? {
        func unescape(_ part: Substring) -> String? { String(part).removingPercentEncoding }
        var items: [MetadataItem] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let equals = line.firstIndex(of: "="), let key = unescape(line[..<equals]),
                  let value = unescape(line[line.index(after: equals)...]) else { return nil }
            items.append(MetadataItem(key: key, value: value))
        }
        return items
    }

    /// A `mov_text` sample's payload: the text's UTF-8 length as a 16-bit big-endian number, then the text (3GPP TS
    /// 26.245 TextSample, no style boxes). Nil when the text is longer than 65 535 bytes.
    package static func sample(text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count <= Int(UInt16.max) else { return nil }
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    /// The text of a `mov_text` sample's payload; nil when it is shorter than its length says or not UTF-8.
    package static func text(ofSample bytes: [UInt8]) -> String? {
        guard bytes.count >= 2 else { return nil }
        let length = Int(bytes[0]) << 8 | Int(bytes[1])
        guard bytes.count >= 2 + length else { return nil }
        return String(validating: bytes[2..<2 + length], as: UTF8.self)
    }
}

extension OutputFile {
    /// Adds a timed metadata track (``TimedMetadataTrack``): a `mov_text` stream whose sample description is the
    /// `mov_text` encoder's default (`avcodec_parameters_from_context`), in milliseconds, its handler named
    /// ``TimedMetadataTrack/handlerName``. Call before ``writeHeader(options:)``.
    /// - Returns: the stream index.
    /// - Throws: ``FFmpegError`` (`encoderNotFound` without FFmpeg's `mov_text` encoder, ENOMEM).
    package func addTimedMetadataStream() throws -> Int {
        let encoder = try Encoder(subtitleEncoderNamed: "mov_text", timeBase: TimedMetadataTrack.timeBase,
                                  header: "[Script Info]\nScriptType: v4.00+\n\n")
        try encoder.open()
        let index = try addStream(for: encoder)
        setMetadata([("handler_name", TimedMetadataTrack.handlerName)], ofStream: index)
        return index
    }

    /// Writes `group`'s sample into the timed metadata stream `index`, `offset` shifting its range (the export's
    /// time range start or the writer's session start moved to 0): the start and end rounded to milliseconds (half
    /// away from zero), interleaved with the other streams by `av_interleaved_write_frame`. A group shorter than a
    /// millisecond once rounded writes nothing.
    /// - Returns: whether a sample was written.
    /// - Throws: ``FFmpegError`` from the muxer; `EINVAL` for a sample over 65 535 bytes.
    @discardableResult
    package func writeTimedMetadata(_ group: TimedMetadataGroup, offset: MediaTime = .zero, stream index: Int) throws -> Bool {
        let start = (group.timeRange.start - offset).convertScale(1000).value
        let end = (group.timeRange.end - offset).convertScale(1000).value
        guard end > start else { return false }
        guard let payload = TimedMetadataTrack.sample(text: TimedMetadataTrack.text(of: group.items)) else {
            throw FFmpegError.posix(EINVAL)
        }
        let packet = try Packet()
        try packet.prepend(payload)
        packet.setTiming(presentation: start, decoding: start, duration: end - start)
        packet.prepareForMuxing(stream: index, from: TimedMetadataTrack.timeBase, to: timeBase(ofStream: index))
        packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
        try write(packet)
        return true
    }
}

extension TimedMetadataTrack {
    /// Whether `stream` is a timed metadata track: a `mov_text` stream whose handler is named ``handlerName``.
    static func isTimedMetadata(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MOV_TEXT
            && MetadataDictionary.entries(stream.pointee.metadata).contains { $0.key == "handler_name" && $0.value == handlerName }
    }

    /// The groups of one timed metadata track of `input`, in file order, each over its sample's exact range
    /// (start = presentation time, duration = the sample's) moved back by `startTimeOffset`; empty samples (no text:
    /// the track's gaps) are skipped. Reads the whole file (every other stream's packets are discarded unread).
    /// - Parameters:
    ///   - streamIndex: the track's stream; nil for the file's first timed metadata track.
    ///   - startTimeOffset: the stream time, in seconds, that is source time 0 (the picture's clock, as subtitle cues
    ///     keep it); zero gives the stream's own times.
    /// - Returns: the groups; empty when the file has no timed metadata track (or `streamIndex` is not one).
    /// - Throws: ``FFmpegError`` from reading; ``MalformedSample`` for a sample that is not a timed metadata sample.
    package static func groups(in input: InputFile, streamIndex: Int? = nil, startTimeOffset: MediaTime = .zero) throws
        -> [TimedMetadataGroup] {
        let streams = 0..<input.streamCount
        guard let index = streamIndex.map({ streams.contains($0) ? $0 : -1 }) ?? streams.first(where: { isTimedMetadata(input.stream(at: $0)) }),
              index >= 0, isTimedMetadata(input.stream(at: index)) else { return [] }
        for other in streams where other != index { input.stream(at: other).pointee.discard = AVDISCARD_ALL }
        let timeBase = input.stream(at: index).pointee.time_base
        var groups: [TimedMetadataGroup] = []
        let packet = try Packet()
        while try input.readPacket(into: packet) {
            guard packet.streamIndex == index else { continue }
            guard let time = MediaTime(pts: packet.presentationTimestamp ?? 0, timeBase: timeBase),
                  let duration = MediaTime(pts: packet.duration, timeBase: timeBase) else {
                throw FFmpegError.posix(EINVAL)
            }
            do {
                if let group = try group(ofSample: packet.data, start: time - startTimeOffset, duration: duration) { groups.append(group) }
            } catch {
                throw MalformedSample(streamIndex: index, time: time)
            }
        }
        return groups
    }

    /// A sample of a timed metadata track that is not a timed metadata sample: stream `streamIndex`'s sample at `time`
    /// (the stream's own time, in seconds).
    package struct MalformedSample: Error, CustomStringConvertible {
        package var streamIndex: Int
        package var time: MediaTime
        /// Names the track (its ID, the stream index + 1), the time and what a sample must hold.
        package var description: String {
            "track \(streamIndex + 1)'s sample at \(time.secondsText) is not a timed metadata sample (a 16-bit length, "
                + "then UTF-8 key=value lines)"
        }
    }

    /// The group a timed metadata track's sample holds, over [`start`, `start + duration`): its payload decoded by
    /// ``text(ofSample:)`` and ``items(ofText:)``. Nil for an empty sample: the text track's "nothing here" (FFmpeg's
    /// muxer writes one where a sample does not start where the previous one ended, sometimes with no duration).
    /// - Throws: ``FFmpegError`` `EINVAL` for bytes that are not a timed metadata sample.
    package static func group(ofSample bytes: [UInt8], start: MediaTime, duration: MediaTime) throws -> TimedMetadataGroup? {
        guard let text = text(ofSample: bytes), let items = items(ofText: text) else { throw FFmpegError.posix(EINVAL) }
        guard !text.isEmpty else { return nil }
        return TimedMetadataGroup(timeRange: TimeRange(start: start, duration: duration), items: items)
    }
}
