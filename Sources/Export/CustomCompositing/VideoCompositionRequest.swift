import Composition
import VideoComposition

/// One frame's work for a ``VideoCompositing`` compositor, as AVFoundation's `AVAsynchronousVideoCompositionRequest`:
/// the composition time, the instruction in force then and the source pictures of its layers.
public struct VideoCompositionRequest: Sendable {
    /// How many requests a compositor that ``VideoCompositing/supportsConcurrentRendering`` may have in flight at
    /// once: 4.
    public static let maximumConcurrentRequests = 4

    /// The composition time of the output frame (output frame k of an export of `[start, …)` shows
    /// `start + k × frameDuration`), as `compositionTime` in AVFoundation. Evaluate the instruction's ramps here.
    public let compositionTime: MediaTime
    /// The instruction whose time range contains ``compositionTime``, as the video composition holds it (its layer
    /// instructions' transforms, opacities and crops are not applied by the engine on this path).
    public let instruction: VideoCompositionInstruction
    /// The output canvas in pixels (the video composition's `renderSize`): the size of the frame to return.
    public let renderSize: Size
    /// The tracks that show a picture at ``compositionTime``, in the instruction's layer order (top-most first);
    /// a layer whose track shows nothing then (an empty segment, past its end) is left out.
    public let sourceTrackIDs: [Int32]
    /// The picture each of ``sourceTrackIDs`` shows, by track ID: one packed plane (`height` rows of `bytesPerRow`
    /// bytes) in the compositor's ``VideoCompositing/sourcePixelFormat``, at the source's coded size (no transform,
    /// no crop applied; AVFoundation's `sourceFrame(byTrackID:)`).
    public let sourceFrames: [Int32: VideoFrame]

    /// A request (the engine makes them; public so compositors can be tested without an export).
    ///
    /// - Parameters:
    ///   - compositionTime: the frame's composition time.
    ///   - instruction: the instruction in force.
    ///   - renderSize: the canvas, pixels.
    ///   - sourceTrackIDs: the tracks with a picture, top-most first.
    ///   - sourceFrames: their pictures by track ID.
    public init(compositionTime: MediaTime, instruction: VideoCompositionInstruction, renderSize: Size,
                sourceTrackIDs: [Int32], sourceFrames: [Int32: VideoFrame]) {
        self.compositionTime = compositionTime
        self.instruction = instruction
        self.renderSize = renderSize
        self.sourceTrackIDs = sourceTrackIDs
        self.sourceFrames = sourceFrames
    }

    /// The picture track `trackID` shows at ``compositionTime``, or nil when it shows none (AVFoundation's
    /// `sourceFrame(byTrackID:)`).
    public func sourceFrame(byTrackID trackID: Int32) -> VideoFrame? { sourceFrames[trackID] }
}
