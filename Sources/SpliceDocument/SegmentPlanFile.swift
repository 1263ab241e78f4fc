import Composition
import Export
import Foundation

/// Segment plans (``Export/SegmentPlan``) as JSON files — `splice plan` writes them, `splice render-segment`,
/// `splice join` and `splice submit` read them — with the package's JSON code, and the segmented export of a
/// loaded document.
public enum SegmentPlanFile {
    /// Writes `plan` to `url` as indented JSON (replacing a file there), through a temporary file renamed into place.
    /// - Throws: `EncodingError` for a value that cannot be JSON; the file system's error when it cannot be written.
    public static func write(_ plan: SegmentPlan, to url: URL) throws {
        let text = try JSONText.pretty(plan) + "\n"
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    /// Reads the plan at `url`.
    /// - Throws: ``Export/SegmentError/invalidPlan(_:)`` naming the file and, for bad JSON, the line and column and
    ///   the JSON path of the value at fault.
    public static func read(from url: URL) throws -> SegmentPlan {
        let data: Data
        do {
            data = try FileContents.data(of: url)
        } catch {
            throw SegmentError.invalidPlan("\(url.path) cannot be read: \(error.localizedDescription)")
        }
        let tree: JSONNode
        do {
            tree = try JSONParser.parse(Array(data))
        } catch {
            throw SegmentError.invalidPlan("\(url.path):\(error.position): JSON syntax error: \(error.message)")
        }
        do {
            return try JSONNodeDecoder().decode(SegmentPlan.self, from: tree)
        } catch let error as DecodingError {
            let (path, message) = DocumentReader.describe(error)
            throw SegmentError.invalidPlan("\(url.path): \(path): \(message)")
        }
    }
}

extension LoadedDocument {
    /// The segmented export of this document: its models, its preset's or settings (``Export/ExportSettings``
    /// defaults when it gives neither), its time range and its chapters.
    public func makeSegmentedExport() -> SegmentedExport {
        var segmented = SegmentedExport(
            composition: composition, videoComposition: videoComposition, audioMix: audioMix,
            settings: export.preset?.settings ?? export.settings ?? ExportSettings(),
            timeRange: export.timeRange ?? TimeRange(start: .zero, duration: .positiveInfinity))
        segmented.chapterMetadataGroups = export.chapters ?? []
        return segmented
    }
}
