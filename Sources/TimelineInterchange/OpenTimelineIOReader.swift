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
    var problems: [DocumentProblem] = []
    /// Effects left out because ``OpenTimelineIO/ReadingOptions/dropsUnsupportedEffects`` allowed it.
    var droppedEffects: [DocumentProblem] = []
    /// Every media file named, with the path of its `target_url`.
    var references: [(source: String, path: DocumentPath)] = []
    /// The clip each document segment came from: `composition.tracks[i].segments[j]` → the clip's path.
    var segmentOrigins: [DocumentPath: DocumentPath] = [:]
    /// The timeline's `global_start_time`, when it has one.
    var globalStartTime: MediaTime?
    /// The timeline's name.
    var name: String?
    /// The timeline's `metadata` other than Splice's, as compact JSON text.
    var metadata: String?

    var root = JSONNode(.null)
    /// The transitions read, their tracks named by their entries in ``videoTracks`` / ``audioTracks``.
    var pendingTransitions: [(mediaType: MediaType, from: Int, to: Int, range: TimeRange, style: VideoTransitionStyle, path: DocumentPath)] = []
    /// The transitions, with the composition track IDs (set by ``read(_:)``).
    var transitions: [OpenTimelineIO.Transition] = []
    /// Where the documents of nested Stacks are to be written (by ``OpenTimelineIO/load(from:options:assetLoader:)``).
    let nestedFolder: URL
    /// The documents of nested Stacks, each with the file its segment names.
    var nestedDocuments: [(file: URL, document: CompositionDocument)] = []
    /// How many Stacks deep the reader is.
    var nestingDepth = 0
    /// The markers read, in composition time.
    var markers: [OpenTimelineIO.Marker] = []
    var spliceTimeline: SpliceTimelineMetadata?
    var videoTracks: [(track: DocumentTrack, path: DocumentPath, origins: [DocumentPath])] = []
    var audioTracks: [(track: DocumentTrack, path: DocumentPath, origins: [DocumentPath])] = []

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
        let duration = readTracks(ofStack: stack, at: stackPath, named: "the timeline's Stack")
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
    mutating func makeDocument(export: DocumentExport?) -> CompositionDocument {
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

    // MARK: - Problems

    /// A problem at `path`, with the line and column of the closest value written there.
    func problem(_ path: DocumentPath, _ message: String) -> DocumentProblem {
        let position = root.closestPosition(to: path.components)
        return DocumentProblem(path: path, message: message, line: position?.line, column: position?.column)
    }

    mutating func fail(_ path: DocumentPath, _ message: String) {
        problems.append(problem(path, message))
    }
}
