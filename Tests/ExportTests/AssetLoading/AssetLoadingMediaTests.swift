import SpliceFFmpeg
import Foundation
import Testing
import Composition
@testable import Export
import SpliceTestSupport

/// The facts of every file in `../shared/media` (see its README.md), asserted exactly. Values were checked against
/// ffprobe 5.1 and the files' own boxes (stts/ctts/elst); where the loader's rule gives a different number than
/// ffprobe's stream duration, the expectation says why.
@Suite("Asset loading: real phone and camera media")
struct AssetLoadingMediaTests {
    static let mov = "mov,mp4,m4a,3gp,3g2,mj2"

    struct VideoFacts {
        var size: Size
        var transform: AffineTransform2D = .identity
        var displaySize: Size
        var frameCount: Int
        var minFrameDuration: MediaTime
        var variableFrameRate: Bool
        var pixelFormat: String = "yuv420p"
        var color = ColorProperties(range: .unspecified)
        var still = false
    }

    struct AudioFacts {
        var sampleRate: Int
        var channels: Int
        var layout: String
        var sampleFormat: String = "fltp"
    }

    struct TrackFacts {
        var mediaType: MediaType
        var codec: String
        /// Duration of the presented samples (source time 0 ..< duration).
        var duration: MediaTime
        /// Stream timestamp of source time 0.
        var offset: MediaTime = .zero
        var timescale: Int32
        var video: VideoFacts? = nil
        var audio: AudioFacts? = nil
    }

    struct AssetFacts {
        var format: String = AssetLoadingMediaTests.mov
        var duration: MediaTime
        var tracks: [TrackFacts]
    }

    static func t(_ value: Int64, _ timescale: Int32) -> MediaTime { MediaTime(value: value, timescale: timescale) }
    static let bt709 = ColorProperties(range: .limited, primaries: "bt709", transfer: "bt709", matrix: "bt709")
    static let rotateMinus90 = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)

    static let expected: [String: AssetFacts] = [
        // Audio first; timescale 600; frames 20/600 s except the 25th (21/600 s, one tick of jitter: not VFR).
        // The AAC track's edit list ends at 1308/600 s = 96138 samples: the last packet keeps 906 of its 1024.
        "M01_iphone4s_rot-90_ts600_aac-mono44k.mov": AssetFacts(duration: t(1321, 600), tracks: [
            TrackFacts(mediaType: .audio, codec: "aac", duration: t(96138, 44100), timescale: 44100,
                       audio: AudioFacts(sampleRate: 44100, channels: 1, layout: "mono")),
            TrackFacts(mediaType: .video, codec: "h264", duration: t(1321, 600), timescale: 600,
                       video: VideoFacts(size: Size(width: 568, height: 320),
                                         transform: AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0),
                                         displaySize: Size(width: 320, height: 568), frameCount: 66,
                                         minFrameDuration: t(20, 600), variableFrameRate: false, color: bt709)),
        ]),
        // 3 frames at 0, 7433, 12539 (+5106) in 1/90000.
        "M02_android_1080p_rot-90_0.2s_vfr.mp4": AssetFacts(duration: t(17645, 90000), tracks: [
            TrackFacts(mediaType: .video, codec: "h264", duration: t(17645, 90000), timescale: 90000,
                       video: VideoFacts(size: Size(width: 1920, height: 1080),
                                         transform: AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 1080, ty: 0),
                                         displaySize: Size(width: 1080, height: 1920), frameCount: 3,
                                         minFrameDuration: t(5106, 90000), variableFrameRate: true)),
            TrackFacts(mediaType: .audio, codec: "aac", duration: t(7168, 48000), timescale: 48000,
                       audio: AudioFacts(sampleRate: 48000, channels: 2, layout: "stereo")),
        ]),
        // Audio: 106 AAC packets = 108544 samples. (ffprobe: 108542, the mdhd duration. The first packet's stts
        // entry is 8471 ticks, an Android writer's track start offset, so the timestamps span 115991 ticks.)
        "M03_android_720p_rot180_vfr_aac-mono48k.mp4": AssetFacts(duration: t(214179, 90000), tracks: [
            TrackFacts(mediaType: .video, codec: "h264", duration: t(214179, 90000), timescale: 90000,
                       video: VideoFacts(size: Size(width: 1280, height: 720),
                                         transform: AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 1280, ty: 720),
                                         displaySize: Size(width: 1280, height: 720), frameCount: 25,
                                         minFrameDuration: t(7199, 90000), variableFrameRate: true)),
            TrackFacts(mediaType: .audio, codec: "aac", duration: t(108544, 48000), timescale: 48000,
                       audio: AudioFacts(sampleRate: 48000, channels: 1, layout: "mono")),
        ]),
        // 15 frames of 40/600, then 20, 20, 20, 21, 20, 20 and a last one the edit list trims to 19/600.
        // PCM mono with layout "unknown" is reported with the default layout for 1 channel.
        "M04_iphone6s_livephoto_1440x1080_vfr_pcm-mono44k.mov": AssetFacts(duration: t(740, 600), tracks: [
            TrackFacts(mediaType: .video, codec: "h264", duration: t(740, 600), timescale: 600,
                       video: VideoFacts(size: Size(width: 1440, height: 1080), displaySize: Size(width: 1440, height: 1080),
                                         frameCount: 22, minFrameDuration: t(20, 600), variableFrameRate: true,
                                         pixelFormat: "yuvj420p",
                                         color: ColorProperties(range: .full, primaries: "bt709", transfer: "bt709", matrix: "smpte170m"))),
            TrackFacts(mediaType: .audio, codec: "pcm_s16le", duration: t(54390, 44100), timescale: 44100,
                       audio: AudioFacts(sampleRate: 44100, channels: 1, layout: "mono", sampleFormat: "s16")),
            TrackFacts(mediaType: .metadata, codec: "unknown", duration: t(740, 600), timescale: 600),
            // The second metadata track starts with an empty edit of 288/600 s and lasts one tick.
            TrackFacts(mediaType: .metadata, codec: "unknown", duration: t(1, 600), offset: t(288, 600), timescale: 600),
        ]),
        // Audio edit list skips 2112 priming samples: 92720 presented samples from pts 0. Video: 57 frames of
        // 20/600 s with one 40/600 s interval (the dropped frame), so the frame rate varies.
        "M05_iphone13pro_livephoto_480x640_dropped-frame_audio-first.mov": AssetFacts(duration: t(1160, 600), tracks: [
            TrackFacts(mediaType: .audio, codec: "aac", duration: t(92720, 48000), timescale: 48000,
                       audio: AudioFacts(sampleRate: 48000, channels: 1, layout: "mono")),
            TrackFacts(mediaType: .video, codec: "h264", duration: t(1160, 600), timescale: 600,
                       video: VideoFacts(size: Size(width: 480, height: 640), displaySize: Size(width: 480, height: 640),
                                         frameCount: 57, minFrameDuration: t(20, 600), variableFrameRate: true,
                                         pixelFormat: "yuvj420p",
                                         color: ColorProperties(range: .full, primaries: "smpte170m", transfer: "bt709", matrix: "smpte170m"))),
            TrackFacts(mediaType: .metadata, codec: "unknown", duration: t(1160, 600), timescale: 600),
            TrackFacts(mediaType: .metadata, codec: "unknown", duration: t(1160, 600), timescale: 600),
            TrackFacts(mediaType: .metadata, codec: "unknown", duration: t(1, 600), offset: t(880, 600), timescale: 600),
        ]),
        // Non-zero starts folded per track: audio's first sample at 1024/44100 s, video's first picture at
        // 1001/30000 s are both source time 0. Audio: 119 packets, but the first (libfaac's) decodes to nothing:
        // 118 × 1024 samples (ffmpeg: "118 frames decoded (120832 samples)").
        "M08_h264_1280x720_29.97_nonzero-start.mp4": AssetFacts(duration: t(120832, 44100), tracks: [
            TrackFacts(mediaType: .audio, codec: "aac", duration: t(120832, 44100), offset: t(1024, 44100), timescale: 44100,
                       audio: AudioFacts(sampleRate: 44100, channels: 2, layout: "stereo")),
            TrackFacts(mediaType: .video, codec: "h264", duration: t(82082, 30000), offset: t(1001, 30000), timescale: 30000,
                       video: VideoFacts(size: Size(width: 1280, height: 720), displaySize: Size(width: 1280, height: 720),
                                         frameCount: 82, minFrameDuration: t(1001, 30000), variableFrameRate: false)),
        ]),
        // Edit lists media_time=1024 on both tracks: libavformat shifts the video so its first picture is pts 0
        // and flags the first audio packet discarded with 1024 skip samples. Audio: 168 × 1024 + 1007 (the edit
        // list's end) = 173039 samples. (ffprobe: 173184 ticks — the timestamps hold a 145-sample gap after the
        // first presented packet, whose stts entry is 1169.)
        "M09_h264_1080p30_audio-longer-than-video.mp4": AssetFacts(duration: t(173039, 48000), tracks: [
            TrackFacts(mediaType: .video, codec: "h264", duration: t(54272, 15360), timescale: 15360,
                       video: VideoFacts(size: Size(width: 1920, height: 1080), displaySize: Size(width: 1920, height: 1080),
                                         frameCount: 106, minFrameDuration: t(1, 30), variableFrameRate: false)),
            TrackFacts(mediaType: .audio, codec: "aac", duration: t(173039, 48000), timescale: 48000,
                       audio: AudioFacts(sampleRate: 48000, channels: 2, layout: "stereo")),
        ]),
        // Stored 1512 × 2016, EXIF orientation 6 (FFmpeg 5.1: a frame display matrix, rotation −90).
        "M14_jpeg_exif-orientation6_1512x2016.jpg": AssetFacts(format: "image2", duration: .positiveInfinity, tracks: [
            TrackFacts(mediaType: .video, codec: "mjpeg", duration: .positiveInfinity, timescale: 25,
                       video: VideoFacts(size: Size(width: 1512, height: 2016),
                                         transform: AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 2016, ty: 0),
                                         displaySize: Size(width: 2016, height: 1512), frameCount: 1,
                                         minFrameDuration: .positiveInfinity, variableFrameRate: false,
                                         pixelFormat: "yuvj444p",
                                         color: ColorProperties(range: .full, primaries: "unknown", transfer: "unknown", matrix: "bt470bg"),
                                         still: true)),
        ]),
    ]

    /// Every file in the folder (README.md aside): a file without expectations fails, so new media get facts.
    static var mediaFiles: [String] {
        guard Fixture.sharedMediaIsAvailable,
              let names = try? FileManager.default.contentsOfDirectory(atPath: Fixture.sharedMediaFolder.path) else { return [] }
        return names.filter { $0 != "README.md" && !$0.hasPrefix(".") }.sorted()
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable), arguments: mediaFiles)
    func loadsTheDocumentedFacts(name: String) async throws {
        let facts = try #require(Self.expected[name], "no expected facts for \(name): add them from its README entry")
        let url = Fixture.sharedMedia(name)
        let asset = try await Asset.load(from: url)
        #expect(asset.url == url)
        #expect(asset.formatName == facts.format)
        #expect(asset.duration == facts.duration, "asset duration \(asset.duration)")
        try #require(asset.tracks.count == facts.tracks.count)
        for (index, (track, expected)) in zip(asset.tracks, facts.tracks).enumerated() {
            let label = "\(name) track \(index + 1)"
            #expect(track.assetURL == url)
            #expect(track.trackID == Int32(index + 1), "\(label)")
            #expect(track.streamIndex == index, "\(label)")
            #expect(track.mediaType == expected.mediaType, "\(label)")
            #expect(track.codecName == expected.codec, "\(label)")
            #expect(track.timeRange.start == .zero, "\(label)")
            #expect(track.timeRange.duration == expected.duration, "\(label) duration \(track.timeRange.duration)")
            #expect(track.startTimeOffset == expected.offset, "\(label) offset \(track.startTimeOffset)")
            #expect(track.naturalTimeScale == expected.timescale, "\(label)")
            if expected.duration.isNumeric {
                // Durations are exact in the stream's own timescale.
                #expect(track.timeRange.duration.timescale == expected.timescale, "\(label)")
            }
            #expect(track.isDecodable == (expected.mediaType == .video || expected.mediaType == .audio), "\(label)")
            if let video = expected.video {
                let format = try #require(track.video, "\(label) video format")
                #expect(format.naturalSize == video.size, "\(label)")
                #expect(format.pixelAspectRatio == .square, "\(label)")
                #expect(format.preferredTransform == video.transform, "\(label) transform \(format.preferredTransform)")
                #expect(format.displaySize == video.displaySize, "\(label)")
                #expect(format.frameCount == video.frameCount, "\(label)")
                #expect(format.minFrameDuration == video.minFrameDuration, "\(label) min frame \(format.minFrameDuration)")
                #expect(format.hasVariableFrameRate == video.variableFrameRate, "\(label)")
                #expect(format.pixelFormat == video.pixelFormat, "\(label)")
                #expect(format.color == video.color, "\(label) colour \(format.color)")
                #expect(format.isStillImage == video.still, "\(label)")
                if video.still {
                    #expect(format.nominalFrameRate == 0)
                } else {
                    // Average rate of the presented frames: frameCount / the time they are shown, the last frame
                    // counted for at least the shortest interval (M04's edit list cuts its last frame to 19/600 s).
                    let shortened: MediaTime = name.hasPrefix("M04_") ? MediaTime(value: 1, timescale: 600) : .zero
                    let rate = Double(video.frameCount) / (expected.duration + shortened).seconds
                    #expect(abs(format.nominalFrameRate - rate) < 1e-9, "\(label) rate \(format.nominalFrameRate)")
                }
            } else {
                #expect(track.video == nil, "\(label)")
            }
            if let audio = expected.audio {
                let format = try #require(track.audio, "\(label) audio format")
                #expect(format == AudioTrackFormat(sampleRate: audio.sampleRate, channelCount: audio.channels,
                                                   channelLayout: audio.layout, sampleFormat: audio.sampleFormat), "\(label)")
            } else {
                #expect(track.audio == nil, "\(label)")
            }
        }
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func nonZeroStartTimesAreFoldedPerTrack() async throws {
        // M08: no edit lists; audio starts at 1024/44100 s (0.023220), video at 1001/30000 s (0.033367). Rule: each
        // track's own first presented sample is its source time 0, so both start at 0 and the file offsets are kept.
        let asset = try await Asset.load(from: Fixture.sharedMedia("M08_h264_1280x720_29.97_nonzero-start.mp4"))
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        let video = try #require(asset.tracks(withMediaType: .video).first)
        #expect(audio.timeRange.start == .zero && video.timeRange.start == .zero)
        #expect(audio.startTimeOffset == MediaTime(value: 1024, timescale: 44100))
        #expect(video.startTimeOffset == MediaTime(value: 1001, timescale: 30000))
        #expect(String(format: "%.6f", audio.startTimeOffset.seconds) == "0.023220")
        #expect(String(format: "%.6f", video.startTimeOffset.seconds) == "0.033367")
        // The picture starts 10.1 ms after the sound in the file; folding moves it by exactly this much.
        #expect(video.startTimeOffset - audio.startTimeOffset == MediaTime(value: 1001, timescale: 30000) - MediaTime(value: 1024, timescale: 44100))
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func audioLastsWhatDecodingGives() async throws {
        // M08's 119 AAC packets promise 121856 samples, but the decoder drops the first packet (libfaac's), so
        // decoding gives 118 × 1024 = 120832 samples (as `ffmpeg -i M08 -f s16le` does: 483328 bytes of stereo s16).
        // The track lasts what decoding gives, so the export never pads its last 23 ms with silence.
        let url = Fixture.sharedMedia("M08_h264_1280x720_29.97_nonzero-start.mp4")
        let file = try InputFile(url: url)
        let info = StreamInfo(stream: file.stream(at: 0), format: file.pointer)
        let scan = try PacketScan(file: file, streams: [info], limit: AssetProbe.packetScanLimit)
        #expect(scan.audio[0]?.presentedSamples == 121_856 && scan.packetCount[0] == 119)
        #expect(try AssetProbe.decodedSampleCount(url: url, info: info, cancellation: CancellationFlag()) == 120_832)
        let asset = try await Asset.load(from: url)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(audio.timeRange.duration == MediaTime(value: 120_832, timescale: 44100))
        #expect(audio.timeRange.duration.convertScale(44100).value == 120_832)
        // Where the container trims the last packet, its count is the smaller one and stays: M01 ends with 906 of
        // 1024 samples (93 × 1024 + 906 = 96138), while the decoder gives all 94 × 1024 = 96256 (ffmpeg: 192512 bytes
        // of mono s16).
        let m01 = Fixture.sharedMedia("M01_iphone4s_rot-90_ts600_aac-mono44k.mov")
        let m01File = try InputFile(url: m01)
        let m01Info = StreamInfo(stream: m01File.stream(at: 0), format: m01File.pointer)
        let m01Scan = try PacketScan(file: m01File, streams: [m01Info], limit: AssetProbe.packetScanLimit)
        #expect(m01Scan.audio[0]?.presentedSamples == 96_138)
        #expect(try AssetProbe.decodedSampleCount(url: m01, info: m01Info, cancellation: CancellationFlag()) == 96_256)
        let m01Audio = try #require(try await Asset.load(from: m01).tracks(withMediaType: .audio).first)
        #expect(m01Audio.timeRange.duration == MediaTime(value: 96_138, timescale: 44100))
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func primingAndEditListsAreFolded() throws {
        // M05: the audio edit list (media_time 2112) becomes skip-samples side data of 2112 on the first packet
        // (pts −2112); two packets are discarded whole, 64 samples of the third are skipped: source time 0 is pts 0.
        let m05 = try InputFile(url: Fixture.sharedMedia("M05_iphone13pro_livephoto_480x640_dropped-frame_audio-first.mov"))
        let m05Audio = StreamInfo(stream: m05.stream(at: 0), format: m05.pointer)
        let m05Scan = try PacketScan(file: m05, streams: [m05Audio], limit: AssetProbe.packetScanLimit)
        let audio = try #require(m05Scan.audio[0])
        #expect(audio.primingSamples == 2112)
        #expect(audio.firstPresentedPTS == -64 && audio.skipAtFirstPresented == 64)
        #expect(audio.presentedSamples == 92720)
        #expect(m05Scan.packetCount[0] == 93)

        // M09: edit lists media_time 1024 on both tracks. Video pts are shifted by −1024 ticks (first picture pts 0,
        // decoded from dts −1024); audio's 1024 priming samples are one discarded packet.
        let m09 = try InputFile(url: Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4"))
        let m09Streams = (0..<2).map { StreamInfo(stream: m09.stream(at: $0), format: m09.pointer) }
        let m09Scan = try PacketScan(file: m09, streams: m09Streams, limit: AssetProbe.packetScanLimit)
        #expect(m09Scan.video[0]?.frames.map(\.pts).min() == 0)
        #expect(m09Scan.video[0]?.frames.count == 106)
        #expect(m09Scan.audio[1]?.primingSamples == 1024)
        #expect(m09Scan.audio[1]?.firstPresentedPTS == 0)
        #expect(m09Scan.audio[1]?.presentedSamples == 173039)
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func containerMetadataIsListed() async throws {
        let m01 = try await Asset.load(from: Fixture.sharedMedia("M01_iphone4s_rot-90_ts600_aac-mono44k.mov"))
        #expect(m01.metadata.contains(MetadataItem(key: "com.apple.quicktime.model", value: "iPhone 4S")))
        #expect(m01.metadata.contains(MetadataItem(key: "creation_time", value: "2013-12-22T20:54:41.000000Z")))
        let m04 = try await Asset.load(from: Fixture.sharedMedia("M04_iphone6s_livephoto_1440x1080_vfr_pcm-mono44k.mov"))
        #expect(m04.metadata.contains(MetadataItem(key: "com.apple.quicktime.software", value: "14.4.2")))
        let m14 = try await Asset.load(from: Fixture.sharedMedia("M14_jpeg_exif-orientation6_1512x2016.jpg"))
        #expect(m14.metadata.isEmpty)
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func dataRatesComeFromTheContainer() async throws {
        // mov states per-track bit rates (ffprobe: 61893 and 507677 b/s); a still image has none.
        let m01 = try await Asset.load(from: Fixture.sharedMedia("M01_iphone4s_rot-90_ts600_aac-mono44k.mov"))
        #expect(m01.tracks.map(\.estimatedDataRate) == [61893, 507677])
        let m14 = try await Asset.load(from: Fixture.sharedMedia("M14_jpeg_exif-orientation6_1512x2016.jpg"))
        #expect(m14.tracks.first?.estimatedDataRate == nil)
    }

    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func scanLimitFallsBackToDeclaredDurations() async throws {
        // With room for 40 of M08's 201 packets, the frame count is unknown and the ends come from the container
        // (stream start + duration, minus the first presented sample's timestamp).
        let asset = try await Asset.load(from: Fixture.sharedMedia("M08_h264_1280x720_29.97_nonzero-start.mp4"), packetScanLimit: 40)
        let audio = try #require(asset.tracks.first)
        let video = try #require(asset.tracks.last?.video)
        #expect(video.frameCount == nil)
        #expect(asset.tracks.last?.timeRange.duration == MediaTime(value: 82082, timescale: 30000))
        #expect(asset.tracks.last?.startTimeOffset == MediaTime(value: 1001, timescale: 30000))
        #expect(video.minFrameDuration == MediaTime(value: 1001, timescale: 30000))
        // Audio: declared start 1024 + duration 121856 ticks, minus the first sample at 1024.
        #expect(audio.timeRange.duration == MediaTime(value: 121856, timescale: 44100))
    }
}
