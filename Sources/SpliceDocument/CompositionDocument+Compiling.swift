import AudioMix
import Composition
import Foundation
import VideoComposition

extension CompositionDocument {
    /// Every file the document's composition reads, as written, each with the first place it is named.
    public var sourceReferences: [(source: String, path: DocumentPath)] {
        var references: [(String, DocumentPath)] = []
        for (trackIndex, track) in composition.tracks.enumerated() {
            for (segmentIndex, segment) in track.segments.enumerated() {
                references.append((segment.source, DocumentPath("composition.tracks").appending(trackIndex)
                    .appending("segments").appending(segmentIndex).appending("source")))
            }
        }
        return references
    }

    /// The models this document stands for, with every segment's source track filled in from `assets`, checked.
    ///
    /// The composition is built with AVFoundation's editing calls, track by track and segment by segment:
    /// `addMutableTrack(withMediaType:preferredTrackID:)`, then per segment `insertTimeRange(_:of:at:)` and, for a
    /// segment with `toDuration`, `scaleTimeRange(_:toDuration:)`. The video composition and audio mix are then
    /// validated against it (`validate(for:)`, every problem), and the export settings checked.
    ///
    /// - Parameters:
    ///   - assets: the description of every source in ``sourceReferences``, by the source text as written.
    ///   - url: the document (named in errors and kept in the result); relative paths were resolved against its folder.
    ///   - form: the form the document was written in (``LoadedDocument/Form/short`` marks problem paths as being
    ///     in the expanded form).
    /// - Returns: the loaded document.
    /// - Throws: ``DocumentError`` with every problem at its document path: an unknown source track, segments out of
    ///   order, a source range beyond the source track (``Composition/CompositionError`` in words), each
    ///   ``Composition/ValidationIssue`` of the video composition and audio mix
    ///   (`videoComposition.instructions[2].timeRange: …`), both a preset and settings in `export`.
    public func compiled(assets: [String: Asset], url: URL, form: LoadedDocument.Form = .full) throws(DocumentError) -> LoadedDocument {
        var problems = ProblemList()
        problems.marksExpandedForm = form == .short
        if version != Self.currentVersion {
            problems.add("version", "this splice reads version \(Self.currentVersion) documents, not \(version)")
        }
        let built = composition.compile(assets: assets, problems: &problems)
        if let videoComposition {
            for issue in videoComposition.validate(for: built) {
                problems.add(issue.videoCompositionPath(in: videoComposition), issue.message)
            }
        }
        if let audioMix {
            for issue in audioMix.validate(for: built) {
                problems.add(issue.audioMixPath(in: audioMix), issue.message)
            }
        }
        let export = self.export ?? DocumentExport()
        if export.preset != nil, export.settings != nil {
            problems.add("export.settings", "give either \"preset\" or \"settings\", not both")
        }
        if let package = export.package {
            // The export object is written the same in both forms: its problems are at their place in the file.
            let marks = problems.marksExpandedForm
            problems.marksExpandedForm = false
            for (path, message) in package.problems(at: "export.package", folder: url.deletingLastPathComponent()) {
                problems.add(path, message)
            }
            for member in export.fileExportMembers where member.isSet {
                problems.add(DocumentPath("export").appending(member.name),
                             "\"\(member.name)\" shapes one exported file; a package (\"package\") has its own ladder and does not read it")
            }
            problems.marksExpandedForm = marks
        }
        guard problems.isEmpty else { throw DocumentError(url: url, problems: problems.problems) }
        return LoadedDocument(
            url: url, form: form, document: self, composition: built, videoComposition: videoComposition,
            audioMix: audioMix, export: export, assets: assets)
    }
}

extension DocumentComposition {
    /// Builds the composition with AVFoundation's editing calls; problems go to `problems` at their document paths.
    func compile(assets: [String: Asset], problems: inout ProblemList) -> MutableComposition {
        var composition = MutableComposition(naturalSize: naturalSize ?? .zero)
        for (trackIndex, track) in tracks.enumerated() {
            let trackPath = DocumentPath("composition.tracks").appending(trackIndex)
            // A document names every track by its ID (layer instructions and mix parameters refer to it), so 0 is not
            // "pick one" here as it is for addMutableTrack.
            guard track.trackID != MutableComposition.invalidTrackID else {
                problems.add(trackPath.appending("trackID"), "\(CompositionError.invalidTrackID(track.trackID))")
                continue
            }
            do {
                try composition.addMutableTrack(withMediaType: track.mediaType, preferredTrackID: track.trackID)
            } catch let error as CompositionError {
                if case .unsupportedMediaType = error {
                    problems.add(trackPath.appending("mediaType"), "\(error)")
                } else {
                    problems.add(trackPath.appending("trackID"), "\(error)")
                }
                continue
            } catch {
                problems.add(trackPath, "\(error)")
                continue
            }
            if let volume = track.preferredVolume, !(volume.isFinite && volume >= 0) {
                problems.add(trackPath.appending("preferredVolume"), "\(volume) is not a gain ≥ 0 (1 = unchanged)")
            }
            var end = MediaTime.zero
            for (segmentIndex, segment) in track.segments.enumerated() {
                let path = trackPath.appending("segments").appending(segmentIndex)
                guard let asset = assets[segment.source] else { continue }  // the loader reported it
                guard let source = sourceTrack(of: segment, in: asset, for: track, at: path, problems: &problems) else { continue }
                let isStill = source.video?.isStillImage ?? false
                if segment.freezeFrame != nil || segment.freezeSound != nil || segment.speedRamp != nil {
                    let at = segment.at ?? end
                    if let length = insertHeldOrRamped(segment, of: source, at: at, after: end, trackID: track.trackID,
                                                       into: &composition, path: path, problems: &problems) {
                        end = at + length
                    }
                    continue
                }
                let range: TimeRange
                if let given = segment.timeRange {
                    range = given
                } else if isStill {
                    problems.add(path.appending("timeRange"), "'\(segment.source)' is a still image: give the time range to show it for")
                    continue
                } else {
                    range = source.timeRange
                }
                let at = segment.at ?? end
                if at.isNumeric, at < end {
                    problems.add(path.appending("at"),
                                 "starts at \(at.secondsText), before the previous segment of this track ends at \(end.secondsText) (segments are in time order and do not overlap)")
                    continue
                }
                do {
                    try composition.updateTrack(withTrackID: track.trackID) { compositionTrack in
                        if segment.reverse == true {
                            try compositionTrack.insertReversedTimeRange(range, of: source, at: at)
                        } else {
                            try compositionTrack.insertTimeRange(range, of: source, at: at)
                        }
                    }
                } catch let error as CompositionError {
                    problems.add(path.appending(error.segmentField), "\(error)")
                    continue
                } catch {
                    problems.add(path, "\(error)")
                    continue
                }
                var length = range.duration
                if let toDuration = segment.toDuration, toDuration != range.duration {
                    do {
                        try composition.updateTrack(withTrackID: track.trackID) { compositionTrack in
                            try compositionTrack.scaleTimeRange(TimeRange(start: at, duration: range.duration), toDuration: toDuration)
                        }
                        length = toDuration
                    } catch {
                        problems.add(path.appending("toDuration"), "\(error)")
                        continue
                    }
                }
                end = at + length
            }
            try? composition.updateTrack(withTrackID: track.trackID) { compositionTrack in
                if let volume = track.preferredVolume { compositionTrack.preferredVolume = volume }
                if let enabled = track.isEnabled { compositionTrack.isEnabled = enabled }
                if let language = track.languageCode { compositionTrack.languageCode = language }
            }
        }
        return composition
    }

    /// The track of `asset` that `segment` names, checked against the composition track's media type.
    private func sourceTrack(
        of segment: DocumentSegment, in asset: Asset, for track: DocumentTrack, at path: DocumentPath, problems: inout ProblemList
    ) -> AssetTrack? {
        let listing = asset.tracks.map { "\($0.trackID) (\($0.mediaType.rawValue))" }.joined(separator: ", ")
        switch segment.track {
        case .trackID(let trackID)?:
            guard let source = asset.track(withTrackID: trackID) else {
                problems.add(path.appending("track"), "'\(segment.source)' has no track \(trackID); it has tracks \(listing)")
                return nil
            }
            guard source.mediaType == track.mediaType else {
                problems.add(path.appending("track"),
                             "track \(trackID) of '\(segment.source)' is \(source.mediaType.rawValue), but composition track \(track.trackID) is \(track.mediaType.rawValue)")
                return nil
            }
            return source
        case .first(let mediaType)?:
            guard mediaType == track.mediaType else {
                problems.add(path.appending("track"),
                             "a \(mediaType.rawValue) track cannot go into composition track \(track.trackID), which is \(track.mediaType.rawValue)")
                return nil
            }
            fallthrough
        case nil:
            // A timed metadata track whose groups can be read before QuickTime's unreadable `mebx` ones.
            let candidates = asset.tracks(withMediaType: track.mediaType)
            let readable = track.mediaType == .metadata ? candidates.first(where: \.isDecodable) : nil
            guard let source = readable ?? candidates.first else {
                problems.add(path.appending("source"), "'\(segment.source)' has no \(track.mediaType.rawValue) track; it has tracks \(listing)")
                return nil
            }
            return source
        }
    }
}

extension CompositionError {
    /// The field of a document segment an insert error is about.
    var segmentField: String {
        switch self {
        case .invalidTime(_, let parameter, _), .negativeTime(_, let parameter, _), .nonPositiveDuration(_, let parameter, _):
            return parameter == "startTime" ? "at" : "timeRange"
        case .mediaTypeMismatch, .unreadableTimedMetadata: return "track"
        default: return "timeRange"
        }
    }
}
