package import CMedia
import Composition

extension AVRational {
    /// One time base that holds timestamps of every one of `timeBases` exactly: the least common multiple of `1/d`
    /// time bases when it fits in 32 bits, otherwise the first (1/90000 for none). What the stream-copying writers
    /// (passthrough, smart rendering, the segment join) give a stream whose packets come from several files.
    package static func commonTimeBase(_ timeBases: [AVRational]) -> AVRational {
        guard let first = timeBases.first else { return AVRational(num: 1, den: 90_000) }
        var denominator: Int64 = 1
        for timeBase in timeBases {
            guard timeBase.num == 1, timeBase.den > 0 else { return first }
            let d = Int64(timeBase.den)
            denominator = denominator / Int64(Int64.greatestCommonDivisor(denominator, d)) * d
            if denominator > Int64(Int32.max) { return first }
        }
        return AVRational(num: 1, den: Int32(denominator))
    }
}
