import Composition

/// The composition of a ``CompositionDocument``: AVFoundation's `AVMutableComposition` as a person writes it — tracks
/// whose segments name source files — compiled by ``compile(assets:)`` into a ``Composition/MutableComposition``.
public struct DocumentComposition: Sendable, Hashable, Codable {
    /// The authored picture size in pixels, as `AVMutableComposition.naturalSize`; nil for "not set".
    public var naturalSize: Size?
    /// The tracks, in order (the first video track is the top-most in a default video composition).
    public var tracks: [DocumentTrack]

    /// A composition of `tracks`.
    public init(naturalSize: Size? = nil, tracks: [DocumentTrack]) {
        self.naturalSize = naturalSize
        self.tracks = tracks
    }
}
