import Foundation
import Testing
import Splice
import SpliceTestSupport

/// `AssetWriterInput.metadata`: a track's title, handler name and language written as the stream's tags, read back
/// by the loader (`track.metadata`), ffprobe and exiftool; a key MP4's tracks cannot hold refused by name.
@Suite("AssetWriter track metadata")
struct AssetWriterTrackMetadataTests {
    @Test("title, handler name and language of each track", arguments: ["mp4", "mkv"])
    func trackItems(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("writer-track-metadata")
        defer { scratch.remove() }
        let target = scratch.file("tracks.\(fileExtension)")
        let writer = try AssetWriter(outputURL: target, fileType: fileExtension == "mkv" ? .mkv : .mp4)
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        video.metadata = [MetadataItem(key: "title", value: "Wide shot"), MetadataItem(key: "handler_name", value: "Main camera")]
        let audio = AssetWriterInput(mediaType: .audio, outputSettings: .audio(AudioSettings(codec: fileExtension == "mkv" ? .opus : .aac)))
        audio.metadata = [MetadataItem(key: "handler_name", value: "Commentaire"), MetadataItem(key: "language", value: "deu")]
        audio.languageCode = "fra"  // wins over the item
        let adaptor = AssetWriterInputPixelBufferAdaptor(assetWriterInput: video, pixelFormat: .bgra8)
        try writer.add(video)
        try writer.add(audio)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<3)
        video.markAsFinished()
        try await AssetWriterSettingsTests.appendSound(audio, 0..<1)
        audio.markAsFinished()
        try await writer.finishWriting()

        let asset = try await Asset.load(from: target)
        func tags(_ track: AssetTrack?) -> [String: String] {
            Dictionary((track?.metadata ?? []).map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        let loadedVideo = tags(asset.tracks(withMediaType: .video).first)
        let loadedAudio = tags(asset.tracks(withMediaType: .audio).first)
        #expect(loadedVideo["handler_name"] == "Main camera", "\(loadedVideo)")
        #expect(loadedAudio["handler_name"] == "Commentaire" && loadedAudio["language"] == "fra", "\(loadedAudio)")
        #expect(asset.tracks(withMediaType: .audio).first?.languageCode == "fra")
        // Matroska's demuxer reads the track's name back; MP4's keeps it in the track's user data `name`, which
        // FFmpeg 5.1's demuxer skips and exiftool reads.
        if fileExtension == "mkv" { #expect(loadedVideo["title"] == "Wide shot", "\(loadedVideo)") }

        if let probed = try await MetadataReadBack.ffprobeStreamTags(of: target) {
            let lowered = probed.map { Dictionary($0.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }) }
            #expect(lowered.first?["handler_name"] == "Main camera", "\(probed)")
            #expect(lowered.last?["handler_name"] == "Commentaire" && lowered.last?["language"] == "fra", "\(probed)")
        }
        if fileExtension == "mp4", let exif = try await MetadataReadBack.exiftoolTags(of: target) {
            #expect(exif["Track1:Track1Name"] == "Wide shot", "\(exif)")
            #expect(exif["Track1:HandlerDescription"] == "Main camera", "\(exif)")
            #expect(exif["Track2:HandlerDescription"] == "Commentaire", "\(exif)")
        }
    }

    @Test("a track key MP4 cannot hold is refused by name before a file is made")
    func unsupportedTrackKey() throws {
        let scratch = try ScratchDirectory("writer-track-metadata-refused")
        defer { scratch.remove() }
        let writer = try AssetWriter(outputURL: scratch.file("refused.mp4"), fileType: .mp4)
        let video = AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48)))
        video.metadata = [MetadataItem(key: "com.example.lens", value: "wide")]
        try writer.add(video)
        #expect {
            try writer.startWriting()
        } throws: { error in
            guard case .invalidMetadata(let key, let value, let reason)? = error as? AssetWriterError else { return false }
            return key == "com.example.lens" && value == "wide" && reason.hasPrefix("video input 0: track metadata 'com.example.lens'")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
