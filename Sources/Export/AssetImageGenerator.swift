import SpliceFFmpeg
import AudioMix
import Composition
import Foundation
import VideoComposition
internal import CMedia

/// Renders single pictures of a composition — through the same compositor, graphs and model evaluators as
/// export — as RGBA ``VideoFrame``s: Splice's `AVAssetImageGenerator`. By default 8-bit SDR (an HDR composition
/// tone-mapped exactly as an SDR export); ``dynamicRangePolicy`` `.matchSource` keeps HDR in 16-bit RGBA.
///
/// Decoding seeks to the key frame at or before each time and decodes forward, never from the start of a file.
/// ``images(for:)`` keeps decoders open across a batch, so sorted nearby times decode each stretch of source once.
public struct AssetImageGenerator: Sendable {
    /// The composition pictures come from.
    public var asset: MutableComposition
    /// How pictures are composed; nil uses `MutableVideoComposition(propertiesOf:)` (upright, aspect-fit).
    public var videoComposition: MutableVideoComposition?
    /// Without a video composition: true (default) shows each track upright through its preferred transform, as
    /// AVFoundation's `appliesPreferredTrackTransform`; false shows the coded picture as stored.
    public var appliesPreferredTrackTransform: Bool
    /// Largest picture returned, in pixels; larger renders are scaled down to fit (aspect kept). nil: render size.
    public var maximumSize: Size?
    /// How much earlier than the requested time the returned picture may be (AVFoundation's
    /// `requestedTimeToleranceBefore`; +∞ by default).
    ///
    /// With a tolerance, as AVFoundation, the generator returns the picture at the source key frame nearest to the
    /// requested time within `[time − before, time + after]` — of the top-most layer showing a picture then, inside
    /// the same segment — which decodes in one step; `actualTime` says which time that is. When no key frame lies in
    /// the window, the time is snapped back to the start of the output frame interval containing it (if that is
    /// within `before`), so nearby requests share one render. With both tolerances `.zero` the requested time itself
    /// is rendered.
    public var requestedTimeToleranceBefore: MediaTime
    /// How much later than the requested time the returned picture may be (AVFoundation's
    /// `requestedTimeToleranceAfter`; +∞ by default). Only a key frame is ever returned later than requested.
    public var requestedTimeToleranceAfter: MediaTime
    /// Whether pictures keep a high dynamic range (AVFoundation's `dynamicRangePolicy`): `.forceSDR` (default) or
    /// `.matchSource`. See ``DynamicRangePolicy-swift.enum``.
    public var dynamicRangePolicy: DynamicRangePolicy
    /// Your own compositor (``VideoCompositing``), called for each picture in place of the built-in layer
    /// compositing, exactly as the export calls it; nil (default) uses the built-in path. With
    /// ``DynamicRangePolicy-swift.enum/matchSource`` on an HDR composition the compositor must take `.rgba64`
    /// (``VideoCompositing/sourcePixelFormat``).
    public var customVideoCompositor: (any VideoCompositing)?

    /// A generator for `asset`, a composition.
    public init(asset: MutableComposition) {
        self.asset = asset
        videoComposition = nil
        appliesPreferredTrackTransform = true
        maximumSize = nil
        requestedTimeToleranceBefore = .positiveInfinity
        requestedTimeToleranceAfter = .positiveInfinity
        dynamicRangePolicy = .forceSDR
    }

    /// A generator for a plain loaded file — every video track, whole, upright — as `AVAssetImageGenerator(asset:)`
    /// takes any `AVAsset`: `try await AssetImageGenerator(asset: Asset.load(from: url)).image(at: time)`.
    ///
    /// - Parameter asset: a file loaded with `Asset.load(from:)`; its composition is `MutableComposition(asset:)`.
    /// - Throws: ``ExportError/invalidComposition(_:)`` naming the file when it has no video or audio track or no
    ///   finite duration (a still image: insert it into a composition for a chosen duration).
    public init(asset: Asset) throws {
        self.init(asset: try AssetExportSession.composition(of: asset))
    }

    /// The picture at composition time `time`, and the time it actually shows.
    /// - Throws: ``ExportError`` (invalid video composition, unreadable source, a time outside the composition),
    ///   `CancellationError` when the task is cancelled.
    public func image(at time: MediaTime) async throws -> (image: VideoFrame, actualTime: MediaTime) {
        var result: (VideoFrame, MediaTime)?
        for try await item in images(for: [time]) { result = (item.image, item.actualTime) }
        guard let result else { throw ExportError.invalidComposition("no picture at \(time)") }
        return result
    }

    /// One picture per requested time, in request order, as they are rendered. Decoders stay open across the whole
    /// batch; sorted times are cheapest (an earlier time seeks back to its key frame). Rendering runs at most one
    /// picture ahead of the iteration: a slow consumer holds at most two pictures in memory, not the whole batch.
    ///
    /// Iterating throws ``ExportError`` as ``image(at:)`` does, and `CancellationError` when the iterating task is
    /// cancelled before every picture was delivered — a cancelled batch never looks like a complete one.
    public func images(for times: [MediaTime]) -> Images {
        let (stream, continuation) = AsyncThrowingStream<Images.Element, any Error>.makeStream()
        let cancellation = CancellationFlag()
        let completed = CancellationFlag()
        // One signal per `next()`: the worker hands over a picture only when one was asked for.
        let demand = DispatchSemaphore(value: 0)
        continuation.onTermination = { _ in
            cancellation.cancel()
            demand.signal()  // a worker waiting to hand over a picture sees the cancel
        }
        let generator = self
        WorkerThread.start(name: "splice.images") {
            do {
                try generator.render(times, cancellation: cancellation) { requested, frame, actual in
                    demand.wait()
                    if cancellation.isCancelled { return }
                    continuation.yield((requested, frame, actual))
                }
                completed.cancel()
                continuation.finish()
            } catch {
                continuation.finish(throwing: cancellation.isCancelled ? CancellationError() : error)
            }
        }
        return Images(stream: stream, completed: completed, demand: demand)
    }

    /// The pictures of ``images(for:)``: `(requestedTime, image, actualTime)` in request order. Unlike a plain
    /// `AsyncThrowingStream`, whose iteration ends quietly when its task is cancelled, every step taken by a
    /// cancelled task throws `CancellationError`, so a batch cut short never looks complete.
    public struct Images: AsyncSequence, Sendable {
        /// The requested time, the picture, and the time the picture actually shows.
        public typealias Element = (requestedTime: MediaTime, image: VideoFrame, actualTime: MediaTime)
        fileprivate let stream: AsyncThrowingStream<Element, any Error>
        /// Set once the worker delivered every picture (a one-way flag reused as "done").
        fileprivate let completed: CancellationFlag
        /// Signalled once per request for a picture; the worker waits on it before handing one over.
        fileprivate let demand: DispatchSemaphore

        /// Iterates the pictures; see ``Images``.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), completed: completed, demand: demand)
        }

        /// The iterator of ``Images``.
        public struct Iterator: AsyncIteratorProtocol {
            fileprivate var base: AsyncThrowingStream<Element, any Error>.Iterator
            fileprivate let completed: CancellationFlag
            fileprivate let demand: DispatchSemaphore

            /// The next picture; nil after the last one.
            /// - Throws: ``ExportError`` from rendering; `CancellationError` when the task was cancelled first.
            public mutating func next() async throws -> Element? {
                // A picture rendered before a cancel stays buffered; a cancelled task takes none of them.
                try Task.checkCancellation()
                demand.signal()
                if let element = try await base.next() { return element }
                if !completed.isCancelled { throw CancellationError() }
                return nil
            }
        }
    }

    /// Frame threads of each source decoder: two (one on a one-core machine). A picture is found by decoding a short
    /// run from its key frame, where a third thread adds little speed but one more picture in flight (3 MiB at
    /// 1080p); FFmpeg's own choice (one thread per core plus one, up to 16) would hold a decoder context and a
    /// picture per core. Measured on two cores at 1080p: 8 MiB less than three threads, about 4 % more wall time.
    static let decoderThreads = Int32(min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)))

    /// Renders on the calling (worker) thread.
    func render(_ times: [MediaTime], cancellation: CancellationFlag,
                deliver: (MediaTime, VideoFrame, MediaTime) -> Void) throws {
        let duration = asset.duration
        guard duration.isNumeric, duration > .zero else {
            throw ExportError.invalidComposition("the composition is empty (duration \(duration))")
        }
        let tracks = asset.tracks(withMediaType: .video).filter { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }
        guard !tracks.isEmpty else { throw ExportError.invalidComposition("it has no enabled video track with media") }
        var composition = videoComposition ?? MutableVideoComposition(propertiesOf: asset)
        if videoComposition == nil && !appliesPreferredTrackTransform {
            for i in composition.instructions.indices {
                for j in composition.instructions[i].layerInstructions.indices {
                    var layer = VideoCompositionLayerInstruction(trackID: composition.instructions[i].layerInstructions[j].trackID)
                    layer.setTransform(.identity, at: .zero)
                    composition.instructions[i].layerInstructions[j] = layer
                }
            }
        }
        let keepsHDR = dynamicRangePolicy == .matchSource
        if !keepsHDR {
            // SDR BT.709 whatever the fields say: HDR sources are tone-mapped as for an SDR export.
            composition.colorPrimaries = nil
            composition.colorTransferFunction = nil
            composition.colorYCbCrMatrix = nil
        }
        var plan = try ExportPlanner.videoPlan(
            composition: asset, tracks: tracks, videoComposition: composition,
            range: TimeRange(start: .zero, duration: duration), maximumSize: maximumSize, keepsHDR: keepsHDR)
        if let customVideoCompositor {
            plan.custom = try CustomCompositorPlan(
                compositor: customVideoCompositor, videoComposition: composition, timeOffset: .zero, color: plan.color)
        }
        let compositor = try VideoCompositor(plan: plan, decoderThreads: Self.decoderThreads, cancellation: cancellation)
        let converter = try RGBAConverter(size: plan.outputSize, color: plan.color, sixteenBits: keepsHDR)
        let keyFrames = try KeyFrameLocator(cancellation: cancellation)
        var sequence = 0
        var lastRendered: (time: MediaTime, frame: VideoFrame)?
        for requested in times {
            if cancellation.isCancelled { throw CancellationError() }
            guard requested.isNumeric, requested >= .zero, requested < duration else {
                throw ExportError.invalidComposition("the requested time \(requested) lies outside the composition [0, \(duration))")
            }
            var actual = requested
            if let keyFrame = try nearestKeyFrame(to: requested, in: plan, locator: keyFrames) {
                actual = keyFrame
            } else if requestedTimeToleranceBefore > .zero {
                // Snap back to the output frame grid: frame k = floor(t / frameDuration).
                let fd = plan.frameDuration
                let k = (Int128(requested.value) * Int128(fd.timescale)) / (Int128(requested.timescale) * Int128(fd.value))
                let snapped = fd * Int64(k)
                if requested - snapped <= requestedTimeToleranceBefore { actual = snapped }
            }
            if let last = lastRendered, last.time == actual {
                deliver(requested, last.frame, actual)
                continue
            }
            // A new picture: the previous one is not held while this one renders (8 MiB at 1080p).
            lastRendered = nil
            var rendered: Frame?
            let capture: (Frame) throws -> Void = { frame in rendered = try frame.clone() }
            try compositor.render(at: actual, sequence: sequence, emit: capture)
            sequence += 1
            // The graph holds the newest frame until it knows the next: flush it for a single picture.
            try compositor.finish(emit: capture)
            guard let picture = rendered else {
                throw ExportError.renderingFailed(stage: "rendering the picture at \(actual)", reason: "the graph produced no frame")
            }
            let image = try converter.convert(picture)
            lastRendered = (actual, image)
            deliver(requested, image, actual)
        }
    }
}

extension AssetImageGenerator {
    /// The composition time of the key frame nearest to `time` within the tolerances, of the top-most layer that
    /// shows a picture at `time`, inside the segment showing it; nil when the tolerances are zero or there is none.
    func nearestKeyFrame(to time: MediaTime, in plan: VideoPlan, locator: KeyFrameLocator) throws -> MediaTime? {
        guard requestedTimeToleranceBefore > .zero || requestedTimeToleranceAfter > .zero,
              let instruction = plan.instructions.first(where: { $0.timeRange.contains(time) }) else { return nil }
        for layer in instruction.layers {
            guard let track = plan.tracks.first(where: { $0.trackID == layer.trackID }),
                  let index = track.segmentIndex(containing: time, from: 0) else { continue }
            let segment = track.segments[index]
            guard let source = segment.source, !segment.mapping.isEmpty else { continue }
            // A time effect's map is not linear: the exact time is rendered rather than a key frame mapped back.
            if segment.effect != nil { return nil }
            // The window in composition time, kept inside the segment and the instruction.
            let target = segment.mapping.target.intersection(instruction.timeRange)
            let earliest = max(time - requestedTimeToleranceBefore, target.start)
            let latest = min(time + requestedTimeToleranceAfter, target.end)
            guard earliest.isNumeric, latest.isNumeric, earliest <= time, time <= latest else { return nil }
            guard let keyFrame = try locator.nearestKeyFrame(
                of: source, to: segment.sourceTime(at: time),
                earliest: segment.sourceTime(at: earliest), latest: segment.sourceTime(at: latest))
            else { return nil }
            let mapped = TimeRange.mapTime(keyFrame, from: segment.mapping.source, to: segment.mapping.target)
            // The key frame must be the picture shown at the mapped time (sample-and-hold), inside the window.
            guard mapped.isNumeric, mapped >= earliest, mapped <= latest, mapped < target.end,
                  segment.sourceTime(at: mapped) >= keyFrame else {
                return nil
            }
            return mapped
        }
        return nil
    }
}

/// Converts canvas-format frames to RGBA: the 8-bit SDR canvas (yuv420p, limited range, BT.709) to RGBA8 with
/// libswscale as FFmpeg's `scale` filter does it (naming the matrix and range; bicubic, accurate rounding, full chroma
/// interpolation), written straight into the picture's own storage; with `sixteenBits`, any canvas (SDR or HDR, 8
/// or 10 bits) to RGBA64 with `zscale` (libzimg: exact to the 16-bit step, where `scale` misses 10-bit limited
/// range by up to 0.4 %), keeping the canvas's primaries and transfer — limited-range Y'CbCr to full-range R'G'B',
/// nothing else.
final class RGBAConverter {
    private enum Path {
        /// 8 bits: no filter graph, whose frame pool would keep a third copy of each picture.
        case scaler(PictureScaler)
        case graph(FilterGraph, output: Frame)
    }
    private let path: Path
    private let dynamicRange: DynamicRange

    init(size: Size, color: CanvasColor = .standard, sixteenBits: Bool = false) throws {
        if sixteenBits {
            let description = "[in]zscale=pin=\(color.primariesName):tin=\(color.transferName):min=\(color.matrixName):rin=limited"
                + ":p=\(color.primariesName):t=\(color.transferName):r=full:filter=bicubic:dither=none"
                + ",format=gbrp16le,format=rgba64le[out]"
            let graph = try FilterGraph(
                description: description,
                sources: [.video(.init(label: "in", width: size.width, height: size.height,
                                       pixelFormat: color.pixelFormat.rawValue, timeBase: AVRational(num: 1, den: 1)))],
                sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
            path = .graph(graph, output: try Frame())
            dynamicRange = color.dynamicRange
        } else {
            path = .scaler(try PictureScaler(
                width: size.width, height: size.height, sourceFormat: color.pixelFormat.rawValue, sourceFullRange: false,
                matrix: SWS_CS_ITU709, destinationFormat: AV_PIX_FMT_RGBA.rawValue, destinationFullRange: true,
                flags: "bicubic+accurate_rnd+full_chroma_int"))
            dynamicRange = .sdr
        }
    }

    private var sequence: Int64 = 0

    func convert(_ frame: Frame) throws -> VideoFrame {
        switch path {
        case .scaler(let scaler):
            let bytesPerRow = scaler.width * 4
            let pixels: [UInt8]
            do {
                pixels = try [UInt8](unsafeUninitializedCapacity: scaler.height * bytesPerRow) { buffer, count in
                    try scaler.scale(frame, into: buffer.baseAddress!, bytesPerRow: bytesPerRow)
                    count = buffer.count
                }
            } catch {
                throw ExportError.renderingFailed(
                    stage: "converting to RGBA",
                    reason: "\(error) (a \(frame.width)x\(frame.height) picture of format \(frame.format))")
            }
            guard let image = VideoFrame(width: scaler.width, height: scaler.height, bytesPerRow: bytesPerRow, pixels: pixels)
            else { throw ExportError.renderingFailed(stage: "converting to RGBA", reason: "an empty picture") }
            return image
        case .graph(let graph, let output):
            frame.pts = sequence
            sequence += 1
            try graph.push(frame, to: 0, keepReference: true)
            guard try graph.pull(from: 0, into: output) == .frame else {
                throw ExportError.renderingFailed(stage: "converting to RGBA", reason: "no frame")
            }
            defer { output.unref() }
            return try VideoFrame(rgbaFrame: output, dynamicRange: dynamicRange)
        }
    }
}
