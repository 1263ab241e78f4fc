import Foundation
import Composition
import SpliceFFmpeg

/// Reads the samples of an asset's tracks in time order, compressed as stored or decoded, as AVFoundation's
/// `AVAssetReader`.
///
/// Add one ``AssetReaderTrackOutput`` per track to read — or, for a composition, an
/// ``AssetReaderVideoCompositionOutput`` and an ``AssetReaderAudioMixOutput`` — then ``startReading()``, then take
/// each output's samples with ``AssetReaderOutput/copyNextSampleBuffer()`` or `for try await` over the output. Every output reads on a
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
        var outputs: [any AssetReaderOutput] = []
        var status: Status = .unknown
        var error: AssetReaderError?
        var drainedOutputs: Set<ObjectIdentifier> = []
    }

    /// The file read; nil for a reader of a composition.
    public let asset: Asset?
    /// The composition read; nil for a reader of a file.
    public let composition: MutableComposition?
    private let state = Locked(State())
    /// Stops every output's blocking reads (FFmpeg's interrupt callback) on cancel or failure.
    let cancellation = CancellationFlag()

    /// A reader for `asset` (loaded with `Asset.load(from:)`): its tracks through ``AssetReaderTrackOutput``s, or
    /// composed as `MutableComposition(asset:)` through ``AssetReaderVideoCompositionOutput`` and
    /// ``AssetReaderAudioMixOutput``.
    public init(asset: Asset) {
        self.asset = asset
        composition = nil
    }

    /// A reader for a composition, through ``AssetReaderVideoCompositionOutput`` and ``AssetReaderAudioMixOutput``
    /// (AVFoundation reads an `AVComposition` the same way): the pictures and sound an export of it would encode.
    public init(asset composition: MutableComposition) {
        asset = nil
        self.composition = composition
    }

    deinit {
        // A reader dropped mid-read stops its outputs' threads (blocking reads are interrupted).
        cancellation.cancel()
    }

    /// The part of the timeline to read: for track outputs the tracks' own time (the container's timestamps after
    /// its edit list), for composition outputs composition time; by default everything (start 0, duration
    /// `positiveInfinity`). Set before ``startReading()``; a change afterwards has no effect.
    ///
    /// Compressed samples start at the key frame at or before the start and end at the first sample decoded at or
    /// after the end; decoded samples are whole pictures and whole decoded blocks of sound overlapping the range.
    /// Composition outputs render the range as an export of it would: frames on the frame grid from its start,
    /// sound to the sample.
    public var timeRange: TimeRange {
        get { state.withLock { $0.timeRange } ?? TimeRange(start: .zero, duration: .positiveInfinity) }
        set { state.withLock { if $0.status == .unknown { $0.timeRange = newValue } } }
    }

    /// The outputs added, in order.
    public var outputs: [any AssetReaderOutput] { state.withLock { $0.outputs } }

    /// The reader's status.
    public var status: Status { state.withLock { $0.status } }

    /// Why the reader failed (status `failed`), else nil.
    public var error: AssetReaderError? { state.withLock { $0.error } }

    /// True when `output` can be added now: the reader has not started, the output's tracks are the reader's, and
    /// the settings fit them.
    public func canAdd(_ output: any AssetReaderOutput) -> Bool {
        (try? check(output)) != nil
    }

    /// Adds `output`.
    /// - Throws: ``AssetReaderError/outputAddedAfterStartReading(output:)`` once reading has started;
    ///   ``AssetReaderError/trackNotInAsset(trackID:asset:)`` (a track output on a composition reader, or a track of
    ///   another file), ``AssetReaderError/trackNotInComposition(trackID:mediaType:)``,
    ///   ``AssetReaderError/settingsDoNotMatchTrack(trackID:mediaType:reason:)``,
    ///   ``AssetReaderError/trackNotDecodable(trackID:codecName:)``, ``AssetReaderError/invalidSettings(_:)`` or
    ///   ``AssetReaderError/invalidComposition(_:)``.
    public func add(_ output: any AssetReaderOutput) throws {
        let parts = try check(output)
        try state.withLock { state in
            guard state.status == .unknown else { throw AssetReaderError.outputAddedAfterStartReading(output: parts.core.name) }
            state.outputs.append(output)
        }
        parts.core.attach(to: self)
    }

    @discardableResult
    private func check(_ output: any AssetReaderOutput) throws -> any ReaderOutputParts {
        guard let parts = output as? any ReaderOutputParts else {
            throw AssetReaderError.invalidSettings("\(type(of: output)) is not one of AssetIO's reader outputs")
        }
        if status != .unknown { throw AssetReaderError.outputAddedAfterStartReading(output: parts.core.name) }
        try parts.check(for: self)
        return parts
    }

    /// Checks a composition output's tracks against the composition read.
    /// - Throws: ``AssetReaderError/invalidSettings(_:)`` for no tracks;
    ///   ``AssetReaderError/trackNotInComposition(trackID:mediaType:)``; what ``readComposition()`` throws.
    func checkCompositionTracks(_ trackIDs: [Int32], mediaType: MediaType) throws {
        guard !trackIDs.isEmpty else {
            throw AssetReaderError.invalidSettings("a composition output of \(mediaType.rawValue) has no tracks")
        }
        let composition = try readComposition()
        for trackID in trackIDs where composition.track(withTrackID: trackID)?.mediaType != mediaType {
            throw AssetReaderError.trackNotInComposition(trackID: trackID, mediaType: mediaType)
        }
    }

    /// Plans a composition output's pass with Export's planner (`plan`), its errors as
    /// ``AssetReaderError/invalidComposition(_:)``.
    func planComposition<Plan>(_ plan: (MutableComposition) throws -> Plan) throws -> Plan {
        let composition = try readComposition()
        do {
            return try plan(composition)
        } catch {
            throw AssetReaderError.invalidComposition(String(describing: error))
        }
    }

    /// The composition the composition outputs read: the reader's, or its file's whole tracks.
    /// - Throws: ``AssetReaderError/invalidComposition(_:)`` for a file that cannot be composed (no video or audio
    ///   track, no finite duration).
    func readComposition() throws -> MutableComposition {
        if let composition { return composition }
        guard let asset else { throw AssetReaderError.invalidComposition("the reader has neither a file nor a composition") }
        do {
            return try MutableComposition(asset: asset)
        } catch {
            throw AssetReaderError.invalidComposition("\(asset.url.path): \(error)")
        }
    }

    /// Starts reading every output's track, each on its own thread.
    ///
    /// - Returns: false, with status `failed` and ``error`` set, when there is nothing to read or the time range is
    ///   not usable; true otherwise (a file that cannot be read fails the reader later, as the outputs reach it).
    @discardableResult
    public func startReading() -> Bool {
        let started: (outputs: [any AssetReaderOutput], range: TimeRange?)? = state.withLock { state in
            func fail(_ error: AssetReaderError) -> ([any AssetReaderOutput], TimeRange?)? {
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
            return (state.outputs, state.timeRange)
        }
        guard let started else { return status == .reading }
        // Every output's first pass is planned before any starts: a composition that cannot be rendered fails here.
        var passes: [(ReaderOutputCore, ReadingPass)] = []
        do {
            for case let output as any ReaderOutputParts in started.outputs {
                passes.append((output.core, try output.makePass(range: started.range, reader: self)))
            }
        } catch {
            state.withLock { state in
                state.status = .failed
                state.error = error as? AssetReaderError ?? .invalidComposition(String(describing: error))
            }
            return false
        }
        let begun: Bool = state.withLock { state in
            guard state.status == .unknown else { return false }
            guard state.outputs.count == started.outputs.count else {
                state.status = .failed
                state.error = .cannotStartReading(reason: "an output was added while the reader was starting")
                return false
            }
            state.status = .reading
            return true
        }
        guard begun else { return status == .reading }
        for (core, pass) in passes { core.start(pass, cancellation: cancellation) }
        return true
    }

    /// Stops reading: every output's thread stops, its samples not yet taken are dropped, and the status becomes
    /// `cancelled` (unless reading had already completed or failed).
    public func cancelReading() {
        let outputs: [any AssetReaderOutput] = state.withLock { state in
            if state.status == .unknown || state.status == .reading { state.status = .cancelled }
            return state.outputs
        }
        cancellation.cancel()
        for case let output as any ReaderOutputParts in outputs { output.core.stop() }
    }

    /// An output's thread failed with `error`: the reader fails (first failure wins) and every output ends.
    func outputFailed(_ error: AssetReaderError) {
        let outputs: [any AssetReaderOutput] = state.withLock { state in
            guard state.status == .reading else { return [] }
            state.status = .failed
            state.error = error
            return state.outputs
        }
        cancellation.cancel()
        for case let output as any ReaderOutputParts in outputs { output.core.stop() }
    }

    /// `output` handed out its last sample after a successful read.
    func outputDrained(_ output: ReaderOutputCore) {
        state.withLock { state in
            state.drainedOutputs.insert(ObjectIdentifier(output))
            if state.status == .reading, state.drainedOutputs.count == state.outputs.count { state.status = .completed }
        }
    }
}
