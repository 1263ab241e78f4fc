import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// The tags an export writes on its output streams: the first source track's handler name and language carried
/// by default, a composition track's `metadata` and `languageCode` over them; read back by the loader, ffprobe and
/// exiftool.
@Suite struct TrackMetadataExportTests {
    /// A 1 s MP4 with a video track named "Main camera" and a French audio track named "Commentaire".
    static func taggedSource(in scratch: ScratchDirectory) async throws -> Asset? {
        guard Executable.required("ffmpeg") != nil else { return nil }
        let url = scratch.file("source.mp4")
        let made = try await MediaToolRun.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac",
            "-metadata:s:v:0", "handler_name=Main camera", "-metadata:s:a:0", "language=fra",
            "-metadata:s:a:0", "handler_name=Commentaire", url.path,
        ])
        #expect(made.isEmpty, "\(made)")
        return try await Asset.load(from: url)
    }

    @Test func sourceTrackTagsAreCarriedAndCompositionTrackTagsWin() async throws {
        let scratch = try ScratchDirectory("track-metadata-export")
        defer { scratch.remove() }
        guard let source = try await Self.taggedSource(in: scratch) else { return }
        var composition = try MutableComposition(asset: source)
        let videoID = try #require(composition.tracks(withMediaType: .video).first?.trackID)
        let audioID = try #require(composition.tracks(withMediaType: .audio).first?.trackID)
        try composition.modifyTrack(withID: videoID) { $0.metadata = [MetadataItem(key: "title", value: "Wide shot")] }
        try composition.modifyTrack(withID: audioID) { $0.languageCode = "deu" }
        let url = scratch.file("tagged.mp4")
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = url
        try await session.export()

        let output = try await Asset.load(from: url)
        func tags(_ mediaType: MediaType) -> [String: String] {
            Dictionary((output.tracks(withMediaType: mediaType).first?.metadata ?? []).map { ($0.key, $0.value) },
                       uniquingKeysWith: { first, _ in first })
        }
        #expect(tags(.video)["handler_name"] == "Main camera", "\(tags(.video))")
        #expect(tags(.audio)["handler_name"] == "Commentaire", "\(tags(.audio))")
        #expect(tags(.audio)["language"] == "deu", "\(tags(.audio))")
        if let probed = try await MetadataReadBack.ffprobeStreamTags(of: url) {
            #expect(probed.map { $0["handler_name"] } == ["Main camera", "Commentaire"], "\(probed)")
            #expect(probed.last?["language"] == "deu", "\(probed)")
        }
        if let exif = try await MetadataReadBack.exiftoolTags(of: url) {
            #expect(exif["Track1:Track1Name"] == "Wide shot", "\(exif)")
        }
    }

    @Test func carriesSourceMetadataFalseWritesOnlyTheCompositionTracksTags() async throws {
        let scratch = try ScratchDirectory("track-metadata-export-off")
        defer { scratch.remove() }
        guard let source = try await Self.taggedSource(in: scratch) else { return }
        let url = scratch.file("untagged.mp4")
        let session = AssetExportSession(asset: try MutableComposition(asset: source), preset: .preset640x480)
        session.outputURL = url
        session.carriesSourceMetadata = false
        try await session.export()
        guard let probed = try await MetadataReadBack.ffprobeStreamTags(of: url) else { return }
        // FFmpeg's own handler names, and no language.
        #expect(probed.map { $0["handler_name"] } == ["VideoHandler", "SoundHandler"], "\(probed)")
        #expect(probed.last?["language"] == "und", "\(probed)")
    }

    @Test func aTrackKeyTheContainerCannotHoldIsRefused() async throws {
        let scratch = try ScratchDirectory("track-metadata-export-refused")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(200), in: scratch.url, name: "clip")
        var composition = try MutableComposition(asset: video)
        let videoID = try #require(composition.tracks(withMediaType: .video).first?.trackID)
        try composition.modifyTrack(withID: videoID) { $0.metadata = [MetadataItem(key: "com.example.lens", value: "wide")] }
        let url = scratch.file("refused.mov")
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = url
        let error = await #expect(throws: ExportError.self) { try await session.export() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("track \(videoID): track metadata 'com.example.lens' cannot be written to MOV"),
                "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
