import AssetIO
import AudioMix
import Composition
import Export
import Foundation
import SpliceFFmpeg
import VideoComposition

/// Packages a composition for adaptive-bitrate streaming: a ladder of H.264 renditions and one AAC rendition, cut
/// into CMAF (fragmented MP4) segments shared by an HLS master playlist with its media playlists and a DASH
/// manifest.
///
/// The programme is decoded and composited once — the export's own compositor and mixer, exactly the pictures and
/// sound an export of the composition encodes — and one filter graph splits every picture into each rendition's
/// scaler and encoder; the sound is mixed and encoded once, as its own rendition group. Every rendition forces an
/// IDR picture (a closed group of pictures) at each multiple of ``segmentDuration`` rounded to the picture grid, so
/// every segment of every rendition starts at the same time on a key frame and a player can switch between them at
/// any segment.
///
/// Like ``Export/AssetExportSession``, a packager is a `Sendable` session: configure it, then `try await
/// write(to:)`; ``progress``, ``progressUpdates`` and ``cancelPackaging()`` may be used from any task meanwhile.
///
/// ```swift
/// let packager = AdaptiveBitratePackager(asset: composition)      // the default ladder, 6 s segments
/// packager.segmentDuration = MediaTime(seconds: 4)
/// let package = try await packager.write(to: URL(fileURLWithPath: "out/show"))
/// // out/show/master.m3u8, out/show/manifest.mpd, out/show/720p-3000k/{init.mp4,segment0.m4s,…,playlist.m3u8}, …
/// ```
///
/// Every enabled subtitle track of the composition with cues becomes a WebVTT rendition (`subtitles-TRACKID/`): HLS
/// segments aligned with the video's, in an `EXT-X-MEDIA` subtitles group every variant names, and one
/// whole-programme file in a DASH text `AdaptationSet` (``AdaptiveBitratePackage/SubtitleRendition``). The cues are
/// placed as an export places them and written by the export's subtitle writer.
///
/// The programme lasts to the end of the composition's last video or audio track. A subtitle track whose last cue
/// ends later does not lengthen it: the subtitle segments end with the last video segment and a cue crossing the end
/// is cut there. (An export keeps AVFoundation's rule instead: its file lasts as the composition's longest track.)
///
/// The package is written in a hidden folder beside `directory` (`.splice-package-UUID`), the playlists and
/// manifest last, and renamed into place when complete (`rename(2)`): a failure or a cancellation leaves nothing,
/// and a player never sees a playlist naming a segment that is not there yet. The hidden folder is locked
/// (`flock(2)`) while its process lives; one that a killed process left is removed by the next package written
/// into the same folder.
public final class AdaptiveBitratePackager: Sendable {
    /// The settings, set before ``write(to:)``.
    private struct Settings {
        var videoComposition: MutableVideoComposition?
        var audioMix: MutableAudioMix?
        var ladder: AdaptiveBitrateLadder = .default
        var segmentDuration = MediaTime(seconds: 6)
        var encoderPreset = "medium"
        var audioSettings = AudioSettings(codec: .aac, bitRate: 128_000, sampleRate: 48_000, channelCount: 2)
        var manifestFormats: Set<StreamingManifestFormat> = [.hls, .dash]
        var overwritesExistingOutput = false
    }

    /// Where a run is: whether one is writing or has completed, and its progress with the streams to tell.
    private struct State {
        var writing = false
        var completed = false
        var progress = ProgressBroadcast()
    }

    /// The composition.
    public let asset: MutableComposition
    private let settings = Locked(Settings())
    private let state = Locked(State())
    private let cancellation = CancellationFlag()

    /// How its pictures are composed; nil uses `MutableVideoComposition(propertiesOf:)`, as export.
    public var videoComposition: MutableVideoComposition? {
        get { settings.withLock { $0.videoComposition } }
        set { settings.withLock { $0.videoComposition = newValue } }
    }
    /// How its sound is mixed; nil plays every track at its preferred volume, as export.
    public var audioMix: MutableAudioMix? {
        get { settings.withLock { $0.audioMix } }
        set { settings.withLock { $0.audioMix = newValue } }
    }
    /// The video renditions; ``AdaptiveBitrateLadder/default`` unless set.
    public var ladder: AdaptiveBitrateLadder {
        get { settings.withLock { $0.ladder } }
        set { settings.withLock { $0.ladder = newValue } }
    }
    /// The segment duration (exact): segments start at every multiple of it, rounded up to the picture grid. 6 s by
    /// default, the target duration Apple's HLS authoring rules recommend.
    public var segmentDuration: MediaTime {
        get { settings.withLock { $0.segmentDuration } }
        set { settings.withLock { $0.segmentDuration = newValue } }
    }
    /// libx264's speed preset for every rendition (`medium` by default).
    public var encoderPreset: String {
        get { settings.withLock { $0.encoderPreset } }
        set { settings.withLock { $0.encoderPreset = newValue } }
    }
    /// The audio rendition's encoding: AAC at 128 kb/s, 48 kHz stereo by default. Only AAC is packaged.
    public var audioSettings: AudioSettings {
        get { settings.withLock { $0.audioSettings } }
        set { settings.withLock { $0.audioSettings = newValue } }
    }
    /// The manifests to write; both by default.
    public var manifestFormats: Set<StreamingManifestFormat> {
        get { settings.withLock { $0.manifestFormats } }
        set { settings.withLock { $0.manifestFormats = newValue } }
    }
    /// Replace an existing folder at the output; false by default (it is refused before anything is rendered).
    public var overwritesExistingOutput: Bool {
        get { settings.withLock { $0.overwritesExistingOutput } }
        set { settings.withLock { $0.overwritesExistingOutput = newValue } }
    }

    /// A packager of `asset` with the default ladder.
    public init(asset: MutableComposition) {
        self.asset = asset
    }

    /// How far ``write(to:)`` is, 0…1, monotonic, as ``Export/AssetExportSession/progress``: the sound's mixed and
    /// encoded time ÷ the duration up to 0.05 (the sound is encoded first, once), then the pictures rendered and
    /// encoded into every rendition ÷ the picture count up to 0.95 (up to 0.9 of the whole without sound), the
    /// encoders' flush 0.97 and the manifests 0.99; 1.0 only when the package is complete and in place.
    public var progress: Double { state.withLock { $0.progress.value } }

    /// A stream of ``progress`` values (0…1, monotonic) that keeps only the newest value when the reader is slow;
    /// it finishes when ``write(to:)`` ends. Each access makes a new stream.
    public var progressUpdates: AsyncStream<Double> {
        state.withLock { $0.progress.makeStream() }
    }

    /// Stops a running ``write(to:)`` promptly; it then throws `CancellationError` and nothing is left behind.
    /// Calling it before ``write(to:)`` makes the packaging cancel at once (as
    /// ``Export/AssetExportSession/cancelExport()``).
    public func cancelPackaging() {
        cancellation.cancel()
    }

    private func publish(progress value: Double) {
        state.withLock { _ = $0.progress.publish(value) }
    }

    private func end(completed: Bool) {
        state.withLock { state in
            state.writing = false
            state.completed = completed
            state.progress.finish(completed: completed)
        }
    }

    /// The name start of the hidden folders packages are built in, beside the output (`.splice-package-UUID`).
    package static let workFolderPrefix = ".splice-package"

    /// The HLS master playlist's file name.
    public static let masterPlaylistName = "master.m3u8"
    /// Each rendition's media playlist's file name, in its folder.
    public static let mediaPlaylistName = "playlist.m3u8"
    /// The DASH manifest's file name.
    public static let dashManifestName = "manifest.mpd"

    /// Checks the settings without rendering.
    /// - Throws: ``PackagingError`` for an empty or invalid ladder, a segment duration that is not positive, no
    ///   manifest format, a missing parent folder or an existing output (unless ``overwritesExistingOutput``).
    public func validate(output directory: URL) throws(PackagingError) {
        try Self.validate(settings.withLock { $0 }, output: directory)
    }

    private static func validate(_ settings: Settings, output directory: URL) throws(PackagingError) {
        try settings.ladder.validate()
        let duration = settings.segmentDuration
        guard duration.isNumeric, duration > .zero else { throw .invalidSegmentDuration(duration) }
        guard !settings.manifestFormats.isEmpty else { throw .noManifestFormat }
        let audio = settings.audioSettings
        guard audio.codec == .aac, audio.bitRate > 0 else {
            throw .encodingFailed(rendition: "audio", reason: "only AAC at a positive bit rate is packaged, not \(audio.codec.rawValue) at \(audio.bitRate) b/s")
        }
        var isFolder: ObjCBool = false
        let parent = directory.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .outputParentMissing(directory)
        }
        if !settings.overwritesExistingOutput, FileManager.default.fileExists(atPath: directory.path) { throw .outputExists(directory) }
    }

    /// Renders, encodes and segments every rendition into the folder `directory`, then writes the manifests.
    /// - Returns: the renditions with their measured bit rates and segment durations, and the manifests' URLs.
    ///   ``progress`` and ``progressUpdates`` follow it; ``cancelPackaging()`` or task cancellation stop it.
    /// - Throws: ``PackagingError`` (invalid settings, an existing output, no video, an encoder or a write failing; a
    ///   call while another runs or after one completed: a packager writes one package, as an export session exports
    ///   once),
    ///   the export's ``Export/ExportError`` for a composition it cannot render, `CancellationError`. Nothing is
    ///   left behind when it throws.
    public func write(to directory: URL) async throws -> AdaptiveBitratePackage {
        // One write at a time, and none after one that completed; a refused or failed one may be tried again.
        let claimed = state.withLock { state -> Bool in
            guard !state.writing, !state.completed else { return false }
            state.writing = true
            state.progress.restart()
            return true
        }
        guard claimed else { throw PackagingError.alreadyWritten }
        var completed = false
        defer { end(completed: completed) }
        let package = try await run(to: directory.standardizedFileURL)
        completed = true
        return package
    }

    private func run(to directory: URL) async throws -> AdaptiveBitratePackage {
        let settings = settings.withLock { $0 }
        try Self.validate(settings, output: directory)
        if cancellation.isCancelled { throw CancellationError() }
        // Hidden beside the output and locked while this process lives: the next package into this folder removes
        // it if this process is killed.
        let work: WorkFolder
        do {
            work = try WorkFolder(in: directory.deletingLastPathComponent(), prefix: Self.workFolderPrefix)
        } catch ExportError.outputNotWritable(_, let reason) {
            throw PackagingError.writeFailed(directory, reason: reason)
        }
        defer { work.remove() }
        let staging = work.url
        let encoding = LadderEncoding(composition: asset, videoComposition: settings.videoComposition, audioMix: settings.audioMix,
                                      ladder: settings.ladder, segmentDuration: settings.segmentDuration,
                                      encoderPreset: settings.encoderPreset, audioSettings: settings.audioSettings)
        let cancellation = cancellation
        var package = try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.package") { [self] in
                do {
                    var package = try encoding.run(into: staging, cancellation: cancellation) { publish(progress: $0) }
                    package.subtitleRenditions = try SubtitleRenditions(composition: asset).write(
                        into: staging, segmentDurations: package.videoRenditions.first?.segmentDurations ?? [],
                        duration: package.duration, cancellation: cancellation)
                    return package
                } catch {
                    if cancellation.isCancelled { throw CancellationError() }
                    throw error
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        try Task.checkCancellation()
        if cancellation.isCancelled { throw CancellationError() }
        publish(progress: 0.97)
        try writeManifests(of: &package, in: staging, finalDirectory: directory, formats: settings.manifestFormats)
        publish(progress: 0.99)
        try moveIntoPlace(staging, to: directory)
        work.release()
        package.directory = directory
        return package
    }

    /// The media playlists, then the master playlist and the DASH manifest, each written whole (temporary file +
    /// rename).
    private func writeManifests(of package: inout AdaptiveBitratePackage, in staging: URL, finalDirectory: URL,
                                formats manifestFormats: Set<StreamingManifestFormat>) throws {
        func write(_ text: String, to url: URL) throws {
            do {
                try Data(text.utf8).write(to: url, options: .atomic)
            } catch {
                throw PackagingError.writeFailed(url, reason: FailureReason.words(for: error))
            }
        }
        if manifestFormats.contains(.hls) {
            for rendition in package.videoRenditions + (package.audioRendition.map { [$0] } ?? []) {
                let segments = rendition.segmentDurations.enumerated().map { index, duration in
                    HLSMediaPlaylist.Segment(uri: "segment\(index).m4s", duration: duration)
                }
                let playlist = HLSMediaPlaylist(initializationSegmentURI: "init.mp4", segments: segments)
                try write(playlist.text, to: staging.appendingPathComponent(rendition.name).appendingPathComponent(Self.mediaPlaylistName))
            }
            for rendition in package.subtitleRenditions {
                let segments = rendition.segmentDurations.enumerated().map { index, duration in
                    HLSMediaPlaylist.Segment(uri: SubtitleRenditions.segmentName(index), duration: duration)
                }
                let playlist = HLSMediaPlaylist(initializationSegmentURI: nil, segments: segments)
                try write(playlist.text, to: staging.appendingPathComponent(rendition.name).appendingPathComponent(Self.mediaPlaylistName))
            }
            try write(HLSMasterPlaylist(package: package, mediaPlaylistName: Self.mediaPlaylistName).text,
                      to: staging.appendingPathComponent(Self.masterPlaylistName))
            package.masterPlaylist = finalDirectory.appendingPathComponent(Self.masterPlaylistName)
        }
        if manifestFormats.contains(.dash) {
            try write(DASHManifest(package: package).text, to: staging.appendingPathComponent(Self.dashManifestName))
            package.dashManifest = finalDirectory.appendingPathComponent(Self.dashManifestName)
        }
    }

    /// Renames the finished folder into place; an existing one (overwriting was asked) is renamed aside first and
    /// removed after.
    private func moveIntoPlace(_ staging: URL, to directory: URL) throws {
        var aside: URL?
        if FileManager.default.fileExists(atPath: directory.path) {
            let old = directory.deletingLastPathComponent()
                .appendingPathComponent(".\(directory.lastPathComponent).\(UUID().uuidString).old")
            guard rename(directory.path, old.path) == 0 else {
                throw PackagingError.writeFailed(directory, reason: String(cString: strerror(errno)))
            }
            aside = old
        }
        guard rename(staging.path, directory.path) == 0 else {
            let reason = String(cString: strerror(errno))
            if let aside { _ = rename(aside.path, directory.path) }
            throw PackagingError.writeFailed(directory, reason: reason)
        }
        if let aside { try? FileManager.default.removeItem(at: aside) }
    }
}
