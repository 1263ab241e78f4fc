import SpliceFFmpeg
import AudioMix
import Composition
import Foundation
import VideoComposition

extension ExportPlanner {
    /// The largest render width or height in pixels: the widest frame H.264 and HEVC level 6.2 allow (8192 × 4320).
    /// A larger canvas is refused before anything is allocated (100000 × 100000 would need 15 GB per frame).
    static let maximumRenderDimension = 8192

    /// The most video layers one instruction may draw: each is decoded at the same time (3000 layers of a 320 × 240
    /// clip need gigabytes).
    static let maximumLayerCount = 32

    /// The most audio tracks an export mixes: all are decoded at the same time (about 1.3 MB each).
    static let maximumAudioTrackCount = 64

    /// The shortest and longest output frame duration: 1/1000 s (1000 frames per second) and 60 s.
    static let frameDurationBounds = (shortest: MediaTime(value: 1, timescale: 1000), longest: MediaTime(seconds: 60))

    func makeVideoPlan(_ tracks: [CompositionTrack], settings: VideoSettings, range: TimeRange) throws -> VideoPlan {
        let videoComposition = request.videoComposition ?? MutableVideoComposition(propertiesOf: composition)
        var plan = try Self.videoPlan(
            composition: composition, tracks: tracks, videoComposition: videoComposition, range: range,
            maximumSize: settings.maximumSize, settings: settings)
        // prores_ks encodes 4:2:2 10-bit only; the graph's last step converts the canvas to it.
        if settings.codec == .prores { plan.outputPixelFormat = "yuv422p10le" }
        plan.sendsEffectAmounts = !request.rebuildsEffectGraphPerFrame
        if let compositor = request.customVideoCompositor {
            plan.custom = try CustomCompositorPlan(
                compositor: compositor, videoComposition: videoComposition, timeOffset: range.start, color: plan.color)
        }
        try Self.checkEncoder(of: settings.codec, accepts: plan.outputPixelFormat ?? plan.color.pixelFormatName(alpha: false))
        if let burnIn = videoComposition.subtitleBurnIn {
            let track = try subtitleBurnInPlan(burnIn, range: range)
            plan.subtitleBurnIn = track
            let firstSource = track.track.segments.lazy.compactMap(\.source).first
            if let style = burnIn.style, !["ass", "ssa"].contains(firstSource?.codecName ?? "") {
                plan.subtitleBurnInStyle = style
            }
        }
        return plan
    }

    /// The video render plan of `composition` over `range` (composition time; shifted to start at 0), after
    /// validating `videoComposition` against it and checking that the linked FFmpeg has every filter it needs
    /// (``requiredFilters(of:in:)``). Shared by export and the image generator.
    ///
    /// - Parameters:
    ///   - settings: the output's video settings, which decide with the composition's colour fields the canvas's
    ///     colour space (``canvasColor(for:sources:settings:keepsHDR:)``); nil (the image generator) renders SDR
    ///     unless `keepsHDR`.
    ///   - keepsHDR: with `settings` nil, the output can carry HDR (the image generator's `.matchSource`).
    ///   - hasFilter: whether the linked FFmpeg has a filter of a name (``MediaLibrary/hasFilter(named:)``;
    ///     tests pass another to act as an LGPL build).
    /// - Throws: ``ExportError/filterUnavailable(_:)`` naming the first missing filter, among others.
    static func videoPlan(
        composition: MutableComposition, tracks: [CompositionTrack], videoComposition: MutableVideoComposition,
        range: TimeRange, maximumSize: Size?, settings: VideoSettings? = nil, keepsHDR: Bool = false,
        hasFilter: (String) -> Bool = MediaLibrary.hasFilter(named:)
    ) throws -> VideoPlan {
        var issues = videoComposition.validate(for: composition)
        let size = videoComposition.renderSize
        if size.width > maximumRenderDimension || size.height > maximumRenderDimension {
            issues.append(ValidationIssue(
                kind: .invalidRenderSize,
                message: "render size \(size.width) × \(size.height) pixels: width and height must be at most "
                    + "\(maximumRenderDimension)"))
        }
        let frameDuration = videoComposition.frameDuration
        if frameDuration.isNumeric, frameDuration > .zero,
           frameDuration < frameDurationBounds.shortest || frameDuration > frameDurationBounds.longest {
            issues.append(ValidationIssue(
                kind: .invalidFrameDuration, message: "frame duration \(frameDuration) must lie between 1/1000 s and 60 s"))
        }
        for (index, instruction) in videoComposition.instructions.enumerated()
        where instruction.layerInstructions.count > maximumLayerCount {
            issues.append(ValidationIssue(
                kind: .tooManyLayers, instructionIndex: index,
                message: "instruction \(index) draws \(instruction.layerInstructions.count) layers; at most "
                    + "\(maximumLayerCount) are composited at once"))
        }
        guard issues.isEmpty else { throw ExportError.invalidVideoComposition(issues) }
        if let maximumSize, maximumSize.width <= 0 || maximumSize.height <= 0 {
            throw ExportError.unsupportedSettings("maximumSize \(maximumSize.width) × \(maximumSize.height) pixels must be greater than 0")
        }
        if let missing = requiredFilters(of: videoComposition, in: range).first(where: { !hasFilter($0) }) {
            throw ExportError.filterUnavailable(missing)
        }
        let renderSize = videoComposition.renderSize
        let outputSize = Self.outputSize(renderSize: renderSize, maximum: maximumSize)
        let shift = range.start
        @Sendable func shifted(_ time: MediaTime) -> MediaTime { time + shift }

        let instructions: [InstructionPlan] = videoComposition.instructions.compactMap { instruction in
            let clipped = instruction.timeRange.intersection(range)
            guard clipped.isValid, !clipped.isEmpty else { return nil }
            let layers = instruction.layerInstructions.map { layer in
                LayerPlan(
                    trackID: layer.trackID,
                    transform: { layer.transform(at: shifted($0)) },
                    opacity: { layer.opacity(at: shifted($0)) },
                    crop: { layer.cropRectangle(at: shifted($0)) },
                    opacityRamps: layer.opacitySegments(in: clipped).filter { !$0.isConstant }.map {
                        TimeRange(start: $0.timeRange.start - shift, duration: $0.timeRange.duration)
                    },
                    effects: { layer.effectValues(at: shifted($0)) })
            }
            return InstructionPlan(
                timeRange: TimeRange(start: clipped.start - shift, duration: clipped.duration),
                background: RenderColor(instruction.backgroundColor ?? videoComposition.backgroundColor),
                layers: layers, drawsOverlays: instruction.enablePostProcessing,
                transition: instruction.transition.map { transition in
                    let range = instruction.timeRange
                    return TransitionPlan(
                        filterName: transition.style.xfadeName ?? "fade", fromTrackID: transition.fromTrackID,
                        toTrackID: transition.toTrackID, progress: { transition.progress(at: shifted($0), in: range) })
                })
        }

        var images: [ImageOverlayPlan] = []
        var texts: [TextOverlayPlan] = []
        for overlay in videoComposition.overlays {
            let clipped = overlay.timeRange.intersection(range)
            guard clipped.isValid, !clipped.isEmpty else { continue }
            let localRange = TimeRange(start: clipped.start - shift, duration: clipped.duration)
            switch overlay.content {
            case .image(let url):
                images.append(ImageOverlayPlan(
                    url: url, timeRange: localRange,
                    frame: { overlay.frame(at: shifted($0)) }, rotation: { overlay.rotation(at: shifted($0)) },
                    opacity: { overlay.opacity(at: shifted($0)) }))
            case .text(let text):
                let rotates = overlay.rotations.segments(in: clipped, default: 0).contains { !$0.isConstant || $0.startValue != 0 }
                if rotates {
                    throw ExportError.unsupportedSettings(
                        "text overlay '\(text.string)' rotates; rotation is rendered for image overlays only")
                }
                let style = TextStyle(
                    text: text.string, font: try font(for: text), alignment: text.alignment.rawValue, fontSize: text.fontSize,
                    color: RenderColor(text.color), background: text.backgroundColor.map(RenderColor.init),
                    padding: text.padding)
                texts.append(TextOverlayPlan(
                    style: style, timeRange: localRange,
                    frame: { overlay.frame(at: shifted($0)) }, opacity: { overlay.opacity(at: shifted($0)) }))
            }
        }
        let renderTracks = tracks.map { RenderTrack($0, exporting: range) }
        let sources = renderTracks.flatMap { $0.segments.compactMap(\.source) }
        let color = try canvasColor(for: videoComposition, sources: sources, settings: settings, keepsHDR: keepsHDR)
        if let missing = colorFilters(canvas: color, sources: sources).first(where: { !hasFilter($0) }) {
            throw ExportError.filterUnavailable(missing)
        }
        try Self.checkEffectsDrawable(in: videoComposition, range: range, canvas: color)
        let metadata = hdrMetadata(of: sources, color: color)
        return VideoPlan(
            renderSize: renderSize, outputSize: outputSize, frameDuration: videoComposition.frameDuration,
            duration: range.duration, tracks: renderTracks,
            instructions: instructions, imageOverlays: images, textOverlays: texts, color: color,
            masteringDisplay: metadata.masteringDisplay, contentLightLevel: metadata.contentLightLevel)
    }

    /// The render size scaled down to fit `maximum` (aspect kept, even dimensions), never up (AVFoundation's rule for
    /// sized presets).
    static func outputSize(renderSize: Size, maximum: Size?) -> Size {
        guard let maximum, renderSize.width > maximum.width || renderSize.height > maximum.height else { return renderSize }
        // Fit the longer side against the box in the same orientation, as AVFoundation does for portrait video.
        let box = (renderSize.width >= renderSize.height) == (maximum.width >= maximum.height)
            ? maximum : Size(width: maximum.height, height: maximum.width)
        let scale = min(Double(box.width) / Double(renderSize.width), Double(box.height) / Double(renderSize.height), 1)
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        return Size(width: even(Double(renderSize.width) * scale), height: even(Double(renderSize.height) * scale))
    }

    /// The font of a text layer: its own file (which must exist, used as given), else the fonts fontconfig's
    /// fallback order for its family gives its characters (``FontResolver``: one file when one font has them all,
    /// runs otherwise; an empty family means "Sans"); the family name itself only when fontconfig cannot be used.
    ///
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` for a missing font file;
    ///   ``ExportError/noFontForCharacter(character:text:family:)`` when no installed font has a character.
    static func font(for text: TextLayerContent) throws -> FontChoice {
        if let file = text.fontFile {
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw ExportError.sourceUnreadable(file, reason: "the font file does not exist")
            }
            return .file(file.path)
        }
        let family = text.fontFamily.trimmingCharacters(in: .whitespaces)
        let name = family.isEmpty ? "Sans" : family
        return try FontResolver.font(family: name, text: text.string, fontSize: text.fontSize) ?? .family(name)
    }
}
