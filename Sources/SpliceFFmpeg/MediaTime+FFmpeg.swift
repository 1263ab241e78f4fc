package import CMedia
import Composition

extension MediaTime {
    /// The exact time of an FFmpeg timestamp `pts × timeBase` seconds: `MediaTime(value: pts·num, timescale: den)`.
    ///
    /// Returns nil when `pts` is `AV_NOPTS_VALUE`, the time base is not positive, or `pts × num` overflows `Int64`
    /// (or `den` does not fit `Int32`): the caller reports that as corrupt input, never a wrapped time.
    package init?(pts: Int64, timeBase: AVRational) {
        guard pts != cmedia_AV_NOPTS_VALUE(), timeBase.num > 0, timeBase.den > 0 else { return nil }
        let (value, overflow) = pts.multipliedReportingOverflow(by: Int64(timeBase.num))
        guard !overflow else { return nil }
        self.init(value: value, timescale: timeBase.den)
    }

    /// This time as a timestamp in `timeBase` units, rounded with `method` (half away from zero by default, as
    /// `av_rescale_q`); nil for special values or when the result does not fit `Int64`.
    package func timestamp(in timeBase: AVRational, method: RoundingMethod = .halfAwayFromZero) -> Int64? {
        guard isNumeric, timeBase.num > 0, timeBase.den > 0 else { return nil }
        // value/timescale = x · num/den  =>  x = value·den / (timescale·num); with num == 1 (almost every FFmpeg
        // time base) that is a single exact rescale.
        let scaled = timeBase.num == 1
            ? convertScale(timeBase.den, method: method)
            : multiplied(byRatio: Int64(timeBase.den), over: Int64(timeBase.num)).convertScale(1, method: method)
        return scaled.isNumeric ? scaled.value : nil
    }
}
