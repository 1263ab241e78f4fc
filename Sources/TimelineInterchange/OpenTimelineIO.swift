import AudioMix
import Composition
import Export
import Foundation
import SpliceDocument
import VideoComposition

/// OpenTimelineIO interchange: editorial timelines (`.otio`, the JSON files of the OpenTimelineIO project, written by
/// Resolve, Premiere's and Avid's adapters, EDL and FCP XML converters) read into Splice's models, and Splice's
/// documents written as `.otio`.
///
/// Reading maps a Timeline's tracks, clips, gaps and time effects to a full-form ``SpliceDocument/CompositionDocument``
/// and loads it as any document is loaded; whatever cannot be mapped is a ``SpliceDocument/DocumentError`` naming the
/// place in the `.otio` file (its JSON path, line and column) and why — never dropped silently. Times are exact:
/// see ``OpenTimelineIORate`` for how OpenTimelineIO's floating-point rates become rationals. docs/interchange.md has
/// the whole mapping.
public enum OpenTimelineIO {
    /// The file name extension of OpenTimelineIO's JSON files.
    public static let pathExtension = "otio"

    /// True when `url` names an `.otio` file (by its extension, in any case).
    public static func isTimelineFile(_ url: URL) -> Bool {
        url.pathExtension.lowercased() == pathExtension
    }

    /// How strictly a timeline is read.
    public struct ReadingOptions: Sendable, Hashable {
        /// Leave out effects Splice cannot render (each listed in ``ImportedTimeline/droppedEffects``) instead of
        /// refusing the timeline; false by default.
        public var dropsUnsupportedEffects: Bool

        /// Options; by default every unsupported effect is an error.
        public init(dropsUnsupportedEffects: Bool = false) {
            self.dropsUnsupportedEffects = dropsUnsupportedEffects
        }
    }

    /// A timeline read from an `.otio` file, before its media files are described.
    public struct ImportedTimeline: Sendable {
        /// The full-form document the timeline maps to (sources as the `target_url`s were written).
        public var document: CompositionDocument
        /// The timeline's name, when it has one.
        public var name: String?
        /// The timeline's `metadata` other than Splice's own, as compact JSON text (written back by
        /// ``OpenTimelineIO/text(for:timeline:relativeTo:)``); nil when it has none.
        public var metadata: String?
        /// The timeline's `global_start_time` (the timecode of its first frame), when it has one; composition time 0
        /// is that time.
        public var globalStartTime: MediaTime?
        /// The effects left out under ``ReadingOptions/dropsUnsupportedEffects``, each at its place in the file.
        public var droppedEffects: [DocumentProblem]
        /// Every media file named, as written, with the path of its `target_url` in the file.
        public var sourceReferences: [(source: String, path: DocumentPath)]
        /// The timeline's markers (on the timeline, its tracks, gaps and clips), in composition time. They are also
        /// the chapters of ``document``'s export (`export.chapters`: the name as the `title`, the colour and comment as
        /// `color` and `comment` items; a point marker's chapter runs to the next marker, marked `markedDuration` 0).
        public var markers: [Marker]
        /// The timeline's transitions, by composition track ID (their incoming clips are on tracks of their own).
        public var transitions: [Transition]
        /// The documents of the timeline's nested Stacks, by the file their segments name (in a folder of the
        /// temporary directory); ``OpenTimelineIO/load(from:options:assetLoader:)`` writes them there before the
        /// sources are described, and the export pre-composes them as nested compositions.
        public var nestedDocuments: [URL: CompositionDocument]
        /// The clip (its JSON path in the file) each segment of ``document`` came from, by the segment's document
        /// path (`composition.tracks[0].segments[2]`); also each track's.
        public var origins: [DocumentPath: DocumentPath]
    }

    /// Reads the timeline in the `.otio` file at `url` without touching its media.
    ///
    /// - Parameters:
    ///   - url: the `.otio` file.
    ///   - options: how strictly to read.
    /// - Returns: the document it maps to, with what was dropped.
    /// - Throws: ``SpliceDocument/DocumentError`` listing every problem at its JSON path in the file, with line and
    ///   column: an unreadable file or a JSON syntax error, an unknown schema or schema version, a time that is not
    ///   exact, a clip without media (every MissingReference in one error), an effect Splice does not render.
    public static func read(from url: URL, options: ReadingOptions = ReadingOptions()) throws(DocumentError) -> ImportedTimeline {
        try read(from: url, options: options, checkingFiles: false)
    }

    /// ``read(from:options:)``; with `checkingFiles`, a timeline that does not read also lists, among its problems,
    /// every media file it names that does not exist (so all missing media are reported at once).
    private static func read(from url: URL, options: ReadingOptions, checkingFiles: Bool) throws(DocumentError) -> ImportedTimeline {
        let tree = try DocumentReader.parsedFile(url, noun: "timeline")
        let nestedFolder = FileManager.default.temporaryDirectory.appendingPathComponent("splice-otio-\(UUID().uuidString)")
        var reader = OpenTimelineIOReader(url: url, options: options, nestedFolder: nestedFolder)
        guard let document = reader.read(tree) else {
            var problems = reader.problems
            if checkingFiles {
                let nested = Set(reader.nestedDocuments.map(\.file.path))
                let media = reader.references.filter { !nested.contains($0.source) }
                problems += missingFiles(media, folder: url.deletingLastPathComponent()).map {
                    reader.problem($0.path, $0.message)
                }
            }
            throw DocumentError(url: url, problems: inFileOrder(problems))
        }
        return ImportedTimeline(
            document: document, name: reader.name, metadata: reader.metadata, globalStartTime: reader.globalStartTime,
            droppedEffects: reader.droppedEffects, sourceReferences: reader.references, markers: reader.markers,
            transitions: reader.transitions,
            nestedDocuments: Dictionary(reader.nestedDocuments.map { ($0.file, $0.document) }, uniquingKeysWith: { first, _ in first }),
            origins: reader.segmentOrigins)
    }

    /// Reads the `.otio` file at `url` and loads it as a document: every media file described (relative
    /// `target_url`s resolve against the file's folder), the composition built and checked.
    ///
    /// - Parameters:
    ///   - url: the `.otio` file.
    ///   - options: how strictly to read.
    ///   - assetLoader: describes a media file; nil for ``SpliceDocument/CompositionDocument/nestingAssetLoader(intermediatesIn:enclosing:)``
    ///     over the temporary directory.
    /// - Returns: the loaded document (its ``SpliceDocument/LoadedDocument/form`` is
    ///   ``SpliceDocument/LoadedDocument/Form/openTimelineIO``) and what was dropped.
    /// - Throws: ``SpliceDocument/DocumentError`` with every problem at its place in the `.otio` file — all media
    ///   that cannot be found or read together — or `CancellationError`.
    public static func load(
        from url: URL, options: ReadingOptions = ReadingOptions(), assetLoader: DocumentAssetLoader? = nil
    ) async throws -> (loaded: LoadedDocument, timeline: ImportedTimeline) {
        let timeline = try read(from: url, options: options, checkingFiles: true)
        let loader = assetLoader ?? CompositionDocument.nestingAssetLoader(
            intermediatesIn: FileManager.default.temporaryDirectory, enclosing: [url])
        for (file, document) in timeline.nestedDocuments {
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(JSONText.pretty(document).utf8).write(to: file)
            } catch {
                throw DocumentError(url: url, problems: [DocumentProblem(
                    path: DocumentPath(), message: "cannot write a nested Stack's document to \(file.path): \(error.localizedDescription)")])
            }
        }
        let (assets, loadProblems) = try await DocumentSources.load(
            timeline.sourceReferences, folder: url.deletingLastPathComponent(), loader: loader)
        guard loadProblems.isEmpty else { throw DocumentError(url: url, problems: located(loadProblems, in: url)) }
        var loaded: LoadedDocument
        do {
            loaded = try timeline.document.compiled(assets: assets, url: url, form: .openTimelineIO)
        } catch {
            // The document's paths mean nothing to the author of the .otio file: point at the clips instead.
            let mapped = error.problems.map { problem -> DocumentProblem in
                var components = problem.path.components
                while !components.isEmpty {
                    if let origin = timeline.origins[DocumentPath(components)] {
                        return DocumentProblem(path: origin, message: problem.message)
                    }
                    components.removeLast()
                }
                return DocumentProblem(path: DocumentPath(), message: "\(problem.path): \(problem.message)")
            }
            throw DocumentError(url: url, problems: located(mapped, in: url))
        }
        // Transitions need the sources' placements: drawn over the compiled composition, then checked. One that the
        // video composition or audio mix Splice kept in the file already draws (an instruction over exactly its
        // range with both its tracks, a crossfade of its tracks over its range) is kept as it was written.
        let kept = timeline.document
        let transitions = timeline.transitions.filter { transition in
            let tracks: Set<Int32> = [transition.fromTrackID, transition.toTrackID]
            if transition.mediaType == .video {
                return !(kept.videoComposition?.instructions ?? []).contains {
                    $0.timeRange == transition.timeRange && tracks.isSubset(of: $0.layerInstructions.map(\.trackID))
                }
            }
            return !(kept.audioMix?.crossfades ?? []).contains {
                $0.timeRange == transition.timeRange && tracks == [$0.fromTrackID, $0.toTrackID]
            }
        }
        guard !transitions.isEmpty else { return (loaded, timeline) }
        var problems: [DocumentProblem] = []
        if transitions.contains(where: { $0.mediaType == .video }) {
            let (video, drawn) = videoComposition(drawing: transitions, over: loaded.composition, base: loaded.videoComposition)
            problems += drawn
            problems += video.validate(for: loaded.composition).map {
                DocumentProblem(path: DocumentPath(), message: "the transitions' video composition: \($0.message)")
            }
            loaded.videoComposition = video
            loaded.document.videoComposition = video
        }
        if let mix = audioMix(crossfading: transitions, base: loaded.audioMix) {
            problems += mix.validate(for: loaded.composition).map {
                DocumentProblem(path: DocumentPath(), message: "the transitions' audio mix: \($0.message)")
            }
            loaded.audioMix = mix
            loaded.document.audioMix = mix
        }
        guard problems.isEmpty else { throw DocumentError(url: url, problems: located(problems, in: url)) }
        return (loaded, timeline)
    }

    /// The media files among `references` that do not exist (local files only), each at its `target_url`, worded as
    /// ``DocumentSources`` words them.
    private static func missingFiles(_ references: [(source: String, path: DocumentPath)], folder: URL) -> [DocumentProblem] {
        references.compactMap { reference in
            let file = DocumentSources.url(for: reference.source, folder: folder)
            guard file.isFileURL, !FileManager.default.fileExists(atPath: file.path) else { return nil }
            let shown = "'\(reference.source)'" + (reference.source.hasPrefix("/") ? "" : " (\(file.path))")
            return DocumentProblem(path: reference.path, message: "no such file \(shown)")
        }
    }

    /// `problems` ordered as their places are in the file (by line and column; those without one last, in order).
    private static func inFileOrder(_ problems: [DocumentProblem]) -> [DocumentProblem] {
        problems.enumerated().sorted { first, second in
            let a = (first.element.line ?? .max, first.element.column ?? .max, first.offset)
            let b = (second.element.line ?? .max, second.element.column ?? .max, second.offset)
            return a < b
        }.map(\.element)
    }

    /// `problems` with the line and column of their paths in the file (read again: only on failure).
    private static func located(_ problems: [DocumentProblem], in url: URL) -> [DocumentProblem] {
        guard let data = try? FileContents.data(of: url), let tree = try? JSONParser.parse(Array(data)) else { return problems }
        return problems.map { problem in
            guard problem.line == nil, let position = tree.closestPosition(to: problem.path.components) else { return problem }
            var located = problem
            located.line = position.line
            located.column = position.column
            return located
        }
    }
}

extension OpenTimelineIO {
    /// A marker of a timeline: a named point or range, OpenTimelineIO's `Marker` placed in composition time.
    public struct Marker: Sendable, Hashable {
        /// The marker's name.
        public var name: String
        /// Composition time it marks (a zero duration for a point); a marker on a sped-up clip is placed where its
        /// media time plays, one on a held picture at the clip's start.
        public var timeRange: TimeRange
        /// OpenTimelineIO's colour name (`RED`, `GREEN`, …), if any.
        public var color: String?
        /// The marker's comment, if any.
        public var comment: String?
        /// Where the Marker is in the `.otio` file.
        public var path: DocumentPath
    }

    /// The key under `metadata` where Splice keeps what OpenTimelineIO has no field for (exact source ranges, track
    /// IDs, speed ramps, the video composition, audio mix and export settings), read back when the file is read.
    public static let metadataKey = "splice"

    /// A loaded document as the text of an `.otio` file.
    ///
    /// - Parameters:
    ///   - loaded: the document (its composition, video composition, audio mix and export settings).
    ///   - timeline: when `loaded` came from an `.otio` file, what it was read with: its name, global start time and
    ///     markers are written back. Without it, the chapters of `loaded`'s export are written as markers (name,
    ///     range, colour and comment from their items).
    ///   - nested: the nested compositions its segments name, from ``nestedCompositions(of:)``: each such segment
    ///     is written as a nested Stack of their tracks; without them, as a clip of the pre-composed movie.
    ///   - folder: where the file will be saved: media paths are written relative to it when they are near.
    /// - Returns: JSON text that OpenTimelineIO reads (`otio.adapters.read_from_file`), ending with a newline.
    /// - Throws: `EncodingError` for a value that cannot be JSON (a non-finite number).
    public static func text(
        for loaded: LoadedDocument, timeline: ImportedTimeline? = nil, nested: [String: LoadedDocument] = [:], relativeTo folder: URL
    ) throws -> String {
        var writer = writer(for: loaded.composition, videoComposition: loaded.videoComposition, folder: folder)
        writer.documentTracks = loaded.document.composition.tracks
        writer.documentFolder = loaded.url.deletingLastPathComponent()
        writer.nested = nested
        writer.readerMadeAbsolute = Set((timeline?.nestedDocuments.keys).map { $0.map(\.standardizedFileURL.path) } ?? [])
        let tree = try writer.timeline(
            name: timeline?.name ?? loaded.url.deletingPathExtension().lastPathComponent, composition: loaded.composition,
            videoComposition: loaded.videoComposition, audioMix: loaded.audioMix, export: loaded.document.export,
            globalStartTime: timeline?.globalStartTime,
            markers: timeline?.markers ?? markers(for: loaded.document.export?.chapters ?? []), metadata: timeline?.metadata)
        return tree.prettyPrinted() + "\n"
    }

    /// A composition as the text of an `.otio` file: one Track per composition track, a Clip per segment, a Gap per
    /// empty segment; times in whole frames of the video composition's frame rate where they are whole frames,
    /// otherwise at their own timescale (exact either way).
    ///
    /// - Parameters:
    ///   - composition: the composition; every segment's source is a file (its `AssetTrack.assetURL`).
    ///   - videoComposition: how it is drawn; nil for `MutableVideoComposition(propertiesOf:)` (then not written).
    ///   - audioMix: how it is mixed, or nil.
    ///   - export: export settings to keep, or nil.
    ///   - name: the timeline's name.
    ///   - globalStartTime: the timecode of the first frame (`global_start_time`), if any.
    ///   - markers: markers in composition time, written on the timeline's Stack.
    ///   - metadata: the timeline's `metadata` as JSON text of an object (other tools' keys), written beside Splice's.
    ///   - documentTracks: the tracks of the document `composition` was compiled from, if any: their ``SpliceDocument/DocumentTrack/metadata``
    ///     and their segments' are written on the Tracks and Clips (a track's segments are matched to its non-empty
    ///     composition segments in order).
    ///   - folder: where the file will be saved (media paths are written relative to it when near).
    /// - Returns: JSON text ending with a newline.
    /// - Throws: `EncodingError` for a value that cannot be JSON.
    public static func text(
        for composition: MutableComposition, videoComposition: MutableVideoComposition? = nil, audioMix: MutableAudioMix? = nil,
        export: DocumentExport? = nil, name: String, globalStartTime: MediaTime? = nil, markers: [Marker] = [],
        metadata: String? = nil, documentTracks: [DocumentTrack] = [], relativeTo folder: URL
    ) throws -> String {
        var writer = writer(for: composition, videoComposition: videoComposition, folder: folder)
        writer.documentTracks = documentTracks
        let tree = try writer.timeline(
            name: name, composition: composition, videoComposition: videoComposition, audioMix: audioMix, export: export,
            globalStartTime: globalStartTime, markers: markers, metadata: metadata)
        return tree.prettyPrinted() + "\n"
    }

    /// A writer saving into `folder`, its times in whole frames of the video composition's frame rate.
    private static func writer(
        for composition: MutableComposition, videoComposition: MutableVideoComposition?, folder: URL
    ) -> OpenTimelineIOWriter {
        let frameDuration = (videoComposition ?? MutableVideoComposition(propertiesOf: composition)).frameDuration
        let rate = OpenTimelineIORate(frameDuration: frameDuration) ?? OpenTimelineIORate(frames: 30, seconds: 1)!
        return OpenTimelineIOWriter(folder: folder, rate: rate)
    }
}
