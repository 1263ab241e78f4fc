import SpliceFFmpeg
import AudioMix
import Composition
import Foundation
import VideoComposition

/// A composition's pictures as an export renders them, planned for a reader (AssetIO's video composition output):
/// the same planner, compositor, graphs and model evaluators as ``AssetExportSession``, without an encoder. Plain
/// data; ``CompositionVideoRenderer`` renders it.
package struct CompositionVideoRendering: Sendable {
    let plan: VideoPlan
    /// The part of the composition rendered (composition time), clipped to the composition.
    package let timeRange: TimeRange

    /// Plans the pictures of `composition`'s video tracks `trackIDs` (enabled, with media) over `timeRange`,
    /// composed by `videoComposition` (nil: `MutableVideoComposition(propertiesOf:)`, as export).
    /// - Parameters:
    ///   - keepsHDR: the caller can take more than 8 bits: an all-HDR composition stays HDR (BT.2020, 10-bit
    ///     canvas), as export to a 10-bit codec; false renders SDR BT.709 as the image generator does.
    ///   - customVideoCompositor: renders every frame in place of the built-in layer compositing, called exactly as
    ///     the export calls it (nil: built-in).
    /// - Throws: ``ExportError/invalidComposition(_:)`` (no such track, an empty or outside range),
    ///   ``ExportError/invalidVideoComposition(_:)`` with every problem, ``ExportError/filterUnavailable(_:)``,
    ///   ``ExportError/unsupportedSettings(_:)`` for an `.rgba8` custom compositor on an HDR canvas.
    package init(composition: MutableComposition, videoComposition: MutableVideoComposition?, trackIDs: [Int32],
                 timeRange: TimeRange, keepsHDR: Bool, customVideoCompositor: (any VideoCompositing)? = nil) throws {
        let tracks = try Self.tracks(trackIDs, of: .video, in: composition)
        let range = try Self.clipped(timeRange, to: composition)
        let videoComposition = videoComposition ?? MutableVideoComposition(propertiesOf: composition)
        var plan = try ExportPlanner.videoPlan(
            composition: composition, tracks: tracks, videoComposition: videoComposition,
            range: range, maximumSize: nil, keepsHDR: keepsHDR)
        if let customVideoCompositor {
            plan.custom = try CustomCompositorPlan(
                compositor: customVideoCompositor, videoComposition: videoComposition, timeOffset: range.start,
                color: plan.color)
        }
        self.plan = plan
        self.timeRange = range
    }

    /// The tracks `trackIDs` of `composition` of `mediaType` that export would render: enabled, with media.
    /// - Throws: ``ExportError/invalidComposition(_:)`` when there is none.
    static func tracks(_ trackIDs: [Int32], of mediaType: MediaType, in composition: MutableComposition) throws -> [CompositionTrack] {
        let tracks = composition.tracks(withMediaType: mediaType).filter {
            trackIDs.contains($0.trackID) && $0.isEnabled && $0.segments.contains { !$0.isEmpty }
        }
        guard !tracks.isEmpty else {
            throw ExportError.invalidComposition(
                "none of the \(mediaType.rawValue) tracks \(trackIDs) is an enabled \(mediaType.rawValue) track with media")
        }
        return tracks
    }

    /// `range` clipped to the composition, by the export's rule.
    static func clipped(_ range: TimeRange, to composition: MutableComposition) throws -> TimeRange {
        let duration = composition.duration
        guard duration.isNumeric, duration > .zero else {
            throw ExportError.invalidComposition("the composition is empty (duration \(duration))")
        }
        var request = ExportRequest()
        request.timeRange = range
        return try ExportPlanner(composition: composition, settings: nil, preset: nil, request: request)
            .exportRange(duration: duration)
    }

    /// The output frame grid: frame k shows `timeRange.start + k × frameDuration`.
    package var frameDuration: MediaTime { plan.frameDuration }
    /// Output frames: `ceil(timeRange.duration / frameDuration)`.
    package var frameCount: Int { plan.frameCount }
    /// The rendered picture's size in pixels (the video composition's render size).
    package var renderSize: Size { plan.outputSize }
}

/// Renders a ``CompositionVideoRendering`` frame by frame on a render thread of its own (the export's
/// ``VideoRenderThread``), a few frames ahead of the caller. Confined to the calling thread; ``stop()`` before
/// dropping it (its deinit stops too).
package final class CompositionVideoRenderer {
    private let thread: VideoRenderThread

    /// Starts rendering every output frame of `rendering`.
    ///
    /// `feedsEncoder`: the frames go to software encoders running beside the render thread (as an export's do),
    /// so the render thread works as an export's: two frames ahead and one decoder thread per four cores (the
    /// encoders keep every core busy; more would only hold more pictures). Otherwise (a reader) four frames
    /// ahead, with FFmpeg's automatic decoder threads.
    package init(_ rendering: CompositionVideoRendering, feedsEncoder: Bool = false, cancellation: CancellationFlag) {
        thread = feedsEncoder
            ? VideoRenderThread(plan: rendering.plan, capacity: VideoRenderThread.capacityBesideEncoder,
                                decoderThreads: VideoRenderThread.decoderThreadsBesideEncoder, cancellation: cancellation)
            : VideoRenderThread(plan: rendering.plan, cancellation: cancellation)
    }

    /// The next frame in the canvas's pixel format (`pts` = its output frame index), nil after the last.
    /// - Throws: ``ExportError`` from rendering, `CancellationError`.
    package func next() throws -> Frame? { try thread.next() }

    /// Hands back a frame from ``next()`` once it has been used.
    package func recycle(_ frame: Frame) { thread.recycle(frame) }

    /// Stops the render thread and waits until it has freed its decoders and graphs. Idempotent.
    package func stop() { thread.stop() }
}

/// A composition's sound as an export mixes it, planned for a reader (AssetIO's audio mix output): the export's
/// planner and ``AudioMixer`` (segments cut to the sample, tempo and rate changed by FFmpeg, summed with the mix's
/// gains and crossfades), without an encoder. Plain data.
package struct CompositionAudioMixing: Sendable {
    let plan: AudioPlan
    /// The part of the composition mixed (composition time), clipped to the composition.
    package let timeRange: TimeRange

    /// Plans the sound of `composition`'s audio tracks `trackIDs` (enabled, with media) over `timeRange`, mixed by
    /// `audioMix` (nil: every track at its preferred volume), at `sampleRate` Hz in `channelCount` (1 or 2) channels.
    /// - Throws: ``ExportError/invalidComposition(_:)`` (no such track, an empty or outside range),
    ///   ``ExportError/invalidAudioMix(_:)`` with every problem.
    package init(composition: MutableComposition, audioMix: MutableAudioMix?, trackIDs: [Int32], timeRange: TimeRange,
                 sampleRate: Int, channelCount: Int) throws {
        let tracks = try CompositionVideoRendering.tracks(trackIDs, of: .audio, in: composition)
        let range = try CompositionVideoRendering.clipped(timeRange, to: composition)
        var request = ExportRequest()
        request.audioMix = audioMix
        request.timeRange = range
        plan = try ExportPlanner(composition: composition, settings: nil, preset: nil, request: request).makeAudioPlan(
            tracks, settings: AudioSettings(codec: .pcm, sampleRate: sampleRate, channelCount: channelCount), range: range)
        self.timeRange = range
    }

    /// Output samples per channel: the range's duration on the output sample grid.
    package var sampleCount: Int64 { plan.sampleCount }
    /// Samples per second, Hz.
    package var sampleRate: Int { plan.format.sampleRate }
}

/// Mixes a ``CompositionAudioMixing`` chunk by chunk on the calling thread (the export's ``AudioMixer``): planar
/// float frames, `pts` = the first sample's index from the range's start. Confined to the calling thread.
package final class CompositionAudioMixer {
    private let mixer: AudioMixer

    /// A mixer handing out `chunkSize` samples at a time (the export's encoder frame size: 1024 for AAC and PCM).
    package init(_ mixing: CompositionAudioMixing, chunkSize: Int = 1024, cancellation: CancellationFlag) throws {
        mixer = try AudioMixer(plan: mixing.plan, frameSize: chunkSize, cancellation: cancellation)
    }

    /// Mixes the next chunk and hands it to `emit` (the frame is reused for the next chunk); false after the last.
    /// - Throws: ``ExportError`` from decoding a source, `CancellationError`.
    package func next(emit: (Frame) throws -> Void) throws -> Bool {
        guard mixer.position < mixer.plan.sampleCount else { return false }
        try mixer.renderChunk(emit: emit)
        return true
    }
}
