import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// The title, creation date and location an export writes, read back by `exiftool` (a reader that shares no code
/// with FFmpeg) where each container keeps them: MP4's iTunes title and 3GPP `loci` box, MOV's QuickTime user data
/// `©nam` and `©xyz`; both with the movie header's creation date. And by the loader, from either form.
@Suite struct MetadataExifToolTests {
    /// exiftool's `-json -G1` tags of `url` (group-qualified names), or nil (recorded as skipped) without the tool.
    static func exifTags(of url: URL) async throws -> [String: Any]? {
        guard let exiftool = Executable.required("exiftool") else { return nil }
        let log = url.deletingPathExtension().appendingPathExtension("exiftool.json")
        let child = try ChildProcess(executable: exiftool, arguments: ["-json", "-n", "-G1", url.path],
                                     standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        #expect(child.exitCode == 0)
        let objects = try JSONSerialization.jsonObject(with: BinaryFile.read(log)) as? [[String: Any]]
        return try #require(objects?.first)
    }

    @Test(arguments: ["mp4", "mov"])
    func titleCreationDateAndLocationAreWhereTheContainerKeepsThem(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("metadata-exiftool")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(1000), in: scratch.url, name: "clip")
        let url = scratch.file("tagged.\(fileExtension)")
        let session = AssetExportSession(asset: try MutableComposition(asset: video), preset: .preset640x480)
        session.outputURL = url
        session.carriesSourceMetadata = false
        session.metadata = [
            MetadataItem(key: "title", value: "Tour Eiffel"),
            MetadataItem(key: "creation_time", value: "2026-12-04T12:00:00.000000Z"),
            MetadataItem(key: "location", value: "+48.8584+002.2945+035.000/"),
        ]
        try await session.export()

        let loaded = try await Asset.load(from: url)
        let common = Dictionary(loaded.commonMetadata.map { ($0.commonKey ?? "", $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(common["title"] == "Tour Eiffel")
        #expect(common["creationDate"]?.hasPrefix("2026-12-04T12:00:00") == true, "\(common)")
        // MOV keeps the text; MP4's loci box holds the numbers, which FFmpeg's demuxer reads back in its own form.
        #expect(common["location"] == (fileExtension == "mov" ? "+48.8584+002.2945+035.000/" : "+48.8584+002.2945+35.000000/"),
                "\(common)")

        guard let tags = try await Self.exifTags(of: url) else { return }
        #expect(tags["QuickTime:CreateDate"] as? String == "2026:12:04 12:00:00", "\(tags)")
        if fileExtension == "mp4" {
            #expect(tags["ItemList:Title"] as? String == "Tour Eiffel", "\(tags)")
            // 3GPP TS 26.244 loci: latitude and longitude as 16.16 fixed point, so 2.2945° reads back as 2.29449°.
            let loci = tags["UserData:LocationInformation"] as? String ?? ""
            #expect(loci.contains("Lat=48.85840 Lon=2.29449 Alt=35.00 Body=earth"), "\(tags)")
            #expect(tags["UserData:GPSCoordinates"] == nil, "MP4 gets no ©xyz: \(tags)")
        } else {
            #expect(tags["UserData:Title"] as? String == "Tour Eiffel", "\(tags)")
            #expect(tags["UserData:GPSCoordinates"] as? String == "48.8584 2.2945 35", "\(tags)")
            #expect(tags["UserData:LocationInformation"] == nil, "MOV gets no loci: \(tags)")
        }
    }

    @Test(arguments: ["mp4", "mov"])
    func makeModelSoftwareAndCustomKeysAreWrittenInTheMetadataKeySpace(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("metadata-exiftool-mdta")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(200), in: scratch.url, name: "clip")
        let url = scratch.file("tagged.\(fileExtension)")
        let session = AssetExportSession(asset: try MutableComposition(asset: video), preset: .preset640x480)
        session.outputURL = url
        session.carriesSourceMetadata = false
        session.metadata = MetadataReadBack.standardItems.map { MetadataItem(key: $0.key, value: $0.value) }
        try await session.export()
        try await MetadataReadBack.expectStandardItems(in: url)
    }
}
