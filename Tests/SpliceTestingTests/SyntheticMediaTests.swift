import SpliceFFmpeg
import Foundation
import Composition
import Export
import VideoComposition
import SpliceTesting
import Testing
import SpliceTestSupport

/// `SyntheticMedia` and the `SyntheticSource` generators: exact frame counts, exact colours, exact sample counts,
/// checked by reading the files back with the library (digests, PNG-free RGBA reads, asset loading).
@Suite("Synthetic media")
struct SyntheticMediaTests {
    @Test func colorFieldIsExactAndLastsToTheFrame() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let asset = try await SyntheticMedia.makeAsset(
            video: .colorField(Color(red: 1, green: 0, blue: 0)), duration: MediaTime(seconds: 2), in: scratch.url, name: "red")
        let track = try #require(asset.tracks(withMediaType: .video).first)
        #expect(track.codecName == "ffv1")
        #expect(track.naturalSize == Size(width: 320, height: 240))
        #expect(track.video?.frameCount == 60)
        #expect(track.timeRange.duration == MediaTime(seconds: 2))
        #expect(track.video?.minFrameDuration == MediaTime(value: 1, timescale: 30), "QuickTime keeps 1/30 s exactly")

        let first = try VideoFrame(contentsOf: scratch.file("red.mov"))
        #expect(first.width == 320 && first.height == 240)
        var wrong = 0
        for y in 0..<240 { for x in 0..<320 where first.pixel(x: x, y: y).map({ [$0.red, $0.green, $0.blue] }) != [255, 0, 0] { wrong += 1 } }
        #expect(wrong == 0, "\(wrong) pixels are not exactly (255, 0, 0)")

        let log = try await FrameDigestLog(contentsOf: scratch.file("red.mov"))
        #expect(log.streams.map(\.format) == ["bgr0 320x240"])
        #expect(log.frames.count == 60)
        #expect(Set(log.frames.map(\.md5)).count == 1, "every frame of a colour field is the same picture")
        #expect(log.frames.allSatisfy { $0.size == 320 * 240 * 4 })
        // QuickTime: the muxer's 1/15360 time base, frame k at k·512 exactly.
        #expect(log.streams.first?.timeBase == MediaTime(value: 1, timescale: 15_360))
        #expect(log.frames.map(\.timestamp) == (0..<60).map { Int64($0) * 512 })
    }

    @Test func quadrantsHaveExactColoursInPlace() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let url = scratch.file("quadrants.mkv")
        try SyntheticMedia.write(video: SyntheticSource.quadrants().description, audio: nil, duration: MediaTime(value: 1, timescale: 10), to: url)
        let frame = try VideoFrame(contentsOf: url)
        let red: [UInt8] = [255, 0, 0], green: [UInt8] = [0, 255, 0], blue: [UInt8] = [0, 0, 255], white: [UInt8] = [255, 255, 255]
        let expected: [(Int, Int, [UInt8])] = [(0, 0, red), (159, 119, red), (160, 0, green), (319, 119, green),
                                               (0, 120, blue), (159, 239, blue), (160, 120, white), (319, 239, white)]
        for (x, y, colour) in expected {
            let pixel = frame.pixel(x: x, y: y)
            #expect(pixel.map { [$0.red, $0.green, $0.blue] } == colour, "(\(x), \(y)): \(String(describing: pixel))")
        }
        // Matroska milliseconds: frame k at round(k·1000/30).
        #expect(try await FrameDigestLog(contentsOf: url).frames.map(\.timestamp) == [0, 33, 67])
    }

    @Test func flashIsOneWhiteFrameAmongBlackOnes() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let flash = scratch.file("flash.mkv"), white = scratch.file("white.mkv"), black = scratch.file("black.mkv")
        let tenth = MediaTime(value: 1, timescale: 10)
        try SyntheticMedia.write(video: SyntheticSource.flash(atFrame: 30).description, audio: nil, duration: MediaTime(seconds: 2), to: flash)
        try SyntheticMedia.write(video: SyntheticSource.colorField(.white).description, audio: nil, duration: tenth, to: white)
        try SyntheticMedia.write(video: SyntheticSource.colorField(.black).description, audio: nil, duration: tenth, to: black)
        let frames = try await FrameDigestLog(contentsOf: flash).frames
        let whiteDigest = try await FrameDigestLog(contentsOf: white).frames[0].md5
        let blackDigest = try await FrameDigestLog(contentsOf: black).frames[0].md5
        #expect(frames.count == 60)
        #expect(whiteDigest != blackDigest)
        #expect(frames.indices.filter { frames[$0].md5 == whiteDigest } == [30])
        #expect(frames.indices.filter { frames[$0].md5 == blackDigest }.count == 59)
    }

    @Test func toneAndBeepHaveExactSampleCounts() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let url = scratch.file("av.mkv")
        let duration = MediaTime(value: 21, timescale: 10)  // 2.1 s: 100 800 samples, 63 frames
        try SyntheticMedia.write(video: SyntheticSource.flash(atFrame: 30).description,
                                 audio: SyntheticSource.beep(atSample: 48_000).description, duration: duration, to: url)
        let asset = try await Asset.load(from: url)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(audio.codecName == "pcm_s16le")
        #expect(audio.audio?.sampleRate == 48_000 && audio.audio?.channelCount == 2)
        #expect(audio.timeRange.duration == duration)
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 63)
        let log = try await FrameDigestLog(contentsOf: url)
        let audioIndex = try #require(log.streams.first { $0.mediaType == .audio }?.index)
        let audioFrames = log.frames.filter { $0.streamIndex == audioIndex }
        #expect(audioFrames.reduce(0) { $0 + $1.size } == 100_800 * 2 * 2)
        // Silence before the beep: every full 1024-sample frame before sample 48 000 is the same (zero) data.
        #expect(Set(audioFrames.prefix(46).map(\.md5)).count == 1)
        #expect(audioFrames[46].md5 != audioFrames[0].md5, "frame 46 (samples 47 104..48 127) holds the beep's start")
    }

    /// The in-process markers reproduce the bundled fixture made by the `ffmpeg` tool (`make-fixtures`): every
    /// decoded frame and audio packet has the same digest.
    @Test func flashAndBeepReproduceTheLosslessMarkerFixture() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let url = scratch.file("markers.mkv")
        try SyntheticMedia.write(video: SyntheticSource.flash(atFrame: 30).description,
                                 audio: SyntheticSource.beep(atSample: 48_000).description, duration: MediaTime(seconds: 3), to: url)
        let ours = try await FrameDigestLog(contentsOf: url)
        let fixture = try await FrameDigestLog(contentsOf: Fixture.url("markers/flash-beep-lossless.mkv"))
        for type in [MediaType.video, .audio] {
            let a = try #require(ours.streams.first { $0.mediaType == type }).index
            let b = try #require(fixture.streams.first { $0.mediaType == type }).index
            let mine = ours.frames.filter { $0.streamIndex == a }.map(\.md5)
            let theirs = fixture.frames.filter { $0.streamIndex == b }.map(\.md5)
            #expect(mine.count == (type == .video ? 90 : 141))
            #expect(mine == theirs, "\(type) digests differ at \(zip(mine, theirs).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset))")
        }
    }

    /// The digests are FFmpeg's own: `ffmpeg -i markers/flash-beep-lossless.mkv -f framemd5 -` (FFmpeg 5.1) prints
    /// these hashes for its black frame 0, its white frame 30 and its first (silent) audio packet.
    @Test func digestsEqualFFmpegFramemd5() async throws {
        let log = try await FrameDigestLog(contentsOf: Fixture.url("markers/flash-beep-lossless.mkv"))
        let video = log.frames.filter { $0.streamIndex == 0 }, audio = log.frames.filter { $0.streamIndex == 1 }
        #expect(video[0].md5 == "90aeded9922cf8946ea7858635493724" && video[0].size == 307_200)
        #expect(video[30].md5 == "87c74db588800b18f50fe8131b4e247c")
        #expect(audio[0].md5 == "620f0b67a91f7f74151bc5be745b7110" && audio[0].size == 4096)
        #expect(video[1].description == "0,         33,         33,       33,   307200, 90aeded9922cf8946ea7858635493724")
        #expect(log.text.hasPrefix("#format: frame checksums\n#version: 2\n#hash: MD5\n#tb 0: 1/1000\n#media_type 0: video\n"))
    }

    /// A duration shorter than one audio sample writes a valid file with no sound samples and one picture.
    @Test func durationShorterThanASample() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let url = scratch.file("tiny.mov")
        try SyntheticMedia.write(video: SyntheticSource.colorField(.black).description, audio: SyntheticSource.tone(frequency: 440).description,
                                 duration: MediaTime(value: 1, timescale: 100_000), to: url)
        let log = try await FrameDigestLog(contentsOf: url)
        #expect(log.frames.filter { $0.streamIndex == 0 }.count == 1)
        #expect(log.frames.filter { $0.streamIndex == 1 }.reduce(0) { $0 + $1.size } == 0)
    }

    @Test func badRequestsAreTypedErrors() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let url = scratch.file("x.mkv")
        #expect(throws: ExportError.self) { try SyntheticMedia.write(video: nil, audio: nil, duration: MediaTime(seconds: 1), to: url) }
        #expect(throws: ExportError.self) {
            try SyntheticMedia.write(video: "testsrc2=s=64x64:r=30", audio: nil, duration: MediaTime(seconds: 1), to: scratch.file("x.mp4"))
        }
        #expect(throws: ExportError.self) {
            try SyntheticMedia.write(video: "testsrc2=s=64x64:r=30", audio: nil, duration: .zero, to: url)
        }
        do {
            try SyntheticMedia.write(video: "nosuchfilter=s=64x64", audio: nil, duration: MediaTime(seconds: 1), to: url)
            Issue.record("an unknown filter must throw")
        } catch let error as ExportError {
            guard case .unsupportedSettings(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("nosuchfilter"))
        }
        do {
            try SyntheticMedia.write(video: "testsrc2=s=64x64:r=30:d=1", audio: nil, duration: MediaTime(seconds: 2), to: url)
            Issue.record("a source shorter than the duration must throw")
        } catch let error as ExportError {
            guard case .unsupportedSettings(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason == "the video source ended at 1.000 s, before the requested duration 2.000 s", "\(reason)")
        }
        do {
            try SyntheticMedia.write(video: nil, audio: "sine=f=440:r=48000:d=0.25", duration: MediaTime(value: 1, timescale: 3), to: url)
            Issue.record("a sound source shorter than the duration must throw")
        } catch let error as ExportError {
            guard case .unsupportedSettings(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason == "the audio source ended at 0.250 s, before the requested duration 0.333 s", "\(reason)")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path), "a failed write leaves no file")
        try SyntheticMedia.write(video: "testsrc2=s=64x64:r=30", audio: nil, duration: MediaTime(seconds: 1), to: url)
        #expect(throws: ExportError.outputFileExists(url)) {
            try SyntheticMedia.write(video: "testsrc2=s=64x64:r=30", audio: nil, duration: MediaTime(seconds: 1), to: url)
        }
        #expect((try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)) == ["x.mkv"], "no temporary file remains")
    }
}
