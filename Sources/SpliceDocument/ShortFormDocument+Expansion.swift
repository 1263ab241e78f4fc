import AudioMix
import Composition
import Foundation
import VideoComposition

extension ShortFormDocument {
    /// The default frame rate: 30 frames per second.
    public static let defaultFrameRate = FrameRate(frames: 30)
    /// How long a still image shows when its clip gives no duration: 3 s.
    public static let defaultStillDuration = MediaTime(seconds: 3)
    /// The text size of a text overlay that gives none, in pixels.
    public static let defaultFontSize = 48.0

    /// Every file the document reads (clips, music, overlay images), as written, each with the first place it is
    /// named — the files ``expanded(assets:folder:)`` needs descriptions of.
    public var sourceReferences: [(source: String, path: DocumentPath)] {
        var references: [(String, DocumentPath)] = []
        for (index, clip) in clips.enumerated() { references.append((clip.source, DocumentPath("clips").appending(index).appending("source"))) }
        if let music { references.append((music.source, DocumentPath("music.source"))) }
        for (index, overlay) in (overlays ?? []).enumerated() {
            if let image = overlay.image { references.append((image, DocumentPath("overlays").appending(index).appending("image"))) }
        }
        return references
    }

    /// The full form of this document: the composition, video composition and audio mix it stands for.
    ///
    /// - **Clips** play back to back from time 0. A clip's `transition` overlaps it with the next clip by the
    ///   transition's duration; clips then alternate between two video tracks (and two audio tracks), and the overlap
    ///   gets a cross-dissolve instruction (``VideoComposition/VideoCompositionInstruction/crossDissolve(from:to:timeRange:outgoingTransform:incomingTransform:easing:)``)
    ///   while the sounds cross-fade (volume ramps 1 → 0 and 0 → 1). Without transitions every clip is on one video
    ///   track and one audio track. A clip's `speed` scales its segments (`scaleTimeRange`); its `fit` gives its
    ///   layer's transform (`AffineTransform2D.placing`, with the source's preferred transform, so phone video is
    ///   upright); `fadeIn` / `fadeOut` ramp its layer's opacity and its sound's volume.
    /// - **Music** is an audio track from time 0, for the clips' length (or the file's, if shorter; `loop` repeats
    ///   it), with a volume ramp for each fade.
    /// - **Overlays** become overlay layers (the first one top-most), their frames computed from the position,
    ///   margin and size, their fades as opacity animations.
    ///
    /// Track IDs: video 1 (and 2 with transitions), then the clips' audio tracks, then the music.
    ///
    /// - Parameters:
    ///   - assets: the description of every file in ``sourceReferences``, keyed by the source text as written
    ///     (`try await Asset.load(from:)` of each).
    ///   - folder: the document's folder: relative overlay image and font paths resolve against it.
    ///   - documentURL: the document, named in errors; defaults to `folder`.
    /// - Returns: the full-form document (its segments keep the sources as written).
    /// - Throws: ``DocumentError`` listing every problem, each at its path in this document (`clips[2].duration`):
    ///   a source that was not described (missing from `assets`), a source with no video, a range beyond a source's
    ///   end, a transition longer than a clip, fades that overlap a transition, a speed outside 1/32 … 32, an overlay
    ///   with neither or both of image and text.
    public func expanded(assets: [String: Asset], folder: URL, documentURL: URL? = nil) throws(DocumentError) -> CompositionDocument {
        var expansion = ShortFormExpansion(document: self, assets: assets, folder: folder)
        let result = expansion.run()
        guard expansion.problems.isEmpty, let result else {
            throw DocumentError(url: documentURL ?? folder, problems: expansion.problems.problems)
        }
        return result
    }
}

/// The work of ``ShortFormDocument/expanded(assets:folder:documentURL:)``, step by step.
private struct ShortFormExpansion {
    /// One clip, resolved against its source and placed on the timeline.
    struct PlacedClip {
        var index: Int
        var clip: ShortFormDocument.Clip
        var asset: Asset
        var video: AssetTrack
        var audio: AssetTrack?
        /// Source range of the video (source time).
        var sourceRange: TimeRange
        /// Source range of the sound (the video's range, cut where the sound track ends); nil without sound.
        var audioRange: TimeRange?
        /// Output duration (after speed).
        var duration: MediaTime
        /// Speed as `numerator / denominator`.
        var speed: (numerator: Int64, denominator: Int64)
        /// Overlap with the previous / next clip (output time).
        var transitionIn = MediaTime.zero
        var transitionOut = MediaTime.zero
        /// Composition start time.
        var start = MediaTime.zero
        /// Which of the two alternating tracks it is on (0 or 1).
        var lane = 0

        var end: MediaTime { start + duration }
        var isStill: Bool { video.video?.isStillImage ?? false }
    }

    let document: ShortFormDocument
    let assets: [String: Asset]
    let folder: URL
    var problems = ProblemList()

    init(document: ShortFormDocument, assets: [String: Asset], folder: URL) {
        self.document = document
        self.assets = assets
        self.folder = folder
    }

    mutating func run() -> CompositionDocument? {
        let frameRate = document.frameRate ?? ShortFormDocument.defaultFrameRate
        guard let frameDuration = frameRate.frameDuration else {
            problems.add("frameRate", "the frame rate \(frameRate) must be positive")
            return nil
        }
        if document.version != CompositionDocument.currentVersion {
            problems.add("version", "this splice reads version \(CompositionDocument.currentVersion) documents, not \(document.version)")
        }
        guard !document.clips.isEmpty else {
            problems.add("clips", "the list is empty: a document needs at least one clip")
            return nil
        }
        var placed = document.clips.enumerated().compactMap { resolveClip($0.element, index: $0.offset) }
        guard placed.count == document.clips.count else { return nil }
        placeTransitions(&placed)
        guard problems.isEmpty else { return nil }

        let total = placed[placed.count - 1].end
        let renderSize = self.renderSize(first: placed[0])
        let usesTwoLanes = placed.contains { $0.transitionOut > .zero }
        let videoTrackIDs: [Int32] = usesTwoLanes ? [1, 2] : [1]
        var nextTrackID = Int32(videoTrackIDs.count + 1)
        var audioTrackIDs: [Int: Int32] = [:]
        for lane in 0..<videoTrackIDs.count where placed.contains(where: { $0.lane == lane && $0.audioRange != nil }) {
            audioTrackIDs[lane] = nextTrackID
            nextTrackID += 1
        }

        var tracks: [DocumentTrack] = videoTrackIDs.map { DocumentTrack(trackID: $0, mediaType: .video, segments: []) }
        var audioTracks: [Int: DocumentTrack] = audioTrackIDs.mapValues { DocumentTrack(trackID: $0, mediaType: .audio, segments: []) }
        for clip in placed {
            tracks[clip.lane].segments.append(segment(of: clip, track: clip.video, range: clip.sourceRange))
            if let audio = clip.audio, let range = clip.audioRange {
                audioTracks[clip.lane]?.segments.append(segment(of: clip, track: audio, range: range))
            }
        }
        tracks += audioTracks.keys.sorted().compactMap { audioTracks[$0] }

        var inputParameters = audioParameters(placed, trackIDs: audioTrackIDs)
        if let music = document.music, let (track, parameters) = musicTrack(music, trackID: nextTrackID, total: total) {
            tracks.append(track)
            if let parameters { inputParameters.append(parameters) }
        }

        var videoComposition = MutableVideoComposition(
            renderSize: renderSize, frameDuration: frameDuration,
            instructions: instructions(placed, trackIDs: videoTrackIDs, renderSize: renderSize),
            backgroundColor: document.backgroundColor ?? .black)
        videoComposition.overlays = (document.overlays ?? []).enumerated().compactMap { index, overlay in
            overlayLayer(overlay, index: index, renderSize: renderSize, total: total)
        }
        guard problems.isEmpty else { return nil }
        return CompositionDocument(
            composition: DocumentComposition(tracks: tracks), videoComposition: videoComposition,
            audioMix: MutableAudioMix(inputParameters: inputParameters), export: document.export)
    }

    // MARK: Clips

    private mutating func resolveClip(_ clip: ShortFormDocument.Clip, index: Int) -> PlacedClip? {
        let path = DocumentPath("clips").appending(index)
        guard let asset = assets[clip.source] else {
            problems.add(path.appending("source"), "'\(clip.source)' was not loaded")
            return nil
        }
        guard let video = asset.tracks(withMediaType: .video).first else {
            problems.add(path.appending("source"), "'\(clip.source)' has no video track (a clip needs a picture; put sound in \"music\")")
            return nil
        }
        let isStill = video.video?.isStillImage ?? false
        var failed = false

        if isStill, clip.start != nil {
            problems.add(path.appending("start"), "'\(clip.source)' is a still image: it has no start time (give only a duration)")
            failed = true
        }
        if isStill, clip.speed != nil {
            problems.add(path.appending("speed"), "'\(clip.source)' is a still image: speed has no meaning (give its duration instead)")
            failed = true
        }
        let start = clip.start ?? .zero
        if !start.isNumeric || start < .zero {
            problems.add(path.appending("start"), "\(start) is not a time ≥ 0")
            return nil
        }
        let trackEnd = video.timeRange.end
        let duration: MediaTime
        if let given = clip.duration {
            guard given.isNumeric, given > .zero else {
                problems.add(path.appending("duration"), "\(given) is not a duration > 0")
                return nil
            }
            duration = given
        } else if isStill {
            duration = ShortFormDocument.defaultStillDuration
        } else {
            guard start < trackEnd else {
                problems.add(path.appending("start"), "starts at \(start.secondsText), at or after the end of '\(clip.source)' (its video lasts \(trackEnd.secondsText))")
                return nil
            }
            duration = trackEnd - start
        }
        let sourceRange = TimeRange(start: isStill ? .zero : start, duration: duration)
        if !isStill, sourceRange.end > trackEnd {
            let field = clip.duration == nil ? "start" : "duration"
            problems.add(path.appending(field),
                         "\(sourceRange.start.secondsText) + \(duration.secondsText) ends at \(sourceRange.end.secondsText), after the end of '\(clip.source)' (its video lasts \(trackEnd.secondsText))")
            failed = true
        }

        var speed: (numerator: Int64, denominator: Int64) = (1, 1)
        if let given = clip.speed {
            guard given.isFinite, given > 0, let fraction = TimeSyntax.fraction(decimal: "\(given)"), fraction.numerator > 0 else {
                problems.add(path.appending("speed"), "\(given) is not a speed > 0")
                return nil
            }
            let limit = CompositionTrack.speedLimit
            guard fraction.numerator <= limit * fraction.denominator, fraction.numerator * limit >= fraction.denominator else {
                problems.add(path.appending("speed"), "\(given) is outside the supported 1/\(limit) … \(limit)")
                return nil
            }
            speed = fraction
        }
        let outputDuration = duration.multiplied(byRatio: speed.denominator, over: speed.numerator)
        guard outputDuration.isNumeric, outputDuration > .zero, !outputDuration.hasBeenRounded else {
            problems.add(path.appending("speed"), "the clip's duration \(duration.secondsText) at speed \(clip.speed ?? 1) cannot be represented exactly")
            return nil
        }

        if let volume = clip.volume, !(volume.isFinite && volume >= 0) {
            problems.add(path.appending("volume"), "\(volume) is not a gain ≥ 0 (1 = unchanged, 0 = silent)")
            failed = true
        }
        for (name, fade) in [("fadeIn", clip.fadeIn), ("fadeOut", clip.fadeOut)] {
            guard let fade else { continue }
            if !fade.isNumeric || fade <= .zero {
                problems.add(path.appending(name), "\(fade) is not a duration > 0")
                failed = true
            } else if fade > outputDuration {
                problems.add(path.appending(name), "\(fade.secondsText) is longer than the clip (\(outputDuration.secondsText))")
                failed = true
            }
        }
        if let fadeIn = clip.fadeIn, let fadeOut = clip.fadeOut, fadeIn.isNumeric, fadeOut.isNumeric, fadeIn + fadeOut > outputDuration {
            problems.add(path.appending("fadeOut"),
                         "the fade-in (\(fadeIn.secondsText)) and fade-out (\(fadeOut.secondsText)) overlap: the clip lasts \(outputDuration.secondsText)")
            failed = true
        }

        let audio = isStill ? nil : asset.tracks(withMediaType: .audio).first
        var audioRange: TimeRange?
        if let audio {
            let available = sourceRange.intersection(audio.timeRange)
            if available.isValid, available.duration > .zero { audioRange = available }
        }
        if failed { return nil }
        return PlacedClip(
            index: index, clip: clip, asset: asset, video: video, audio: audio, sourceRange: sourceRange,
            audioRange: audioRange, duration: outputDuration, speed: speed)
    }

    /// Checks transitions against the clips they join, sets the overlaps, start times and lanes.
    private mutating func placeTransitions(_ placed: inout [PlacedClip]) {
        for index in placed.indices {
            guard let transition = placed[index].clip.transition else { continue }
            let path = DocumentPath("clips").appending(index).appending("transition")
            guard index + 1 < placed.count else {
                problems.add(path, "the last clip has no next clip to transition to")
                continue
            }
            let duration = transition.duration
            guard duration.isNumeric, duration > .zero else {
                problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
                continue
            }
            if duration > placed[index].duration || duration > placed[index + 1].duration {
                problems.add(path.appending("duration"),
                             "\(duration.secondsText) is longer than clip \(index) (\(placed[index].duration.secondsText)) or clip \(index + 1) (\(placed[index + 1].duration.secondsText)) it joins")
                continue
            }
            if placed[index].clip.fadeOut != nil {
                problems.add(DocumentPath("clips").appending(index).appending("fadeOut"),
                             "a clip with a transition to the next one cannot also fade out")
            }
            if placed[index + 1].clip.fadeIn != nil {
                problems.add(DocumentPath("clips").appending(index + 1).appending("fadeIn"),
                             "a clip with a transition into it cannot also fade in")
            }
            placed[index].transitionOut = duration
            placed[index + 1].transitionIn = duration
        }
        for index in placed.indices {
            let clip = placed[index]
            if clip.transitionIn + clip.transitionOut > clip.duration {
                problems.add(DocumentPath("clips").appending(index).appending("transition").appending("duration"),
                             "the transitions into (\(clip.transitionIn.secondsText)) and out of (\(clip.transitionOut.secondsText)) clip \(index) overlap: it lasts \(clip.duration.secondsText)")
            }
            if let fadeIn = clip.clip.fadeIn, fadeIn.isNumeric, fadeIn + clip.transitionOut > clip.duration {
                problems.add(DocumentPath("clips").appending(index).appending("fadeIn"),
                             "the fade-in (\(fadeIn.secondsText)) overlaps the transition to the next clip")
            }
            if let fadeOut = clip.clip.fadeOut, fadeOut.isNumeric, fadeOut + clip.transitionIn > clip.duration {
                problems.add(DocumentPath("clips").appending(index).appending("fadeOut"),
                             "the fade-out (\(fadeOut.secondsText)) overlaps the transition from the previous clip")
            }
            if index > 0 {
                let previous = placed[index - 1]
                placed[index].start = previous.end - previous.transitionOut
                placed[index].lane = previous.transitionOut > .zero ? 1 - previous.lane : previous.lane
            }
        }
    }

    private func segment(of clip: PlacedClip, track: AssetTrack, range: TimeRange) -> DocumentSegment {
        let output = range.duration.multiplied(byRatio: clip.speed.denominator, over: clip.speed.numerator)
        return DocumentSegment(
            source: clip.clip.source, track: .trackID(track.trackID), timeRange: range, at: clip.start,
            toDuration: output == range.duration ? nil : output)
    }

    private mutating func renderSize(first: PlacedClip) -> Size {
        if let size = document.renderSize {
            if size.width <= 0 || size.height <= 0 || size.width % 2 != 0 || size.height % 2 != 0 {
                problems.add("renderSize", "\(size.width) × \(size.height) pixels: width and height must be even numbers > 0 (4:2:0 video)")
            }
            return size
        }
        let display = first.video.video?.displaySize ?? .zero
        return Size(width: display.width + display.width % 2, height: display.height + display.height % 2)
    }

    // MARK: Video

    private mutating func instructions(_ placed: [PlacedClip], trackIDs: [Int32], renderSize: Size) -> [VideoCompositionInstruction] {
        var instructions: [VideoCompositionInstruction] = []
        var placements: [AffineTransform2D] = []
        let canvasIsUsable = renderSize.width > 0 && renderSize.height > 0
        for clip in placed {
            guard canvasIsUsable else {
                placements.append(.identity)
                continue
            }
            guard let format = clip.video.video, let placement = AffineTransform2D.placing(
                naturalSize: format.naturalSize, preferredTransform: format.preferredTransform,
                pixelAspectRatio: format.pixelAspectRatio, in: renderSize, mode: clip.clip.fit ?? .fit)
            else {
                problems.add(DocumentPath("clips").appending(clip.index).appending("source"),
                             "'\(clip.clip.source)' has an empty picture (no width or height): it cannot be placed")
                placements.append(.identity)
                continue
            }
            placements.append(placement)
        }
        for (offset, clip) in placed.enumerated() {
            let solo = TimeRange(start: clip.start + clip.transitionIn, end: clip.end - clip.transitionOut)
            if solo.duration > .zero {
                var layer = VideoCompositionLayerInstruction(trackID: trackIDs[clip.lane])
                layer.setTransform(placements[offset], at: solo.start)
                if let fadeIn = clip.clip.fadeIn {
                    layer.setOpacityRamp(fromStartOpacity: 0, toEndOpacity: 1, timeRange: TimeRange(start: clip.start, duration: fadeIn))
                }
                if let fadeOut = clip.clip.fadeOut {
                    layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: clip.end - fadeOut, end: clip.end))
                }
                instructions.append(VideoCompositionInstruction(timeRange: solo, layerInstructions: [layer]))
            }
            if clip.transitionOut > .zero, offset + 1 < placed.count {
                let next = placed[offset + 1]
                instructions.append(.crossDissolve(
                    from: trackIDs[clip.lane], to: trackIDs[next.lane],
                    timeRange: TimeRange(start: next.start, end: clip.end),
                    outgoingTransform: placements[offset], incomingTransform: placements[offset + 1],
                    easing: clip.clip.transition?.easing ?? .linear))
            }
        }
        return instructions
    }

    // MARK: Audio

    private func audioParameters(_ placed: [PlacedClip], trackIDs: [Int: Int32]) -> [AudioMixInputParameters] {
        var parameters: [Int: AudioMixInputParameters] = [:]
        var level: [Int: Double] = [:]  // the gain in force on each lane
        for clip in placed where clip.audioRange != nil {
            guard let trackID = trackIDs[clip.lane] else { continue }
            var lane = parameters[clip.lane] ?? AudioMixInputParameters(trackID: trackID)
            let volume = clip.clip.volume ?? 1
            if clip.transitionIn > .zero {
                lane.setVolumeRamp(fromStartVolume: 0, toEndVolume: volume, timeRange: TimeRange(start: clip.start, duration: clip.transitionIn))
            } else if let fadeIn = clip.clip.fadeIn {
                lane.setVolumeRamp(fromStartVolume: 0, toEndVolume: volume, timeRange: TimeRange(start: clip.start, duration: fadeIn))
            } else if level[clip.lane, default: 1] != volume {
                lane.setVolume(volume, at: clip.start)
            }
            level[clip.lane] = volume
            let fadeOut = clip.transitionOut > .zero ? clip.transitionOut : clip.clip.fadeOut
            if let fadeOut {
                lane.setVolumeRamp(fromStartVolume: volume, toEndVolume: 0, timeRange: TimeRange(start: clip.end - fadeOut, end: clip.end))
                level[clip.lane] = 0
            }
            parameters[clip.lane] = lane
        }
        return parameters.keys.sorted().compactMap { parameters[$0] }.filter { !$0.volumes.isEmpty }
    }

    private mutating func musicTrack(
        _ music: ShortFormDocument.Music, trackID: Int32, total: MediaTime
    ) -> (DocumentTrack, AudioMixInputParameters?)? {
        let path = DocumentPath("music")
        guard let asset = assets[music.source] else {
            problems.add(path.appending("source"), "'\(music.source)' was not loaded")
            return nil
        }
        guard let audio = asset.tracks(withMediaType: .audio).first else {
            problems.add(path.appending("source"), "'\(music.source)' has no audio track")
            return nil
        }
        let start = music.start ?? .zero
        let trackEnd = audio.timeRange.end
        guard start.isNumeric, start >= .zero, start < trackEnd else {
            problems.add(path.appending("start"), "\(start.secondsText) is not a time from 0 to the end of '\(music.source)' (\(trackEnd.secondsText))")
            return nil
        }
        var length = total
        if let duration = music.duration {
            guard duration.isNumeric, duration > .zero else {
                problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
                return nil
            }
            if duration > total {
                problems.add(path.appending("duration"), "\(duration.secondsText) is longer than the clips (\(total.secondsText)); music never extends the edit")
                return nil
            }
            length = duration
        }
        var segments: [DocumentSegment] = []
        var at = MediaTime.zero
        var from = start
        while at < length {
            let piece = Swift.min(trackEnd - from, length - at)
            segments.append(DocumentSegment(
                source: music.source, track: .trackID(audio.trackID), timeRange: TimeRange(start: from, duration: piece), at: at))
            at = at + piece
            from = .zero
            if !(music.loop ?? false) { break }
        }
        let end = at
        let volume = music.volume ?? 1
        if !(volume.isFinite && volume >= 0) {
            problems.add(path.appending("volume"), "\(volume) is not a gain ≥ 0 (1 = unchanged, 0 = silent)")
            return nil
        }
        var parameters = AudioMixInputParameters(trackID: trackID)
        for (name, fade) in [("fadeIn", music.fadeIn), ("fadeOut", music.fadeOut)] {
            guard let fade else { continue }
            if !fade.isNumeric || fade <= .zero || fade > end {
                problems.add(path.appending(name), "\(fade.secondsText) is not a duration from 0 to the music's length (\(end.secondsText))")
                return nil
            }
        }
        if let fadeIn = music.fadeIn, let fadeOut = music.fadeOut, fadeIn + fadeOut > end {
            problems.add(path.appending("fadeOut"), "the fade-in and fade-out overlap: the music lasts \(end.secondsText)")
            return nil
        }
        if let fadeIn = music.fadeIn {
            parameters.setVolumeRamp(fromStartVolume: 0, toEndVolume: volume, timeRange: TimeRange(start: .zero, duration: fadeIn))
        } else if volume != 1 {
            parameters.setVolume(volume, at: .zero)
        }
        if let fadeOut = music.fadeOut {
            parameters.setVolumeRamp(fromStartVolume: volume, toEndVolume: 0, timeRange: TimeRange(start: end - fadeOut, end: end))
        }
        let track = DocumentTrack(trackID: trackID, mediaType: .audio, segments: segments)
        return (track, parameters.volumes.isEmpty ? nil : parameters)
    }

    // MARK: Overlays

    private mutating func overlayLayer(
        _ overlay: ShortFormDocument.Overlay, index: Int, renderSize: Size, total: MediaTime
    ) -> OverlayLayer? {
        let path = DocumentPath("overlays").appending(index)
        let content: OverlayLayer.Content
        var naturalSize: (width: Double, height: Double)?
        switch (overlay.image, overlay.text) {
        case (let image?, nil):
            guard let asset = assets[image] else {
                problems.add(path.appending("image"), "'\(image)' was not loaded")
                return nil
            }
            guard let picture = asset.tracks(withMediaType: .video).first?.video else {
                problems.add(path.appending("image"), "'\(image)' has no picture")
                return nil
            }
            let display = picture.displaySize
            naturalSize = (Double(display.width), Double(display.height))
            content = .image(resolve(image))
            for (name, present) in [("fontSize", overlay.fontSize != nil), ("fontFamily", overlay.fontFamily != nil),
                                    ("fontFile", overlay.fontFile != nil), ("color", overlay.color != nil),
                                    ("backgroundColor", overlay.backgroundColor != nil), ("padding", overlay.padding != nil),
                                    ("alignment", overlay.alignment != nil)] where present {
                problems.add(path.appending(name), "applies to text overlays only; this overlay shows an image")
            }
        case (nil, let text?):
            content = .text(TextLayerContent(
                string: text, fontFile: overlay.fontFile.map(resolve), fontFamily: overlay.fontFamily ?? "sans-serif",
                fontSize: overlay.fontSize ?? ShortFormDocument.defaultFontSize, color: overlay.color ?? .white,
                alignment: overlay.alignment ?? .center, backgroundColor: overlay.backgroundColor,
                padding: overlay.padding ?? 0))
        case (nil, nil):
            problems.add(path, "an overlay needs \"image\" (a file) or \"text\"")
            return nil
        case (_?, _?):
            problems.add(path, "an overlay shows an \"image\" or a \"text\", not both")
            return nil
        }

        var usable = true
        if let fontSize = overlay.fontSize, !(fontSize.isFinite && fontSize > 0) {
            problems.add(path.appending("fontSize"), "\(fontSize) is not a text size > 0 (pixels)")
            usable = false
        }
        if let padding = overlay.padding, !(padding.isFinite && padding >= 0) {
            problems.add(path.appending("padding"), "\(padding) is not a number of pixels ≥ 0")
            usable = false
        }
        if let opacity = overlay.opacity, !(0...1).contains(opacity) {
            problems.add(path.appending("opacity"), "\(opacity) is outside 0…1")
            usable = false
        }
        if let margin = overlay.margin, !margin.isFinite {
            problems.add(path.appending("margin"), "\(margin) is not a number of pixels")
            usable = false
        }
        if let fontFile = overlay.fontFile, case let url = resolve(fontFile), !FileManager.default.fileExists(atPath: url.path) {
            problems.add(path.appending("fontFile"), "no such file '\(fontFile)' (\(url.path))")
            usable = false
        }
        for (name, value) in [("width", overlay.width), ("height", overlay.height)] {
            if let value, !(value.isFinite && value > 0) {
                problems.add(path.appending(name), "\(value) is not a number of pixels > 0")
                usable = false
            }
        }
        guard usable else { return nil }

        let frame: Rect
        if let layer = overlay.layer {
            for (name, present) in [("position", overlay.position != nil), ("margin", overlay.margin != nil),
                                    ("width", overlay.width != nil), ("height", overlay.height != nil)] where present {
                problems.add(path.appending(name), "an overlay placed by \"layer\" (Core Animation geometry) takes no \"\(name)\"")
                usable = false
            }
            let placed = layer.frame(inCanvasOf: renderSize)
            guard usable, [placed.x, placed.y, placed.width, placed.height].allSatisfy(\.isFinite), placed.width > 0, placed.height > 0 else {
                if usable { problems.add(path.appending("layer"), "the layer's bounds (\(placed.width) × \(placed.height) pixels) must be > 0 and its position finite") }
                return nil
            }
            frame = placed
        } else {
            guard let placed = frameFromPosition(overlay, path: path, naturalSize: naturalSize, renderSize: renderSize) else { return nil }
            frame = placed
        }

        let start = overlay.start ?? .zero
        guard start.isNumeric, start >= .zero, start < total else {
            problems.add(path.appending("start"), "\(start.secondsText) is not a time from 0 to the end of the edit (\(total.secondsText))")
            return nil
        }
        let duration = overlay.duration ?? (total - start)
        guard duration.isNumeric, duration > .zero else {
            problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
            return nil
        }
        if start + duration > total {
            problems.add(path.appending("duration"), "the overlay ends at \((start + duration).secondsText), after the end of the edit (\(total.secondsText))")
            return nil
        }
        let opacity = overlay.opacity ?? 1
        let range = TimeRange(start: start, duration: duration)
        var layer = OverlayLayer(content: content, frame: frame, timeRange: range, opacity: opacity)
        for (name, fade) in [("fadeIn", overlay.fadeIn), ("fadeOut", overlay.fadeOut)] {
            guard let fade else { continue }
            if !fade.isNumeric || fade <= .zero || fade > duration {
                problems.add(path.appending(name), "\(fade.secondsText) is not a duration from 0 to the overlay's (\(duration.secondsText))")
                return nil
            }
        }
        if let fadeIn = overlay.fadeIn, let fadeOut = overlay.fadeOut, fadeIn + fadeOut > duration {
            problems.add(path.appending("fadeOut"), "the fade-in and fade-out overlap: the overlay shows for \(duration.secondsText)")
            return nil
        }
        if let fadeIn = overlay.fadeIn {
            layer.opacities.setRamp(from: 0, to: opacity, timeRange: TimeRange(start: start, duration: fadeIn))
        }
        if let fadeOut = overlay.fadeOut {
            layer.opacities.setRamp(from: opacity, to: 0, timeRange: TimeRange(start: range.end - fadeOut, end: range.end))
        }
        return layer
    }

    /// The overlay's frame from its named or pixel ``ShortFormDocument/Overlay/position``, margin and size, or nil
    /// (with the problem recorded) when the size is not usable.
    private mutating func frameFromPosition(
        _ overlay: ShortFormDocument.Overlay, path: DocumentPath, naturalSize: (width: Double, height: Double)?, renderSize: Size
    ) -> Rect? {
        let margin = overlay.margin ?? 0
        var width: Double, height: Double
        if let natural = naturalSize {
            switch (overlay.width, overlay.height) {
            case let (w?, h?): (width, height) = (w, h)
            case let (w?, nil): (width, height) = (w, natural.width > 0 ? w * natural.height / natural.width : 0)
            case let (nil, h?): (width, height) = (natural.height > 0 ? h * natural.width / natural.height : 0, h)
            case (nil, nil): (width, height) = natural
            }
        } else {
            let fontSize = overlay.fontSize ?? ShortFormDocument.defaultFontSize
            let lines = Double((overlay.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).count)
            width = overlay.width ?? (Double(renderSize.width) - 2 * margin)
            height = overlay.height ?? (lines * fontSize * 1.25 + 2 * (overlay.padding ?? 0)).rounded(.up)
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0, margin.isFinite else {
            problems.add(path, "the overlay's size (\(width) × \(height) pixels) or margin (\(margin)) is not usable: width and height must be > 0")
            return nil
        }
        let canvasWidth = Double(renderSize.width), canvasHeight = Double(renderSize.height)
        let origin: Point
        switch overlay.position ?? .named(.center) {
        case .point(let point): origin = point
        case .named(let anchor):
            let left = margin, centerX = (canvasWidth - width) / 2, right = canvasWidth - width - margin
            let top = margin, centerY = (canvasHeight - height) / 2, bottom = canvasHeight - height - margin
            switch anchor {
            case .topLeft: origin = Point(x: left, y: top)
            case .top: origin = Point(x: centerX, y: top)
            case .topRight: origin = Point(x: right, y: top)
            case .left: origin = Point(x: left, y: centerY)
            case .center: origin = Point(x: centerX, y: centerY)
            case .right: origin = Point(x: right, y: centerY)
            case .bottomLeft: origin = Point(x: left, y: bottom)
            case .bottom: origin = Point(x: centerX, y: bottom)
            case .bottomRight: origin = Point(x: right, y: bottom)
            }
        }

        return Rect(x: origin.x, y: origin.y, width: width, height: height)
    }

    private func resolve(_ path: String) -> URL {
        DocumentSources.url(for: path, folder: folder)
    }
}
