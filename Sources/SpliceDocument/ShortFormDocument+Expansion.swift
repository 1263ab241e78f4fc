import AudioMix
import Composition
import Foundation
import VideoComposition

extension ShortFormDocument {
    /// The default frame rate: 30 frames per second.
    public static let defaultFrameRate = FrameRate(frames: 30)
    /// How long a still image shows when its clip gives no duration: 3 s.
    public static let defaultStillDuration = MediaTime(seconds: 3)
    /// The text size of a text overlay that gives none, in pixels.
    public static let defaultFontSize = 48.0

    /// Every file the document reads (clips, music, overlay images, subtitles), as written, each with the first place it is
    /// named — the files ``expanded(assets:folder:)`` needs descriptions of.
    public var sourceReferences: [(source: String, path: DocumentPath)] {
        var references: [(String, DocumentPath)] = []
        for (index, clip) in clips.enumerated() { references.append((clip.source, DocumentPath("clips").appending(index).appending("source"))) }
        if let music { references.append((music.source, DocumentPath("music.source"))) }
        for (index, overlay) in (overlays ?? []).enumerated() {
            if let image = overlay.image { references.append((image, DocumentPath("overlays").appending(index).appending("image"))) }
        }
        for (index, subtitles) in (subtitles ?? []).enumerated() {
            references.append((subtitles.source, DocumentPath("subtitles").appending(index).appending("source")))
        }
        return references
    }

    /// The full form of this document: the composition, video composition and audio mix it stands for.
    ///
    /// - **Clips** play back to back from time 0. A clip's `transition` overlaps it with the next clip by the
    ///   transition's duration; clips then alternate between two video tracks (and two audio tracks), and the overlap
    ///   gets a cross-dissolve instruction (``VideoComposition/VideoCompositionInstruction/crossDissolve(from:to:timeRange:outgoingTransform:incomingTransform:easing:)``)
    ///   while the sounds cross-fade (volume ramps 1 → 0 and 0 → 1). Without transitions every clip is on one video
    ///   track and one audio track. A clip's `speed` scales its segments (`scaleTimeRange`); its `fit` gives its
    ///   layer's transform (`AffineTransform2D.placing`, with the source's preferred transform, so phone video is
    ///   upright); `fadeIn` / `fadeOut` ramp its layer's opacity and its sound's volume.
    /// - **Music** is an audio track from time 0, for the clips' length (or the file's, if shorter; `loop` repeats
    ///   it), with a volume ramp for each fade.
    /// - **Overlays** become overlay layers (the first one top-most), their frames computed from the position,
    ///   margin and size, their fades as opacity animations.
    /// - **Subtitles**: a clip brings the cues of its source's first subtitle track, as it brings its sound, onto one
    ///   subtitle track (a clip after a transition from the end of the transition, where the previous clip's cues
    ///   stop; a held, ramped or reversed clip brings none, as such segments show no cues); each entry of
    ///   `subtitles` is a subtitle track of its own from time 0, whole, in its `language`. A file whose last cue ends
    ///   after the clips lengthens the composition (which lasts as its longest track, AVFoundation's rule): an
    ///   instruction with no layers shows the background there.
    ///
    /// Track IDs: video 1 (and 2 with transitions), then the clips' audio tracks, then the music, then the clips'
    /// subtitle track, then the `subtitles` entries.
    ///
    /// - Parameters:
    ///   - assets: the description of every file in ``sourceReferences``, keyed by the source text as written
    ///     (`try await Asset.load(from:)` of each).
    ///   - folder: the document's folder: relative overlay image and font paths resolve against it.
    ///   - documentURL: the document, named in errors; defaults to `folder`.
    /// - Returns: the full-form document (its segments keep the sources as written).
    /// - Throws: ``DocumentError`` listing every problem, each at its path in this document (`clips[2].duration`):
    ///   a source that was not described (missing from `assets`), a source with no video, a range beyond a source's
    ///   end, a transition longer than a clip, fades that overlap a transition, a speed outside 1/32 … 32, an overlay
    ///   with neither or both of image and text.
    public func expanded(assets: [String: Asset], folder: URL, documentURL: URL? = nil) throws(DocumentError) -> CompositionDocument {
        var expansion = ShortFormExpansion(document: self, assets: assets, folder: folder)
        let result = expansion.run()
        guard expansion.problems.isEmpty, let result else {
            throw DocumentError(url: documentURL ?? folder, problems: expansion.problems.problems)
        }
        return result
    }
}
