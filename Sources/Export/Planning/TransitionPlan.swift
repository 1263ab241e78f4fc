import Composition

/// A video transition as the renderer sees it: the `xfade` transition that draws it, its two tracks and the
/// model's own progress evaluator (``VideoComposition/VideoTransition/progress(at:in:)``), in renderer time.
struct TransitionPlan: Sendable {
    /// `xfade`'s `transition` value (`wipeleft`, `circleopen`, …).
    var filterName: String
    /// The outgoing track (A).
    var fromTrackID: Int32
    /// The incoming track (B).
    var toTrackID: Int32
    /// Eased progress 0…1 at a renderer time (0 = all A).
    var progress: @Sendable (MediaTime) -> Double
}
