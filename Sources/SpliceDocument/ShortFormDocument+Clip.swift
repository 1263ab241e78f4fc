import AudioMix
import Composition
import VideoComposition

extension ShortFormDocument {
    /// One clip: a piece of a video file (or a still image) with how it is fitted, heard, sped up and joined to the
    /// next clip.
    public struct Clip: Sendable, Hashable, Codable {
        /// The video or image file: a path relative to the document's folder, an absolute path or a `file://` URL.
        public var source: String
        /// Where the clip starts in the source (source time); nil for 0. Not allowed for a still image.
        public var start: MediaTime?
        /// How much of the source to use (source time); nil for the rest of its video track, 3 s for a still image.
        public var duration: MediaTime?
        /// The transition from this clip into the next one; nil for a cut.
        public var transition: Transition?
        /// How the picture fills the canvas; nil for ``VideoComposition/AspectMode/fit`` (letterbox).
        public var fit: AspectMode?
        /// The clip's own sound as a linear gain (1.0 = unity, 0 = mute); nil for 1.0.
        public var volume: Double?
        /// Playback speed factor (2 = twice as fast, 0.5 = half speed), 1/32 … 32; sound keeps its pitch. nil for 1.
        public var speed: Double?
        /// Fade in from the background colour (and from silence) over this long at the clip's start; nil for none.
        /// Not with a transition into the clip.
        public var fadeIn: MediaTime?
        /// Fade out to the background colour (and to silence) over this long at the clip's end; nil for none. Not
        /// with a transition out of the clip.
        public var fadeOut: MediaTime?
        /// True to play the clip backwards, picture and sound (a time effect, ``Composition/SegmentTimeEffect``);
        /// nil or false: forwards. Works with ``speed``.
        public var reverse: Bool?
        /// The source time of a picture to hold for ``duration`` (3 s when nil), with silence or room tone
        /// (``freezeSound``): a freeze frame. Not with ``start``, ``speed`` or ``speedRamp``.
        public var freezeFrame: MediaTime?
        /// The sound of a freeze frame (``Composition/FreezeFrameSound``): `"silence"` (when nil) or `"roomTone"`,
        /// the source's sound from ``freezeFrame`` looped. Only with ``freezeFrame``.
        public var freezeSound: FreezeFrameSound?
        /// A keyframed rate reading the source from ``start``: the clip lasts the ramp's duration and reads its
        /// integral (``Composition/SpeedRamp``). Not with ``duration``, ``speed``, ``reverse`` or ``freezeFrame``.
        public var speedRamp: SpeedRamp?
        /// Built-in effects on the clip's picture, in order (colour, lookup table, blur, sharpen, vignette); nil
        /// for none.
        public var effects: [Effect]?

        /// A clip of `source`; every other property optional.
        public init(
            source: String, start: MediaTime? = nil, duration: MediaTime? = nil, transition: Transition? = nil,
            fit: AspectMode? = nil, volume: Double? = nil, speed: Double? = nil, fadeIn: MediaTime? = nil, fadeOut: MediaTime? = nil,
            effects: [Effect]? = nil
        ) {
            self.source = source
            self.start = start
            self.duration = duration
            self.transition = transition
            self.fit = fit
            self.volume = volume
            self.speed = speed
            self.fadeIn = fadeIn
            self.fadeOut = fadeOut
            self.effects = effects
        }
    }

    /// A transition from one clip into the next: the two overlap by ``duration``.
    public struct Transition: Sendable, Hashable, Codable {
        /// The kinds of transition: ``VideoComposition/VideoTransitionStyle`` — `crossDissolve` (two alternating
        /// video tracks with opposite opacity ramps) or any of FFmpeg's `xfade` transitions by its name
        /// (`wipeleft`, `circleopen`, `dissolve`, …).
        public typealias Kind = VideoTransitionStyle

        /// The kind of transition.
        public var type: Kind
        /// How long the clips overlap (output time); at most the length of either clip.
        public var duration: MediaTime
        /// The curve of the picture's progress; nil for linear.
        public var easing: Easing?
        /// The curve of the sound's crossfade (``AudioMix/AudioFadeCurve``: `linear`, `equalPower` or an `afade`
        /// curve name); nil for the linear volume ramps 1 → 0 and 0 → 1.
        public var audioCurve: AudioFadeCurve?

        /// A transition.
        public init(type: Kind = .crossDissolve, duration: MediaTime, easing: Easing? = nil, audioCurve: AudioFadeCurve? = nil) {
            self.type = type
            self.duration = duration
            self.easing = easing
            self.audioCurve = audioCurve
        }
    }
}
