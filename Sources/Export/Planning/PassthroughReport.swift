import Composition

/// What a passthrough export (``ExportPreset/passthrough``) did with each audio track: copied its source's packets,
/// or rendered and encoded it because a cut falls off the source's packet grid
/// (``AssetExportSession/passthroughAudioCuts``).
public struct PassthroughReport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One exported audio track.
    public struct AudioTrack: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The composition track's ID.
        public var trackID: Int32
        /// True when the track was rendered and encoded instead of copied.
        public var isReencoded: Bool
        /// Why: the first cut off the packet grid ("segments[1] of track 2 (clip.mp4 track 2) starts at 1.000 s of its
        /// source, 896 samples past a packet boundary"), what kept such a track copied, or that every cut is on the
        /// grid.
        public var reason: String

        /// A track's entry.
        public init(trackID: Int32, isReencoded: Bool, reason: String) {
            self.trackID = trackID
            self.isReencoded = isReencoded
            self.reason = reason
        }

        /// "audio track 2 re-encoded: …" or "audio track 2 copied: …".
        public var description: String {
            "audio track \(trackID) \(isReencoded ? "re-encoded" : "copied"): \(reason)"
        }
    }

    /// The exported audio tracks, in the composition's order.
    public var audioTracks: [AudioTrack]

    /// A report.
    public init(audioTracks: [AudioTrack]) {
        self.audioTracks = audioTracks
    }

    /// The IDs of the tracks that were rendered and encoded.
    public var reencodedTrackIDs: [Int32] { audioTracks.filter(\.isReencoded).map(\.trackID) }

    /// One line per audio track.
    public var description: String { audioTracks.map(\.description).joined(separator: "\n") }
}
