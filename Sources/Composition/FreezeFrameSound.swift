/// What an audio track plays during a freeze frame (``SegmentTimeEffect/freezeFrame(_:)``): silence, or the
/// source's own sound around the held frame looped as room tone. On a video track the choice has no effect.
///
/// Room tone, exactly (all counts on the source's own sample grid, `R` samples per second):
/// - the **span** looped is ``roomToneSpan`` (1 s) of the source track's sound starting at the held frame
///   (`[t, t + 1 s)`, what would have played next), moved back just enough to end at the track's end when the track
///   ends sooner, and shortened to the whole track when the track lasts less than 1 s;
/// - the span is played from its start and then looped with period `span − seam`: at each loop seam the span's last
///   ``roomToneSeam`` (50 ms) fade out while its first 50 ms fade in, an equal-power crossfade (FFmpeg `acrossfade`,
///   curves `qsin`/`qsin`: gains `cos(π/2·x)` and `sin(π/2·x)`, so uncorrelated sound keeps its power) looped by
///   `aloop`;
/// - the hold's last 50 ms (or the whole hold when shorter) crossfade the same way into the 50 ms of source sound
///   just *before* the held frame, when the track has them: a clip cut at the frame, held, and continued from the
///   frame therefore plays `… x(t − 1) | x(t) … loop … x(t − 1) | x(t) …`, with no jump at either end.
///
/// A held frame whose source sound lasts less than ``minimumRoomToneSpan`` (200 ms) is refused by
/// ``CompositionTrack/insertFreezeFrame(at:of:duration:at:sound:)``. Codable as `"silence"` or `"roomTone"`.
public enum FreezeFrameSound: String, Sendable, Hashable, Codable, CaseIterable {
    /// Silence for the whole hold (the default, and what AVFoundation-style editors do).
    case silence
    /// The source's sound around the held frame, looped seamlessly (see the type's discussion for the exact span).
    case roomTone

    /// How much source sound room tone loops: 1 s (the sound from the held frame on).
    public static let roomToneSpan = MediaTime(seconds: 1)
    /// How long each equal-power crossfade of room tone lasts (at the loop seams and at the hold's end): 50 ms.
    public static let roomToneSeam = MediaTime(value: 50, timescale: 1000)
    /// The least source sound room tone needs: 200 ms (four seams, so a loop period keeps sound between seams).
    public static let minimumRoomToneSpan = MediaTime(value: 200, timescale: 1000)
}
