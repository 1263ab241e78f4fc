import Composition
import Delivery
import Foundation

/// An adaptive-bitrate package asked for by a document's export section instead of one file: the fields and names
/// of `splice export --hls DIR --dash DIR --ladder … --segment-duration T`.
///
/// ```json
/// "export": { "package": { "hls": "show", "dash": "show", "ladder": "720p:3M,480p:1200k", "segmentDuration": "4s" } }
/// ```
///
/// `hls` and `dash` name the package folder (relative paths are read from the document's folder); give either or
/// both, and both name the same folder — the manifests share one set of CMAF segments. `splice export DOC` without
/// `-o` writes it with ``Delivery/AdaptiveBitratePackager``; the command line's `--hls`, `--dash`, `--ladder` and
/// `--segment-duration` win over these fields, and `-o` writes one file instead.
public struct DocumentPackage: Sendable, Hashable, Codable {
    /// The package folder with an HLS master playlist (`master.m3u8`) and media playlists; nil for no HLS.
    public var hls: String?
    /// The package folder with a DASH manifest (`manifest.mpd`); nil for no DASH.
    public var dash: String?
    /// The renditions (``Delivery/AdaptiveBitrateLadder``, written `"720p:3M,480p:1200k"` or
    /// `["720p:3M", "480p:1200k"]`); nil for ``Delivery/AdaptiveBitrateLadder/default``.
    public var ladder: AdaptiveBitrateLadder?
    /// The segment duration (a time: `"4s"`, `"6s"`); nil for the packager's 6 s.
    public var segmentDuration: MediaTime?

    /// A package request; every part optional (at least one of `hls` and `dash` is needed to be valid).
    public init(hls: String? = nil, dash: String? = nil, ladder: AdaptiveBitrateLadder? = nil, segmentDuration: MediaTime? = nil) {
        self.hls = hls
        self.dash = dash
        self.ladder = ladder
        self.segmentDuration = segmentDuration
    }

    /// The manifest formats asked for.
    public var manifestFormats: Set<StreamingManifestFormat> {
        Set([hls.map { _ in StreamingManifestFormat.hls }, dash.map { _ in .dash }].compactMap { $0 })
    }

    /// The package folder as written (`hls`, else `dash`).
    public var folder: String? { hls ?? dash }

    /// The problems of the request, each at its member's path under `path` (`export.package.dash`): no folder, an
    /// empty one, `hls` and `dash` naming different folders, a ladder whose rungs ``Delivery/AdaptiveBitrateLadder/validate()``
    /// refuses, a segment duration that is not positive.
    func problems(at path: DocumentPath, folder: URL) -> [(DocumentPath, String)] {
        var problems: [(DocumentPath, String)] = []
        if hls == nil, dash == nil {
            problems.append((path, "a package needs \"hls\" or \"dash\" (or both): the folder to write"))
        }
        for (key, value) in [("hls", hls), ("dash", dash)] where value?.isEmpty == true {
            problems.append((path.appending(key), "'\(key)' is an empty path"))
        }
        if let hls, let dash, !hls.isEmpty, !dash.isEmpty,
           Self.url(hls, in: folder) != Self.url(dash, in: folder) {
            problems.append((path.appending("dash"), "\"hls\" and \"dash\" share one package folder (the same segments): give the same folder to both"))
        }
        if let ladder {
            do throws(PackagingError) {
                try ladder.validate()
            } catch {
                problems.append((path.appending("ladder"), "\(error)"))
            }
        }
        if let segmentDuration, !(segmentDuration.isNumeric && segmentDuration > .zero) {
            problems.append((path.appending("segmentDuration"), "\(PackagingError.invalidSegmentDuration(segmentDuration))"))
        }
        return problems
    }

    /// `path` read from `folder` when relative, standardized.
    static func url(_ path: String, in folder: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)).standardizedFileURL
    }
}
