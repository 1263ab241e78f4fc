import Composition
import Foundation

extension JSONText {
    /// An asset as `splice probe --json` prints it: the asset's `Codable` form, with two derived members added to
    /// each video track's `video` object — `displaySize` (the upright size in square pixels,
    /// ``Composition/VideoTrackFormat/displaySize``) and `rotation` (``rotationDegrees(of:)``).
    ///
    /// - Throws: `EncodingError` for a non-finite number.
    public static func pretty(probing asset: Asset) throws -> String {
        try probeNode(asset).prettyPrinted()
    }

    /// Several assets as a JSON array, each as ``pretty(probing:)`` prints it.
    ///
    /// - Throws: `EncodingError` for a non-finite number.
    public static func pretty(probing assets: [Asset]) throws -> String {
        JSONNode(.array(try assets.map(probeNode))).prettyPrinted()
    }

    /// The clockwise rotation on screen, in whole degrees 0, 90, 180 or 270 (any other angle rounded to the
    /// degree, 0 ≤ angle < 360), of a track's preferred transform — what a player turns the picture by.
    public static func rotationDegrees(of transform: AffineTransform2D) -> Int {
        let degrees = Int((atan2(transform.b, transform.a) * 180 / .pi).rounded())
        return ((degrees % 360) + 360) % 360
    }

    private static func probeNode(_ asset: Asset) throws -> JSONNode {
        var node = try JSONNodeEncoder.encode(asset)
        guard var tracks = node["tracks"]?.elements else { return node }
        for (index, track) in asset.tracks.enumerated() where tracks.indices.contains(index) {
            guard let video = track.video, var videoNode = tracks[index]["video"] else { continue }
            videoNode["displaySize"] = try JSONNodeEncoder.encode(video.displaySize)
            videoNode["rotation"] = JSONNode(.number("\(rotationDegrees(of: video.preferredTransform))"))
            tracks[index]["video"] = videoNode
        }
        node["tracks"] = JSONNode(.array(tracks))
        return node
    }
}
