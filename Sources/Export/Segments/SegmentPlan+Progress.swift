import Foundation
import SpliceFFmpeg

extension SegmentPlan {
    /// The indices of the segments whose part is missing or would not pass the join's checks (present, readable to
    /// the end, a key frame first, one picture on each frame of its range): what is left to render. Reads every
    /// present part to its end.
    public func missingSegments() -> [Int] {
        let joiner = SegmentJoiner(plan: self, outputURL: URL(fileURLWithPath: partsDirectory), overwrite: true,
                                   cancellation: CancellationFlag())
        return segments.filter { (try? joiner.check($0)) == nil }.map(\.index)
    }
}
