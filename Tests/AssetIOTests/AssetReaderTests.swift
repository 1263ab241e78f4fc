import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

@Suite("AssetReader")
struct AssetReaderTests {
    /// Every sample of `output`, read through `copyNextSampleBuffer()`.
    static func readAll(_ output: AssetReaderTrackOutput) async -> [SampleBuffer] {
        var samples: [SampleBuffer] = []
        while let sample = await output.copyNextSampleBuffer() { samples.append(sample) }
        return samples
    }

    @Test("decoded H.264 pictures equal FFmpeg's own decode, at the stream's exact times")
    func decodedPicturesEqualFFmpeg() async throws {
        let url = Fixture.url("canonical/clipA.mp4")
        let asset = try await Asset.load(from: url)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: .rgba8))
        try reader.add(output)
        #expect(reader.startReading())
        let samples = await Self.readAll(output)
        #expect(reader.status == .completed)

        let expected = try await CommandLineTool.frameDigests(of: url, pixelFormat: "rgba")
        let digests = try samples.map { try FrameDigest.md5(of: $0.imageBuffer!.planes[0].bytes) }
        #expect(samples.count == 120)
        #expect(digests == expected)

        let frames = try await CommandLineTool.probe(url, stream: "v:0", section: "frame", entries: "pts,pkt_duration")
        #expect(samples.map(\.presentationTime) == frames.map { MediaTime(value: Int64($0[0])!, timescale: 15360) })
        #expect(samples.map(\.duration) == frames.map { MediaTime(value: Int64($0[1])!, timescale: 15360) })
        let picture = try #require(samples.first?.imageBuffer)
        #expect(picture.width == 640 && picture.height == 360 && picture.planes[0].bytesPerRow == 640 * 4)
        #expect(picture.color.range == .full && picture.color.primaries == "bt709" && picture.color.transfer == "bt709")
    }

    @Test("a variable-frame-rate phone clip decodes to FFmpeg's pictures at its irregular times",
          .enabled(if: Fixture.sharedMediaIsAvailable))
    func variableRatePhoneClip() async throws {
        let url = Fixture.sharedMedia("M03_android_720p_rot180_vfr_aac-mono48k.mp4")
        let asset = try await Asset.load(from: url)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: .rgba8))
        try reader.add(output)
        reader.startReading()
        let samples = await Self.readAll(output)
        let expected = try await CommandLineTool.frameDigests(of: url, pixelFormat: "rgba")
        #expect(samples.count == 25)
        #expect(try samples.map { try FrameDigest.md5(of: $0.imageBuffer!.planes[0].bytes) } == expected)
        let frames = try await CommandLineTool.probe(url, stream: "v:0", section: "frame", entries: "pts")
        #expect(samples.map(\.presentationTime) == frames.map { MediaTime(value: Int64($0[0])!, timescale: 90_000) })
        #expect(Set(zip(samples.dropFirst(), samples).map { ($0.presentationTime - $1.presentationTime) }).count > 1)
    }

    @Test("NV12 and planar 4:2:0 keep the source's planes and colour tags; size scales", arguments: [
        PixelBuffer.PixelFormat.nv12, .yuv420p, .bgra8,
    ])
    func otherPixelFormats(format: PixelBuffer.PixelFormat) async throws {
        let url = Fixture.url("canonical/clipA.mp4")
        let asset = try await Asset.load(from: url)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: format, size: Size(width: 320, height: 180)))
        try reader.add(output)
        reader.startReading()
        let first = try #require(await output.copyNextSampleBuffer()?.imageBuffer)
        reader.cancelReading()
        #expect(first.width == 320 && first.height == 180 && first.pixelFormat == format)
        switch format {
        case .nv12:
            #expect(first.planes.map(\.bytesPerRow) == [320, 320] && first.planes.map(\.rows) == [180, 90])
            #expect(first.color.range == .limited && first.color.matrix == "bt709")
        case .yuv420p:
            #expect(first.planes.map(\.bytesPerRow) == [320, 160, 160])
            #expect(first.color.range == .limited && first.color.matrix == "bt709")
        default:
            #expect(first.planes.map(\.bytesPerRow) == [1280])
        }
        #expect(reader.status == .cancelled)
    }

    @Test("decoded PCM has exactly the samples FFmpeg decodes", arguments: [
        ("canonical/clipA.mp4", 2), ("canonical/clipB.mp4", 1), ("tone/sine-1k-48k-stereo.wav", 2),
    ])
    func decodedSoundHasFFmpegsSampleCount(path: String, channels: Int) async throws {
        let url = Fixture.url(path)
        let asset = try await Asset.load(from: url)
        for format in AudioBuffer.SampleFormat.allCases {
            let reader = AssetReader(asset: asset)
            let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0],
                                                outputSettings: .audio(sampleFormat: format))
            try reader.add(output)
            reader.startReading()
            var count = 0, bytes = 0
            for try await sample in output {
                let buffer = try #require(sample.audioBuffer)
                #expect(buffer.channelCount == channels && buffer.sampleFormat == format)
                count += sample.sampleCount
                bytes += buffer.bytes.count
            }
            let expected = try await CommandLineTool.decodedSampleCount(of: url, channels: channels)
            #expect(count == expected)
            #expect(bytes == expected * channels * format.bytesPerSample)
            #expect(reader.status == .completed)
        }
    }

    @Test("sound is resampled and remixed through libswresample to the rate and channels asked")
    func resampledSound() async throws {
        let asset = try await Fixture.asset("tone/sine-1k-48k-stereo.wav")
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks[0],
                                            outputSettings: .audio(sampleFormat: .int16, sampleRate: 24_000, channelCount: 1))
        try reader.add(output)
        reader.startReading()
        var samples: [Float] = []
        for try await sample in output {
            #expect(sample.audioBuffer?.sampleRate == 24_000 && sample.audioBuffer?.channelCount == 1)
            samples += sample.audioBuffer?.floatSamples ?? []
        }
        // 2.000 s at 24 kHz, give or take the resampler's filter delay (a few samples).
        #expect(abs(samples.count - 48_000) <= 32, "got \(samples.count) samples")
        let peak = samples.dropFirst(1000).prefix(40_000).map(abs).max() ?? 0
        #expect(abs(peak - 0.501187) < 0.01, "peak \(peak)")
    }

    @Test("nil settings hand out the stored packets with their exact times, flags and format description",
          .enabled(if: Fixture.sharedMediaIsAvailable))
    func compressedSamplesAreThePackets() async throws {
        let url = Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4")
        let asset = try await Asset.load(from: url)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        try reader.add(output)
        reader.startReading()
        let samples = await Self.readAll(output)
        let packets = try await CommandLineTool.probe(url, stream: "v:0", section: "packet", entries: "pts,dts,duration,size,flags")
        #expect(samples.count == packets.count && samples.count == 106)
        for (sample, packet) in zip(samples, packets) {
            #expect(sample.presentationTime == MediaTime(value: Int64(packet[0])!, timescale: 15360))
            #expect(sample.decodeTime == MediaTime(value: Int64(packet[1])!, timescale: 15360))
            #expect(sample.duration == MediaTime(value: Int64(packet[2])!, timescale: 15360))
            #expect(sample.dataBuffer?.count == Int(packet[3])!)
            #expect(sample.isKeyFrame == packet[4].hasPrefix("K"))
        }
        let format = try #require(samples.first?.formatDescription)
        #expect(format.codecName == "h264" && format.timeScale == 15360)
        #expect(format.dimensions == Size(width: 1920, height: 1080))
        #expect(format.extradata.first == 1)  // an avcC record starts with configurationVersion 1
        #expect(reader.status == .completed)
    }

    @Test("a time range starts at the key frame before its start and ends before its end")
    func timeRange() async throws {
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        let reader = AssetReader(asset: asset)
        reader.timeRange = TimeRange(start: MediaTime(value: 1, timescale: 1), duration: MediaTime(value: 1, timescale: 2))
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: .bgra8))
        try reader.add(output)
        reader.startReading()
        let times = await Self.readAll(output).map(\.presentationTime)
        #expect(times.first == MediaTime(value: 1, timescale: 1))
        #expect(times.count == 15)
        #expect(times.last == MediaTime(value: 15360 + 14 * 512, timescale: 15360))
    }

    @Test("an output added after startReading, or with settings of the other media type, is refused by name")
    func refusedOutputs() async throws {
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        let reader = AssetReader(asset: asset)
        let audio = asset.tracks(withMediaType: .audio)[0]
        let wrong = AssetReaderTrackOutput(track: audio, outputSettings: .video(pixelFormat: .rgba8))
        #expect(!reader.canAdd(wrong))
        #expect(throws: AssetReaderError.settingsDoNotMatchTrack(trackID: audio.trackID, mediaType: .audio,
                                                                 reason: "decoded video settings on an audio track")) {
            try reader.add(wrong)
        }
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        #expect(reader.error == .cannotStartReading(reason: "no outputs were added"))

        let second = AssetReader(asset: asset)
        try second.add(AssetReaderTrackOutput(track: audio, outputSettings: nil))
        second.startReading()
        let late = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        #expect(throws: AssetReaderError.outputAddedAfterStartReading(output: "track \(late.track.trackID)")) { try second.add(late) }
        second.cancelReading()
        #expect(second.status == .cancelled)
    }

    @Test("a slow consumer holds the reader back: at most 4 samples wait; cancelling ends the sequence")
    func backPressureAndCancel() async throws {
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: .rgba8))
        try reader.add(output)
        reader.startReading()
        var count = 0
        do {
            for try await _ in output {
                count += 1
                try await Task.sleep(for: .milliseconds(5))
                if count == 30 { reader.cancelReading() }
            }
            Issue.record("the sequence ended without an error after \(count) samples")
        } catch is CancellationError {
        }
        #expect(output.peakReadAheadCount <= AssetReaderTrackOutput.readAheadCount)
        #expect(count >= 30 && count <= 30 + AssetReaderTrackOutput.readAheadCount + 1)
        #expect(reader.status == .cancelled)
    }

    @Test("PCM without a stated channel layout (an iPhone Live Photo) decodes to FFmpeg's sample count",
          .enabled(if: Fixture.sharedMediaIsAvailable))
    func pcmWithoutLayout() async throws {
        let url = Fixture.sharedMedia("M04_iphone6s_livephoto_1440x1080_vfr_pcm-mono44k.mov")
        let asset = try await Asset.load(from: url)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0],
                                            outputSettings: .audio(sampleFormat: .int16))
        try reader.add(output)
        reader.startReading()
        var count = 0
        for try await sample in output {
            #expect(sample.audioBuffer?.channelCount == 1 && sample.audioBuffer?.sampleRate == 44_100)
            count += sample.sampleCount
        }
        #expect(count == (try await CommandLineTool.decodedSampleCount(of: url, channels: 1)))
    }

    @Test("a damaged file fails the reader with the file, the track and the time reached")
    func damagedFile() async throws {
        let good = try await Fixture.asset("canonical/clipA.mp4")
        let url = Fixture.url("broken/truncated.mp4")
        var asset = good
        asset.url = url
        asset.tracks = asset.tracks.map { var track = $0; track.assetURL = url; return track }
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        try reader.add(output)
        reader.startReading()
        var count = 0
        do {
            for try await _ in output { count += 1 }
            Issue.record("no error after \(count) samples")
        } catch let error as AssetReaderError {
            guard case .readFailed(let failedURL, let track, let time, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedURL == url && track == output.track.trackID && time != nil)
        }
        #expect(count == 36)
        #expect(reader.status == .failed)
    }
}
