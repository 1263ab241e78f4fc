import Foundation
import Composition
import SpliceFFmpeg

/// Reads the samples of an asset's tracks in time order, compressed as stored or decoded, as AVFoundation's
/// `AVAssetReader`.
///
/// Add one ``AssetReaderTrackOutput`` per track to read, then ``startReading()``, then take each output's samples
/// with ``AssetReaderTrackOutput/copyNextSampleBuffer()`` or `for try await` over the output. Every output reads on a
/// thread of its own (blocking FFmpeg work never runs on Swift's cooperative pool) and keeps at most a few samples
/// ready ahead of its consumer, so outputs can be consumed in any order or interleaved, and memory stays bounded
/// however slow the consumer is.
///
/// Status moves as AVFoundation's: `unknown` → `reading` (``startReading()``) → `completed` (every output handed out
/// its last sample) or `failed` (``error`` says why; every output then ends) or `cancelled` (``cancelReading()``).
public final class AssetReader: Sendable {
    /// Where the reader is in its life.
    public enum Status: Sendable, Hashable {
        /// Outputs can be added; not started.
        case unknown
        /// Started; samples are being read.
        case reading
        /// Every output has handed out its last sample.
        case completed
        /// Reading failed; ``AssetReader/error`` says why.
        case failed
        /// ``AssetReader/cancelReading()`` was called.
        case cancelled
    }

    private struct State {
        var timeRange: TimeRange?
        var outputs: [AssetReaderTrackOutput] = []
        var status: Status = .unknown
        var error: AssetReaderError?
        var drainedOutputs: Set<ObjectIdentifier> = []
    }

    /// The asset read.
    public let asset: Asset
    private let state = Locked(State())
    /// Stops every output's blocking reads (FFmpeg's interrupt callback) on cancel or failure.
    let cancellation = CancellationFlag()

    /// A reader for `asset` (loaded with `Asset.load(from:)`).
    public init(asset: Asset) {
        self.asset = asset
    }

    deinit {
        // A reader dropped mid-read stops its outputs' threads (blocking reads are interrupted).
        cancellation.cancel()
    }

    /// The part of the tracks' timelines to read, in the tracks' own time (the container's timestamps after its
    /// edit list); by default everything (start 0, duration `positiveInfinity`). Set before ``startReading()``; a
    /// change afterwards has no effect.
    ///
    /// Compressed samples start at the key frame at or before the start and end at the first sample decoded at or
    /// after the end; decoded samples are whole pictures and whole decoded blocks of sound overlapping the range.
    public var timeRange: TimeRange {
        get { state.withLock { $0.timeRange } ?? TimeRange(start: .zero, duration: .positiveInfinity) }
        set { state.withLock { if $0.status == .unknown { $0.timeRange = newValue } } }
    }

    /// The outputs added, in order.
    public var outputs: [AssetReaderTrackOutput] { state.withLock { $0.outputs } }

    /// The reader's status.
    public var status: Status { state.withLock { $0.status } }

    /// Why the reader failed (status `failed`), else nil.
    public var error: AssetReaderError? { state.withLock { $0.error } }

    /// True when `output` can be added now: the reader has not started, the track is the asset's, and the settings
    /// fit the track.
    public func canAdd(_ output: AssetReaderTrackOutput) -> Bool {
        (try? check(output)) != nil
    }

    /// Adds `output`.
    /// - Throws: ``AssetReaderError/outputAddedAfterStartReading(trackID:)`` once reading has started;
    ///   ``AssetReaderError/trackNotInAsset(trackID:asset:)``, ``AssetReaderError/settingsDoNotMatchTrack(trackID:mediaType:reason:)``,
    ///   ``AssetReaderError/trackNotDecodable(trackID:codecName:)`` or ``AssetReaderError/invalidSettings(_:)``.
    public func add(_ output: AssetReaderTrackOutput) throws {
        try check(output)
        try state.withLock { state in
            guard state.status == .unknown else { throw AssetReaderError.outputAddedAfterStartReading(trackID: output.track.trackID) }
            state.outputs.append(output)
        }
        output.attach(to: self)
    }

    private func check(_ output: AssetReaderTrackOutput) throws {
        let track = output.track
        if status != .unknown { throw AssetReaderError.outputAddedAfterStartReading(trackID: track.trackID) }
        guard asset.track(withTrackID: track.trackID) != nil, asset.url == track.assetURL else {
            throw AssetReaderError.trackNotInAsset(trackID: track.trackID, asset: asset.url)
        }
        switch output.outputSettings {
        case nil:
            break
        case .video(let settings)?:
            guard track.mediaType == .video else {
                throw AssetReaderError.settingsDoNotMatchTrack(trackID: track.trackID, mediaType: track.mediaType,
                                                               reason: "decoded video settings on \(track.mediaType == .audio ? "an" : "a") \(track.mediaType.rawValue) track")
            }
            if let size = settings.size, size.width <= 0 || size.height <= 0 {
                throw AssetReaderError.invalidSettings("size \(size.width)×\(size.height) pixels is not positive")
            }
        case .audio(let settings)?:
            guard track.mediaType == .audio else {
                throw AssetReaderError.settingsDoNotMatchTrack(trackID: track.trackID, mediaType: track.mediaType,
                                                               reason: "decoded audio settings on \(track.mediaType == .audio ? "an" : "a") \(track.mediaType.rawValue) track")
            }
            if let rate = settings.sampleRate, rate <= 0 || rate > 384_000 {
                throw AssetReaderError.invalidSettings("sample rate \(rate) Hz is outside 1 ... 384000")
            }
            if let channels = settings.channelCount, channels <= 0 || channels > 8 {
                throw AssetReaderError.invalidSettings("channel count \(channels) is outside 1 ... 8")
            }
        }
        if output.outputSettings != nil && !track.isDecodable {
            throw AssetReaderError.trackNotDecodable(trackID: track.trackID, codecName: track.codecName)
        }
    }

    /// Starts reading every output's track, each on its own thread.
    ///
    /// - Returns: false, with status `failed` and ``error`` set, when there is nothing to read or the time range is
    ///   not usable; true otherwise (a file that cannot be read fails the reader later, as the outputs reach it).
    @discardableResult
    public func startReading() -> Bool {
        let started: (outputs: [AssetReaderTrackOutput], range: TimeRange?)? = state.withLock { state in
            func fail(_ error: AssetReaderError) -> ([AssetReaderTrackOutput], TimeRange?)? {
                state.status = .failed
                state.error = error
                return nil
            }
            guard state.status == .unknown else { return nil }
            guard !state.outputs.isEmpty else { return fail(.cannotStartReading(reason: "no outputs were added")) }
            if let range = state.timeRange {
                guard range.start.isNumeric, range.duration > .zero else {
                    return fail(.invalidTimeRange(range))
                }
            }
            state.status = .reading
            return (state.outputs, state.timeRange)
        }
        guard let started else { return status == .reading }
        for output in started.outputs {
            output.start(url: asset.url, timeRange: started.range, cancellation: cancellation)
        }
        return true
    }

    /// Stops reading: every output's thread stops, its samples not yet taken are dropped, and the status becomes
    /// `cancelled` (unless reading had already completed or failed).
    public func cancelReading() {
        let outputs: [AssetReaderTrackOutput] = state.withLock { state in
            if state.status == .unknown || state.status == .reading { state.status = .cancelled }
            return state.outputs
        }
        cancellation.cancel()
        for output in outputs { output.stop() }
    }

    /// An output's thread failed with `error`: the reader fails (first failure wins) and every output ends.
    func outputFailed(_ error: AssetReaderError) {
        let outputs: [AssetReaderTrackOutput] = state.withLock { state in
            guard state.status == .reading else { return [] }
            state.status = .failed
            state.error = error
            return state.outputs
        }
        cancellation.cancel()
        for output in outputs { output.stop() }
    }

    /// `output` handed out its last sample after a successful read.
    func outputDrained(_ output: AssetReaderTrackOutput) {
        state.withLock { state in
            state.drainedOutputs.insert(ObjectIdentifier(output))
            if state.status == .reading, state.drainedOutputs.count == state.outputs.count { state.status = .completed }
        }
    }
}
