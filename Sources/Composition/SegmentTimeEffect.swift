/// How a segment plays its source range over its composition range when not at a constant forward speed: reverse,
/// freeze frame or speed ramp. A segment without one (``CompositionTrackSegment/timeEffect`` nil) plays
/// `source.start + (t − target.start) × speed`, AVFoundation's linear `CMTimeMapping`.
///
/// | effect | source time at composition time `t` (`e = t − target.start`) | picture | sound |
/// |---|---|---|---|
/// | ``reverse`` | `source.end − e × speed`, approached from below | the frame on screen just before that instant | the range's samples in reverse order (`areverse`), then tempo-changed as a plain segment |
/// | ``freezeFrame(_:)`` | `source.start`, for every `t` | the frame on screen at `source.start` | silence, or the sound from `source.start` looped as room tone (``FreezeFrameSound``) |
/// | ``speedRamp(_:)`` | `source.start + ∫₀ᵉ rate` (``SpeedRamp``, exact) | sample-and-hold at that time | follows the same map: varispeed resamples it, spectral and time-domain keep the pitch with `atempo` driven by the rate |
///
/// A reversed segment is limited to ``maximumReversedDuration`` of source (its sound is reversed in memory).
/// Codable as `{"kind": "reverse"}`, `{"kind": "freezeFrame"}` (silence), `{"kind": "freezeFrame", "sound":
/// "roomTone"}` or `{"kind": "speedRamp", "ramp": {…}}`.
public enum SegmentTimeEffect: Sendable, Hashable {
    /// The source range plays backwards, picture and sound; its speed is still `source.duration / target.duration`.
    case reverse
    /// One picture held for the whole segment: the source frame on screen at `source.start`; the sound (on an audio
    /// track) is silence or room tone looped from the source's sound at `source.start`, as ``FreezeFrameSound``
    /// says exactly. The source range's duration has no meaning beyond being positive; it is not speed-limited.
    case freezeFrame(FreezeFrameSound)
    /// A keyframed rate: the source shown follows the integral of the ramp; `source.duration` must equal the ramp's
    /// ``SpeedRamp/sourceDuration`` and `target.duration` its ``SpeedRamp/duration``.
    case speedRamp(SpeedRamp)

    /// The longest source range a reversed segment may read: 10 minutes. Its sound is reversed by FFmpeg's
    /// `areverse`, which holds the whole range decoded in memory (10 min of 48 kHz stereo float = 230 MB); the
    /// picture is read back in chunks of at most ``maximumReversedChunkFrames`` frames, whatever the length.
    public static let maximumReversedDuration = MediaTime(seconds: 600)

    /// The most decoded pictures a reversed segment holds at once: 60 (1080p 8-bit 4:2:0: about 190 MB).
    public static let maximumReversedChunkFrames = 60

    /// True for a freeze frame, whatever its sound.
    public var isFreezeFrame: Bool {
        if case .freezeFrame = self { return true }
        return false
    }

    /// The effect's name as documents spell it: `reverse`, `freezeFrame` or `speedRamp`.
    public var kindName: String {
        switch self {
        case .reverse: return "reverse"
        case .freezeFrame: return "freezeFrame"
        case .speedRamp: return "speedRamp"
        }
    }
}

extension SegmentTimeEffect: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, ramp, sound
    }

    private enum Kind: String, Codable {
        case reverse, freezeFrame, speedRamp
    }

    /// Decodes `{"kind": "reverse" | "freezeFrame" | "speedRamp", "ramp": …, "sound": …}` (`ramp` only, and required,
    /// for a speed ramp; `sound` only for a freeze frame, `"silence"` when left out).
    ///
    /// - Throws: `DecodingError` naming an unknown kind or a missing ramp.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .reverse: self = .reverse
        case .freezeFrame:
            self = .freezeFrame(try container.decodeIfPresent(FreezeFrameSound.self, forKey: .sound) ?? .silence)
        case .speedRamp: self = .speedRamp(try container.decode(SpeedRamp.self, forKey: .ramp))
        }
    }

    /// Encodes the kind, the ramp of a speed ramp, and the sound of a freeze frame when it is not silence.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .reverse: try container.encode(Kind.reverse, forKey: .kind)
        case .freezeFrame(let sound):
            try container.encode(Kind.freezeFrame, forKey: .kind)
            if sound != .silence { try container.encode(sound, forKey: .sound) }
        case .speedRamp(let ramp):
            try container.encode(Kind.speedRamp, forKey: .kind)
            try container.encode(ramp, forKey: .ramp)
        }
    }
}
