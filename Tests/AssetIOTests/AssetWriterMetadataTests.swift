import Foundation
import Testing
import Splice
import SpliceTestSupport

/// `AssetWriter.metadata` written by the rule the export session and the movie file output share, read back by
/// ffprobe and exiftool; a location that is not ISO 6709 refused before any file is made.
@Suite("AssetWriter metadata")
struct AssetWriterMetadataTests {
    @Test("title, creation date, location, make, model, software and a custom key are read back", arguments: ["mp4", "mov"])
    func standardItems(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("writer-metadata")
        defer { scratch.remove() }
        let target = scratch.file("tagged.\(fileExtension)")
        let (writer, video, adaptor) = try AssetWriterSettingsTests.startedVideoWriter(
            target, metadata: MetadataReadBack.standardItems.map { MetadataItem(key: $0.key, value: $0.value) })
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<3)
        video.markAsFinished()
        try await writer.finishWriting()
        try await MetadataReadBack.expectStandardItems(in: target)

        // The loader sees the same items by their common keys.
        let common = Dictionary(try await Asset.load(from: target).commonMetadata.map { ($0.commonKey ?? "", $0.value) },
                                uniquingKeysWith: { first, _ in first })
        #expect(common["make"] == "Acme" && common["model"] == "Field Recorder 2" && common["software"] == "Splice", "\(common)")
    }

    @Test("AVFoundation's common key identifiers are written under libavformat's keys")
    func commonKeyIdentifiers() async throws {
        let scratch = try ScratchDirectory("writer-metadata-common")
        defer { scratch.remove() }
        let target = scratch.file("common.mov")
        let (writer, video, adaptor) = try AssetWriterSettingsTests.startedVideoWriter(target, metadata: [
            MetadataItem(key: "creationDate", value: "2026-12-04T12:00:00.000000Z"),
            MetadataItem(key: "copyrights", value: "© Splice"),
        ])
        try await AssetWriterSettingsTests.appendPictures(adaptor, 0..<3)
        video.markAsFinished()
        try await writer.finishWriting()
        guard let tags = try await MetadataReadBack.ffprobeTags(of: target) else { return }
        #expect(tags["creation_time"] == "2026-12-04T12:00:00.000000Z", "\(tags)")
        #expect(tags["copyright"] == "© Splice", "\(tags)")
        #expect(tags["creationDate"] == nil && tags["copyrights"] == nil, "\(tags)")
    }

    @Test("a location that is not ISO 6709 is refused with the value, before a file is made",
          arguments: ["48.8584,2.2945", "+98.0000+002.2945/"])
    func invalidLocation(value: String) throws {
        let scratch = try ScratchDirectory("writer-metadata-location")
        defer { scratch.remove() }
        let target = scratch.file("refused.mp4")
        let writer = try AssetWriter(outputURL: target, fileType: .mp4)
        writer.metadata = [MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: value)]
        try writer.add(AssetWriterInput(mediaType: .video, outputSettings: .video(
            VideoSettings(encoderPreset: "ultrafast"), size: Size(width: 64, height: 48))))
        #expect {
            try writer.startWriting()
        } throws: { error in
            guard case .invalidMetadata(let key, let refused, let reason)? = error as? AssetWriterError else { return false }
            return key == "com.apple.quicktime.location.ISO6709" && refused == value
                && reason.contains("'\(value)' is not an ISO 6709 location")
        }
        #expect(writer.status == .failed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
