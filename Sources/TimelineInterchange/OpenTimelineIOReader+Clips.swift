import AudioMix
import Composition
import Foundation
import SpliceDocument
import VideoComposition

/// Clips (their media, source range and time effects), other effects and markers.
extension OpenTimelineIOReader {
    // MARK: - Clips

    /// The segment of a clip (nil for a disabled clip, which shows nothing) and its length in the track; nil after
    /// a problem.
    mutating func readClip(_ node: JSONNode, at path: DocumentPath, cursor: MediaTime) -> (DocumentSegment?, MediaTime)? {
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
        var segment = DocumentSegment(source: source, at: cursor, metadata: otherMetadata(of: node, at: path))
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
    mutating func rest(ofUnreadClip node: JSONNode, at path: DocumentPath) -> (DocumentSegment?, MediaTime)? {
        _ = optionalTimeRange(node["source_range"], at: path.appending("source_range"))
        readMarkers(of: node, at: path) { $0 }
        return effectsChecked(ofUnreadClip: node, at: path)
    }

    /// Checks the effects of a clip that cannot be read; always nil.
    mutating func effectsChecked(ofUnreadClip node: JSONNode, at path: DocumentPath) -> (DocumentSegment?, MediaTime)? {
        _ = timeScalar(of: node, at: path)
        return nil
    }

    /// What a clip's time effects do to the media read.
    enum TimeScalar {
        case normal
        case freeze
        /// Media read per second of timeline: `numerator / denominator` (negative: backwards).
        case scaled(Int64, Int64)
    }

    /// The clip's speed from its effects (at most one time effect); other effects are refused by name.
    mutating func timeScalar(of node: JSONNode, at path: DocumentPath) -> TimeScalar? {
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

    /// Refuses the effects of a Track, Stack or Gap by name. A time effect there is refused even when unsupported
    /// effects may be dropped: leaving it out would change every later time.
    mutating func refuseEffects(of node: JSONNode, at path: DocumentPath) {
        let owner = node["OTIO_SCHEMA"]?.string?.split(separator: ".").first.map(String.init) ?? "item"
        for (index, effect) in (node["effects"]?.elements ?? []).enumerated() {
            let effectPath = path.appending("effects").appending(index)
            guard let kind = schema(of: effect, at: effectPath) else { continue }
            if kind == "LinearTimeWarp" || kind == "FreezeFrame" {
                fail(effectPath, "a \(kind) on a \(owner) is not read: Splice retimes clips, so put it on each of its clips")
            } else {
                refuse(effect: effect, kind: kind, at: effectPath)
            }
        }
    }

    /// Refuses an effect Splice cannot render, by name — or records it as dropped when the options allow.
    mutating func refuse(effect: JSONNode, kind: String, at path: DocumentPath) {
        let name = effect["effect_name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? kind
        if options.dropsUnsupportedEffects {
            droppedEffects.append(problem(path, "effect '\(name)' dropped"))
        } else {
            fail(path, "effect '\(name)' is not one Splice renders here (LinearTimeWarp and FreezeFrame on clips are); "
                 + "drop unsupported effects explicitly to render without it")
        }
    }

    /// Reads the markers of `node`, placing each in composition time with `place` (from the item's own time).
    mutating func readMarkers(of node: JSONNode, at path: DocumentPath, place: (MediaTime) -> MediaTime) {
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
}
