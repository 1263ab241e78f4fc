import AudioMix
import Composition
import Foundation
import SpliceDocument
import VideoComposition

/// Builds the JSON tree of an `.otio` file from a composition: a Timeline whose Stack holds one Track per composition
/// track (video tracks bottom-most first, as OpenTimelineIO orders them, then the audio tracks), a Clip per segment
/// with an ExternalReference to its file, a Gap per empty segment.
///
/// What OpenTimelineIO cannot say exactly is kept under the `splice` key of the objects' `metadata`, and read back
/// from there: a clip's exact source range (a LinearTimeWarp's `time_scalar` is a double), its source track when it
/// is not the file's first of its kind, a speed ramp; a track's ID, volume; the video composition, audio mix and
/// export settings of the timeline.
struct OpenTimelineIOWriter {
    /// The folder the file is saved in: media paths are written relative to it when near.
    let folder: URL
    /// The rate times are written at when they are whole frames of it (the video composition's frame rate).
    let rate: OpenTimelineIORate
    /// The document the composition was compiled from, when there is one: its tracks' and segments' `metadata`
    /// (other tools' keys) are written on the Tracks and Clips, and its segments' files keep absolute names absolute.
    var documentTracks: [DocumentTrack] = []
    /// The nested compositions the document's segments name (documents named as sources, a timeline's nested
    /// Stacks), by their files' standardized paths: such a segment is written as a nested Stack of their tracks.
    var nested: [String: LoadedDocument] = [:]
    /// Whether media named by an absolute path keep it (false inside a nested Stack's document, whose paths the
    /// reader made absolute).
    var keepsAbsolutePaths = true
    /// The folder the document's relative sources are relative to.
    var documentFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    /// The documents the reader wrote for a timeline's nested Stacks (their paths): their media paths were made
    /// absolute by the reader, not by their author.
    var readerMadeAbsolute: Set<String> = []

    // MARK: - Objects

    /// The Timeline of `composition`.
    func timeline(
        name: String, composition: MutableComposition, videoComposition: MutableVideoComposition?, audioMix: MutableAudioMix?,
        export: DocumentExport?, globalStartTime: MediaTime?, markers: [OpenTimelineIO.Marker], metadata kept: String?
    ) throws -> JSONNode {
        let tracks = try self.tracks(of: composition, videoComposition: videoComposition, audioMix: audioMix)
        var splice = try compositionMetadata(videoComposition: videoComposition, audioMix: audioMix, naturalSize: .zero)
        if var export {
            // The chapters are the timeline's markers.
            export.chapters = nil
            if export != DocumentExport() { splice.append(member("export", try Self.encoded(export))) }
        }
        if composition.naturalSize != .zero { splice.append(member("naturalSize", try Self.encoded(composition.naturalSize))) }
        var timelineMetadata = metadata(splice)
        if let kept, let node = try? JSONParser.parse(Array(kept.utf8)), let members = node.members {
            timelineMetadata = JSONNode(.object(members.filter { $0.key != OpenTimelineIO.metadataKey } + (timelineMetadata.members ?? [])))
        }
        return object("Timeline.1", [
            member("metadata", timelineMetadata),
            member("name", .string(name)),
            member("global_start_time", globalStartTime.map(rationalTime) ?? JSONNode(.null)),
            member("tracks", object("Stack.1", [
                member("metadata", metadata([])), member("name", .string("tracks")), member("source_range", JSONNode(.null)),
                member("effects", .array([])), member("markers", .array(markers.map(marker))), member("enabled", .bool(true)),
                member("color", JSONNode(.null)), member("children", .array(tracks)),
            ])),
        ])
    }

    /// The Tracks of `composition`: video bottom-most first, then audio.
    private func tracks(
        of composition: MutableComposition, videoComposition: MutableVideoComposition?, audioMix: MutableAudioMix?
    ) throws -> [JSONNode] {
        var tracks: [JSONNode] = []
        // Bottom-most first; a track and the one above it that a transition joins are one Track, its first clip on
        // either of them.
        let video = composition.tracks(withMediaType: .video)
        let videoTransitions = Self.transitions(in: videoComposition)
        var index = video.count - 1
        while index >= 0 {
            let (lower, upper) = (video[index], index > 0 ? video[index - 1] : nil)
            if let upper, let items = laneItems(lane0: lower, lane1: upper, transitions: videoTransitions) {
                tracks.append(try track(lower, kind: "Video", items: items, laneTrackID: upper.trackID))
                index -= 2
            } else if let upper, let items = laneItems(lane0: upper, lane1: lower, transitions: videoTransitions) {
                tracks.append(try track(upper, kind: "Video", items: items, laneTrackID: lower.trackID, secondLaneBelow: true))
                index -= 2
            } else {
                tracks.append(try track(video[index], kind: "Video"))
                index -= 1
            }
        }
        let audio = composition.tracks(withMediaType: .audio)
        let crossfades = Self.transitions(in: audioMix)
        index = 0
        while index < audio.count {
            if index + 1 < audio.count, let items = laneItems(lane0: audio[index], lane1: audio[index + 1], transitions: crossfades) {
                tracks.append(try track(audio[index], kind: "Audio", items: items, laneTrackID: audio[index + 1].trackID))
                index += 2
            } else {
                tracks.append(try track(audio[index], kind: "Audio"))
                index += 1
            }
        }
        return tracks
    }

    /// The Track of `track`: its segments, or `items` when it is written with a second lane (`laneTrackID`, drawn
    /// below `track` when `secondLaneBelow`).
    private func track(
        _ track: CompositionTrack, kind: String, items: [LaneItem]? = nil, laneTrackID: Int32? = nil, secondLaneBelow: Bool = false
    ) throws -> JSONNode {
        let documentTrack = documentTracks.first { $0.trackID == track.trackID }
        var children: [JSONNode] = []
        if let items {
            for item in items {
                switch item {
                case .clip(let segment, let written): children.append(try clip(segment, as: written))
                case .gap(let duration): children.append(gap(duration))
                case .transition(let transition, let inOffset, let outOffset):
                    children.append(self.transition(transition, inOffset: inOffset, outOffset: outOffset))
                }
            }
        } else {
            var filled = filledSegments(of: track)[...]
            for segment in track.segments {
                if segment.isEmpty {
                    children.append(gap(segment.timeMapping.target.duration))
                } else {
                    children.append(try clip(segment, as: filled.popFirst()?.written))
                }
            }
        }
        var splice = [member("trackID", .number("\(track.trackID)"))]
        if let laneTrackID { splice.append(member("laneTrackID", .number("\(laneTrackID)"))) }
        if secondLaneBelow { splice.append(member("secondLaneBelow", .bool(true))) }
        if track.preferredVolume != 1 { splice.append(member("preferredVolume", .number(Self.number(track.preferredVolume)))) }
        return object("Track.1", [
            member("metadata", try metadata(splice, others: documentTrack?.metadata)),
            member("name", .string("\(kind == "Video" ? "V" : "A")\(track.trackID)")),
            member("source_range", JSONNode(.null)), member("effects", .array([])), member("markers", .array([])),
            member("enabled", .bool(track.isEnabled)), member("color", JSONNode(.null)),
            member("children", .array(children)), member("kind", .string(kind)),
        ])
    }

    /// A Transition: `SMPTE_Dissolve` for the cross-dissolve (and any sound transition), otherwise a
    /// `Custom_Transition` named after the style, which is also kept as `metadata.splice.style`.
    private func transition(_ transition: LaneTransition, inOffset: MediaTime, outOffset: MediaTime) -> JSONNode {
        let dissolve = transition.style == .crossDissolve
        return object("Transition.1", [
            member("metadata", metadata(dissolve ? [] : [member("style", .string(transition.style.rawValue))])),
            member("name", .string(dissolve ? "" : transition.style.rawValue)),
            member("transition_type", .string(dissolve ? "SMPTE_Dissolve" : "Custom_Transition")),
            member("in_offset", rationalTime(inOffset)), member("out_offset", rationalTime(outOffset)),
        ])
    }

    private func gap(_ duration: MediaTime) -> JSONNode {
        object("Gap.1", [
            member("metadata", metadata([])), member("name", .string("")),
            member("source_range", timeRange(TimeRange(start: .zero, duration: duration))),
            member("effects", .array([])), member("markers", .array([])), member("enabled", .bool(true)), member("color", JSONNode(.null)),
        ])
    }

    /// The Clip of `segment`; `written`, the document segment it was compiled from, gives its metadata and whether
    /// its file was named by an absolute path (written absolute) or a relative one (written relative when near).
    private func clip(_ segment: CompositionTrackSegment, as written: DocumentSegment?) throws -> JSONNode {
        guard let source = segment.sourceTrack else { return gap(segment.timeMapping.target.duration) }
        if let written, let stack = try stack(segment, as: written) { return stack }
        let read = segment.timeMapping.source
        let length = segment.timeMapping.target.duration
        var splice: [JSONNode.Member] = [member("sourceRange", try Self.encoded(read))]
        splice.append(member("sourceTrackID", .number("\(source.trackID)")))
        var effects: [JSONNode] = []
        var start = read.start
        switch segment.timeEffect {
        case .freezeFrame(let sound)?:
            effects.append(effect("FreezeFrame.1", name: "FreezeFrame", scalar: "0.0"))
            if sound != .silence { splice.append(member("freezeSound", try Self.encoded(sound))) }
        case .reverse?:
            start = read.end
            effects.append(effect("LinearTimeWarp.1", name: "LinearTimeWarp", scalar: "-" + Self.ratio(read.duration, length)))
        case .speedRamp(let ramp)?:
            splice.append(member("speedRamp", try Self.encoded(ramp)))
            effects.append(effect("LinearTimeWarp.1", name: "LinearTimeWarp", scalar: Self.ratio(read.duration, length)))
        case nil:
            if read.duration != length {
                effects.append(effect("LinearTimeWarp.1", name: "LinearTimeWarp", scalar: Self.ratio(read.duration, length)))
            }
        }
        let reference = object("ExternalReference.1", [
            member("metadata", metadata([])), member("name", .string("")),
            member("available_range", timeRange(source.timeRange)), member("available_image_bounds", JSONNode(.null)),
            member("target_url", .string(targetURL(of: source.assetURL, written: written?.source))),
        ])
        return object("Clip.2", [
            member("metadata", try metadata(splice, others: written?.metadata)),
            member("name", .string(source.assetURL.lastPathComponent)),
            member("source_range", timeRange(TimeRange(start: start, duration: length))),
            member("effects", .array(effects)), member("markers", .array([])), member("enabled", .bool(true)),
            member("color", JSONNode(.null)),
            member("media_references", JSONNode(.object([member("DEFAULT_MEDIA", reference)]))),
            member("active_media_reference_key", .string("DEFAULT_MEDIA")),
        ])
    }

    /// A media file's `target_url`: as the document wrote it when that was absolute (a path or a URL), else relative
    /// to ``folder`` when near (its absolute path otherwise).
    private func targetURL(of file: URL, written: String?) -> String {
        if keepsAbsolutePaths, let written, written.hasPrefix("/") || written.contains("://") { return written }
        return DocumentSources.relativePath(of: file, from: folder)
    }

    /// The nested Stack of a segment whose source is a nested composition in ``nested`` (at normal speed; its
    /// `source_range` the part of the nested composition shown), or nil for any other segment.
    private func stack(_ segment: CompositionTrackSegment, as written: DocumentSegment) throws -> JSONNode? {
        let file = DocumentSources.url(for: written.source, folder: documentFolder).standardizedFileURL.path
        guard let inner = nested[file], segment.timeEffect == nil,
              segment.timeMapping.source.duration == segment.timeMapping.target.duration else { return nil }
        var writer = OpenTimelineIOWriter(folder: folder, rate: rate, documentTracks: inner.document.composition.tracks)
        writer.nested = nested
        writer.documentFolder = inner.url.deletingLastPathComponent()
        writer.readerMadeAbsolute = readerMadeAbsolute
        writer.keepsAbsolutePaths = !readerMadeAbsolute.contains(file)
        let children = try writer.tracks(of: inner.composition, videoComposition: inner.videoComposition, audioMix: inner.audioMix)
        return object("Stack.1", [
            member("metadata", try metadata(try compositionMetadata(
                videoComposition: inner.videoComposition, audioMix: inner.audioMix, naturalSize: inner.composition.naturalSize),
                others: written.metadata)),
            member("name", .string(inner.url.deletingPathExtension().lastPathComponent)),
            member("source_range", timeRange(segment.timeMapping.source)),
            member("effects", .array([])), member("markers", .array([])), member("enabled", .bool(true)),
            member("color", JSONNode(.null)), member("children", .array(children)),
        ])
    }

    /// Splice's metadata of a composition (on the Timeline, or a nested Stack): its video composition, audio mix
    /// and natural size, when it has them.
    private func compositionMetadata(
        videoComposition: MutableVideoComposition?, audioMix: MutableAudioMix?, naturalSize: Size
    ) throws -> [JSONNode.Member] {
        var splice: [JSONNode.Member] = []
        if let videoComposition { splice.append(member("videoComposition", try Self.encoded(videoComposition))) }
        if let audioMix { splice.append(member("audioMix", try Self.encoded(audioMix))) }
        if naturalSize != .zero { splice.append(member("naturalSize", try Self.encoded(naturalSize))) }
        return splice
    }

    /// A marker on the timeline's Stack, whose time is composition time.
    private func marker(_ marker: OpenTimelineIO.Marker) -> JSONNode {
        object("Marker.2", [
            member("metadata", metadata([])), member("name", .string(marker.name)),
            member("color", marker.color.map { .string($0) } ?? .null), member("marked_range", timeRange(marker.timeRange)),
            member("comment", .string(marker.comment ?? "")),
        ])
    }

    private func effect(_ schema: String, name: String, scalar: String) -> JSONNode {
        object(schema, [
            member("metadata", metadata([])), member("name", .string("")), member("effect_name", .string(name)),
            member("enabled", .bool(true)), member("time_scalar", .number(scalar)),
        ])
    }

    // MARK: - Times

    /// A `RationalTime`: whole frames at ``rate`` when the time is one, else its own timescale as the rate (exact
    /// either way).
    func rationalTime(_ time: MediaTime) -> JSONNode {
        let (value, rate): (String, String)
        if let frames = self.rate.wholeFrames(in: time) {
            (value, rate) = ("\(frames).0", self.rate.literal)
        } else {
            (value, rate) = ("\(time.value).0", "\(time.timescale).0")
        }
        return object("RationalTime.1", [member("rate", .number(rate)), member("value", .number(value))])
    }

    func timeRange(_ range: TimeRange) -> JSONNode {
        object("TimeRange.1", [member("duration", rationalTime(range.duration)), member("start_time", rationalTime(range.start))])
    }

    /// `numerator / denominator` as the shortest decimal text of the nearest double (OpenTimelineIO's `time_scalar`).
    static func ratio(_ numerator: MediaTime, _ denominator: MediaTime) -> String {
        number(numerator.seconds / denominator.seconds)
    }

    /// A double as JSON number text: `2.0`, `0.5`.
    static func number(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    // MARK: - JSON

    private func object(_ schema: String, _ members: [JSONNode.Member]) -> JSONNode {
        JSONNode(.object([member("OTIO_SCHEMA", .string(schema))] + members))
    }

    private func member(_ key: String, _ value: JSONNode.Value) -> JSONNode.Member {
        JSONNode.Member(key: key, value: JSONNode(value))
    }

    private func member(_ key: String, _ value: JSONNode) -> JSONNode.Member {
        JSONNode.Member(key: key, value: value)
    }

    private func metadata(_ splice: [JSONNode.Member]) -> JSONNode {
        JSONNode(.object(splice.isEmpty ? [] : [member(OpenTimelineIO.metadataKey, JSONNode(.object(splice)))]))
    }

    /// An item's `metadata`: other tools' keys as the document kept them (sorted by key), then Splice's own.
    private func metadata(_ splice: [JSONNode.Member], others: DocumentMetadata?) throws -> JSONNode {
        let kept = try others.map { try Self.encoded($0).members ?? [] } ?? []
        let sorted = kept.filter { $0.key != OpenTimelineIO.metadataKey }.sorted { $0.key < $1.key }
        return JSONNode(.object(sorted + (metadata(splice).members ?? [])))
    }

    /// A model's own `Codable` JSON as a tree.
    static func encoded(_ value: some Encodable) throws -> JSONNode {
        try JSONParser.parse(Array(JSONText.compact(value).utf8))
    }
}
