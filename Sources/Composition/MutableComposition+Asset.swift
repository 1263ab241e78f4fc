extension MutableComposition {
    /// The composition of all of `asset`'s video, audio, subtitle and timed metadata tracks, whole, from time 0 — what AVFoundation exports
    /// or thumbnails when it is handed a plain `AVAsset` instead of a composition.
    ///
    /// The same as an empty composition followed by `insertTimeRange([0, asset.duration), of: asset, at: .zero)`
    /// (``insertTimeRange(_:of:at:)``): one composition track per source track, in the file's order, each keeping its
    /// source's ``AssetTrack/preferredTransform`` (a portrait phone clip stays upright); data tracks and unreadable
    /// (`mebx`) timed metadata tracks are left out. The natural size is left unset, so a default video composition
    /// takes the tracks' sizes.
    ///
    /// - Parameter asset: a loaded file (see `Asset.load(from:)`) with a finite duration.
    /// - Throws: ``CompositionError/noComposableTracks(url:)`` when the asset has no track to compose;
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)`` for an empty asset;
    ///   ``CompositionError/invalidTime(trackID:parameter:time:)`` for a still image (its duration is unbounded:
    ///   insert it for a chosen duration with ``insertTimeRange(_:of:at:)`` instead).
    public init(asset: Asset) throws {
        self.init()
        try insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
    }
}
