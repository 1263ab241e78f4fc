import Composition

/// A transition between two tracks over the time range of the instruction that holds it
/// (``VideoCompositionInstruction/transition``): the picture goes from the outgoing track (A) to the incoming one
/// (B) in a ``VideoTransitionStyle`` along an ``Easing`` curve. Like GES's transitions and editly's `transition`,
/// the two clips overlap for the transition's whole duration; ``VideoCompositionInstruction/transition(_:from:to:timeRange:outgoingTransform:incomingTransform:easing:)``
/// and ``MutableComposition/overlapForTransition(trackID:cut:duration:)`` build that overlap.
///
/// The renderer draws A (the outgoing layer over the instruction's background) and B (the incoming layer over it)
/// as two canvases and joins them with FFmpeg's `xfade` at the progress ``progress(at:in:)`` gives for each output
/// frame — the same evaluator for export and the image generator.
public struct VideoTransition: Sendable, Hashable, Codable {
    /// How the picture changes.
    public var style: VideoTransitionStyle
    /// The outgoing track (A): the whole picture at the transition's start.
    public var fromTrackID: Int32
    /// The incoming track (B): the whole picture at its end.
    public var toTrackID: Int32
    /// The curve the progress follows over the instruction's time range; linear by default.
    public var easing: Easing

    /// A transition.
    ///
    /// - Parameters:
    ///   - style: the picture.
    ///   - fromTrackID: the outgoing track.
    ///   - toTrackID: the incoming track.
    ///   - easing: the progress curve.
    public init(style: VideoTransitionStyle, from fromTrackID: Int32, to toTrackID: Int32, easing: Easing = .linear) {
        self.style = style
        self.fromTrackID = fromTrackID
        self.toTrackID = toTrackID
        self.easing = easing
    }

    /// The progress `p` (0 = all A, 1 = all B) at composition time `time` of a transition over `range`:
    /// `easing.progress((time − start) / duration)`, the fraction computed exactly in rational time before it
    /// becomes a `Double` (as ``KeyframeRamp/value(at:interpolate:)``). 0 before the range, 1 at and after its end.
    ///
    /// - Parameters:
    ///   - time: composition time.
    ///   - range: the transition's time range (its instruction's).
    /// - Returns: the eased progress in 0...1.
    public func progress(at time: MediaTime, in range: TimeRange) -> Double {
        guard range.isValid, range.duration > .zero, time >= range.start else { return 0 }
        guard time < range.end else { return 1 }
        // The keyframe ramp's evaluator: the same exact fraction as the opacity and volume ramps.
        let ramp = KeyframeRamp<Double>(timeRange: range, startValue: 0, endValue: 1, easing: easing)
        return min(1, max(0, ramp.value(at: time)))
    }

    private enum CodingKeys: String, CodingKey {
        case style, fromTrackID, toTrackID, easing
    }

    /// Decodes `{"style": "wipeleft", "fromTrackID": 1, "toTrackID": 2, "easing": "easeInOut"}`; `easing` may be
    /// left out (linear).
    ///
    /// - Throws: `DecodingError` naming the missing key or the unknown style.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            style: try container.decode(VideoTransitionStyle.self, forKey: .style),
            from: try container.decode(Int32.self, forKey: .fromTrackID),
            to: try container.decode(Int32.self, forKey: .toTrackID),
            easing: try container.decodeIfPresent(Easing.self, forKey: .easing) ?? .linear)
    }

    /// Encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(style, forKey: .style)
        try container.encode(fromTrackID, forKey: .fromTrackID)
        try container.encode(toTrackID, forKey: .toTrackID)
        try container.encode(easing, forKey: .easing)
    }
}
