import AudioMix
import Composition
import Foundation
import SpliceDocument
import VideoComposition

/// Schema names and versions, exact times and ranges, and the `metadata.splice` Splice wrote.
extension OpenTimelineIOReader {
    // MARK: - Schemas and times

    /// The schema name of an OpenTimelineIO object (`"Clip"` for `"Clip.2"`), checked against the versions this
    /// reader understands; nil (with a problem) for anything else.
    mutating func schema(of node: JSONNode, at path: DocumentPath) -> String? {
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
    mutating func rationalTime(_ node: JSONNode, at path: DocumentPath) -> MediaTime? {
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
    mutating func optionalTimeRange(_ node: JSONNode?, at path: DocumentPath) -> TimeRange? {
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
    mutating func spliceMetadata<Value: Decodable>(_ type: Value.Type, of node: JSONNode, at path: DocumentPath) -> Value? {
        guard let kept = node["metadata"]?[OpenTimelineIO.metadataKey], kept.members != nil else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(kept.compactText.utf8))
        } catch {
            fail(path.appending("metadata").appending(OpenTimelineIO.metadataKey), "Splice's metadata does not read: \(error)")
            return nil
        }
    }

    /// The `metadata` of `node` other than Splice's own (other tools' keys), as written; nil when there is none (and,
    /// with a problem, when it is not an object).
    mutating func otherMetadata(of node: JSONNode, at path: DocumentPath) -> DocumentMetadata? {
        guard let metadata = node["metadata"], metadata.value != .null else { return nil }
        guard let members = metadata.members else {
            fail(path.appending("metadata"), "an item's metadata is an object, not \(metadata.kindDescription)")
            return nil
        }
        let others = members.filter { $0.key != OpenTimelineIO.metadataKey }
        guard !others.isEmpty else { return nil }
        do {
            return try JSONDecoder().decode(DocumentMetadata.self, from: Data(JSONNode(.object(others)).compactText.utf8))
        } catch {
            fail(path.appending("metadata"), "the metadata does not read: \(error)")
            return nil
        }
    }

    static func bool(_ node: JSONNode) -> Bool? {
        if case .bool(let value) = node.value { return value }
        return nil
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
    /// The composition track of the Track's second lane (the incoming clips of its transitions).
    var laneTrackID: Int32?
    /// True when the second lane of a video Track is drawn below the first (by default it is above).
    var secondLaneBelow: Bool?
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
