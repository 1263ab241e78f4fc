import AudioMix
import Composition
import Foundation
import SpliceDocument
import VideoComposition

/// Tracks, nested Stacks and transitions: the items of a Track laid out in time, on two lanes where a transition
/// overlaps two clips.
extension OpenTimelineIOReader {
    // MARK: - Tracks

    /// Reads every Track of the Stack `stack` (called `name` in problems) and returns the longest one's duration;
    /// anything but a Track directly in the Stack is a problem.
    mutating func readTracks(ofStack stack: JSONNode, at path: DocumentPath, named name: String) -> MediaTime {
        var duration = MediaTime.zero
        for (index, child) in (stack["children"]?.elements ?? []).enumerated() {
            let childPath = path.appending("children").appending(index)
            guard let kind = schema(of: child, at: childPath) else { continue }
            guard kind == "Track" else {
                fail(childPath, "\(name) holds Tracks; a \(kind) directly in it is not read (put it in a Track)")
                continue
            }
            duration = Swift.max(duration, readTrack(child, at: childPath))
        }
        return duration
    }

    @discardableResult
    mutating func readTrack(_ node: JSONNode, at path: DocumentPath) -> MediaTime {
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
        let others = otherMetadata(of: node, at: path)
        let isEnabled: Bool? = node["enabled"].flatMap(Self.bool) == false ? false : nil
        let firstEntry = mediaType == .video ? videoTracks.count : audioTracks.count
        // Video entries are reversed into the composition (top-most first): the second lane is above the first
        // unless Splice wrote that it is below.
        let laneOrder = mediaType == .video && kept?.secondLaneBelow == true && !lanes[1].isEmpty ? [1, 0] : [0, 1]
        func entryIndex(_ lane: Int) -> Int { firstEntry + (laneOrder.firstIndex(of: lane) ?? lane) }
        for transition in laneTransitions {
            pendingTransitions.append((mediaType, entryIndex(transition.from), entryIndex(transition.to),
                                       transition.range, transition.style, transition.path))
        }
        for laneIndex in laneOrder where laneIndex == 0 || !lanes[laneIndex].isEmpty {
            let laneSegments = lanes[laneIndex]
            let track = DocumentTrack(trackID: (laneIndex == 0 ? kept?.trackID : kept?.laneTrackID) ?? 0, mediaType: mediaType,
                                      segments: laneSegments.map(\.segment),
                                      preferredVolume: kept?.preferredVolume, isEnabled: isEnabled,
                                      metadata: laneIndex == 0 ? others : nil)
            let entry = (track, path, laneSegments.map(\.origin))
            if mediaType == .video { videoTracks.append(entry) } else { audioTracks.append(entry) }
        }
        return cursor
    }

    /// A Stack inside a track: its tracks become a composition document of their own (``nestedDocuments``), which
    /// the track shows as a nested composition — pre-composed by the export, as documents named as sources are.
    /// Returns the segment (nil for a disabled stack) and its length in the track; nil after a problem.
    mutating func readNestedStack(_ node: JSONNode, at path: DocumentPath, cursor: MediaTime) -> (DocumentSegment?, MediaTime)? {
        refuseEffects(of: node, at: path)
        // The nested tracks are read as a timeline of their own, with this reader's state set aside.
        let saved = (videoTracks, audioTracks, pendingTransitions, segmentOrigins, markers.count)
        // What Splice kept of the nested composition is on the Stack, not the timeline.
        let timelineKept = spliceTimeline
        spliceTimeline = spliceMetadata(SpliceTimelineMetadata.self, of: node, at: path)
        defer { spliceTimeline = timelineKept }
        (videoTracks, audioTracks, pendingTransitions) = ([], [], [])
        nestingDepth += 1
        defer { nestingDepth -= 1 }
        readMarkers(of: node, at: path) { $0 }
        let duration = readTracks(ofStack: node, at: path, named: "a Stack")
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
    func isPlain(_ segment: DocumentSegment) -> Bool {
        segment.toDuration == nil && segment.reverse != true && segment.freezeFrame == nil && segment.speedRamp == nil
    }

    /// A Transition's offsets and style; nil (with a problem) for one Splice cannot draw.
    mutating func readTransition(
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
}
