/// One track's part in an audio crossfade, on the output sample grid: the samples `[firstSample, firstSample +
/// sampleCount)` get `gain((i − firstSample) / sampleCount)` — the model's curve
/// (``AudioMix/AudioCrossfade/gain(forTrackID:fraction:)``), evaluated for every sample.
struct CrossfadeWindow: Sendable {
    var firstSample: Int64
    var sampleCount: Int64
    /// Linear gain for the elapsed fraction 0…1.
    var gain: @Sendable (Double) -> Double

    /// True when the window touches samples `[start, start + count)`.
    func overlaps(start: Int64, count: Int) -> Bool {
        firstSample < start + Int64(count) && start < firstSample + sampleCount
    }
}
