import Composition

/// The output audio format every source is converted to: planar float, one rate, one layout.
struct AudioOutputFormat: Hashable, Sendable {
    /// Samples per second (Hz).
    var sampleRate: Int
    /// Channel count: 1 (mono) or 2 (stereo).
    var channelCount: Int

    var layoutName: String { channelCount == 1 ? "mono" : "stereo" }

    /// The sample index of composition time `time`, rounded half away from zero: segment boundaries are rounded once
    /// on the output grid, so adjacent segments share a boundary and rounding never accumulates.
    func sampleIndex(of time: MediaTime) -> Int64 {
        time.convertScale(Int32(sampleRate)).value
    }
}
