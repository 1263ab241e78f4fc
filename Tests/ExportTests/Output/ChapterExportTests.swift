import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Chapters written by an export, read back by ffprobe (`-show_chapters`) and by the loader.
@Suite struct ChapterExportTests {
    @Test(arguments: ["mp4", "mkv", "mov"])
    func chaptersAreWrittenClippedToTheExportRangeAndReadBack(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("chapters")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(3000), in: scratch.url, name: "clip")
        let url = scratch.file("chapters.\(fileExtension)")
        let session = AssetExportSession(asset: try MutableComposition(asset: video), preset: .preset640x480)
        session.outputURL = url
        session.timeRange = TimeRange(start: .ms(500), duration: .ms(2500))
        session.chapterMetadataGroups = [
            TimedMetadataGroup(chapterTitled: "Opening", timeRange: TimeRange(start: .zero, duration: .ms(1250))),
            TimedMetadataGroup(chapterTitled: "Ünterwegs", timeRange: TimeRange(start: .ms(1250), duration: .ms(1750))),
        ]
        try await session.export()

        // The export starts at 0.5 s: "Opening" keeps 0.750 s of itself, "Ünterwegs" moves to 0.750–2.500 s.
        let expected = [
            TimedMetadataGroup(chapterTitled: "Opening", timeRange: TimeRange(start: .zero, duration: .ms(750))),
            TimedMetadataGroup(chapterTitled: "Ünterwegs", timeRange: TimeRange(start: .ms(750), duration: .ms(1750))),
        ]
        let loaded = try await Asset.load(from: url)
        #expect(loaded.chapterMetadataGroups.map(\.timeRange) == expected.map(\.timeRange))
        #expect(loaded.chapterMetadataGroups.map(\.title) == ["Opening", "Ünterwegs"])

        guard let lines = try await ChapterCarryTests.chapterLines(of: url, in: scratch) else { return }
        #expect(lines == ["0.000000,0.750000,Opening", "0.750000,2.500000,Ünterwegs"], "\(lines)")
    }
}
