import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// `AssetExportSession.timedMetadataGroups`: a location changing over a recording, written as a timed metadata
/// track, clipped and moved with the export's time range, read back with exact times and values by the loader
/// (`Asset.loadTimedMetadataGroups`) and by FFmpeg's command-line tools.
@Suite struct TimedMetadataExportTests {
    static func location(_ text: String) -> MetadataItem { MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: text) }

    @Test(arguments: ["mp4", "mov"])
    func groupsAreClippedAndMovedWithTheTimeRange(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("timed-metadata-export")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(2000), in: scratch.url, name: "clip")
        let url = scratch.file("timed.\(fileExtension)")
        let session = AssetExportSession(asset: try MutableComposition(asset: video), preset: .preset640x480)
        session.outputURL = url
        session.timedMetadataGroups = [
            TimedMetadataGroup(timeRange: TimeRange(start: .zero, duration: .ms(800)), items: [Self.location("+48.8584+002.2945/")]),
            TimedMetadataGroup(timeRange: TimeRange(start: .ms(800), duration: .ms(800)),
                               items: [Self.location("+48.8606+002.3376/"), MetadataItem(key: "note", value: "a=b {x}\nsecond line 100%")]),
            TimedMetadataGroup(timeRange: TimeRange(start: .ms(1600), duration: .ms(400)), items: [Self.location("+48.8530+002.3499/")]),
        ]
        // The range cuts the first group at its start and the second at its end; the third is outside.
        session.timeRange = TimeRange(start: .ms(500), duration: .ms(1000))
        try await session.export()

        let groups = try await Asset.loadTimedMetadataGroups(from: url)
        #expect(groups == [
            TimedMetadataGroup(timeRange: TimeRange(start: .zero, duration: .ms(300)), items: [Self.location("+48.8584+002.2945/")]),
            TimedMetadataGroup(timeRange: TimeRange(start: .ms(300), duration: .ms(700)),
                               items: [Self.location("+48.8606+002.3376/"), MetadataItem(key: "note", value: "a=b {x}\nsecond line 100%")]),
        ], "\(groups)")
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks.map(\.mediaType) == [.video, .metadata], "the timed metadata track is a metadata track, not subtitles")
        #expect(asset.tracks(withMediaType: .metadata).count == 1)
        #expect(asset.tracks(withMediaType: .metadata).first?.timeRange == TimeRange(start: .zero, duration: .ms(1000)),
                "the track lasts to its last group's end")
        #expect(try MutableComposition(asset: asset).tracks.map(\.mediaType) == [.video, .metadata], "a composition of the asset carries its timed metadata")

        // FFmpeg's tools: the track's handler, each sample's exact time and duration, and its bytes.
        guard let streams = try await MetadataReadBack.ffprobeStreamTags(of: url) else { return }
        #expect(streams.last?["handler_name"] == "Timed Metadata", "\(streams)")
        let times = try await MediaToolRun.run("ffprobe", [
            "-v", "error", "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", url.path,
        ])
        // FFmpeg's muxer also writes an empty sample (no text, no duration) where the second group starts: the text
        // track's "nothing shown", which the loader skips.
        #expect(times.split(separator: "\n") == ["0.000000,0.300000", "0.300000,N/A", "0.300000,0.700000"], "\(times)")
        let payload = scratch.file("samples.bin")
        let copied = try await MediaToolRun.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path, "-map", "0:s:0", "-c", "copy", "-f", "data", payload.path,
        ])
        #expect(copied.isEmpty, "\(copied)")
        // Each sample: a 16-bit length, then `key=value` lines, percent-encoded; the empty sample between them.
        let bytes = try [UInt8](BinaryFile.read(payload))
        let first = "com.apple.quicktime.location.ISO6709=+48.8584+002.2945/"
        let second = "com.apple.quicktime.location.ISO6709=+48.8606+002.3376/\nnote=a%3Db %7Bx%7D%0Asecond line 100%25"
        #expect(bytes == [0, UInt8(first.utf8.count)] + Array(first.utf8) + [0, 0] + [0, UInt8(second.utf8.count)] + Array(second.utf8),
                "\(String(decoding: bytes, as: UTF8.self))")
    }

    @Test func aContainerWithoutTimedMetadataTracksIsRefused() async throws {
        let scratch = try ScratchDirectory("timed-metadata-refused")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(200), in: scratch.url, name: "clip")
        let url = scratch.file("timed.mkv")
        let session = AssetExportSession(asset: try MutableComposition(asset: video), preset: .preset640x480)
        session.outputURL = url
        session.timedMetadataGroups = [TimedMetadataGroup(timeRange: TimeRange(start: .zero, duration: .ms(100)), items: [])]
        let error = await #expect(throws: ExportError.self) { try await session.export() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("a .mkv file cannot hold one"), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
