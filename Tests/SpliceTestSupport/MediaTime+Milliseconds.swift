import Splice

extension MediaTime {
    /// `value` milliseconds (timescale 1000), for short test literals.
    package static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    /// `value` whole seconds, for short test literals.
    package static func s(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }
}
