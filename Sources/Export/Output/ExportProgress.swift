/// How an export's progress (0…1) is shared between its stages, so that 1.0 means the file is complete: rendering
/// (decode, composite, encode) takes the first 90 %, the encoders' flush (the frames they still hold after the last
/// one is sent) reaches 95 %, the trailer — with `faststart`, moving the index (`moov`) to the front, which rewrites
/// the whole file — reaches 99 %, and only naming the finished file (``ExportJob``) gives 1.0, which the session
/// publishes on completion. The shares are estimates for a typical export (the flush and the move take a few
/// percent of the time); the values are monotonic either way.
enum ExportProgress {
    /// The share of progress when rendering has passed `fraction` (0…1) of the exported time.
    static func rendering(_ fraction: Double) -> Double { 0.9 * min(max(fraction, 0), 1) }
    /// Progress once the encoders are flushed.
    static let flushed = 0.95
    /// Progress once the trailer is written (and the index moved); the file is complete but not yet named.
    static let finished = 0.99
}
