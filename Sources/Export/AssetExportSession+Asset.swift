import Composition
import Foundation

extension AssetExportSession {
    /// A session that exports a plain loaded file — every video and audio track, whole — as
    /// `AVAssetExportSession(asset:presetName:)` takes any `AVAsset`. Transcoding a file is one line:
    ///
    /// ```swift
    /// try await AssetExportSession(asset: Asset.load(from: input), preset: .preset1280x720).export(to: output)
    /// ```
    ///
    /// The composition is `MutableComposition(asset:)` (each track from time 0, its orientation kept); it is
    /// available as ``asset``.
    ///
    /// - Parameters:
    ///   - asset: a file loaded with `Asset.load(from:)`.
    ///   - preset: the AVFoundation preset.
    /// - Throws: ``ExportError/invalidComposition(_:)`` naming the file when it has no video or audio track or no
    ///   finite duration (a still image: insert it into a composition for a chosen duration).
    public convenience init(asset: Asset, preset: ExportPreset) throws {
        self.init(asset: try Self.composition(of: asset), preset: preset)
    }

    /// A session that exports a plain loaded file with an AVFoundation preset name (`"AVAssetExportPreset1280x720"`,
    /// …), as `AVAssetExportSession(asset:presetName:)`; see the `Asset` form of `init(asset:preset:)`.
    ///
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for an unknown preset; ``ExportError/invalidComposition(_:)``
    ///   as the `Asset` form of `init(asset:preset:)`.
    public convenience init(asset: Asset, presetName: String) throws {
        try self.init(asset: try Self.composition(of: asset), presetName: presetName)
    }

    /// A session that exports a plain loaded file with explicit encoder settings; see
    /// the `Asset` form of `init(asset:preset:)`.
    ///
    /// - Throws: ``ExportError/invalidComposition(_:)`` as the `Asset` form of `init(asset:preset:)`.
    public convenience init(asset: Asset, settings: ExportSettings) throws {
        self.init(asset: try Self.composition(of: asset), settings: settings)
    }

    /// Sets ``outputURL`` to `url` and runs ``export()``: the file-to-file call in one line.
    ///
    /// - Throws: what ``export()`` throws.
    public func export(to url: URL) async throws {
        outputURL = url
        try await export()
    }

    /// The composition of all of `asset`'s tracks, with a composition error reported as an export error naming the
    /// file.
    static func composition(of asset: Asset) throws(ExportError) -> MutableComposition {
        do {
            return try MutableComposition(asset: asset)
        } catch {
            throw ExportError.invalidComposition("\(asset.url.path): \(error)")
        }
    }
}
