import AudioMix
import Composition
import Foundation
import SpliceDocument
import VideoComposition

/// Walks the JSON tree of an `.otio` file and builds the full-form composition document it stands for, collecting
/// every problem at its place in the file (a JSON path such as `tracks.children[0].children[2].source_range`, with
/// the line and column).
///
/// The mapping (docs/interchange.md has the table): the timeline's top-level Stack holds the tracks, bottom-most
/// first; each Track becomes a composition track (the video tracks in reverse order, since a composition's first
/// video track is drawn on top); a Clip becomes a segment placed where the track's items before it end; a Gap moves
/// that place on; a LinearTimeWarp changes the speed, a FreezeFrame holds a picture.
struct OpenTimelineIOReader {
    /// The file read (named in errors).
    let url: URL
    /// How strict to be.
    let options: OpenTimelineIO.ReadingOptions

    /// Problems that stop the timeline from being read, in file order.
    private(set) var problems: [DocumentProblem] = []
    /// Effects left out because ``OpenTimelineIO/ReadingOptions/dropsUnsupportedEffects`` allowed it.
    private(set) var droppedEffects: [DocumentProblem] = []
    /// Every media file named, with the path of its `target_url`.
    private(set) var references: [(source: String, path: DocumentPath)] = []
    /// The clip each document segment came from: `composition.tracks[i].segments[j]` → the clip's path.
    private(set) var segmentOrigins: [DocumentPath: DocumentPath] = [:]
    /// The timeline's `global_start_time`, when it has one.
    private(set) var globalStartTime: MediaTime?
    /// The timeline's name.
    private(set) var name: String?
    /// The timeline's `metadata` other than Splice's, as compact JSON text.
    private(set) var metadata: String?

    private var root = JSONNode(.null)
    /// The transitions read, their tracks named by their entries in ``videoTracks`` / ``audioTracks``.
    private var pendingTransitions: [(mediaType: MediaType, from: Int, to: Int, range: TimeRange, style: VideoTransitionStyle, path: DocumentPath)] = []
    /// The transitions, with the composition track IDs (set by ``read(_:)``).
    private(set) var transitions: [OpenTimelineIO.Transition] = []
    /// Where the documents of nested Stacks are to be written (by ``OpenTimelineIO/load(from:options:assetLoader:)``).
    let nestedFolder: URL
    /// The documents of nested Stacks, each with the file its segment names.
    private(set) var nestedDocuments: [(file: URL, document: CompositionDocument)] = []
    /// How many Stacks deep the reader is.
    private var nestingDepth = 0
    /// The markers read, in composition time.
    private(set) var markers: [OpenTimelineIO.Marker] = []
    private var spliceTimeline: SpliceTimelineMetadata?
    private var videoTracks: [(track: DocumentTrack, path: DocumentPath, origins: [DocumentPath])] = []
    private var audioTracks: [(track: DocumentTrack, path: DocumentPath, origins: [DocumentPath])] = []

    /// A reader of the file at `url`.
    init(url: URL, options: OpenTimelineIO.ReadingOptions, nestedFolder: URL) {
        self.url = url
        self.options = options
        self.nestedFolder = nestedFolder
    }

    /// The schemas this reader understands, by name, with the versions it reads.
    static let schemaVersions: [String: ClosedRange<Int>] = [
        "Timeline": 1...1, "Stack": 1...1, "Track": 1...1, "Clip": 1...2, "Gap": 1...1, "Transition": 1...1,
        "ExternalReference": 1...1, "MissingReference": 1...1, "ImageSequenceReference": 1...1,
        "GeneratorReference": 1...1, "LinearTimeWarp": 1...1, "FreezeFrame": 1...1, "Effect": 1...1,
        "Marker": 1...2, "RationalTime": 1...1, "TimeRange": 1...1, "SerializableCollection": 1...1,
    ]

    // MARK: - Timeline

    /// Reads the timeline in `tree`; nil when ``problems`` is not empty.
    mutating func read(_ tree: JSONNode) -> CompositionDocument? {
        root = tree
        let path = DocumentPath()
        guard let rootKind = schema(of: tree, at: path) else { return nil }
        guard rootKind == "Timeline" else {
            let found = rootKind == "SerializableCollection" ? "a SerializableCollection (a bin of several timelines)" : "a \(rootKind)"
            fail(path, "the file holds \(found), not a Timeline: Splice reads one timeline per file")
            return nil
        }
        name = tree["name"]?.string
        // The timeline's own metadata, other than Splice's, kept as written (other tools' keys: a studio's IDs, …).
        if let members = tree["metadata"]?.members?.filter({ $0.key != OpenTimelineIO.metadataKey }), !members.isEmpty {
            metadata = JSONNode(.object(members)).compactText
        }
        spliceTimeline = spliceMetadata(SpliceTimelineMetadata.self, of: tree, at: path)
        if let start = tree["global_start_time"], start.value != .null {
            globalStartTime = rationalTime(start, at: path.appending("global_start_time"))
        }
        let stackPath = path.appending("tracks")
        guard let stack = tree["tracks"], schema(of: stack, at: stackPath) == "Stack" else {
            if tree["tracks"] == nil { fail(stackPath, "a Timeline needs its tracks (a Stack)") }
            else if problems.isEmpty { fail(stackPath, "a Timeline's tracks are a Stack") }
            return nil
        }
        var export: DocumentExport?
        if let range = optionalTimeRange(stack["source_range"], at: stackPath.appending("source_range")) {
            export = DocumentExport(timeRange: range)
        }
        refuseEffects(of: stack, at: stackPath)
        readMarkers(of: stack, at: stackPath) { $0 }
        var duration = MediaTime.zero
        for (index, child) in (stack["children"]?.elements ?? []).enumerated() {
            let childPath = stackPath.appending("children").appending(index)
            guard let kind = schema(of: child, at: childPath) else { continue }
            guard kind == "Track" else {
                fail(childPath, "the timeline's Stack holds Tracks; a \(kind) directly in it is not read (put it in a Track)")
                continue
            }
            duration = Swift.max(duration, readTrack(child, at: childPath))
        }
        guard problems.isEmpty else { return nil }
        var document = makeDocument(export: spliceTimeline?.export ?? export)
        if !markers.isEmpty {
            // The markers are the chapters of what the timeline exports.
            var withChapters = document.export ?? DocumentExport()
            let frame = document.videoComposition?.frameDuration ?? MediaTime(value: 1, timescale: 30)
            withChapters.chapters = OpenTimelineIO.chapters(for: markers, end: duration, frame: frame)
            document.export = withChapters
        }
        return document
    }

    /// The document of the tracks read: video tracks top-most first (OpenTimelineIO lists them bottom-most first),
    /// then the audio tracks in file order; track IDs 1, 2, … in that order.
    private mutating func makeDocument(export: DocumentExport?) -> CompositionDocument {
        var tracks: [DocumentTrack] = []
        let entries = videoTracks.reversed() + audioTracks
        // Entry → position in `entries`, for the transitions' tracks.
        func position(_ mediaType: MediaType, _ entry: Int) -> Int {
            mediaType == .video ? videoTracks.count - 1 - entry : videoTracks.count + entry
        }
        // IDs kept in the file's metadata when every track has one and they are distinct; else 1, 2, … in order.
        let kept = entries.map(\.track.trackID)
        let keepsIDs = !kept.contains(0) && Set(kept).count == kept.count
        for entry in entries {
            var track = entry.track
            let index = tracks.count
            if !keepsIDs { track.trackID = Int32(index + 1) }
            for (segmentIndex, origin) in entry.origins.enumerated() {
                segmentOrigins[DocumentPath("composition.tracks").appending(index).appending("segments").appending(segmentIndex)] = origin
            }
            segmentOrigins[DocumentPath("composition.tracks").appending(index)] = entry.path
            tracks.append(track)
        }
        transitions = pendingTransitions.map { pending in
            OpenTimelineIO.Transition(
                mediaType: pending.mediaType, fromTrackID: tracks[position(pending.mediaType, pending.from)].trackID,
                toTrackID: tracks[position(pending.mediaType, pending.to)].trackID, timeRange: pending.range,
                style: pending.style, path: pending.path)
        }
        return CompositionDocument(
            composition: DocumentComposition(naturalSize: spliceTimeline?.naturalSize, tracks: tracks),
            videoComposition: spliceTimeline?.videoComposition, audioMix: spliceTimeline?.audioMix, export: export)
    }

    // MARK: - Tracks

    @discardableResult
    private mutating func readTrack(_ node: JSONNode, at path: DocumentPath) -> MediaTime {
        let mediaType: MediaType
        switch node["kind"]?.string {
        case "Video": mediaType = .video
        case "Audio": mediaType = .audio
        case let other:
            fail(path.appending("kind"), "a Track's kind is \"Video\" or \"Audio\", not \(other.map { "\"\($0)\"" } ?? node["kind"]?.kindDescription ?? "missing")")
            // Its items are still read as a video track's, for their own problems; the track is not kept.
            let kept = (videoTracks.count, pendingTransitions.count)
            var checked = node
            checked["kind"] = JSONNode(.string("Video"))
            let length = readTrack(checked, at: path)
            videoTracks.removeLast(videoTracks.count - kept.0)
            pendingTransitions.removeLast(pendingTransitions.count - kept.1)
            return length
        }
        refuseEffects(of: node, at: path)
        readMarkers(of: node, at: path) { $0 }
        // A transition overlaps the clips on both sides of a cut, so the incoming clip goes on a second lane (A/B
        // roll): each transition switches lanes.
        var lanes: [[(segment: DocumentSegment, origin: DocumentPath)]] = [[], []]
        var lane = 0
        var cursor = MediaTime.zero
        /// The clip just read (its lane and index) when the item before the current one was a clip.
        var previous: (lane: Int, index: Int)?
        /// A transition waiting for its incoming clip.
        var pending: (style: VideoTransitionStyle, inOffset: MediaTime, outOffset: MediaTime, path: DocumentPath, fromLane: Int)?
        var laneTransitions: [(from: Int, to: Int, range: TimeRange, style: VideoTransitionStyle, path: DocumentPath)] = []
        for (index, child) in (node["children"]?.elements ?? []).enumerated() {
            let childPath = path.appending("children").appending(index)
            guard let kind = schema(of: child, at: childPath) else { continue }
            switch kind {
            case "Clip":
                guard let (read, length) = readClip(child, at: childPath, cursor: cursor) else {
                    previous = nil
                    pending = nil
                    continue
                }
                if var segment = read {
                    if let transition = pending {
                        // The incoming clip starts in_offset before the cut, on the other lane, with as much more media.
                        guard isPlain(segment), let range = segment.timeRange, range.start >= transition.inOffset,
                              length >= transition.outOffset else {
                            fail(transition.path, "the clip after this transition needs in_offset (\(transition.inOffset.secondsText)) of media before its start, at normal speed, and must last at least out_offset")
                            pending = nil
                            continue
                        }
                        segment.timeRange = TimeRange(start: range.start - transition.inOffset, duration: range.duration + transition.inOffset)
                        segment.at = cursor - transition.inOffset
                        lane = 1 - transition.fromLane
                        laneTransitions.append((
                            transition.fromLane, lane,
                            TimeRange(start: cursor - transition.inOffset, duration: transition.inOffset + transition.outOffset),
                            transition.style, transition.path))
                        pending = nil
                    }
                    lanes[lane].append((segment, childPath))
                    previous = (lane, lanes[lane].count - 1)
                } else {
                    previous = nil
                    if let transition = pending {
                        fail(transition.path, "a transition joins two enabled clips")
                        pending = nil
                    }
                }
                cursor = cursor + length
            case "Gap":
                refuseEffects(of: child, at: childPath)
                if let transition = pending {
                    fail(transition.path, "a transition joins two clips; this one is followed by a Gap")
                    pending = nil
                }
                previous = nil
                guard let range = optionalTimeRange(child["source_range"], at: childPath.appending("source_range")) else {
                    if child["source_range"]?.value ?? .null == .null {
                        fail(childPath.appending("source_range"), "a Gap needs its source_range: its length")
                    }
                    continue
                }
                readMarkers(of: child, at: childPath) { [cursor] in cursor + ($0 - range.start) }
                cursor = cursor + range.duration
            case "Transition":
                guard let transition = readTransition(child, at: childPath, mediaType: mediaType) else {
                    previous = nil
                    continue
                }
                guard let outgoing = previous, pending == nil else {
                    fail(childPath, "a transition joins two clips; this one does not follow a clip")
                    continue
                }
                var segment = lanes[outgoing.lane][outgoing.index].segment
                guard isPlain(segment), let range = segment.timeRange else {
                    fail(childPath, "a transition next to a time effect (speed, reverse, freeze) is not read")
                    continue
                }
                // The outgoing clip plays on for out_offset past the cut.
                segment.timeRange = TimeRange(start: range.start, duration: range.duration + transition.outOffset)
                lanes[outgoing.lane][outgoing.index].segment = segment
                pending = (transition.style, transition.inOffset, transition.outOffset, childPath, outgoing.lane)
                previous = nil
            case "Stack":
                if let transition = pending {
                    fail(transition.path, "a transition into a nested Stack is not read")
                    pending = nil
                }
                previous = nil
                guard let (segment, length) = readNestedStack(child, at: childPath, cursor: cursor) else { continue }
                if let segment { lanes[lane].append((segment, childPath)) }
                cursor = cursor + length
            case "Track":
                fail(childPath, "a Track directly inside a Track is not read: put it in a Stack")
                previous = nil
            default:
                fail(childPath, "a Track holds Clips, Gaps, Transitions and Stacks, not a \(kind)")
            }
        }
        if let transition = pending { fail(transition.path, "a transition joins two clips; this one ends the track") }
        // A source_range on a track trims it. One as long as the track's items is read as the whole track: the CMX
        // 3600 adapter writes one starting at minus the record start time (-01:00:00:00), a label, not a trim.
        if let range = optionalTimeRange(node["source_range"], at: path.appending("source_range")), range.duration != cursor {
            fail(path.appending("source_range"),
                 "a trimmed Track (source_range \(range.start.secondsText) + \(range.duration.secondsText) of its \(cursor.secondsText)) is not read: trim its items instead")
        }
        let kept = spliceMetadata(SpliceTrackMetadata.self, of: node, at: path)
        let isEnabled: Bool? = node["enabled"].flatMap(Self.bool) == false ? false : nil
        let firstEntry = mediaType == .video ? videoTracks.count : audioTracks.count
        for transition in laneTransitions {
            pendingTransitions.append((mediaType, firstEntry + transition.from, firstEntry + transition.to,
                                       transition.range, transition.style, transition.path))
        }
        for (laneIndex, laneSegments) in lanes.enumerated() where laneIndex == 0 || !laneSegments.isEmpty {
            let track = DocumentTrack(trackID: laneIndex == 0 ? kept?.trackID ?? 0 : 0, mediaType: mediaType,
                                      segments: laneSegments.map(\.segment),
                                      preferredVolume: kept?.preferredVolume, isEnabled: isEnabled)
            let entry = (track, path, laneSegments.map(\.origin))
            if mediaType == .video { videoTracks.append(entry) } else { audioTracks.append(entry) }
        }
        return cursor
    }

    /// A Stack inside a track: its tracks become a composition document of their own (``nestedDocuments``), which
    /// the track shows as a nested composition — pre-composed by the export, as documents named as sources are.
    /// Returns the segment (nil for a disabled stack) and its length in the track; nil after a problem.
    private mutating func readNestedStack(_ node: JSONNode, at path: DocumentPath, cursor: MediaTime) -> (DocumentSegment?, MediaTime)? {
        refuseEffects(of: node, at: path)
        // The nested tracks are read as a timeline of their own, with this reader's state set aside.
        let saved = (videoTracks, audioTracks, pendingTransitions, segmentOrigins, markers.count)
        (videoTracks, audioTracks, pendingTransitions) = ([], [], [])
        nestingDepth += 1
        defer { nestingDepth -= 1 }
        var duration = MediaTime.zero
        readMarkers(of: node, at: path) { $0 }
        for (index, child) in (node["children"]?.elements ?? []).enumerated() {
            let childPath = path.appending("children").appending(index)
            guard let kind = schema(of: child, at: childPath) else { continue }
            guard kind == "Track" else {
                fail(childPath, "a Stack holds Tracks; a \(kind) directly in it is not read (put it in a Track)")
                continue
            }
            duration = Swift.max(duration, readTrack(child, at: childPath))
        }
        if !pendingTransitions.isEmpty {
            fail(path, "transitions inside a nested Stack are not read (only in the timeline's own tracks)")
        }
        let nested = makeDocument(export: nil)
        let nestedMarkers = markers.count - saved.4
        (videoTracks, audioTracks, pendingTransitions, segmentOrigins) = (saved.0, saved.1, saved.2, saved.3)
        let trimmed = optionalTimeRange(node["source_range"], at: path.appending("source_range"))
            ?? TimeRange(start: .zero, duration: duration)
        // The nested markers were placed in the nested composition's time: move them to this one's.
        for index in markers.indices.suffix(nestedMarkers) {
            markers[index].timeRange = TimeRange(start: markers[index].timeRange.start - trimmed.start + cursor,
                                                 duration: markers[index].timeRange.duration)
        }
        guard trimmed.duration > .zero else {
            fail(path, "the nested Stack lasts 0 s")
            return nil
        }
        if node["enabled"].flatMap(Self.bool) == false { return (nil, trimmed.duration) }
        let file = nestedFolder.appendingPathComponent("stack-\(nestedDocuments.count + 1).json")
        nestedDocuments.append((file, nested))
        references.append((file.path, path))
        return (DocumentSegment(source: file.path, timeRange: trimmed, at: cursor), trimmed.duration)
    }

    /// True for a segment that plays its range forwards at normal speed (a transition can extend it).
    private func isPlain(_ segment: DocumentSegment) -> Bool {
        segment.toDuration == nil && segment.reverse != true && segment.freezeFrame == nil && segment.speedRamp == nil
    }

    /// A Transition's offsets and style; nil (with a problem) for one Splice cannot draw.
    private mutating func readTransition(
        _ node: JSONNode, at path: DocumentPath, mediaType: MediaType
    ) -> (style: VideoTransitionStyle, inOffset: MediaTime, outOffset: MediaTime)? {
        let type = node["transition_type"]?.string ?? ""
        let name = node["name"]?.string ?? ""
        let style: VideoTransitionStyle
        switch type {
        case "SMPTE_Dissolve":
            style = .crossDissolve
        case "Custom_Transition" where mediaType == .video:
            guard let named = VideoTransitionStyle.allCases.first(where: {
                $0.rawValue.lowercased() == name.lowercased() || "\($0)".lowercased() == name.lowercased()
            }) else {
                fail(path, "custom transition '\(name)' has no equivalent in Splice's transitions (\(VideoTransitionStyle.allCases.map { "\($0)" }.joined(separator: ", ")))")
                return nil
            }
            style = named
        default:
            fail(path.appending("transition_type"), "transition '\(type.isEmpty ? name : type)' is not one Splice renders\(mediaType == .audio ? " on sound (SMPTE_Dissolve is: a crossfade)" : " (SMPTE_Dissolve, or a Custom_Transition named after one of Splice's transitions)")")
            return nil
        }
        guard let inNode = node["in_offset"], let outNode = node["out_offset"] else {
            fail(path, "a Transition needs in_offset and out_offset")
            return nil
        }
        guard let inOffset = rationalTime(inNode, at: path.appending("in_offset")),
              let outOffset = rationalTime(outNode, at: path.appending("out_offset")) else { return nil }
        guard inOffset >= .zero, outOffset >= .zero, inOffset + outOffset > .zero else {
            fail(path, "a transition lasts in_offset + out_offset > 0, with neither negative")
            return nil
        }
        return (style, inOffset, outOffset)
    }

    // MARK: - Clips

    /// The segment of a clip (nil for a disabled clip, which shows nothing) and its length in the track; nil after
    /// a problem.
    private mutating func readClip(_ node: JSONNode, at path: DocumentPath, cursor: MediaTime) -> (DocumentSegment?, MediaTime)? {
        let clipName = node["name"]?.string.map { "'\($0)'" } ?? "the clip"
        // The media: Clip.2 keeps several references by key and names the active one; Clip.1 has one.
        let referencePath: DocumentPath
        if node["media_references"] != nil {
            let key = node["active_media_reference_key"]?.string ?? "DEFAULT_MEDIA"
            referencePath = path.appending("media_references").appending(key)
        } else {
            referencePath = path.appending("media_reference")
        }
        let reference = root.node(at: referencePath.components)
        var available: TimeRange?
        var target: String?
        if let reference, reference.value != .null, let kind = schema(of: reference, at: referencePath) {
            available = optionalTimeRange(reference["available_range"], at: referencePath.appending("available_range"))
            switch kind {
            case "ExternalReference":
                guard let url = reference["target_url"]?.string, !url.isEmpty else {
                    fail(referencePath.appending("target_url"), "\(clipName) has an ExternalReference without a target_url")
                    return rest(ofUnreadClip: node, at: path)
                }
                target = url
            case "MissingReference":
                fail(referencePath, "\(clipName) has no media (MissingReference): link it to its file")
                return rest(ofUnreadClip: node, at: path)
            case "ImageSequenceReference":
                fail(referencePath, "\(clipName) is an image sequence (ImageSequenceReference), which Splice does not read: render it to a movie first")
                return rest(ofUnreadClip: node, at: path)
            case "GeneratorReference":
                let generator = reference["generator_kind"]?.string.map { " '\($0)'" } ?? ""
                fail(referencePath, "\(clipName) is generated media (GeneratorReference\(generator)), which Splice does not make")
                return rest(ofUnreadClip: node, at: path)
            default:
                fail(referencePath, "a clip's media is an ExternalReference, not a \(kind)")
                return rest(ofUnreadClip: node, at: path)
            }
        } else if reference == nil || reference?.value == .null {
            fail(referencePath, "\(clipName) has no media reference")
            return rest(ofUnreadClip: node, at: path)
        } else {
            return rest(ofUnreadClip: node, at: path)
        }
        let before = problems.count
        let sourceRange = optionalTimeRange(node["source_range"], at: path.appending("source_range"))
        guard problems.count == before || sourceRange != nil || available != nil else {
            return effectsChecked(ofUnreadClip: node, at: path)
        }
        guard let trimmed = sourceRange ?? available else {
            fail(path.appending("source_range"),
                 "\(clipName) has no source_range and its media no available_range: its length is unknown")
            return effectsChecked(ofUnreadClip: node, at: path)
        }
        let length = trimmed.duration
        guard length.isNumeric, length > .zero else {
            fail(path.appending("source_range").appending("duration"), "\(clipName) lasts \(length.secondsText): a clip lasts more than 0 s")
            return effectsChecked(ofUnreadClip: node, at: path)
        }
        if let enabled = node["enabled"].flatMap(Self.bool), !enabled { return (nil, length) }
        guard let target else { return nil }
        // Source time counts from the file's first sample; OpenTimelineIO's from the media's own start (often a
        // timecode such as 01:00:00:00), given by available_range.start_time.
        let origin = available?.start ?? .zero
        let start = trimmed.start - origin
        guard start >= .zero else {
            fail(path.appending("source_range").appending("start_time"),
                 "\(clipName) starts at \(trimmed.start.secondsText), before its media's available_range starts (\(origin.secondsText))")
            return effectsChecked(ofUnreadClip: node, at: path)
        }
        references.append((target, referencePath.appending("target_url")))
        // A nested Stack's document is saved elsewhere: its sources are named by absolute path.
        let source = nestingDepth == 0 ? target : DocumentSources.url(for: target, folder: url.deletingLastPathComponent()).path
        var segment = DocumentSegment(source: source, at: cursor)
        guard let scalar = timeScalar(of: node, at: path) else { return nil }
        let kept = spliceMetadata(SpliceClipMetadata.self, of: node, at: path)
        // A clip's markers are in its media's time: placed where that time plays (a held picture: at the clip's start).
        readMarkers(of: node, at: path) { time in
            switch scalar {
            case .normal: return cursor + (time - trimmed.start)
            case .freeze: return cursor
            case .scaled(let numerator, let denominator):
                return cursor + (time - trimmed.start).multiplied(byRatio: denominator, over: numerator)
            }
        }
        switch scalar {
        case .normal:
            segment.timeRange = TimeRange(start: start, duration: length)
        case .freeze:
            segment.freezeFrame = start
            segment.toDuration = length
        case .scaled(let numerator, let denominator):
            if let range = kept?.sourceRange {
                // Splice wrote the exact range: the double time_scalar only approximates it.
                segment.timeRange = range
                segment.reverse = numerator < 0 ? true : nil
                segment.toDuration = length
                break
            }
            let read = Int64(exactly: numerator.magnitude).map { length.multiplied(byRatio: $0, over: denominator) } ?? .invalid
            guard read.isNumeric, !read.hasBeenRounded else {
                fail(path.appending("effects"), "\(clipName): \(length.secondsText) at this speed is not an exact time")
                return nil
            }
            if numerator > 0 {
                segment.timeRange = TimeRange(start: start, duration: read)
            } else {
                // Backwards from the clip's start: the media before it, played in reverse.
                guard start >= read else {
                    fail(path.appending("effects"), "\(clipName) plays backwards from \(start.secondsText) for \(read.secondsText) of media, before the media starts")
                    return nil
                }
                segment.timeRange = TimeRange(start: start - read, duration: read)
                segment.reverse = true
            }
            segment.toDuration = length
        }
        if let kept {
            // What Splice wrote exactly, where OpenTimelineIO's fields are approximate (a double time_scalar).
            segment.track = kept.sourceTrackID.map { .trackID($0) }
            if let held = segment.freezeFrame {
                segment.freezeFrame = kept.sourceRange?.start ?? held
                segment.freezeSound = kept.freezeSound
            } else if let ramp = kept.speedRamp {
                segment.speedRamp = ramp
                segment.timeRange = kept.sourceRange
                segment.toDuration = nil
                segment.reverse = nil
            } else if let range = kept.sourceRange {
                segment.timeRange = range
            }
        }
        return (segment, length)
    }

    /// Checks the rest of a clip whose media cannot be read (its source range, effects and markers), so that every
    /// problem of the file is listed at once; always nil.
    private mutating func rest(ofUnreadClip node: JSONNode, at path: DocumentPath) -> (DocumentSegment?, MediaTime)? {
        _ = optionalTimeRange(node["source_range"], at: path.appending("source_range"))
        readMarkers(of: node, at: path) { $0 }
        return effectsChecked(ofUnreadClip: node, at: path)
    }

    /// Checks the effects of a clip that cannot be read; always nil.
    private mutating func effectsChecked(ofUnreadClip node: JSONNode, at path: DocumentPath) -> (DocumentSegment?, MediaTime)? {
        _ = timeScalar(of: node, at: path)
        return nil
    }

    /// What a clip's time effects do to the media read.
    private enum TimeScalar {
        case normal
        case freeze
        /// Media read per second of timeline: `numerator / denominator` (negative: backwards).
        case scaled(Int64, Int64)
    }

    /// The clip's speed from its effects (at most one time effect); other effects are refused by name.
    private mutating func timeScalar(of node: JSONNode, at path: DocumentPath) -> TimeScalar? {
        var result = TimeScalar.normal
        var timeEffects = 0
        for (index, effect) in (node["effects"]?.elements ?? []).enumerated() {
            let effectPath = path.appending("effects").appending(index)
            guard let kind = schema(of: effect, at: effectPath) else { return nil }
            if effect["enabled"].flatMap(Self.bool) == false { continue }
            switch kind {
            case "FreezeFrame":
                timeEffects += 1
                result = .freeze
            case "LinearTimeWarp":
                timeEffects += 1
                guard case .number(let literal)? = effect["time_scalar"]?.value,
                      let (numerator, denominator) = TimeSyntax.fraction(decimal: literal) else {
                    fail(effectPath.appending("time_scalar"), "a LinearTimeWarp needs its time_scalar (a number)")
                    return nil
                }
                result = numerator == 0 ? .freeze : numerator == denominator ? .normal : .scaled(numerator, denominator)
            default:
                refuse(effect: effect, kind: kind, at: effectPath)
            }
        }
        if timeEffects > 1 {
            fail(path.appending("effects"), "a clip with more than one time effect (LinearTimeWarp, FreezeFrame) is not read: combine them into one")
            return nil
        }
        return result
    }

    // MARK: - Effects and markers

    private mutating func refuseEffects(of node: JSONNode, at path: DocumentPath) {
        for (index, effect) in (node["effects"]?.elements ?? []).enumerated() {
            let effectPath = path.appending("effects").appending(index)
            guard let kind = schema(of: effect, at: effectPath) else { continue }
            refuse(effect: effect, kind: kind, at: effectPath)
        }
    }

    /// Refuses an effect Splice cannot render, by name — or records it as dropped when the options allow.
    private mutating func refuse(effect: JSONNode, kind: String, at path: DocumentPath) {
        let name = effect["effect_name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? kind
        if options.dropsUnsupportedEffects {
            droppedEffects.append(problem(path, "effect '\(name)' dropped"))
        } else {
            fail(path, "effect '\(name)' is not one Splice renders here (LinearTimeWarp and FreezeFrame on clips are); "
                 + "drop unsupported effects explicitly to render without it")
        }
    }

    /// Reads the markers of `node`, placing each in composition time with `place` (from the item's own time).
    private mutating func readMarkers(of node: JSONNode, at path: DocumentPath, place: (MediaTime) -> MediaTime) {
        for (index, marker) in (node["markers"]?.elements ?? []).enumerated() {
            let markerPath = path.appending("markers").appending(index)
            guard let kind = schema(of: marker, at: markerPath) else { continue }
            guard kind == "Marker" else {
                fail(markerPath, "an item's markers are Markers, not a \(kind)")
                continue
            }
            guard let range = optionalTimeRange(marker["marked_range"], at: markerPath.appending("marked_range")) else {
                if marker["marked_range"]?.value ?? .null == .null { fail(markerPath, "a Marker needs its marked_range") }
                continue
            }
            markers.append(OpenTimelineIO.Marker(
                name: marker["name"]?.string ?? "", timeRange: TimeRange(start: place(range.start), end: place(range.end)),
                color: marker["color"]?.string, comment: marker["comment"]?.string.flatMap { $0.isEmpty ? nil : $0 },
                path: markerPath))
        }
    }

    // MARK: - Schemas and times

    /// The schema name of an OpenTimelineIO object (`"Clip"` for `"Clip.2"`), checked against the versions this
    /// reader understands; nil (with a problem) for anything else.
    private mutating func schema(of node: JSONNode, at path: DocumentPath) -> String? {
        guard node.members != nil else {
            fail(path, "expected an OpenTimelineIO object, found \(node.kindDescription)")
            return nil
        }
        guard let text = node["OTIO_SCHEMA"]?.string else {
            fail(path, "an OpenTimelineIO object needs its \"OTIO_SCHEMA\" (e.g. \"Clip.2\")")
            return nil
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let version = Int(parts[1]) else {
            fail(path.appending("OTIO_SCHEMA"), "'\(text)' is not a schema name and version (e.g. \"Clip.2\")")
            return nil
        }
        let name = String(parts[0])
        guard let versions = Self.schemaVersions[name] else {
            fail(path.appending("OTIO_SCHEMA"), "unknown schema '\(text)': Splice reads \(Self.schemaVersions.keys.sorted().joined(separator: ", "))")
            return nil
        }
        guard versions.contains(version) else {
            let known = versions.map { "\(name).\($0)" }.joined(separator: ", ")
            fail(path.appending("OTIO_SCHEMA"), "schema version '\(text)' is not one Splice reads (it reads \(known))")
            return nil
        }
        return name
    }

    /// A `RationalTime` as an exact time (see ``OpenTimelineIORate``); nil (with a problem) when it is not one.
    private mutating func rationalTime(_ node: JSONNode, at path: DocumentPath) -> MediaTime? {
        guard let kind = schema(of: node, at: path) else { return nil }
        guard kind == "RationalTime" else {
            fail(path, "expected a RationalTime, found a \(kind)")
            return nil
        }
        guard case .number(let rateText)? = node["rate"]?.value else {
            fail(path.appending("rate"), "a RationalTime needs its rate (a number of frames per second)")
            return nil
        }
        guard case .number(let valueText)? = node["value"]?.value else {
            fail(path.appending("value"), "a RationalTime needs its value (a number of frames)")
            return nil
        }
        guard let rate = OpenTimelineIORate(literal: rateText) else {
            fail(path.appending("rate"), "rate \(rateText) is not a frame rate (a number > 0)")
            return nil
        }
        guard let time = rate.time(frames: valueText) else {
            fail(path.appending("value"), "\(valueText) frames at \(rate) is not a time Splice can hold exactly")
            return nil
        }
        return time
    }

    /// A `TimeRange`, or nil for a missing or null one (and, with a problem, for a malformed one).
    private mutating func optionalTimeRange(_ node: JSONNode?, at path: DocumentPath) -> TimeRange? {
        guard let node, node.value != .null else { return nil }
        guard let kind = schema(of: node, at: path) else { return nil }
        guard kind == "TimeRange" else {
            fail(path, "expected a TimeRange, found a \(kind)")
            return nil
        }
        guard let startNode = node["start_time"], let durationNode = node["duration"] else {
            fail(path, "a TimeRange needs start_time and duration")
            return nil
        }
        guard let start = rationalTime(startNode, at: path.appending("start_time")),
              let duration = rationalTime(durationNode, at: path.appending("duration")) else { return nil }
        guard duration >= .zero else {
            fail(path.appending("duration"), "a duration is not negative (\(duration.secondsText))")
            return nil
        }
        return TimeRange(start: start, duration: duration)
    }

    /// The `metadata.splice` object of `node` decoded with the models' own `Codable`; nil when there is none (and,
    /// with a problem, when it does not decode).
    private mutating func spliceMetadata<Value: Decodable>(_ type: Value.Type, of node: JSONNode, at path: DocumentPath) -> Value? {
        guard let kept = node["metadata"]?[OpenTimelineIO.metadataKey], kept.members != nil else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(kept.compactText.utf8))
        } catch {
            fail(path.appending("metadata").appending(OpenTimelineIO.metadataKey), "Splice's metadata does not read: \(error)")
            return nil
        }
    }

    private static func bool(_ node: JSONNode) -> Bool? {
        if case .bool(let value) = node.value { return value }
        return nil
    }

    // MARK: - Problems

    /// A problem at `path`, with the line and column of the closest value written there.
    func problem(_ path: DocumentPath, _ message: String) -> DocumentProblem {
        let position = root.closestPosition(to: path.components)
        return DocumentProblem(path: path, message: message, line: position?.line, column: position?.column)
    }

    private mutating func fail(_ path: DocumentPath, _ message: String) {
        problems.append(problem(path, message))
    }
}

extension MediaTime {
    /// Seconds with three decimals, for messages: `3.500 s`.
    var secondsText: String {
        guard isNumeric else { return description }
        return String(format: "%.3f s", seconds)
    }
}

/// What Splice keeps in a Timeline's `metadata.splice`.
struct SpliceTimelineMetadata: Decodable {
    var videoComposition: MutableVideoComposition?
    var audioMix: MutableAudioMix?
    var export: DocumentExport?
    var naturalSize: Size?
}

/// What Splice keeps in a Track's `metadata.splice`.
struct SpliceTrackMetadata: Decodable {
    var trackID: Int32?
    var preferredVolume: Double?
}

/// What Splice keeps in a Clip's `metadata.splice`.
struct SpliceClipMetadata: Decodable {
    /// The exact source range read (a time_scalar is only a double).
    var sourceRange: TimeRange?
    var sourceTrackID: Int32?
    var speedRamp: SpeedRamp?
    var freezeSound: FreezeFrameSound?
}
