import Foundation
import Splice

extension Workloads {
    /// W1r: W1 with two keyframed effects on both clips' layer — brightness ramping 0 → 0.2 and blur ramping
    /// 0 → 4 canvas pixels over each 10 s clip, back to neutral at each clip's start — so that every frame has new
    /// effect amounts. Exported twice, paired: amounts sent to `eq` and `gblur` per frame (one graph per ramp) and
    /// the graph-per-frame path (`--graph-per-frame`).
    static func addEffectRamps(to edit: inout Edit) throws {
        guard var video = edit.video else { throw BenchError.input("W1r needs the canonical edit's video composition") }
        let videoTrack = edit.composition.tracks(withMediaType: .video)[0].trackID
        let clips = Int64((edit.composition.duration.seconds / ten.seconds).rounded(.up))
        for i in video.instructions.indices {
            for j in video.instructions[i].layerInstructions.indices
            where video.instructions[i].layerInstructions[j].trackID == videoTrack {
                for clip in 0..<clips {
                    let range = TimeRange(start: MediaTime(seconds: 10 * clip), duration: ten)
                    video.instructions[i].layerInstructions[j].setEffectRamp(.brightness, from: 0, to: 0.2, timeRange: range)
                    video.instructions[i].layerInstructions[j].setEffectRamp(.blur, from: 0, to: 4, timeRange: range)
                }
            }
        }
        edit.video = video
    }
}
