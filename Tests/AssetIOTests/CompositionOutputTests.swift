import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// The composition outputs against the export of the same composition: the export encodes losslessly (FFV1, PCM)
/// and `ffmpeg` decodes it, so its frames and samples are exactly the pictures and sound the export's compositor and
/// mixer made before encoding.
@Suite("AssetReader composition outputs")
struct CompositionOutputTests {
    /// Clip A [0, 2 s) on video track 1, clip B from 1.5 s to 3 s on video track 2, cross-dissolving over
    /// [1.5, 2); their sounds on two audio tracks, clip A's fading 1 → 0 over [1, 2).
    static func makeEdit() async throws -> (MutableComposition, MutableVideoComposition, MutableAudioMix) {
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let clipB = try await Fixture.asset("canonical/clipB.mp4")
        var composition = MutableComposition()
        let videoA = try composition.addMutableTrack(withMediaType: .video)
        let videoB = try composition.addMutableTrack(withMediaType: .video)
        let audioA = try composition.addMutableTrack(withMediaType: .audio)
        let audioB = try composition.addMutableTrack(withMediaType: .audio)
        let two = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        let oneAndAHalf = TimeRange(start: .zero, duration: MediaTime(value: 3, timescale: 2))
        let cut = MediaTime(value: 3, timescale: 2)
        try composition.insertTimeRange(two, of: clipA.tracks(withMediaType: .video)[0], at: .zero, intoTrackWithID: videoA)
        try composition.insertTimeRange(two, of: clipA.tracks(withMediaType: .audio)[0], at: .zero, intoTrackWithID: audioA)
        try composition.insertTimeRange(oneAndAHalf, of: clipB.tracks(withMediaType: .video)[0], at: cut, intoTrackWithID: videoB)
        try composition.insertTimeRange(oneAndAHalf, of: clipB.tracks(withMediaType: .audio)[0], at: cut, intoTrackWithID: audioB)

        var video = MutableVideoComposition()
        video.renderSize = Size(width: 640, height: 360)
        video.frameDuration = MediaTime(value: 1, timescale: 30)
        var onlyA = VideoCompositionLayerInstruction(trackID: videoA)
        onlyA.setOpacity(1, at: .zero)
        let onlyB = VideoCompositionLayerInstruction(trackID: videoB)
        let dissolve = TimeRange(start: cut, duration: MediaTime(value: 1, timescale: 2))
        video.instructions = [
            VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: cut), layerInstructions: [onlyA]),
            .crossDissolve(from: videoA, to: videoB, timeRange: dissolve),
            VideoCompositionInstruction(timeRange: TimeRange(start: MediaTime(seconds: 2), duration: MediaTime(seconds: 1)),
                                        layerInstructions: [onlyB]),
        ]
        var mix = MutableAudioMix()
        var fade = AudioMixInputParameters(trackID: audioA)
        fade.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)))
        mix.inputParameters = [fade]
        return (composition, video, mix)
    }

    /// Exports `composition` losslessly (FFV1 in the canvas's 4:2:0, PCM s16 at 48 kHz stereo) into `scratch`.
    static func exportLosslessly(_ composition: MutableComposition, video: MutableVideoComposition, mix: MutableAudioMix,
                                 into scratch: ScratchDirectory) async throws -> URL {
        let session = AssetExportSession(asset: composition, settings: ExportSettings(
            video: VideoSettings(codec: .ffv1), audio: AudioSettings(codec: .pcm)))
        let url = scratch.file("export.mkv")
        session.outputURL = url
        session.videoComposition = video
        session.audioMix = mix
        try await session.export()
        return url
    }

    /// The planes of a picture back to back, as `framemd5` hashes them.
    static func packed(_ picture: PixelBuffer) -> [UInt8] { picture.planes.flatMap(\.bytes) }

    @Test("the video composition output's frames are the export's, dissolve included, at exact times")
    func videoCompositionOutputEqualsExport() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (composition, video, mix) = try await Self.makeEdit()
        let exported = try await Self.exportLosslessly(composition, video: video, mix: mix, into: scratch)

        let reader = AssetReader(asset: composition)
        let output = AssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video),
                                                       videoSettings: DecodedVideoSettings(pixelFormat: .yuv420p))
        output.videoComposition = video
        try reader.add(output)
        #expect(reader.startReading())
        var samples: [SampleBuffer] = []
        for try await sample in output { samples.append(sample) }
        #expect(reader.status == .completed)

        let expected = try await CommandLineTool.frameDigests(of: exported, pixelFormat: "yuv420p")
        #expect(samples.count == 90 && expected.count == 90)
        #expect(try samples.map { try FrameDigest.md5(of: Self.packed($0.imageBuffer!)) } == expected)
        #expect(samples.map(\.presentationTime) == (0..<90).map { MediaTime(value: Int64($0), timescale: 30) })
        #expect(samples.allSatisfy { $0.duration == MediaTime(value: 1, timescale: 30) })
        let picture = try #require(samples.first?.imageBuffer)
        #expect(picture.width == 640 && picture.height == 360 && picture.planes.map(\.bytesPerRow) == [640, 320, 320])
        // The dissolve's frames are neither clip: 15 distinct pictures from 1.5 s to 2 s.
        #expect(Set(expected[45..<60]).count == 15)
    }

    @Test("a picture mid-dissolve mixes the two clips' key patches by the ramp's opacity")
    func dissolvedPictureColour() async throws {
        let (composition, video, _) = try await Self.makeEdit()
        let reader = AssetReader(asset: composition)
        reader.timeRange = TimeRange(start: MediaTime(value: 52, timescale: 30), duration: MediaTime(value: 1, timescale: 30))
        let output = AssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video),
                                                       videoSettings: DecodedVideoSettings(pixelFormat: .rgba8))
        output.videoComposition = video
        try reader.add(output)
        reader.startReading()
        var samples: [SampleBuffer] = []
        for try await sample in output { samples.append(sample) }
        #expect(samples.count == 1)
        let sample = try #require(samples.first)
        #expect(sample.presentationTime == MediaTime(value: 52, timescale: 30))
        // Opacity of clip A at 52/30 s: 1 − (52/30 − 1.5) / 0.5 = 0.5333; red 255·0.533 = 136, blue 255·0.467 = 119.
        let pixel = try #require(sample.imageBuffer?.pixel(x: 160, y: 96))
        #expect(abs(Int(pixel[0]) - 136) <= 4 && pixel[1] <= 4 && abs(Int(pixel[2]) - 119) <= 4, "\(pixel)")
    }

    @Test("the audio mix output's samples are the export's, volume ramp included")
    func audioMixOutputEqualsExport() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (composition, video, mix) = try await Self.makeEdit()
        let exported = try await Self.exportLosslessly(composition, video: video, mix: mix, into: scratch)

        let reader = AssetReader(asset: composition)
        let output = AssetReaderAudioMixOutput(audioTracks: composition.tracks(withMediaType: .audio),
                                               audioSettings: DecodedAudioSettings(sampleFormat: .int16))
        output.audioMix = mix
        try reader.add(output)
        reader.startReading()
        var bytes: [UInt8] = [], times: [MediaTime] = [], count = 0
        for try await sample in output {
            times.append(sample.presentationTime)
            count += sample.sampleCount
            bytes += sample.audioBuffer!.bytes
        }
        #expect(reader.status == .completed)
        #expect(count == 144_000)
        #expect(Array(times.prefix(3)) == [0, 1024, 2048].map { MediaTime(value: $0, timescale: 48_000) })

        let raw = scratch.file("export.s16")
        _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", exported.path, "-map", "0:a:0", "-f", "s16le", raw.path])
        let expected = [UInt8](try BinaryFile.read(raw))
        #expect(expected.count == 144_000 * 4)
        #expect(bytes == expected)

        // Clip A alone at -12 dBFS (peak 0.251) before its fade; from 1.2 s to 1.3 s at volume 0.8 → 0.7.
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Double($0) / 32_768 }
        func peak(_ seconds: ClosedRange<Double>) -> Double {
            samples[Int(seconds.lowerBound * 96_000)..<Int(seconds.upperBound * 96_000)].map(abs).max() ?? 0
        }
        #expect(abs(peak(0.2...0.5) - 0.251) < 0.01)
        #expect(abs(peak(1.2...1.3) - 0.251 * 0.8) < 0.01)
        #expect(peak(2.5...2.9) > 0.1 && peak(2.5...2.9) < 0.26)
    }

    @Test("bad composition outputs are refused by name: an invalid video composition, a foreign track, a track output, 6 channels")
    func refusedCompositionOutputs() async throws {
        let (composition, video, _) = try await Self.makeEdit()
        var gap = video
        gap.instructions.remove(at: 1)
        let issues = gap.validate(for: composition)
        #expect(!issues.isEmpty)
        let reader = AssetReader(asset: composition)
        let output = AssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video), videoSettings: nil)
        output.videoComposition = gap
        try reader.add(output)
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        #expect(reader.error == .invalidComposition("invalid video composition: " + issues.map(\.description).joined(separator: "; ")))
        #expect(await output.copyNextSampleBuffer() == nil)

        let other = AssetReader(asset: composition)
        let audioTrackID = composition.tracks(withMediaType: .audio)[0].trackID
        #expect(throws: AssetReaderError.trackNotInComposition(trackID: audioTrackID, mediaType: .video)) {
            try other.add(AssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .audio), videoSettings: nil))
        }
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        #expect(throws: AssetReaderError.trackOutputOnComposition(trackID: 1)) {
            try other.add(AssetReaderTrackOutput(track: clipA.tracks[0], outputSettings: nil))
        }
        #expect(throws: AssetReaderError.invalidSettings("channel count 6 is outside 1 ... 2")) {
            try other.add(AssetReaderAudioMixOutput(audioTracks: composition.tracks(withMediaType: .audio),
                                                    audioSettings: DecodedAudioSettings(channelCount: 6)))
        }
        #expect(other.outputs.isEmpty)
    }

    /// Inverts the top layer's picture: a custom compositor as AVFoundation's samples write one.
    struct Invert: VideoCompositing {
        struct NothingToDraw: Error {}

        func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
            guard let id = request.sourceTrackIDs.first, let source = request.sourceFrame(byTrackID: id) else {
                throw NothingToDraw()
            }
            var pixels = source.pixels
            for i in stride(from: 0, to: pixels.count, by: 4) {
                pixels[i] = 255 - pixels[i]; pixels[i + 1] = 255 - pixels[i + 1]; pixels[i + 2] = 255 - pixels[i + 2]
            }
            guard let frame = VideoFrame(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow,
                                         pixels: pixels) else { throw NothingToDraw() }
            return frame
        }
    }

    @Test("a custom compositor draws the video composition output's frames as it draws the export's")
    func customCompositor() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        let second = TimeRange(start: .zero, duration: MediaTime(seconds: 1))
        let session = AssetExportSession(asset: try MutableComposition(asset: asset), settings: ExportSettings(
            video: VideoSettings(codec: .ffv1), audio: nil))
        let exported = scratch.file("inverted.mkv")
        session.outputURL = exported
        session.timeRange = second
        session.customVideoCompositor = Invert()
        try await session.export()

        var pictures: [PixelBuffer] = []
        for format in [PixelBuffer.PixelFormat.yuv420p, .rgba8] {
            let reader = AssetReader(asset: asset)
            reader.timeRange = second
            let output = AssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video),
                                                           videoSettings: DecodedVideoSettings(pixelFormat: format))
            output.customVideoCompositor = Invert()
            try reader.add(output)
            reader.startReading()
            for try await sample in output { pictures.append(sample.imageBuffer!) }
        }
        let expected = try await CommandLineTool.frameDigests(of: exported, pixelFormat: "yuv420p")
        #expect(pictures.count == 60 && expected.count == 30)
        #expect(try pictures.prefix(30).map { try FrameDigest.md5(of: Self.packed($0)) } == expected)
        // Clip A's red key patch, inverted: cyan.
        let pixel = try #require(pictures[30].pixel(x: 160, y: 96))
        #expect(pixel[0] <= 4 && pixel[1] >= 251 && pixel[2] >= 251, "\(pixel)")
    }
}
