import AudioMix
import Composition
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// The short form expands into exactly the models an AVFoundation user would build by hand (the fixtures: clipA and
/// clipB are 640x360, 4 s, 30 fps with sound; music.m4a 8 s; watermark.png 160x48; photo.jpg 400x300).
@Suite("Short form expansion")
struct ShortFormExpansionTests {
    /// The target ranges of a track's media segments.
    static func targets(_ loaded: LoadedDocument, track trackID: Int32) -> [TimeRange] {
        loaded.composition.track(withTrackID: trackID)?.segments.filter { !$0.isEmpty }.map(\.timeMapping.target) ?? []
    }

    @Test func canonicalEdit() async throws {
        let loaded = try await CompositionDocument.load(from: Fixture.example("canonical-edit.json"))
        #expect(loaded.form == .short)
        let composition = loaded.composition
        #expect(composition.duration == .s(8))
        #expect(composition.tracks.map(\.trackID) == [1, 2, 3])
        #expect(composition.tracks.map(\.mediaType) == [.video, .audio, .audio])
        #expect(Self.targets(loaded, track: 1) == [.ms(0, 4000), .ms(4000, 8000)])
        #expect(Self.targets(loaded, track: 2) == [.ms(0, 4000), .ms(4000, 8000)])
        #expect(Self.targets(loaded, track: 3) == [.ms(0, 8000)])
        #expect(composition.tracks[0].segments.map { $0.sourceURL?.lastPathComponent } == ["clipA.mp4", "clipB.mp4"])

        let video = try #require(loaded.videoComposition)
        #expect(video.renderSize == Size(width: 640, height: 360))
        #expect(video.frameDuration == MediaTime(value: 1, timescale: 30))
        #expect(video.instructions.map(\.timeRange) == [.ms(0, 4000), .ms(4000, 8000)])
        let first = try #require(video.instructions[0].layerInstructions.first)
        #expect(first.trackID == 1)
        #expect(first.opacity(at: .ms(3000)) == 1)
        #expect(first.opacity(at: .ms(3500)) == 0.5)
        #expect(first.opacity(at: .ms(4000)) == 0)
        #expect(first.transform(at: .zero) == .identity)
        #expect(video.overlays.count == 1)
        #expect(video.overlays[0].frame == Rect(x: 640 - 160 - 16, y: 360 - 48 - 16, width: 160, height: 48))
        #expect(video.overlays[0].timeRange == .ms(0, 8000))
        if case .image(let url) = video.overlays[0].content {
            #expect(url.path == Fixture.url("canonical/watermark.png").standardizedFileURL.path)
        } else {
            Issue.record("the overlay is not the watermark image")
        }

        let mix = try #require(loaded.audioMix)
        #expect(mix.volume(forTrackID: 2, at: .ms(3500)) == 0.5, "clip A's sound fades with its picture")
        #expect(mix.volume(forTrackID: 2, at: .ms(4000)) == 1, "clip B's sound is at full volume")
        #expect(mix.volume(forTrackID: 3, at: .ms(5000)) == 1)
        #expect(mix.volume(forTrackID: 3, at: .ms(6500)) == 0.5)
        #expect(mix.volume(forTrackID: 3, at: .ms(8000)) == 0)
        #expect(loaded.export.preset == .highestQuality)
    }

    @Test func crossDissolveUsesTwoAlternatingTracks() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "clips": [
                { "source": "clipA.mp4", "transition": { "type": "crossDissolve", "duration": "1s" } },
                { "source": "clipB.mp4", "transition": { "type": "crossDissolve", "duration": "15f" } },
                { "source": "clipA.mp4", "start": "1s", "duration": "2s" }
              ] }
            """)
        // A [0,4) on video 1; B [3,7) on video 2; A' [6.5,8.5) back on video 1.
        #expect(loaded.composition.duration == .ms(8500))
        #expect(Self.targets(loaded, track: 1) == [.ms(0, 4000), .ms(6500, 8500)])
        #expect(Self.targets(loaded, track: 2) == [.ms(3000, 7000)])
        #expect(Self.targets(loaded, track: 3) == [.ms(0, 4000), .ms(6500, 8500)], "clip sounds follow their pictures")
        #expect(Self.targets(loaded, track: 4) == [.ms(3000, 7000)])
        let third = try #require(loaded.composition.track(withTrackID: 1)?.segments.last)
        #expect(third.timeMapping.source == .ms(1000, 3000))

        let video = try #require(loaded.videoComposition)
        #expect(video.instructions.map(\.timeRange) == [.ms(0, 3000), .ms(3000, 4000), .ms(4000, 6500), .ms(6500, 7000), .ms(7000, 8500)])
        #expect(video.instructions.map(\.requiredSourceTrackIDs) == [[1], [1, 2], [2], [2, 1], [1]])
        let dissolve = video.instructions[1]
        #expect(dissolve.layerInstructions[0].opacity(at: .ms(3500)) == 0.5, "the outgoing layer ramps 1 → 0")
        #expect(dissolve.layerInstructions[1].opacity(at: .ms(3500)) == 1, "the incoming layer stays opaque below it")
        #expect(video.validate(for: loaded.composition).isEmpty)

        let mix = try #require(loaded.audioMix)
        #expect(mix.volume(forTrackID: 3, at: .ms(3500)) == 0.5)
        #expect(mix.volume(forTrackID: 4, at: .ms(3500)) == 0.5)
        #expect(mix.volume(forTrackID: 4, at: .ms(6750)) == 0.5)
        #expect(mix.volume(forTrackID: 3, at: .ms(6750)) == 0.5)
        #expect(mix.volume(forTrackID: 3, at: .ms(8000)) == 1)
    }

    @Test func speedFitAndVolume() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "renderSize": [360, 640], "frameRate": 25,
              "clips": [ { "source": "clipA.mp4", "start": "1s", "duration": "2s", "speed": 2, "fit": "fill", "volume": 0.25 },
                         { "source": "clipB.mp4", "duration": "1s", "speed": 0.5 } ] }
            """)
        #expect(loaded.composition.duration == .s(3))
        let segment = try #require(loaded.composition.track(withTrackID: 1)?.segments.first)
        #expect(segment.timeMapping.source == .ms(1000, 3000))
        #expect(segment.timeMapping.target == .ms(0, 1000))
        #expect(Self.targets(loaded, track: 1) == [.ms(0, 1000), .ms(1000, 3000)])
        #expect(Self.targets(loaded, track: 2) == [.ms(0, 1000), .ms(1000, 3000)])
        let video = try #require(loaded.videoComposition)
        #expect(video.renderSize == Size(width: 360, height: 640))
        #expect(video.frameDuration == MediaTime(value: 1, timescale: 25))
        // Fill: 640x360 scaled by 640/360 to cover 360x640, centred: x offset (360 - 1137.78) / 2.
        let fill = video.instructions[0].layerInstructions[0].transform(at: .zero)
        #expect(abs(fill.a - 640.0 / 360.0) < 1e-12 && abs(fill.d - 640.0 / 360.0) < 1e-12)
        #expect(abs(fill.tx - (360 - 640 * 640.0 / 360.0) / 2) < 1e-9 && fill.ty == 0)
        let fit = video.instructions[1].layerInstructions[0].transform(at: .s(1))
        #expect(fit.a == 360.0 / 640.0 && fit.ty == (640 - 360 * 360.0 / 640.0) / 2)
        let mix = try #require(loaded.audioMix)
        #expect(mix.volume(forTrackID: 2, at: .ms(500)) == 0.25)
        #expect(mix.volume(forTrackID: 2, at: .ms(1500)) == 1)
    }

    @Test func stillsAndLoopingMusic() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "clips": [ { "source": "photo.jpg" }, { "source": "photo.jpg", "duration": "90f", "fadeIn": "0.5s" },
                         { "source": "alpha.png", "duration": "00:00:06.5" } ],
              "music": { "source": "music.m4a", "start": "2s", "loop": true, "volume": 0.5, "fadeIn": "1s", "fadeOut": "2s" } }
            """)
        #expect(loaded.composition.duration == .ms(12500))
        #expect(Self.targets(loaded, track: 1) == [.ms(0, 3000), .ms(3000, 6000), .ms(6000, 12500)])
        #expect(loaded.composition.tracks.map(\.trackID) == [1, 2], "stills have no sound: only the music track")
        let music = try #require(loaded.composition.track(withTrackID: 2))
        #expect(music.segments.map(\.timeMapping.source) == [.ms(2000, 8000), .ms(0, 6500)])
        #expect(music.segments.map(\.timeMapping.target) == [.ms(0, 6000), .ms(6000, 12500)])
        let video = try #require(loaded.videoComposition)
        #expect(video.renderSize == Size(width: 400, height: 300), "the first clip's picture size")
        #expect(video.instructions[1].layerInstructions[0].opacity(at: .ms(3250)) == 0.5)
        let mix = try #require(loaded.audioMix)
        #expect(mix.volume(forTrackID: 2, at: .ms(500)) == 0.25)
        #expect(mix.volume(forTrackID: 2, at: .s(5)) == 0.5)
        #expect(mix.volume(forTrackID: 2, at: .ms(11500)) == 0.25)
    }

    @Test func overlayPlacement() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
              "overlays": [
                { "image": "watermark.png", "position": "topLeft", "margin": 10, "width": 80, "start": "1s", "duration": "2s", "fadeOut": "1s", "opacity": 0.8 },
                { "text": "Hello\\nworld", "position": "bottom", "margin": 20, "fontSize": 32, "padding": 4, "color": "#FFCC00", "backgroundColor": "#00000080" },
                { "image": "alpha.png", "position": [100, 50] }
              ] }
            """)
        let overlays = try #require(loaded.videoComposition?.overlays)
        #expect(overlays.map(\.frame) == [
            Rect(x: 10, y: 10, width: 80, height: 24),
            Rect(x: 20, y: 360 - 20 - 88, width: 600, height: 88),  // 2 lines × 32 × 1.25 + 2 × 4
            Rect(x: 100, y: 50, width: 200, height: 100),
        ])
        #expect(overlays[0].timeRange == .ms(1000, 3000))
        #expect(overlays[0].opacity(at: .ms(1500)) == 0.8)
        #expect(abs(overlays[0].opacity(at: .ms(2500)) - 0.4) < 1e-12)
        #expect(overlays[1].timeRange == .ms(0, 4000))
        guard case .text(let text) = overlays[1].content else {
            Issue.record("the second overlay is not text")
            return
        }
        #expect(text.string == "Hello\nworld" && text.fontSize == 32 && text.padding == 4)
        #expect(text.color == Color(hex: "#FFCC00") && text.backgroundColor == Color(hex: "#00000080"))
    }

    @Test func expandedFormLoadsBackToTheSameModels() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let short = try scratch.write("short.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "clipA.mp4", "duration": "2s", "transition": { "type": "crossDissolve", "duration": "0.5s", "easing": "easeInOut" } },
                         { "source": "clipB.mp4", "start": "1001/30000", "speed": 1.5, "fadeOut": "1s" },
                         { "source": "photo.jpg", "fit": "fill", "fadeIn": "250ms" } ],
              "music": { "source": "music.m4a", "volume": 0.3, "fadeOut": "2s" },
              "overlays": [ { "image": "watermark.png", "position": "bottomRight", "margin": 8, "fadeIn": "1s" } ],
              "export": { "preset": "640x480", "metadata": { "title": "Round trip" } } }
            """)
        let loaded = try await CompositionDocument.load(from: short)
        let full = try scratch.write("full.json", try loaded.expandedJSON())
        let reloaded = try await CompositionDocument.load(from: full)
        #expect(reloaded.form == .full)
        #expect(reloaded.composition == loaded.composition)
        #expect(reloaded.videoComposition == loaded.videoComposition)
        #expect(reloaded.audioMix == loaded.audioMix)
        #expect(reloaded.export == loaded.export)
        #expect(reloaded.export.metadata == [MetadataItem(key: "title", value: "Round trip")])
        #expect(try reloaded.expandedJSON() == (try loaded.expandedJSON()))
        #expect(try TextFile.read(full).contains(#""image": "watermark.png""#), "paths stay relative")
    }
}
