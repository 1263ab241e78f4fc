import Composition
import Foundation
import SpliceTestSupport
import Testing
import SpliceDocument

/// How the short form places its clips' subtitle tracks and its `subtitles` files (the expansion only; the export
/// of such a document is read back in `SubtitleDocumentTests`).
@Suite struct ShortFormSubtitleTests {
    /// clipA.mp4 (4 s) described with a subtitle track (ID 3) whose cues end at 3.5 s.
    static func movieWithSubtitles() async throws -> Asset {
        var asset = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        asset.tracks.append(AssetTrack(
            assetURL: asset.url, trackID: 3, mediaType: .subtitle, timeRange: .ms(0, 3500), naturalTimeScale: 1000,
            codecName: "mov_text", streamIndex: 2, languageCode: "ger", subtitle: SubtitleTrackFormat(cueCount: 2)))
        return asset
    }

    /// A sidecar file's description: one subtitle track (ID 1) whose last cue ends at `end`.
    static func sidecar(ending end: MediaTime) -> Asset {
        let url = URL(fileURLWithPath: "/captions.srt")
        return Asset(url: url, duration: end, tracks: [AssetTrack(
            assetURL: url, trackID: 1, mediaType: .subtitle, timeRange: TimeRange(start: .zero, duration: end),
            naturalTimeScale: 1000, codecName: "subrip", streamIndex: 0, subtitle: SubtitleTrackFormat(cueCount: 3))])
    }

    @Test func clipSubtitlesFollowTheCutsSpeedAndTransitionsAndSidecarsAreKeptWhole() async throws {
        let movie = try await Self.movieWithSubtitles()
        let document = ShortFormDocument(
            clips: [
                .init(source: "movie.mp4", transition: .init(duration: .s(1))),
                .init(source: "movie.mp4", start: .s(1), speed: 2),
            ],
            subtitles: [.init(source: "captions.srt", language: "eng")])
        let expanded = try document.expanded(
            assets: ["movie.mp4": movie, "captions.srt": Self.sidecar(ending: .s(9))], folder: URL(fileURLWithPath: "/"))
        let tracks = expanded.composition.tracks
        // Video 1 and 2, audio 3 and 4; then the clips' subtitles (5) and the sidecar (6).
        #expect(tracks.map(\.mediaType) == [.video, .video, .audio, .audio, .subtitle, .subtitle])
        let clips = try #require(tracks.first { $0.trackID == 5 })
        // Clip 0 plays 0–4 s with its cues to 3.5 s. Clip 1 (from 1 s at twice the speed) starts at 3 s; its cues
        // start where the 1 s transition ends (4 s, source 3 s) and end with the track at source 3.5 s (4.25 s).
        #expect(clips.segments == [
            DocumentSegment(source: "movie.mp4", track: .trackID(3), timeRange: .ms(0, 3500), at: .zero),
            DocumentSegment(source: "movie.mp4", track: .trackID(3), timeRange: .ms(3000, 3500), at: .s(4), toDuration: .ms(250)),
        ])
        let sidecar = try #require(tracks.first { $0.trackID == 6 })
        #expect(sidecar.languageCode == "eng")
        // The clips last 3 + 1.5 s; the sidecar's 9 s are kept whole (the composition lasts as its longest track),
        // the background alone (an instruction with no layers) after the clips.
        #expect(sidecar.segments == [DocumentSegment(source: "captions.srt", track: .trackID(1), timeRange: .ms(0, 9000), at: .zero)])
        let last = try #require(expanded.videoComposition?.instructions.last)
        #expect(last.timeRange == .ms(4500, 9000) && last.layerInstructions.isEmpty)
    }

    @Test func aSubtitlesEntryWithoutASubtitleTrackOrWithABadLanguageIsReportedAtItsPath() async throws {
        let movie = try await Self.movieWithSubtitles()
        let document = ShortFormDocument(
            clips: [.init(source: "movie.mp4")],
            subtitles: [.init(source: "movie.mp4", language: "English"), .init(source: "plain.mp4")])
        var plain = movie
        plain.tracks.removeAll { $0.mediaType == .subtitle }
        do {
            _ = try document.expanded(assets: ["movie.mp4": movie, "plain.mp4": plain], folder: URL(fileURLWithPath: "/"))
            Issue.record("expanded")
        } catch {
            #expect(error.problems.map(\.path.description) == ["subtitles[0].language", "subtitles[1].source"])
            #expect(error.problems.first?.message == "'English' is not an ISO 639-2 code (three lowercase letters, such as \"eng\")")
            #expect(error.problems.last?.message == "'plain.mp4' has no subtitle track; it has tracks 1 (video), 2 (audio)")
        }
    }
}
