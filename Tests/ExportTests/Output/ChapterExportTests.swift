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

    /// exiftool's `-ee -G3` tags of `url` (the chapter track's samples as `Doc1:`, `Doc2:`, …), or nil (recorded as
    /// skipped) without the tool.
    static func chapterTrackTags(of url: URL) async throws -> [String: Any]? {
        guard let exiftool = Executable.required("exiftool") else { return nil }
        let json = try await Executable.output(of: exiftool, ["-json", "-n", "-ee", "-G3", url.path])
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return try #require(objects?.first)
    }

    /// MP4 and MOV get a QuickTime chapter track (a text track the video track's `chap` reference names, one sample
    /// per chapter), not only Nero's `chpl` list: exiftool reads both, the track sample by sample.
    @Test(arguments: ["mp4", "mov"])
    func aQuickTimeChapterTrackIsWrittenBesideTheChapterList(fileExtension: String) async throws {
        let scratch = try ScratchDirectory("chapter-track")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(3000), in: scratch.url, name: "clip")
        let url = scratch.file("chapters.\(fileExtension)")
        let session = AssetExportSession(asset: try MutableComposition(asset: video), preset: .preset640x480)
        session.outputURL = url
        session.chapterMetadataGroups = [
            TimedMetadataGroup(chapterTitled: "Opening", timeRange: TimeRange(start: .zero, duration: .ms(1250))),
            TimedMetadataGroup(chapterTitled: "Ünterwegs", timeRange: TimeRange(start: .ms(1250), duration: .ms(1750))),
        ]
        try await session.export()

        guard let tags = try await Self.chapterTrackTags(of: url) else { return }
        #expect(tags["Main:ChapterListTrackID"] as? Int == 2, "\(tags)")
        #expect(tags["Main:ChapterList"] as? [String] == ["0 Opening", "1.25 Ünterwegs"], "\(tags)")
        #expect(tags["Doc1:Text"] as? String == "Opening", "\(tags)")
        #expect(tags["Doc1:SampleTime"] as? Double == 0, "\(tags)")
        #expect(tags["Doc1:SampleDuration"] as? Double == 1.25, "\(tags)")
        #expect(tags["Doc2:Text"] as? String == "Ünterwegs", "\(tags)")
        #expect(tags["Doc2:SampleTime"] as? Double == 1.25, "\(tags)")
        #expect(tags["Doc2:SampleDuration"] as? Double == 1.75, "\(tags)")
    }

    /// A movie whose chapters are only a QuickTime chapter track (no Nero list, as Apple's software writes them;
    /// made by the `ffmpeg` tool with `-movflags disable_chpl`) loads its chapters from the track.
    @Test func chaptersAreReadFromAChapterTrackAlone() async throws {
        let scratch = try ScratchDirectory("chapter-track")
        defer { scratch.remove() }
        guard let ffmpeg = Executable.required("ffmpeg") else { return }
        let chapters = try scratch.write("chapters.txt", """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1500
            title=Intro
            [CHAPTER]
            TIMEBASE=1/1000
            START=1500
            END=4000
            title=Rest

            """)
        let url = scratch.file("track-only.mov")
        _ = try await Executable.output(of: ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-i", chapters.path,
            "-map", "0:v", "-map_chapters", "1", "-c:v", "libx264", "-preset", "ultrafast", "-movflags", "disable_chpl", url.path,
        ])
        guard let tags = try await Self.chapterTrackTags(of: url) else { return }
        #expect(tags["Main:ChapterList"] == nil, "no Nero list: \(tags)")
        #expect(tags["Doc2:Text"] as? String == "Rest", "\(tags)")

        let loaded = try await Asset.load(from: url)
        #expect(loaded.chapterMetadataGroups.map(\.title) == ["Intro", "Rest"])
        #expect(loaded.chapterMetadataGroups.map(\.timeRange) == [
            TimeRange(start: .zero, duration: .ms(1500)), TimeRange(start: .ms(1500), end: .ms(4000)),
        ])
    }
}
