/// An edit: composition tracks cut from source media, as AVFoundation's `AVMutableComposition`.
///
/// A value type: copying a composition copies the edit, and every change goes through a `mutating` method. Tracks
/// are kept in the order they were added; their IDs are unique and ≥ 1. Each track's segments always tile
/// `[0, track end)` (see ``CompositionTrack``). Editing operations that throw leave the composition unchanged.
///
/// ```swift
/// var composition = MutableComposition()
/// try composition.insertTimeRange(TimeRange(start: .zero, duration: clipA.duration), of: clipA, at: .zero)
/// try composition.insertTimeRange(TimeRange(start: .zero, duration: clipB.duration), of: clipB, at: .invalid)
/// ```
public struct MutableComposition: Sendable, Hashable {
    /// The tracks, in the order they were added.
    public internal(set) var tracks: [CompositionTrack]
    /// The authored size of the visual portion in pixels, as `AVMutableComposition.naturalSize`. ``Size/zero``
    /// (the default) means "not set": a video composition built from this composition then takes its render size
    /// from the tracks.
    public var naturalSize: Size

    /// An empty composition.
    ///
    /// - Parameter naturalSize: the authored picture size in pixels; ``Size/zero`` for "not set".
    public init(naturalSize: Size = .zero) {
        self.tracks = []
        self.naturalSize = naturalSize
    }

    /// The composition's duration in seconds: the latest end of any track (``MediaTime/zero`` with no tracks or
    /// only empty ones), as `AVComposition.duration`.
    public var duration: MediaTime {
        tracks.map(\.end).max() ?? .zero
    }

    /// The track ID that means "no track" and, passed as `preferredTrackID`, "pick one": 0, as Core Media's
    /// `kCMPersistentTrackID_Invalid`.
    public static let invalidTrackID: Int32 = 0

    /// Adds an empty track, as `AVMutableComposition.addMutableTrack(withMediaType:preferredTrackID:)`.
    ///
    /// - Parameters:
    ///   - mediaType: ``MediaType/video``, ``MediaType/audio``, ``MediaType/subtitle`` or ``MediaType/metadata``.
    ///   - preferredTrackID: the ID to give the track (≥ 1 and not in use), or nil or ``invalidTrackID`` (0, Core
    ///     Media's `kCMPersistentTrackID_Invalid`, which the AVFoundation tutorials pass) to pick one: one more than
    ///     the highest ID in use (1 for the first track), so the ID of a removed track is not handed out again while
    ///     a higher one exists.
    /// - Returns: the new track's ID.
    /// - Throws: ``CompositionError/unsupportedMediaType(_:)``, ``CompositionError/invalidTrackID(_:)`` for a
    ///   negative preferred ID, ``CompositionError/trackIDInUse(_:)`` for a taken one. AVFoundation returns nil in
    ///   those cases; Splice says why.
    @discardableResult
    public mutating func addMutableTrack(withMediaType mediaType: MediaType, preferredTrackID: Int32? = nil) throws -> Int32 {
        let trackID: Int32
        if let preferredTrackID, preferredTrackID != Self.invalidTrackID {
            guard preferredTrackID >= 1 else { throw CompositionError.invalidTrackID(preferredTrackID) }
            guard track(withTrackID: preferredTrackID) == nil else {
                throw CompositionError.trackIDInUse(preferredTrackID)
            }
            trackID = preferredTrackID
        } else {
            trackID = nextFreeTrackID()
        }
        tracks.append(try CompositionTrack(trackID: trackID, mediaType: mediaType))
        return trackID
    }

    /// Removes the track with `trackID` and all its segments, as `AVMutableComposition.removeTrack(_:)`.
    ///
    /// - Throws: ``CompositionError/unknownTrackID(_:)``.
    public mutating func removeTrack(withTrackID trackID: Int32) throws {
        tracks.remove(at: try index(ofTrackID: trackID))
    }

    /// The tracks of `mediaType`, in the order they were added, as `AVAsset.tracks(withMediaType:)`.
    public func tracks(withMediaType mediaType: MediaType) -> [CompositionTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track with `trackID`, or nil, as `AVAsset.track(withTrackID:)`.
    public func track(withTrackID trackID: Int32) -> CompositionTrack? {
        tracks.first { $0.trackID == trackID }
    }

    /// Edits the track with `trackID` in place — the direct counterpart of calling an `AVMutableCompositionTrack`'s
    /// methods — and returns what `body` returns:
    ///
    /// ```swift
    /// let videoID = try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0)
    /// try composition.modifyTrack(withID: videoID) { track in
    ///     try track.insertTimeRange(clipRange, of: clipVideo, at: .zero)   // [compositionTrack insertTimeRange:…]
    ///     track.preferredTransform = clipVideo.preferredTransform
    /// }
    /// ```
    ///
    /// The composition is a value and ``tracks`` is read-only (so track IDs stay unique and a track cannot be
    /// swapped for another), hence the closure instead of a reference to a track. The edit is atomic: if `body`
    /// throws, the track is left exactly as it was (even after some of its edits succeeded) and the error is
    /// rethrown.
    ///
    /// - Parameters:
    ///   - trackID: the track's ID.
    ///   - body: the edits; may set the track's properties and call its editing operations.
    /// - Returns: `body`'s result.
    /// - Throws: ``CompositionError/unknownTrackID(_:)``; ``CompositionError/trackIDInUse(_:)`` when `body` replaced
    ///   the track with one whose ID another track has; or what `body` throws.
    /// - Complexity: O(n) in the track's segments (the track is copied for atomicity), plus `body`'s cost.
    @discardableResult
    public mutating func modifyTrack<Result>(
        withID trackID: Int32, _ body: (inout CompositionTrack) throws -> Result
    ) throws -> Result {
        let index = try index(ofTrackID: trackID)
        var track = tracks[index]
        let result = try body(&track)
        if track.trackID != trackID, self.track(withTrackID: track.trackID) != nil {
            throw CompositionError.trackIDInUse(track.trackID)
        }
        tracks[index] = track
        return result
    }

    /// Changes the track with `trackID` in place; the same as ``modifyTrack(withID:_:)``, kept for existing code.
    ///
    /// - Throws: ``CompositionError/unknownTrackID(_:)``, or what `body` throws.
    public mutating func updateTrack(withTrackID trackID: Int32, _ body: (inout CompositionTrack) throws -> Void) throws {
        try modifyTrack(withID: trackID, body)
    }

    /// The position of the track with `trackID` in ``tracks``.
    func index(ofTrackID trackID: Int32) throws -> Int {
        guard let index = tracks.firstIndex(where: { $0.trackID == trackID }) else {
            throw CompositionError.unknownTrackID(trackID)
        }
        return index
    }

    /// One more than the highest ID in use; if that would overflow, the lowest unused ID ≥ 1.
    func nextFreeTrackID() -> Int32 {
        nextFreeTrackID(after: tracks.map(\.trackID).max() ?? 0, excluding: [])
    }

    /// One more than `highest` if free and representable, else the lowest ID ≥ 1 used neither by a track nor in
    /// `excluded`.
    func nextFreeTrackID(after highest: Int32, excluding excluded: Set<Int32>) -> Int32 {
        if highest < Int32.max, !excluded.contains(highest + 1), track(withTrackID: highest + 1) == nil {
            return highest + 1
        }
        let used = Set(tracks.map(\.trackID)).union(excluded)
        var candidate: Int32 = 1
        while used.contains(candidate) { candidate += 1 }
        return candidate
    }
}

extension MutableComposition: Codable {
    private enum CodingKeys: String, CodingKey {
        case naturalSize, tracks
    }

    /// Decodes a composition and checks it: every track as ``CompositionTrack`` decodes it, and track IDs unique.
    /// Both keys are optional (defaults: zero size, no tracks).
    ///
    /// - Throws: `DecodingError.dataCorrupted` carrying ``CompositionError/trackIDInUse(_:)`` for a repeated ID, or
    ///   naming `naturalSize` when a side is outside 0 ... 65535 pixels, or a track's decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        naturalSize = try container.decodeIfPresent(Size.self, forKey: .naturalSize) ?? .zero
        if let reason = PictureFacts.problem(size: naturalSize) {
            throw DecodingError.dataCorruptedError(forKey: .naturalSize, in: container, debugDescription: "naturalSize \(reason)")
        }
        tracks = try container.decodeIfPresent([CompositionTrack].self, forKey: .tracks) ?? []
        var seen = Set<Int32>()
        for track in tracks where !seen.insert(track.trackID).inserted {
            let error = CompositionError.trackIDInUse(track.trackID)
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath + [CodingKeys.tracks], debugDescription: error.description,
                underlyingError: error))
        }
    }

    /// Encodes the natural size and the tracks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(naturalSize, forKey: .naturalSize)
        try container.encode(tracks, forKey: .tracks)
    }
}
