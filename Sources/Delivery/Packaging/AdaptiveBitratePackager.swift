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
/// ```swift
/// var packager = AdaptiveBitratePackager(asset: composition)      // the default ladder, 6 s segments
/// packager.segmentDuration = MediaTime(seconds: 4)
/// let package = try await packager.write(to: URL(fileURLWithPath: "out/show"))
/// // out/show/master.m3u8, out/show/manifest.mpd, out/show/720p-3000k/{init.mp4,segment0.m4s,…,playlist.m3u8}, …
/// ```
///
/// The package is written in a hidden folder beside `directory` (`.splice-package-UUID`), the playlists and
/// manifest last, and renamed into place when complete (`rename(2)`): a failure or a cancellation leaves nothing,
/// and a player never sees a playlist naming a segment that is not there yet. The hidden folder is locked
/// (`flock(2)`) while its process lives; one that a killed process left is removed by the next package written
/// into the same folder.
public struct AdaptiveBitratePackager: Sendable {
    /// The composition.
    public var asset: MutableComposition
    /// How its pictures are composed; nil uses `MutableVideoComposition(propertiesOf:)`, as export.
    public var videoComposition: MutableVideoComposition?
    /// How its sound is mixed; nil plays every track at its preferred volume, as export.
    public var audioMix: MutableAudioMix?
    /// The video renditions; ``AdaptiveBitrateLadder/default`` unless set.
    public var ladder: AdaptiveBitrateLadder = .default
    /// The segment duration (exact): segments start at every multiple of it, rounded up to the picture grid. 6 s by
    /// default, the target duration Apple's HLS authoring rules recommend.
    public var segmentDuration = MediaTime(seconds: 6)
    /// libx264's speed preset for every rendition (`medium` by default).
    public var encoderPreset = "medium"
    /// The audio rendition's encoding: AAC at 128 kb/s, 48 kHz stereo by default. Only AAC is packaged.
    public var audioSettings = AudioSettings(codec: .aac, bitRate: 128_000, sampleRate: 48_000, channelCount: 2)
    /// The manifests to write; both by default.
    public var manifestFormats: Set<StreamingManifestFormat> = [.hls, .dash]
    /// Replace an existing folder at the output; false by default (it is refused before anything is rendered).
    public var overwritesExistingOutput = false

    /// A packager of `asset` with the default ladder.
    public init(asset: MutableComposition) {
        self.asset = asset
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
        try ladder.validate()
        guard segmentDuration.isNumeric, segmentDuration > .zero else { throw .invalidSegmentDuration(segmentDuration) }
        guard !manifestFormats.isEmpty else { throw .noManifestFormat }
        guard audioSettings.codec == .aac, audioSettings.bitRate > 0 else {
            throw .encodingFailed(rendition: "audio", reason: "only AAC at a positive bit rate is packaged, not \(audioSettings.codec.rawValue) at \(audioSettings.bitRate) b/s")
        }
        var isFolder: ObjCBool = false
        let parent = directory.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .outputParentMissing(directory)
        }
        if !overwritesExistingOutput, FileManager.default.fileExists(atPath: directory.path) { throw .outputExists(directory) }
    }

    /// Renders, encodes and segments every rendition into the folder `directory`, then writes the manifests.
    /// - Returns: the renditions with their measured bit rates and segment durations, and the manifests' URLs.
    /// - Throws: ``PackagingError`` (invalid settings, an existing output, no video, an encoder or a write failing),
    ///   the export's ``Export/ExportError`` for a composition it cannot render, `CancellationError`. Nothing is
    ///   left behind when it throws.
    public func write(to directory: URL) async throws -> AdaptiveBitratePackage {
        let directory = directory.standardizedFileURL
        try validate(output: directory)
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
        let encoding = LadderEncoding(composition: asset, videoComposition: videoComposition, audioMix: audioMix, ladder: ladder,
                                      segmentDuration: segmentDuration, encoderPreset: encoderPreset, audioSettings: audioSettings)
        let cancellation = CancellationFlag()
        var package = try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.package") {
                do {
                    return try encoding.run(into: staging, cancellation: cancellation)
                } catch {
                    if cancellation.isCancelled { throw CancellationError() }
                    throw error
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        try Task.checkCancellation()
        try writeManifests(of: &package, in: staging, finalDirectory: directory)
        try moveIntoPlace(staging, to: directory)
        work.release()
        package.directory = directory
        return package
    }

    /// The media playlists, then the master playlist and the DASH manifest, each written whole (temporary file +
    /// rename).
    private func writeManifests(of package: inout AdaptiveBitratePackage, in staging: URL, finalDirectory: URL) throws {
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
