import Foundation

/// Why a segmented export step failed: the segment (by index) or the audio file at fault and the cause. Steps also
/// throw ``ExportError`` for rendering failures.
public enum SegmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The plan has no segment with this index (`count` segments).
    case noSuchSegment(index: Int, count: Int)
    /// The plan cannot be used: no frames, no video, or settings that cannot make joinable parts.
    case invalidPlan(String)
    /// A part is not there when joining: render it (`splice render-segment PLAN --index I`).
    case partMissing(index: Int, URL)
    /// A part is there but cannot be joined: unreadable or truncated, wrong frame count, different codec parameters,
    /// not starting with a key frame, or timestamps off the frame grid; the reason says which.
    case partDamaged(index: Int, URL, reason: String)
    /// The audio file is missing or damaged.
    case audioDamaged(URL, reason: String)
    /// The plan was made with a custom video compositor (``SegmentPlan/customCompositor``, its type's name), a Swift
    /// value that no plan file or document can carry to another process; this segment is rendered without it (by
    /// `splice render-segment`, a Slurm worker, or a ``SegmentedExport`` without
    /// ``SegmentedExport/customVideoCompositor``). Render such an export in the process that has the compositor:
    /// ``AssetExportSession/concurrentSegments``.
    case customCompositorRequired(String)

    /// A sentence naming the segment or file and the cause.
    public var description: String {
        switch self {
        case .noSuchSegment(let index, let count):
            return "the plan has no segment \(index) (it has \(count): 0...\(max(count - 1, 0)))"
        case .invalidPlan(let reason):
            return "the segment plan cannot be used: \(reason)"
        case .partMissing(let index, let url):
            return "segment \(index) is missing (\(url.path)); render it first"
        case .partDamaged(let index, let url, let reason):
            return "segment \(index) (\(url.path)) cannot be joined: \(reason)"
        case .audioDamaged(let url, let reason):
            return "the audio (\(url.path)) cannot be joined: \(reason)"
        case .customCompositorRequired(let name):
            return "the segment plan was made with the custom video compositor \(name), a Swift value that a plan file "
                + "or a document cannot carry to another process; render it in the process that has the compositor "
                + "(AssetExportSession.concurrentSegments, or SegmentedExport.renderSegment with customVideoCompositor set)"
        }
    }
}
