import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: MediaTime, _ end: MediaTime) -> TimeRange { F.range(start, end) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

@Suite("Composition Codable")
struct CompositionCodableTests {
    /// A composition with a bit of everything: two media types, a portrait source, a gap, a 2x segment, NTSC
    /// times, a still image (unbounded source range) and non-default track properties.
    private func sample() throws -> MutableComposition {
        let portrait = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)
        let phone = F.asset("m01.mov", tracks: [
            F.audio("m01.mov", trackID: 1, duration: s(109, 50)),
            F.video("m01.mov", trackID: 2, duration: s(1321, 600), size: Size(width: 568, height: 320), transform: portrait),
        ])
        var composition = MutableComposition(naturalSize: Size(width: 320, height: 568))
        try composition.insertTimeRange(r(s(0), phone.duration), of: phone, at: .zero)
        try composition.insertTimeRange(r(s(0), s(1001, 30000) * 30), of: phone, at: .invalid)
        try composition.scaleTimeRange(r(s(1), s(2)), toDuration: s(1, 2))
        let photo = F.still("photo.jpg")
        let still = try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 7)
        try composition.insertTimeRange(r(0, 2), of: photo, at: s(1), intoTrackWithID: still)
        try composition.updateTrack(withTrackID: 1) { $0.preferredVolume = 0.25 }
        try composition.updateTrack(withTrackID: still) { $0.isEnabled = false }
        return composition
    }

    @Test func aCompositionRoundTripsThroughJSON() throws {
        let composition = try sample()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(composition)
        let decoded = try JSONDecoder().decode(MutableComposition.self, from: data)
        #expect(decoded == composition)
        #expect(try encoder.encode(decoded) == data)
        // Exact times travel as exact text, including the NTSC ones and the still image's unbounded range.
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains(#""30030/30000""#))
        #expect(text.contains(#""+inf""#))
        #expect(decoded.track(withTrackID: 1)?.preferredVolume == 0.25)
        #expect(decoded.track(withTrackID: 7)?.isEnabled == false)
        #expect(decoded.track(withTrackID: 2)?.preferredTransform == AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0))
        for track in decoded.tracks {
            try CompositionTrack.validateSegments(track.segments, trackID: track.trackID, mediaType: track.mediaType)
        }
    }

    @Test func aHandWrittenDocumentTakesDefaults() throws {
        let json = #"""
        {"tracks": [{"trackID": 3, "mediaType": "audio"}]}
        """#
        let composition = try JSONDecoder().decode(MutableComposition.self, from: Data(json.utf8))
        let track = try #require(composition.track(withTrackID: 3))
        #expect(composition.naturalSize == .zero)
        #expect(track.segments.isEmpty && track.preferredVolume == 1 && track.isEnabled && track.naturalTimeScale == 600)
    }

    @Test func decodingRejectsAnInvalidSegmentListWithTheCompositionError() throws {
        var composition = try sample()
        let encoder = JSONEncoder()
        // Move the second segment of track 2 one tick later: a gap the validator must name.
        var object = try #require(JSONSerialization.jsonObject(with: encoder.encode(composition)) as? [String: Any])
        var tracks = try #require(object["tracks"] as? [[String: Any]])
        var segments = try #require(tracks[1]["segments"] as? [[String: Any]])
        var mapping = try #require(segments[1]["timeMapping"] as? [String: Any])
        var target = try #require(mapping["target"] as? [String: Any])
        let start = composition.tracks[1].segments[1].timeMapping.target.start
        target["start"] = (start + s(1, 600)).rationalText
        mapping["target"] = target
        segments[1]["timeMapping"] = mapping
        tracks[1]["segments"] = segments
        object["tracks"] = tracks
        let corrupt = try JSONSerialization.data(withJSONObject: object)
        let expected = CompositionError.segmentGap(trackID: 2, index: 1, expectedStart: start, start: start + s(1, 600))
        expectDecodingError(expected) { try JSONDecoder().decode(MutableComposition.self, from: corrupt) }

        // Two tracks with one ID.
        composition = MutableComposition()
        try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 4)
        var duplicated = try #require(JSONSerialization.jsonObject(with: encoder.encode(composition)) as? [String: Any])
        let only = try #require((duplicated["tracks"] as? [Any])?.first)
        duplicated["tracks"] = [only, only]
        let twice = try JSONSerialization.data(withJSONObject: duplicated)
        expectDecodingError(.trackIDInUse(4)) { try JSONDecoder().decode(MutableComposition.self, from: twice) }

        let badID = Data(#"{"tracks": [{"trackID": 0, "mediaType": "video"}]}"#.utf8)
        expectDecodingError(.invalidTrackID(0)) { try JSONDecoder().decode(MutableComposition.self, from: badID) }
    }

    private func expectDecodingError(
        _ expected: CompositionError, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> MutableComposition
    ) {
        do {
            _ = try body()
            Issue.record("decoded without error", sourceLocation: sourceLocation)
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.underlyingError as? CompositionError == expected, sourceLocation: sourceLocation)
            #expect(context.debugDescription == expected.description, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }
}
