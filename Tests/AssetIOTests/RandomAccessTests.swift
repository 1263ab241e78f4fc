import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// `supportsRandomAccess` and `reset(forReadingTimeRanges:)` by AVFoundation's rules: further ranges only after the
/// output returned nil, increasing and not overlapping; the reader completes once the configuration is final.
@Suite("AssetReader random access")
struct RandomAccessTests {
    static func readPass(_ output: any AssetReaderOutput) async -> [SampleBuffer] {
        var samples: [SampleBuffer] = []
        while let sample = await output.copyNextSampleBuffer() { samples.append(sample) }
        return samples
    }

    static func seconds(_ start: Double, _ duration: Double) -> TimeRange {
        TimeRange(start: MediaTime(value: Int64(start * 600), timescale: 600),
                  duration: MediaTime(value: Int64(duration * 600), timescale: 600))
    }

    static func digests(_ samples: [SampleBuffer]) throws -> [String] {
        try samples.map { try FrameDigest.md5(of: $0.imageBuffer!.planes.flatMap(\.bytes)) }
    }

    @Test("a track output reads each range's pictures exactly: the same pictures at the same times as a whole read")
    func trackOutputRanges() async throws {
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: .video(pixelFormat: .yuv420p))
        output.supportsRandomAccess = true
        try reader.add(output)
        reader.startReading()
        let whole = await Self.readPass(output)
        #expect(whole.count == 120)
        #expect(reader.status == .reading, "random access keeps the reader reading until the configuration is final")

        try output.reset(forReadingTimeRanges: [Self.seconds(1, 0.5), Self.seconds(3, 0.5)])
        let ranges = await Self.readPass(output)
        // Pictures overlapping [1, 1.5) and [3, 3.5) at 30 fps: frames 30 ..< 45 and 90 ..< 105.
        let expected = Array(whole[30..<45]) + Array(whole[90..<105])
        #expect(ranges.map(\.presentationTime) == expected.map(\.presentationTime))
        #expect(try Self.digests(ranges) == Self.digests(expected))

        try output.reset(forReadingTimeRanges: [Self.seconds(0, 0.1)])
        #expect(await Self.readPass(output).map(\.presentationTime) == whole[0..<3].map(\.presentationTime))
        output.markConfigurationAsFinal()
        #expect(reader.status == .completed)
    }

    @Test("composition outputs render each range on the frame grid and mix it to the sample, as the whole read")
    func compositionOutputRanges() async throws {
        let (composition, video, mix) = try await CompositionOutputTests.makeEdit()
        let reader = AssetReader(asset: composition)
        let pictures = AssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video),
                                                         videoSettings: DecodedVideoSettings(pixelFormat: .yuv420p))
        pictures.videoComposition = video
        let sound = AssetReaderAudioMixOutput(audioTracks: composition.tracks(withMediaType: .audio),
                                              audioSettings: DecodedAudioSettings(sampleFormat: .float32))
        sound.audioMix = mix
        pictures.supportsRandomAccess = true
        sound.supportsRandomAccess = true
        try reader.add(pictures)
        try reader.add(sound)
        reader.startReading()
        async let wholePictures = Self.readPass(pictures)
        async let wholeSound = Self.readPass(sound)
        let (allPictures, allSound) = await (wholePictures, wholeSound)
        #expect(allPictures.count == 90)

        // The dissolve and the last half second: frames 45 ..< 60 and 75 ..< 90.
        try pictures.reset(forReadingTimeRanges: [Self.seconds(1.5, 0.5), Self.seconds(2.5, 0.5)])
        let rangePictures = await Self.readPass(pictures)
        let expected = Array(allPictures[45..<60]) + Array(allPictures[75..<90])
        #expect(rangePictures.map(\.presentationTime) == expected.map(\.presentationTime))
        #expect(try Self.digests(rangePictures) == Self.digests(expected))

        // Clip A alone, in its fade: [0.5, 1.25) is samples 24000 ..< 60000 of the whole mix.
        try sound.reset(forReadingTimeRanges: [Self.seconds(0.5, 0.75)])
        let rangeSound = await Self.readPass(sound)
        #expect(rangeSound.first?.presentationTime == MediaTime(value: 24_000, timescale: 48_000))
        let wholeSamples = allSound.flatMap { $0.audioBuffer!.floatSamples }
        let samples = rangeSound.flatMap { $0.audioBuffer!.floatSamples }
        #expect(samples.count == 36_000 * 2)
        let reference = Array(wholeSamples[48_000..<120_000])
        let largest = zip(samples, reference).map { abs($0 - $1) }.max() ?? 1
        #expect(largest < 1e-4, "largest difference \(largest) from the whole mix")

        pictures.markConfigurationAsFinal()
        #expect(reader.status == .reading)
        sound.markConfigurationAsFinal()
        #expect(reader.status == .completed)
    }

    @Test("resets against AVFoundation's rules are refused by name")
    func refusedResets() async throws {
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        let reader = AssetReader(asset: asset)
        let plain = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .audio)[0], outputSettings: nil)
        let random = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: nil)
        random.supportsRandomAccess = true
        try reader.add(plain)
        try reader.add(random)
        let range = Self.seconds(1, 1)
        #expect(throws: AssetReaderError.cannotReset(reason: "the reader of track 1 is not reading")) {
            try random.reset(forReadingTimeRanges: [range])
        }
        reader.startReading()
        #expect(throws: AssetReaderError.cannotReset(reason: "supportsRandomAccess of track 2 was not set before startReading()")) {
            try plain.reset(forReadingTimeRanges: [range])
        }
        _ = await random.copyNextSampleBuffer()
        #expect(throws: AssetReaderError.cannotReset(
            reason: "track 1 has not handed out its last sample yet (copyNextSampleBuffer() must return nil first)")) {
            try random.reset(forReadingTimeRanges: [range])
        }
        _ = await Self.readPass(random)
        let overlapping = [Self.seconds(1, 1), Self.seconds(1.5, 1)]
        #expect(throws: AssetReaderError.invalidTimeRanges(overlapping, reason: "range 1 starts at 1.500 s, before range 0 ends at 2.000 s")) {
            try random.reset(forReadingTimeRanges: overlapping)
        }
        #expect(throws: AssetReaderError.invalidTimeRanges([], reason: "no time range was given")) {
            try random.reset(forReadingTimeRanges: [])
        }
        random.markConfigurationAsFinal()
        #expect(throws: AssetReaderError.cannotReset(reason: "markConfigurationAsFinal() was called on track 1")) {
            try random.reset(forReadingTimeRanges: [range])
        }
        _ = await Self.readPass(plain)
        #expect(reader.status == .completed)
    }
}
