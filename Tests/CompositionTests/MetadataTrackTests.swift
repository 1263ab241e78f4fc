import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

/// Timed metadata tracks (`MediaType.metadata`, AVFoundation's `AVMediaType.metadata`) in a composition: cut and
/// moved like subtitle tracks, brought along by a whole-asset insert; QuickTime's `mebx` tracks, whose groups cannot
/// be read, are refused by name and left out of a whole-asset insert.
@Suite("Composition metadata tracks")
struct MetadataTrackTests {
    /// A recording: video and a readable timed metadata track (Splice's `Timed Metadata` text track), 6 s each,
    /// and a `mebx` track (not decodable).
    static let url = URL(fileURLWithPath: "/media/walk.mp4")
    static let video = F.video("walk.mp4", trackID: 1, duration: s(6))
    static let metadata = AssetTrack(assetURL: url, trackID: 2, mediaType: .metadata, timeRange: r(0, 6),
                                     naturalTimeScale: 1000, codecName: "mov_text", streamIndex: 1)
    static let boxed = AssetTrack(assetURL: url, trackID: 3, mediaType: .metadata, timeRange: r(0, 6),
                                  naturalTimeScale: 600, codecName: "unknown", isDecodable: false, streamIndex: 2)
    static let asset = Asset(url: url, duration: s(6), tracks: [video, metadata, boxed])

    @Test func aMetadataTrackIsComposedLikeASubtitleTrack() throws {
        #expect(MediaType.metadata.isComposable)
        #expect(!MediaType.data.isComposable)
        var composition = MutableComposition()
        let trackID = try composition.addMutableTrack(withMediaType: .metadata)
        try composition.insertTimeRange(r(1, 5), of: Self.metadata, at: .zero, intoTrackWithID: trackID)
        try composition.insertTimeRange(r(0, 1), of: Self.metadata, at: s(4), intoTrackWithID: trackID)
        F.expectSegments(composition.track(withTrackID: trackID), [
            F.media(Self.metadata, r(1, 5), r(0, 4)), F.media(Self.metadata, r(0, 1), r(4, 5)),
        ])
        #expect(composition.tracks(withMediaType: .metadata).count == 1)
        #expect(composition.mutableTrack(compatibleWith: Self.metadata) == trackID)
    }

    @Test func aMebxTrackIsRefusedNamingTheSource() throws {
        var composition = MutableComposition()
        let trackID = try composition.addMutableTrack(withMediaType: .metadata)
        #expect(throws: CompositionError.unreadableTimedMetadata(trackID: trackID, sourceURL: Self.url, sourceTrackID: 3)) {
            try composition.insertTimeRange(r(0, 1), of: Self.boxed, at: .zero, intoTrackWithID: trackID)
        }
        #expect(composition.track(withTrackID: trackID)?.segments.isEmpty == true)
        #expect(CompositionError.unreadableTimedMetadata(trackID: trackID, sourceURL: Self.url, sourceTrackID: 3).description
            .contains("track 3 of walk.mp4 is a timed metadata track whose groups cannot be read"))
        #expect(throws: CompositionError.unreadableTimedMetadata(trackID: 5, sourceURL: Self.url, sourceTrackID: 3)) {
            try CompositionTrack(trackID: 5, mediaType: .metadata, segments: [
                CompositionTrackSegment(sourceTrack: Self.boxed, timeMapping: TimeMapping(source: r(0, 1), target: r(0, 1))),
            ])
        }
    }

    /// The whole-asset insert brings the readable metadata track with the picture (cut with it: 1–5 s, then 0–1 s
    /// after it) and leaves the `mebx` track out.
    @Test func aWholeAssetInsertBringsTheReadableMetadataTrack() throws {
        var composition = MutableComposition()
        try composition.insertTimeRange(r(1, 5), of: Self.asset, at: .zero)
        try composition.insertTimeRange(r(0, 1), of: Self.asset, at: .invalid)
        #expect(composition.tracks.map(\.mediaType) == [.video, .metadata])
        F.expectSegments(composition.tracks(withMediaType: .metadata).first, [
            F.media(Self.metadata, r(1, 5), r(0, 4)), F.media(Self.metadata, r(0, 1), r(4, 5)),
        ])
        #expect(try MutableComposition(asset: Self.asset).tracks(withMediaType: .metadata).map(\.timeRange) == [r(0, 6)])
    }
}
