import Composition
import Foundation

/// An export split into segments of the output timeline that separate processes (or machines) render on their own
/// and ``SegmentedExport/join(to:overwrite:)`` puts back together without re-encoding: plain data, `Codable` (the
/// `splice plan` JSON file, written by SpliceDocument).
///
/// Segments cut the output frame grid (frame k at `start + k × frameDuration`) at frame boundaries, so every output
/// frame belongs to exactly one segment. Each part holds only video; the audio is rendered once for the whole range
/// (``audioURL``), so it stays sample-exact across the joins. A shared file system is assumed: ``documentPath`` and
/// ``partsDirectory`` are absolute paths every worker can read and write.
public struct SegmentPlan: Sendable, Hashable, Codable {
    /// One segment: `frameCount` output frames from output frame `firstFrame`, i.e. composition times
    /// ``timeRange``.
    public struct Segment: Sendable, Hashable, Codable {
        /// 0-based position in the plan (`$SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX`).
        public var index: Int
        /// The first output frame (0-based, counted from the export range's start).
        public var firstFrame: Int
        /// Frames in the segment (≥ 1).
        public var frameCount: Int
        /// Composition time covered: from `start + firstFrame × frameDuration`; the last segment ends at the export's end.
        public var timeRange: TimeRange

        /// A segment (see the properties).
        public init(index: Int, firstFrame: Int, frameCount: Int, timeRange: TimeRange) {
            self.index = index
            self.firstFrame = firstFrame
            self.frameCount = frameCount
            self.timeRange = timeRange
        }
    }

    /// The composition document the workers load (absolute path).
    public var documentPath: String
    /// Encoder settings every part uses (so all parts have the same parameter sets).
    public var settings: ExportSettings
    /// The container of the parts and of the joined output.
    public var fileType: FileType
    /// Where the parts and the audio are written (absolute path).
    public var partsDirectory: String
    /// The exported part of the composition (composition time).
    public var timeRange: TimeRange
    /// The output frame duration.
    public var frameDuration: MediaTime
    /// True when the export has an audio stream (rendered once, into ``audioURL``).
    public var hasAudio: Bool
    /// The segments, in timeline order, back to back.
    public var segments: [Segment]
    /// The type name of the custom video compositor the plan was made with (``SegmentedExport/customVideoCompositor``),
    /// nil for the built-in compositing. A worker that renders a segment without that compositor fails with
    /// ``SegmentError/customCompositorRequired(_:)`` rather than writing built-in pictures. Absent from plan files
    /// made without one.
    public var customCompositor: String? = nil

    /// A plan (see the properties).
    public init(documentPath: String, settings: ExportSettings, fileType: FileType, partsDirectory: String,
                timeRange: TimeRange, frameDuration: MediaTime, hasAudio: Bool, segments: [Segment]) {
        self.documentPath = documentPath
        self.settings = settings
        self.fileType = fileType
        self.partsDirectory = partsDirectory
        self.timeRange = timeRange
        self.frameDuration = frameDuration
        self.hasAudio = hasAudio
        self.segments = segments
    }

    /// Output frames in all segments.
    public var frameCount: Int { segments.reduce(0) { $0 + $1.frameCount } }

    /// The file segment `index` is rendered into: `part-NNNN.<ext>` in ``partsDirectory``.
    public func partURL(_ index: Int) -> URL {
        let number = String(index).count >= 4 ? String(index) : String(repeating: "0", count: 4 - String(index).count) + String(index)
        return URL(fileURLWithPath: partsDirectory).appendingPathComponent("part-\(number).\(fileType.rawValue)")
    }

    /// The file the whole range's audio is rendered into: `audio.<ext>` in ``partsDirectory``, `<ext>` that of
    /// ``audioFileType``.
    public var audioURL: URL {
        URL(fileURLWithPath: partsDirectory).appendingPathComponent("audio.\(audioFileType.rawValue)")
    }

    /// The container the audio is rendered into before the join copies it: the plan's, except AAC for a Matroska
    /// plan, which is rendered into a MOV. The AAC encoder's 1024 samples of priming make its first packet start
    /// before 0; a MOV keeps that time (its edit list trims the priming), so the join places the sound exactly as a
    /// single export places it, whose Matroska muxer then moves every track later by the priming. FFmpeg 5.1's
    /// Matroska muxer cannot store the priming of AAC (Opus keeps its own as `CodecDelay`): an audio-only Matroska
    /// file would start the priming at 0, and the joined sound would lead the pictures by it (21 ms at 48 kHz).
    public var audioFileType: FileType {
        fileType == .mkv && settings.audio?.codec == .aac ? .mov : fileType
    }

    /// Cuts `frameCount` frames into `segmentCount` segments balanced by duration: the ideal cut before segment i is
    /// frame `round(i × frameCount / segmentCount)`; it moves to the nearest frame in `preferredCuts` (instruction
    /// boundaries) when one lies within a tenth of a segment's length, as long as every segment keeps ≥ 1 frame.
    ///
    /// - Parameters:
    ///   - frameCount: output frames of the export (≥ 1).
    ///   - segmentCount: 1 ... frameCount (more segments than frames are clamped to one frame each).
    ///   - preferredCuts: output frame indices where a cut is welcome.
    /// - Returns: the first frame and frame count of each segment, back to back, covering `0 ..< frameCount`.
    public static func cuts(frameCount: Int, segmentCount: Int, preferredCuts: [Int] = []) -> [(firstFrame: Int, frameCount: Int)] {
        guard frameCount > 0 else { return [] }
        let count = min(max(segmentCount, 1), frameCount)
        let tolerance = Double(frameCount) / Double(count) / 10
        let preferred = preferredCuts.filter { $0 > 0 && $0 < frameCount }.sorted()
        var starts = [0]
        for i in 1..<max(count, 1) {
            let ideal = Int((Double(i) * Double(frameCount) / Double(count)).rounded())
            var cut = ideal
            if let near = preferred.min(by: { abs($0 - ideal) < abs($1 - ideal) }), Double(abs(near - ideal)) <= tolerance {
                cut = near
            }
            // Keep at least one frame per segment, before and after.
            cut = min(max(cut, (starts.last ?? 0) + 1), frameCount - (count - i))
            starts.append(cut)
        }
        return starts.indices.map { i in
            let end = i + 1 < starts.count ? starts[i + 1] : frameCount
            return (starts[i], end - starts[i])
        }
    }
}
