import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// A reader → writer loop against the export of the same file: both encode losslessly (FFV1, PCM), so `ffmpeg`'s
/// decode of each is exactly what was handed to its encoder.
@Suite("AssetReader → AssetWriter equals export")
struct TranscodeEqualsExportTests {
    @Test("a reader → writer transcode to FFV1 and PCM equals the export of the same file frame for frame and sample for sample")
    func transcodeEqualsExport() async throws {
        let source = Fixture.url("canonical/clipA.mp4")
        let scratch = try ScratchDirectory("transcode-export")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: source)
        let video = asset.tracks(withMediaType: .video)[0]

        let session = AssetExportSession(asset: try MutableComposition(asset: asset), settings: ExportSettings(
            video: VideoSettings(codec: .ffv1), audio: AudioSettings(codec: .pcm)))
        let exported = scratch.file("export.mkv")
        session.outputURL = exported
        try await session.export()

        // The pictures as the track stores them; the sound through the export's mixer (the file's whole tracks,
        // cut to the asset's duration as export cuts them).
        let reader = AssetReader(asset: asset)
        let pictures = AssetReaderTrackOutput(track: video, outputSettings: .video(pixelFormat: .yuv420p))
        let sound = AssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio),
                                              audioSettings: DecodedAudioSettings(sampleFormat: .float32))
        try reader.add(pictures)
        try reader.add(sound)
        let transcoded = scratch.file("transcode.mkv")
        let writer = try AssetWriter(outputURL: transcoded, fileType: .mkv)
        let videoInput = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(codec: .ffv1), size: video.naturalSize!, frameDuration: video.video!.minFrameDuration,
            timeScale: video.naturalTimeScale))
        let audioInput = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: .pcm)))
        try writer.add(videoInput)
        try writer.add(audioInput)
        #expect(reader.startReading())
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let pairs: [(any AssetReaderOutput, AssetWriterInput)] = [(pictures, videoInput), (sound, audioInput)]
            for (output, input) in pairs {
                group.addTask {
                    while let sample = await output.copyNextSampleBuffer() { try await input.append(sample) }
                    input.markAsFinished()
                }
            }
            try await group.waitForAll()
        }
        try await writer.finishWriting()
        #expect(reader.status == .completed)

        let expected = try await CommandLineTool.frameDigests(of: exported, pixelFormat: "yuv420p")
        let frames = try await CommandLineTool.frameDigests(of: transcoded, pixelFormat: "yuv420p")
        #expect(expected.count == 120)
        #expect(frames == expected)
        let exportTimes = try await CommandLineTool.probe(exported, stream: "v:0", section: "frame", entries: "pts_time")
        let transcodeTimes = try await CommandLineTool.probe(transcoded, stream: "v:0", section: "frame", entries: "pts_time")
        #expect(transcodeTimes == exportTimes)

        func pcm(_ url: URL, _ name: String) async throws -> Data {
            let raw = scratch.file(name)
            _ = try await CommandLineTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "s16le", raw.path])
            return try BinaryFile.read(raw)
        }
        let exportedSound = try await pcm(exported, "export.s16")
        let transcodedSound = try await pcm(transcoded, "transcode.s16")
        #expect(exportedSound.count == 192_000 * 4)
        #expect(transcodedSound == exportedSound)
    }
}
