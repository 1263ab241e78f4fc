import Composition

extension AssetTrack {
    /// Identifies the stream of a file this track reads (`"path#streamIndex"`): readers and checks that open each
    /// source stream once key their caches by it.
    var sourceStreamKey: String { "\(assetURL.path)#\(streamIndex)" }
}
