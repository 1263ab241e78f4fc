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
        let movieFragmentInterval = try checkMovieFragmentInterval(fileType: fileType)
        try checkCustomCompositor()
        try checkConcurrentSegments()
        try checkMetadataLocations()
        guard var settings else {
            if request.smartRendering {
                throw ExportError.unsupportedSettings(
                    "smartRendering needs encoder settings for the spans it re-encodes; the passthrough preset copies "
                        + "everything or nothing")
            }
            let duration = composition.duration
            guard duration.isNumeric, duration > .zero else {
                throw ExportError.invalidComposition("the composition is empty (duration \(duration))")
            }
            let range = try exportRange(duration: duration)
            var passthrough = try PassthroughPlan.make(
                composition: composition, request: request, fileType: fileType, outputURL: outputURL, range: range)
            passthrough.movieFragmentInterval = movieFragmentInterval
            // Each copied track is one output stream, tagged by the rule the encoding export tags its streams by.
            for index in passthrough.tracks.indices {
                let tracks = composition.tracks.filter { $0.trackID == passthrough.tracks[index].trackID }
                passthrough.tracks[index].metadata = try streamMetadata(of: tracks, range: range, fileType: fileType)
            }
            var plan = ExportPlan(
                video: nil, audio: nil, settings: ExportSettings(video: nil, audio: nil), fileType: fileType,
                outputURL: outputURL, overwritesExistingFile: request.overwritesExistingFile,
                metadata: passthrough.metadata, optimizeForNetworkUse: request.shouldOptimizeForNetworkUse,
                movieFragmentInterval: movieFragmentInterval, fileLengthLimit: nil, passthrough: passthrough)
            // The cues are encoded (they are text) and written beside the copied packets.
            plan.subtitles = try makeSubtitlePlans(range: range, fileType: fileType, codec: request.subtitleCodec)
            try checkFragmentedSubtitles(plan.subtitles, interval: movieFragmentInterval)
            plan.chapters = try chapterPlan(in: range)
            plan.timedMetadata = try timedMetadataPlan(in: range, fileType: fileType)
            try checkFragmentedTimedMetadata(plan.timedMetadata, interval: movieFragmentInterval)
            return plan
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
        if let count = request.concurrentSegments, count > 1, settings.video == nil {
            throw ExportError.unsupportedSettings(
                "concurrentSegments \(count) splits the video, and this export has none (no video track with media, or an "
                    + "audio-only file type); set concurrentSegments to 1 or nil")
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
        var subtitles: [SubtitleTrackPlan] = []
        if !request.writesPicturesAndSoundOnly {
            subtitles = try makeSubtitlePlans(range: range, fileType: fileType, codec: request.subtitleCodec)
            try checkFragmentedSubtitles(subtitles, interval: movieFragmentInterval)
            try checkBurnInIsDrawn(videoPlan?.subtitleBurnIn)
        }
        var plan = ExportPlan(
            video: videoPlan, audio: audioPlan, settings: settings, fileType: fileType, outputURL: outputURL,
            overwritesExistingFile: request.overwritesExistingFile,
            metadata: request.metadata.map { ($0.key, $0.value) },
            optimizeForNetworkUse: request.shouldOptimizeForNetworkUse, movieFragmentInterval: movieFragmentInterval,
            fileLengthLimit: request.fileLengthLimit, segmentedExportDuration: request.segmentedExportDuration,
            smartRendering: request.smartRendering, smartRenderPiece: request.smartRenderPiece)
        plan.subtitles = subtitles
        if videoPlan != nil { plan.videoStreamMetadata = try streamMetadata(of: videoTracks, range: range, fileType: fileType) }
        if audioPlan != nil { plan.audioStreamMetadata = try streamMetadata(of: audioTracks, range: range, fileType: fileType) }
        if !request.writesPicturesAndSoundOnly {
            plan.chapters = try chapterPlan(in: range)
            plan.timedMetadata = try timedMetadataPlan(in: range, fileType: fileType)
            try checkFragmentedTimedMetadata(plan.timedMetadata, interval: movieFragmentInterval)
            if request.carriesSourceMetadata { plan.sourceMetadataURL = composition.firstSourceURL(in: range) }
        }
        return plan
    }

    // MARK: Checks

    /// A fragmented movie cannot carry a subtitle track exactly: FFmpeg 5.1's `mov` muxer, writing `mov_text` cues
    /// into fragments, loses their durations (every cue then lasts until the next sample or no time at all).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming `movieFragmentInterval` and the first subtitle track.
    private func checkFragmentedSubtitles(_ subtitles: [SubtitleTrackPlan], interval: MediaTime?) throws {
        guard let interval, let first = subtitles.first else { return }
        throw ExportError.unsupportedSettings(
            "movieFragmentInterval \(interval.secondsText) cannot be combined with subtitle track \(first.trackID), written "
                + "as a text track: a fragmented movie loses its cues' durations; burn it in or write it as a sidecar file")
    }

    /// Checks ``AssetExportSession/movieFragmentInterval`` for the container and the other settings: a fragmented
    /// movie's size is known only fragment by fragment (the muxer holds the current one in memory), so a
    /// ``AssetExportSession/fileLengthLimit`` cannot stop it on the frame that reaches the limit.
    /// - Returns: the interval, or nil for a regular movie.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming `movieFragmentInterval`, the cause and the setting
    ///   it cannot be combined with.
    private func checkMovieFragmentInterval(fileType: FileType) throws -> MediaTime? {
        guard let interval = try fileType.checkMovieFragmentInterval(request.movieFragmentInterval) else { return nil }
        if request.fileLengthLimit != nil {
            throw ExportError.unsupportedSettings(
                "movieFragmentInterval \(interval.secondsText) cannot be combined with fileLengthLimit: a fragmented "
                    + "movie's size is known only fragment by fragment; set one of them only")
        }
        return interval
    }

    /// Smart rendering copies untouched pictures: a burnt-in subtitle track is refused rather than shown only on
    /// the re-encoded ones.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the track and what to change.
    private func checkBurnInIsDrawn(_ burnIn: SubtitleTrackPlan?) throws {
        if request.smartRendering, let burnIn {
            throw ExportError.unsupportedSettings(
                "smartRendering copies untouched pictures, which would not show the burnt-in subtitle track \(burnIn.trackID); "
                    + "export without smartRendering")
        }
    }

    private func checkOutputLocation(_ url: URL) throws {
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError.outputNotWritable(url, reason: "the directory \(directory.path) does not exist")
        }
        if let reason = WritableFolder.creationFailure(in: directory) {
            throw ExportError.outputNotWritable(url, reason: "the directory \(directory.path) is not writable (\(reason))")
        }
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            throw ExportError.outputNotWritable(url, reason: "it is a directory")
        }
        if let trackID = trackReading(url) {
            // The finished file replaces the output at the end: the source would be gone, and the edit with it.
            throw ExportError.outputNotWritable(
                url, reason: "it is a source of the composition (track \(trackID) reads it); write the export to another file")
        }
        if !request.overwritesExistingFile {
            throw ExportError.outputFileExists(url)
        }
    }

    /// The ID of the first composition track with a segment read from the file at `url` (the same file by device
    /// and inode, whatever path or symbolic link names it), or nil.
    private func trackReading(_ url: URL) -> Int32? {
        guard let output = Self.fileIdentity(url) else { return nil }
        var checked = Set<URL>()  // each source file is looked up once, however many segments read it
        for track in composition.tracks {
            for segment in track.segments {
                if let source = segment.sourceURL, checked.insert(source).inserted, Self.fileIdentity(source) == output {
                    return track.trackID
                }
            }
        }
        return nil
    }

    /// True when `a` and `b` name one existing file (by device and inode, through hard and symbolic links).
    static func isSameFile(_ a: URL, _ b: URL) -> Bool {
        guard let identity = fileIdentity(a) else { return false }
        return fileIdentity(b) == identity
    }

    private static func fileIdentity(_ url: URL) -> [Int]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path),
              let device = (attributes[.systemNumber] as? NSNumber)?.intValue,
              let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue else { return nil }
        return [device, inode]
    }

    /// The request's time range clipped to the composition's `[0, duration)`.
    /// - Throws: ``ExportError/invalidComposition(_:)`` for a range that is not valid, starts before 0 or lies outside.
    func exportRange(duration: MediaTime) throws -> TimeRange {
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
            .mp4: [.h264, .hevc, .av1], .mov: [.h264, .hevc, .prores, .ffv1],
            .mkv: [.h264, .hevc, .prores, .vp9, .ffv1, .av1], .webm: [.vp9, .av1],
        ]
        guard allowed[fileType]?.contains(codec) ?? false else {
            throw ExportError.unsupportedSettings("a .\(fileType.rawValue) file cannot hold \(codec.rawValue) video")
        }
        guard MediaLibrary.hasEncoder(named: codec.encoderName) else { throw ExportError.encoderUnavailable(codec.encoderName) }
    }

    private func checkCodec(_ codec: AudioSettings.Codec, in fileType: FileType) throws {
        let allowed: [FileType: Set<AudioSettings.Codec>] = [
            .mp4: [.aac, .opus], .mov: [.aac, .pcm], .m4a: [.aac], .mkv: [.aac, .opus, .pcm, .vorbis], .webm: [.opus, .vorbis],
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
            let range = video.codec == .vp9 || video.codec == .av1 ? 0...63 : 0...51  // x264/x265 CRF; libvpx, SVT-AV1, libaom
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
}
