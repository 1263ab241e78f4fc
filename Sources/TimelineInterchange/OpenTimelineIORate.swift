import Composition

/// A frame rate of OpenTimelineIO's `RationalTime` as an exact fraction of frames per second.
///
/// OpenTimelineIO stores `rate` (and `value`) as floating-point numbers; NTSC rates appear as `29.97`, `23.976` or
/// `29.97002997002997` (the double nearest 30000/1001), depending on the tool that wrote the file. Splice's time is
/// rational, so each rate is read exactly from its decimal text and then snapped: a whole number stays as it is
/// (`24.0` → 24/1); a rate within 0.002 frames per second of `n × 1000/1001` for a whole `n` is that NTSC rate
/// (`23.976` → 24000/1001, `29.97` → 30000/1001, `59.94` → 60000/1001); any other rate is its exact decimal value
/// (`12.5` → 25/2).
struct OpenTimelineIORate: Sendable, Hashable, CustomStringConvertible {
    /// Frames, over ``seconds``: the rate is `frames / seconds` frames per second (reduced, both > 0).
    var frames: Int64
    /// Seconds, under ``frames``.
    var seconds: Int64

    /// The largest distance, in frames per second, between a written rate and the NTSC rate it is snapped to.
    static let ntscTolerance = 0.002

    /// The rate `frames / seconds`, reduced; nil unless both are > 0.
    init?(frames: Int64, seconds: Int64) {
        guard frames > 0, seconds > 0 else { return nil }
        let divisor = Int64(Int64.greatestCommonDivisor(frames, seconds))
        self.frames = frames / divisor
        self.seconds = seconds / divisor
    }

    /// The rate a `RationalTime.rate` literal stands for (see the type's discussion), or nil when the text is not a
    /// positive decimal number that fits 64-bit integers.
    init?(literal: String) {
        guard let (numerator, denominator) = TimeSyntax.fraction(decimal: literal), numerator > 0 else { return nil }
        if denominator == 1 {
            self.init(frames: numerator, seconds: 1)
            return
        }
        let written = Double(numerator) / Double(denominator)
        let multiple = (written * 1.001).rounded()
        if multiple >= 1, multiple < 1e9, abs(written - multiple * 1000 / 1001) <= Self.ntscTolerance {
            self.init(frames: Int64(multiple) * 1000, seconds: 1001)
            return
        }
        self.init(frames: numerator, seconds: denominator)
    }

    /// The rate of a frame duration (`1001/30000` s → 30000/1001 fps); nil for a non-numeric or non-positive one.
    init?(frameDuration: MediaTime) {
        guard frameDuration.isNumeric, frameDuration > .zero else { return nil }
        self.init(frames: Int64(frameDuration.timescale), seconds: frameDuration.value)
    }

    /// The length of one frame.
    var frameDuration: MediaTime? {
        guard let timescale = Int32(exactly: frames) else { return nil }
        return MediaTime(value: seconds, timescale: timescale)
    }

    /// The rate as OpenTimelineIO writes it: the shortest decimal text of the nearest double (`24.0`,
    /// `29.97002997002997`), the form its Python API produces for `30000 / 1001`.
    var literal: String {
        let value = Double(frames) / Double(seconds)
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// `30000/1001 fps`.
    var description: String { seconds == 1 ? "\(frames) fps" : "\(frames)/\(seconds) fps" }

    /// The time of `value` frames (a decimal literal, exactly) at this rate, or nil when the text is not a decimal
    /// number or the exact time does not fit a ``Composition/MediaTime`` (an `Int32` timescale).
    func time(frames literal: String) -> MediaTime? {
        guard let (numerator, denominator) = TimeSyntax.fraction(decimal: literal) else { return nil }
        // value / rate seconds = (numerator / denominator) × (seconds / frames).
        let top = Int128(numerator) * Int128(seconds)
        let bottom = Int128(denominator) * Int128(frames)
        let divisor = Swift.max(1, Int128(Int128.greatestCommonDivisor(top, bottom)))
        guard let value = Int64(exactly: top / divisor), let timescale = Int32(exactly: bottom / divisor) else { return nil }
        return MediaTime(value: value, timescale: timescale)
    }

    /// How many frames at this rate `time` lasts, when that is a whole number; nil otherwise.
    func wholeFrames(in time: MediaTime) -> Int64? {
        guard time.isNumeric else { return nil }
        let top = Int128(time.value) * Int128(frames)
        let bottom = Int128(time.timescale) * Int128(seconds)
        guard top % bottom == 0 else { return nil }
        return Int64(exactly: top / bottom)
    }
}
