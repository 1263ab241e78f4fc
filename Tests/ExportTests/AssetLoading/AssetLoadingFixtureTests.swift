import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Probing the synthetic fixtures that cover what the shared phone clips lack (facts: Fixtures/README.md).
@Suite("Asset loading: synthetic fixtures")
struct AssetLoadingFixtureTests {
    @Test(arguments: [
        ("rates/ntsc-29.97.mp4", Int64(1001), Int32(30000), 60, MediaTime(value: 60060, timescale: 30000)),
        ("rates/film-23.976.mp4", 1001, 24000, 48, MediaTime(value: 48048, timescale: 24000)),
        ("rates/no-audio-25.mp4", 1, 25, 50, MediaTime(seconds: 2)),
    ])
    func videoOnlyClipsHaveExactRatesAndNoAudio(path: String, frameValue: Int64, frameScale: Int32, frames: Int, duration: MediaTime) async throws {
        let asset = try await Fixture.asset(path)
        #expect(asset.tracks(withMediaType: .audio).isEmpty)
        let video = try #require(asset.tracks(withMediaType: .video).first?.video)
        #expect(video.minFrameDuration == MediaTime(value: frameValue, timescale: frameScale))
        #expect(video.frameCount == frames)
        #expect(!video.hasVariableFrameRate)
        #expect(asset.tracks(withMediaType: .video)[0].timeRange.duration == duration)
        #expect(video.naturalSize == Size(width: 320, height: 240))
        #expect(video.color.matrix == "smpte170m" && video.color.range == .limited)
    }

    @Test func oddSizedClipKeepsItsOddSize() async throws {
        let video = try #require(try await Fixture.asset("odd/odd-size-321x241.mp4").tracks(withMediaType: .video).first?.video)
        #expect(video.naturalSize == Size(width: 321, height: 241))
        #expect(video.pixelFormat == "yuv444p")
        #expect(video.color.range == .unspecified)
    }

    @Test func aMidStreamSizeChangeReportsTheFirstSize() async throws {
        let track = try #require(try await Fixture.asset("odd/size-change.mkv").tracks(withMediaType: .video).first)
        #expect(track.video?.naturalSize == Size(width: 320, height: 240))
        #expect(track.video?.frameCount == 60)
        #expect(track.timeRange.duration == MediaTime(seconds: 2))
    }

    @Test func pcmWithoutALayoutGetsTheDefaultForItsChannelCount() async throws {
        let stereo = try #require(try await Fixture.asset("tone/sine-1k-48k-stereo.wav").tracks(withMediaType: .audio).first)
        #expect(stereo.audio?.channelLayout == "stereo" && stereo.audio?.channelCount == 2)
        #expect(stereo.timeRange.duration == MediaTime(value: 96_000, timescale: 48_000))
        let mono = try #require(try await Fixture.asset("tone/sine-440-44k1-mono.wav").tracks(withMediaType: .audio).first)
        #expect(mono.audio?.channelLayout == "mono" && mono.audio?.sampleRate == 44_100)
        #expect(mono.timeRange.duration == MediaTime(value: 88_200, timescale: 44_100))
    }

    @Test func aacPrimingIsFoldedAndPaddingIgnored() async throws {
        // clipA: 192000 samples presented (the decoder would emit 192512 with the end padding).
        let audio = try #require(try await Fixture.asset("canonical/clipA.mp4").tracks(withMediaType: .audio).first)
        #expect(audio.timeRange.duration == MediaTime(value: 192_000, timescale: 48_000))
        #expect(audio.startTimeOffset == .zero)
    }

    @Test func stillsLoadAsUnboundedVideo() async throws {
        let png = try await Fixture.asset("stills/alpha.png")
        let video = try #require(png.tracks(withMediaType: .video).first)
        #expect(video.video?.isStillImage == true)
        #expect(video.timeRange.duration.isPositiveInfinity)
        #expect(video.video?.naturalSize == Size(width: 200, height: 100))
        let jpeg = try #require(try await Fixture.asset("stills/photo.jpg").tracks(withMediaType: .video).first)
        #expect(jpeg.video?.displaySize == Size(width: 400, height: 300))
    }

    @Test(arguments: ["broken/truncated.mp4", "broken/garbage.mp4", "broken/empty.mp4", "broken/zeroed-moov.mp4"])
    func brokenFilesGiveTypedErrorsNamingTheFile(path: String) async throws {
        let url = Fixture.url(path)
        await #expect {
            _ = try await Asset.load(from: url)
        } throws: { error in
            guard let loading = error as? AssetLoadingError else { return false }
            return loading.url == url && loading.description.contains(url.lastPathComponent)
        }
    }
}
