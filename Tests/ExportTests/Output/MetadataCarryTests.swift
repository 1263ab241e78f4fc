import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Container metadata carried by an export from its first video source, overridden by the session's items, or
/// dropped; read back by ffprobe (`-show_format -show_streams`) and by the loader.
@Suite("Metadata items carried by export", .enabled(if: Fixture.sharedMediaIsAvailable))
struct MetadataCarryTests {
    /// The iPhone 4S clip: QuickTime user data and `mdta` keys, its creation date in the movie header.
    static let iPhone = "M01_iphone4s_rot-90_ts600_aac-mono44k.mov"
    static let creationTime = "2013-12-22T20:54:41.000000Z"
    static let location = "+00.0000-000.0000+000.000/"

    /// `url`'s container tags as ffprobe reads them.
    static func formatTags(_ url: URL, in scratch: ScratchDirectory) async throws -> [String: String] {
        let ffprobe = try #require(Executable.find("ffprobe"))
        let log = scratch.file("ffprobe-\(url.lastPathComponent).json")
        let child = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-show_format", "-show_streams", "-of", "json", url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 30))
        let data = try BinaryFile.read(log)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        let format = try #require(json["format"] as? [String: Any])
        return format["tags"] as? [String: String] ?? [:]
    }

    /// Latitude and longitude of an ISO 6709 text such as `+48.8584+002.2945+035.000/`.
    static func coordinates(_ text: String?) -> [Double]? {
        guard let text else { return nil }
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if (character == "+" || character == "-" || character == "/") && !current.isEmpty {
                guard let number = Double(current) else { return nil }
                numbers.append(number)
                current = ""
            }
            if character != "/" { current.append(character) }
        }
        return numbers.count >= 2 ? Array(numbers.prefix(2)) : nil
    }

    /// A session exporting 0.5–1.5 s of `source`, re-encoded at 640 × 480 at most, into `url`.
    static func trim(_ source: Asset, to url: URL, preset: ExportPreset = .preset640x480) throws -> AssetExportSession {
        let session = AssetExportSession(asset: try MutableComposition(asset: source), preset: preset)
        session.outputURL = url
        session.timeRange = TimeRange(start: .ms(500), duration: .ms(1000))
        return session
    }

    @Test func loadedMetadataHasCommonKeysAndRawKeys() async throws {
        let asset = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let common = Dictionary(asset.commonMetadata.map { ($0.key, $0.commonKey ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(common["com.apple.quicktime.location.ISO6709"] == "location")
        #expect(common["location"] == "location")
        #expect(common["creation_time"] == "creationDate")
        #expect(common["com.apple.quicktime.creationdate"] == "creationDate")
        #expect(common["com.apple.quicktime.make"] == "make")
        #expect(common["com.apple.quicktime.model"] == "model")
        #expect(common["com.apple.quicktime.software"] == "software")
        #expect(common["major_brand"] == nil)
        #expect(asset.metadata.first { $0.key == "com.apple.quicktime.model" }?.value == "iPhone 4S")
        #expect(asset.metadata.first { $0.key == "com.apple.quicktime.location.ISO6709" }?.value == Self.location)
        #expect(MetadataItem(key: "location-eng", value: "").commonKey == "location")
        #expect(MetadataItem(key: "DATE_RECORDED", value: "").commonKey == "creationDate")
        #expect(MetadataItem(key: "com.example.custom", value: "").commonKey == nil)
    }

    @Test(arguments: ["mov", "mp4"])
    func aTrimCarriesTheSourceCreationDateAndLocation(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("metadata-carry")
        defer { scratch.remove() }
        let url = scratch.file("trim.\(fileExtension)")
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let session = try Self.trim(source, to: url)
        session.metadata = [MetadataItem(key: "title", value: "Über den Fluss")]
        try await session.export()

        let tags = try await Self.formatTags(url, in: scratch)
        #expect(tags["creation_time"] == Self.creationTime, "\(tags)")
        #expect(tags["com.apple.quicktime.location.ISO6709"] == Self.location, "\(tags)")
        #expect(Self.coordinates(tags["location"]) == [0, 0], "\(tags)")
        #expect(tags["com.apple.quicktime.make"] == "Apple", "\(tags)")
        #expect(tags["com.apple.quicktime.model"] == "iPhone 4S", "\(tags)")
        #expect(tags["com.apple.quicktime.creationdate"] == "2013-12-22T15:54:25-0500", "\(tags)")
        #expect(tags["title"] == "Über den Fluss", "\(tags)")
        #expect(tags["major_brand"] == (fileExtension == "mov" ? "qt  " : "isom"), "\(tags)")
        #expect(tags["encoder"]?.hasPrefix("Lavf") == true, "\(tags)")
    }

    /// An edit of two phone clips carries the metadata of the source of the first video segment in the export's
    /// range, not the other's (AVFoundation's exports of a composition carry none; docs/timed-text-metadata.md sets the two
    /// rules side by side).
    @Test func anEditCarriesTheFirstVideoSegmentsSourceInTheRange() async throws {
        let scratch = try ScratchDirectory("metadata-first-source")
        defer { scratch.remove() }
        let first = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let second = try await Asset.load(from: Fixture.sharedMedia("M04_iphone6s_livephoto_1440x1080_vfr_pcm-mono44k.mov"))
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(2000)), of: first, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(1000)), of: second, at: .ms(2000))
        for (name, range, model, creationTime) in [
            ("whole.mov", nil, "iPhone 4S", Self.creationTime),
            ("second.mov", TimeRange(start: .ms(2500), duration: .ms(500)), "iPhone 6s", "2021-04-10T10:44:00.000000Z"),
        ] {
            let url = scratch.file(name)
            let session = AssetExportSession(asset: composition, preset: .preset640x480)
            session.outputURL = url
            if let range { session.timeRange = range }
            try await session.export()
            let tags = try await Self.formatTags(url, in: scratch)
            #expect(tags["com.apple.quicktime.model"] == model, "\(name): \(tags)")
            #expect(tags["creation_time"] == creationTime, "\(name): \(tags)")
        }
    }

    @Test func itemsSetOnTheSessionWinOverTheSource() async throws {
        let scratch = try ScratchDirectory("metadata-override")
        defer { scratch.remove() }
        let url = scratch.file("override.mov")
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let session = try Self.trim(source, to: url)
        session.metadata = [
            MetadataItem(key: "location", value: "+48.8584+002.2945+035.000/"),
            MetadataItem(key: "creation_time", value: "2026-12-04T12:00:00.000000Z"),
        ]
        try await session.export()

        let tags = try await Self.formatTags(url, in: scratch)
        #expect(tags["creation_time"] == "2026-12-04T12:00:00.000000Z", "\(tags)")
        #expect(Self.coordinates(tags["location"]) == [48.8584, 2.2945], "\(tags)")
        // The source's location in its other key space is replaced too; its creation date text is not the same key.
        #expect(tags["com.apple.quicktime.location.ISO6709"] == nil, "\(tags)")
        #expect(tags["com.apple.quicktime.model"] == "iPhone 4S", "\(tags)")
    }

    @Test(arguments: ["48.8584,2.2945", "+48.8584+002.2945", "+98.0000+002.2945/", "+48.8584+190.0000/", "Paris"])
    func aLocationThatIsNotISO6709IsRefusedWithTheValue(value: String) async throws {
        let scratch = try ScratchDirectory("metadata-bad-location")
        defer { scratch.remove() }
        let url = scratch.file("never.mov")
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let session = try Self.trim(source, to: url)
        session.metadata = [MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: value)]
        let error = await #expect(throws: ExportError.self) { try await session.export() }
        let message = String(describing: try #require(error))
        #expect(message.contains("'\(value)' is not an ISO 6709 location"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(arguments: ["+48.8584+002.2945/", "+48.8584+002.2945+035.000/", "-3351.50+15112.75/", "+00.0000-000.0000+000.000/"])
    func anISO6709LocationIsAccepted(value: String) async throws {
        let scratch = try ScratchDirectory("metadata-good-location")
        defer { scratch.remove() }
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let session = try Self.trim(source, to: scratch.file("ok.mov"))
        session.metadata = [MetadataItem(key: "location", value: value)]
        try await session.validate()
    }

    @Test func carriesSourceMetadataFalseDropsIt() async throws {
        let scratch = try ScratchDirectory("metadata-drop")
        defer { scratch.remove() }
        let url = scratch.file("drop.mov")
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let session = try Self.trim(source, to: url)
        session.carriesSourceMetadata = false
        try await session.export()

        let tags = try await Self.formatTags(url, in: scratch)
        #expect(tags["creation_time"] == nil, "\(tags)")
        #expect(tags["location"] == nil, "\(tags)")
        #expect(tags["com.apple.quicktime.location.ISO6709"] == nil, "\(tags)")
        #expect(tags["com.apple.quicktime.model"] == nil, "\(tags)")
        #expect(tags.keys.filter { $0.hasPrefix("com.apple") }.isEmpty, "\(tags)")
    }

    @Test func passthroughCarriesTheSourceMetadata() async throws {
        let scratch = try ScratchDirectory("metadata-passthrough")
        defer { scratch.remove() }
        let url = scratch.file("copy.mov")
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        let session = AssetExportSession(asset: try MutableComposition(asset: source), preset: .passthrough)
        session.outputURL = url
        try await session.export()

        let tags = try await Self.formatTags(url, in: scratch)
        #expect(tags["creation_time"] == Self.creationTime, "\(tags)")
        #expect(tags["com.apple.quicktime.location.ISO6709"] == Self.location, "\(tags)")
        #expect(tags["com.apple.quicktime.software"] == "7.0.4", "\(tags)")
    }

    @Test func smartRenderingCarriesTheSourceMetadata() async throws {
        let scratch = try ScratchDirectory("metadata-smart")
        defer { scratch.remove() }
        let plain = try SmartRenderEdit.source(.h264, openGOP: false, seconds: 4, named: "plain.mov", in: scratch)
        let tagged = scratch.file("tagged.mov")
        let ffmpeg = try #require(Executable.find("ffmpeg"))
        let log = scratch.file("ffmpeg.txt")
        let child = try ChildProcess(executable: ffmpeg, arguments: [
            "-v", "error", "-i", plain.path, "-c", "copy", "-metadata", "creation_time=2021-04-10T10:44:00.000000Z",
            "-metadata", "com.apple.quicktime.location.ISO6709=+35.6586+139.7454+010.000/",
            "-movflags", "use_metadata_tags", tagged.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        let track = try #require(try await Asset.load(from: tagged).tracks(withMediaType: .video).first)
        let url = scratch.file("smart.mp4")
        let edit = try SmartRenderEdit.session(
            [track], pieces: [(0.5, 3.5)], title: nil, settings: ExportSettings(video: VideoSettings()), output: url)
        try await edit.session.export()
        #expect(edit.session.smartRenderReport?.spans.contains { $0.action == .copy } == true)

        let tags = try await Self.formatTags(url, in: scratch)
        #expect(tags["creation_time"] == "2021-04-10T10:44:00.000000Z", "\(tags)")
        #expect(tags["com.apple.quicktime.location.ISO6709"] == "+35.6586+139.7454+010.000/", "\(tags)")
    }

    @Test func matroskaCarriesAndReadsBackTheLocation() async throws {
        let scratch = try ScratchDirectory("metadata-mkv")
        defer { scratch.remove() }
        let url = scratch.file("trim.mkv")
        let source = try await Asset.load(from: Fixture.sharedMedia(Self.iPhone))
        try await Self.trim(source, to: url).export()

        // Matroska's muxer writes tag names in capitals.
        let tags = try await Self.formatTags(url, in: scratch)
        #expect(tags["COM.APPLE.QUICKTIME.LOCATION.ISO6709"] == Self.location, "\(tags)")
        #expect(tags["LOCATION"] == Self.location, "\(tags)")
        #expect(tags["creation_time"] == Self.creationTime, "\(tags)")
        let loaded = try await Asset.load(from: url)
        let locations = loaded.commonMetadata.filter { $0.commonKey == "location" }.map(\.value)
        #expect(locations.contains(Self.location), "\(loaded.metadata)")
        #expect(loaded.commonMetadata.contains { $0.commonKey == "model" && $0.value == "iPhone 4S" }, "\(loaded.metadata)")
    }
}
