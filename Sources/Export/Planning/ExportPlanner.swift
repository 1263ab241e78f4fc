import SpliceFFmpeg
import AudioMix
import Composition
import Foundation
import VideoComposition

/// Checks an export request and turns the models into render plans, before any file is opened: output location,
/// file type against settings, video composition and audio mix validation (every problem listed), the export time
/// range, the output size (sized presets never upscale), and the model evaluators the renderer will call.
struct ExportPlanner {
    let composition: MutableComposition
    let settings: ExportSettings?
    let preset: ExportPreset?
    let request: ExportRequest

    func makePlan() throws -> ExportPlan {
        guard let outputURL = request.outputURL else {
            throw ExportError.unsupportedSettings("no output URL: set outputURL before exporting")
        }
        guard outputURL.isFileURL else {
            throw ExportError.outputNotWritable(outputURL, reason: "only file URLs can be written")
        }
        guard let fileType = request.outputFileType ?? FileType(pathExtension: outputURL.pathExtension) else {
            throw ExportError.unsupportedSettings(
                "cannot tell the file type from '\(outputURL.lastPathComponent)'; set outputFileType or use .mp4, .mov, .m4a, .mkv or .webm")
        }
        try checkOutputLocation(outputURL)
        guard var settings else {
            let duration = composition.duration
            guard duration.isNumeric, duration > .zero else {
                throw ExportError.invalidComposition("the composition is empty (duration \(duration))")
            }
            let passthrough = try PassthroughPlan.make(
                composition: composition, request: request, fileType: fileType, outputURL: outputURL,
                range: try exportRange(duration: duration))
            return ExportPlan(
                video: nil, audio: nil, settings: ExportSettings(video: nil, audio: nil), fileType: fileType,
                outputURL: outputURL, overwritesExistingFile: request.overwritesExistingFile,
                metadata: passthrough.metadata, optimizeForNetworkUse: request.shouldOptimizeForNetworkUse,
                fileLengthLimit: nil, passthrough: passthrough)
        }
        if !fileType.supportsVideo { settings.video = nil }

        let duration = composition.duration
        guard duration.isNumeric, duration > .zero else {
            throw ExportError.invalidComposition("the composition is empty (duration \(duration))")
        }
        let range = try exportRange(duration: duration)

        let videoTracks = composition.tracks(withMediaType: .video).filter { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }
        let audioTracks = composition.tracks(withMediaType: .audio).filter { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }
        if settings.video != nil && videoTracks.isEmpty { settings.video = nil }
        if settings.audio != nil && audioTracks.isEmpty { settings.audio = nil }
        if settings.audio != nil && audioTracks.count > Self.maximumAudioTrackCount {
            throw ExportError.invalidComposition(
                "it has \(audioTracks.count) enabled audio tracks with media; at most \(Self.maximumAudioTrackCount) are "
                    + "mixed (each plays through its own decoder at once)")
        }
        if settings.video == nil && settings.audio == nil {
            throw ExportError.invalidComposition(
                fileType.supportsVideo ? "it has no enabled video or audio track with media"
                    : "a .\(fileType.rawValue) file holds audio only and the composition has no audio track with media")
        }
        if let video = settings.video { try checkCodec(video.codec, in: fileType); try check(video) }
        if let audio = settings.audio { try checkCodec(audio.codec, in: fileType); try check(audio) }
        if let limit = request.fileLengthLimit, limit <= 0 {
            throw ExportError.unsupportedSettings("fileLengthLimit \(limit) bytes must be greater than 0 (nil for no limit)")
        }

        var videoPlan: VideoPlan?
        if let videoSettings = settings.video {
            videoPlan = try makeVideoPlan(videoTracks, settings: videoSettings, range: range)
        }
        var audioPlan: AudioPlan?
        if let audioSettings = settings.audio {
            audioPlan = try makeAudioPlan(audioTracks, settings: audioSettings, range: range)
        }
        return ExportPlan(
            video: videoPlan, audio: audioPlan, settings: settings, fileType: fileType, outputURL: outputURL,
            overwritesExistingFile: request.overwritesExistingFile,
            metadata: request.metadata.map { ($0.key, $0.value) },
            optimizeForNetworkUse: request.shouldOptimizeForNetworkUse,
            fileLengthLimit: request.fileLengthLimit)
    }

    // MARK: Checks

    private func checkOutputLocation(_ url: URL) throws {
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError.outputNotWritable(url, reason: "the directory \(directory.path) does not exist")
        }
        guard access(directory.path, W_OK) == 0 else {
            throw ExportError.outputNotWritable(url, reason: "the directory \(directory.path) is not writable")
        }
        if FileManager.default.fileExists(atPath: url.path) && !request.overwritesExistingFile {
            throw ExportError.outputFileExists(url)
        }
    }

    private func exportRange(duration: MediaTime) throws -> TimeRange {
        let requested = request.timeRange
        guard requested.isValid, requested.start.isNumeric, requested.start >= .zero else {
            throw ExportError.invalidComposition("the export time range \(requested) is not a valid range from time ≥ 0")
        }
        let whole = TimeRange(start: .zero, duration: duration)
        let range = requested.intersection(whole)
        guard range.isValid, !range.isEmpty else {
            throw ExportError.invalidComposition("the export time range \(requested) lies outside the composition \(whole)")
        }
        return range
    }

    private func checkCodec(_ codec: VideoSettings.Codec, in fileType: FileType) throws {
        let allowed: [FileType: Set<VideoSettings.Codec>] = [
            .mp4: [.h264, .hevc], .mov: [.h264, .hevc, .prores, .ffv1], .mkv: [.h264, .hevc, .prores, .vp9, .ffv1],
            .webm: [.vp9],
        ]
        guard allowed[fileType]?.contains(codec) ?? false else {
            throw ExportError.unsupportedSettings("a .\(fileType.rawValue) file cannot hold \(codec.rawValue) video")
        }
        guard MediaLibrary.hasEncoder(named: codec.encoderName) else { throw ExportError.encoderUnavailable(codec.encoderName) }
    }

    private func checkCodec(_ codec: AudioSettings.Codec, in fileType: FileType) throws {
        let allowed: [FileType: Set<AudioSettings.Codec>] = [
            .mp4: [.aac, .opus], .mov: [.aac, .pcm], .m4a: [.aac], .mkv: [.aac, .opus, .pcm], .webm: [.opus],
        ]
        guard allowed[fileType]?.contains(codec) ?? false else {
            throw ExportError.unsupportedSettings("a .\(fileType.rawValue) file cannot hold \(codec.rawValue) audio")
        }
        guard MediaLibrary.hasEncoder(named: codec.encoderName) else { throw ExportError.encoderUnavailable(codec.encoderName) }
    }

    /// Values the encoders would trap on, silently clamp or silently ignore, refused with the setting's name.
    private func check(_ video: VideoSettings) throws {
        if let size = video.maximumSize, size.width <= 0 || size.height <= 0 {
            throw ExportError.unsupportedSettings("maximumSize \(size.width) × \(size.height) pixels must be greater than 0")
        }
        if let interval = video.keyFrameInterval, !(1...Int(Int32.max)).contains(interval) {
            throw ExportError.unsupportedSettings("keyFrameInterval \(interval) frames must be between 1 and \(Int32.max)")
        }
        switch video.rateControl {
        case .constantQuality(let crf):
            let range = video.codec == .vp9 ? 0...63 : 0...51  // libx264/libx265 CRF, libvpx CQ level
            if video.codec != .prores, !range.contains(crf) {
                throw ExportError.unsupportedSettings(
                    "constantQuality(\(crf)) is outside \(range.lowerBound)...\(range.upperBound) for \(video.codec.rawValue)")
            }
        case .averageBitRate(let rate):
            if !(1...Int(Int32.max)).contains(rate) {
                throw ExportError.unsupportedSettings("averageBitRate(\(rate)) bits per second must be between 1 and \(Int32.max)")
            }
        }
        if (video.codec == .h264 || video.codec == .hevc) && video.encoderPreset.isEmpty {
            throw ExportError.unsupportedSettings("encoderPreset is empty; name an x264/x265 preset (ultrafast … veryslow)")
        }
    }

    private func check(_ audio: AudioSettings) throws {
        if !(1...2).contains(audio.channelCount) {
            throw ExportError.unsupportedSettings("channelCount \(audio.channelCount) must be 1 (mono) or 2 (stereo)")
        }
        if !(1...384_000).contains(audio.sampleRate) {
            throw ExportError.unsupportedSettings("sampleRate \(audio.sampleRate) Hz must be between 1 and 384000")
        }
        if audio.codec != .pcm, !(1...Int(Int32.max)).contains(audio.bitRate) {
            throw ExportError.unsupportedSettings("bitRate \(audio.bitRate) bits per second must be between 1 and \(Int32.max)")
        }
    }

    // MARK: Video

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

    private func makeVideoPlan(_ tracks: [CompositionTrack], settings: VideoSettings, range: TimeRange) throws -> VideoPlan {
        let videoComposition = request.videoComposition ?? MutableVideoComposition(propertiesOf: composition)
        return try Self.videoPlan(
            composition: composition, tracks: tracks, videoComposition: videoComposition, range: range,
            maximumSize: settings.maximumSize)
    }

    /// The video render plan of `composition` over `range` (composition time; shifted to start at 0), after
    /// validating `videoComposition` against it and checking that the linked FFmpeg has every filter it needs
    /// (``requiredFilters(of:in:)``). Shared by export and the image generator.
    ///
    /// - Parameter hasFilter: whether the linked FFmpeg has a filter of a name (``MediaLibrary/hasFilter(named:)``;
    ///   tests pass another to act as an LGPL build).
    /// - Throws: ``ExportError/filterUnavailable(_:)`` naming the first missing filter, among others.
    static func videoPlan(
        composition: MutableComposition, tracks: [CompositionTrack], videoComposition: MutableVideoComposition,
        range: TimeRange, maximumSize: Size?, hasFilter: (String) -> Bool = MediaLibrary.hasFilter(named:)
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
                    })
            }
            return InstructionPlan(
                timeRange: TimeRange(start: clipped.start - shift, duration: clipped.duration),
                background: RenderColor(instruction.backgroundColor ?? videoComposition.backgroundColor),
                layers: layers, drawsOverlays: instruction.enablePostProcessing)
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
        return VideoPlan(
            renderSize: renderSize, outputSize: outputSize, frameDuration: videoComposition.frameDuration,
            duration: range.duration, tracks: tracks.map { RenderTrack($0, exporting: range) },
            instructions: instructions, imageOverlays: images, textOverlays: texts)
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

    /// The font of a text layer: its own file (which must exist), else its family name, which `drawtext` resolves
    /// through fontconfig (an empty family means "Sans").
    static func font(for text: TextLayerContent) throws -> FontChoice {
        if let file = text.fontFile {
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw ExportError.sourceUnreadable(file, reason: "the font file does not exist")
            }
            return .file(file.path)
        }
        let family = text.fontFamily.trimmingCharacters(in: .whitespaces)
        return .family(family.isEmpty ? "Sans" : family)
    }

    // MARK: Audio

    private func makeAudioPlan(_ tracks: [CompositionTrack], settings: AudioSettings, range: TimeRange) throws -> AudioPlan {
        let mix = request.audioMix ?? MutableAudioMix()
        let issues = mix.validate(for: composition)
        guard issues.isEmpty else { throw ExportError.invalidAudioMix(issues) }
        var gains: [Int32: @Sendable (MediaTime) -> Double] = [:]
        var varispeed: Set<Int32> = []
        for track in tracks {
            let preferred = track.preferredVolume
            if let parameters = mix.inputParameters(forTrackID: track.trackID) {
                let shift = range.start
                gains[track.trackID] = { parameters.volume(at: $0 + shift) * preferred }
                if parameters.audioTimePitchAlgorithm == .varispeed { varispeed.insert(track.trackID) }
            } else if preferred != 1 {
                gains[track.trackID] = { _ in preferred }
            }
        }
        return AudioPlan(
            format: AudioOutputFormat(sampleRate: settings.sampleRate, channelCount: settings.channelCount),
            duration: range.duration, tracks: tracks.map { RenderTrack($0, exporting: range) }, gains: gains,
            varispeedTrackIDs: varispeed)
    }
}

extension RenderColor {
    init(_ color: Color) {
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }
}
