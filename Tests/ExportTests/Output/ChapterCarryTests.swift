import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// A source's chapters carried through a composition's edits by default, read back by ffprobe (`-show_chapters`) and
/// the loader: clipped by cuts, moved by ripples and empty ranges, scaled with the segment, dropped when cut away.
@Suite struct ChapterCarryTests {
    /// Four chapters over 6 s (milliseconds): Intro 0–1500, Middle 1500–3000, Gone 3000–4000, Outro 4000–6000.
    static let metadata = """
        ;FFMETADATA1
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=1500
        title=Intro
        [CHAPTER]
        TIMEBASE=1/1000
        START=1500
        END=3000
        title=Middle
        [CHAPTER]
        TIMEBASE=1/1000
        START=3000
        END=4000
        title=Gone
        [CHAPTER]
        TIMEBASE=1/1000
        START=4000
        END=6000
        title=Outro

        """

    /// 6 s of H.264 at 30 fps (a key frame every second, no B-frames) with ``metadata``'s chapters, made by the
    /// `ffmpeg` command-line tool from an ffmetadata file; nil (one line says so) without the tool.
    static func source(in scratch: ScratchDirectory) async throws -> Asset? {
        guard let ffmpeg = FFmpegCommandLine.path else { return nil }
        let chapters = try scratch.write("chapters.txt", metadata)
        let url = scratch.file("chaptered.mp4")
        let log = scratch.file("ffmpeg.txt")
        let child = try ChildProcess(executable: ffmpeg, arguments: [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=6", "-i", chapters.path,
            "-map", "0:v", "-map_chapters", "1", "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-bf", "0",
            "-pix_fmt", "yuv420p", url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        #expect(child.exitCode == 0, "\(TextFile.text(of: log))")
        return try await Asset.load(from: url)
    }

    /// ffprobe's `start_time,end_time,title` line for each chapter of `url`.
    static func chapterLines(of url: URL, in scratch: ScratchDirectory) async throws -> [String]? {
        guard let ffprobe = Executable.required("ffprobe") else { return nil }
        let log = scratch.file("chapters-\(UUID().uuidString).txt")
        let child = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-show_chapters", "-show_entries", "chapter=start_time,end_time:chapter_tags=title",
            "-of", "csv=p=0", url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 30))
        return try TextFile.read(log).split(separator: "\n").map(String.init)
    }

    @Test func chaptersFollowCutsRipplesEmptyRangesAndSpeedChanges() async throws {
        let scratch = try ScratchDirectory("chapter-carry")
        defer { scratch.remove() }
        guard let asset = try await Self.source(in: scratch) else { return }
        #expect(asset.chapterMetadataGroups.map(\.title) == ["Intro", "Middle", "Gone", "Outro"])
        #expect(asset.chapterMetadataGroups.map(\.timeRange.end) == [.ms(1500), .ms(3000), .ms(4000), .ms(6000)])

        var composition = try MutableComposition(asset: asset)
        try composition.removeTimeRange(TimeRange(start: .ms(3000), duration: .ms(1000)))  // Gone, cut away whole
        try composition.insertEmptyTimeRange(TimeRange(start: .ms(1500), duration: .ms(500)))  // Middle, Outro +0.5 s
        try composition.removeTimeRange(TimeRange(start: .ms(500), duration: .ms(300)))  // inside Intro: its pieces meet
        // Outro (now 3.2–5.2 s) played at half speed: 3.2–7.2 s.
        try composition.scaleTimeRange(TimeRange(start: .ms(3200), duration: .ms(2000)), toDuration: .ms(4000))
        let url = scratch.file("carried.mkv")  // Matroska keeps each chapter's end (MP4 only starts)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil))
        session.outputURL = url
        try await session.export()

        guard let lines = try await Self.chapterLines(of: url, in: scratch) else { return }
        #expect(lines == ["0.000000,1.200000,Intro", "1.700000,3.200000,Middle", "3.200000,7.200000,Outro"], "\(lines)")
        let loaded = try await Asset.load(from: url).chapterMetadataGroups
        #expect(loaded.map(\.timeRange) == [
            TimeRange(start: .zero, end: .ms(1200)), TimeRange(start: .ms(1700), end: .ms(3200)),
            TimeRange(start: .ms(3200), end: .ms(7200)),
        ])

        // Chapters set on the session win; carriesSourceMetadata = false carries none.
        let chosen = scratch.file("chosen.mkv")
        let own = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil))
        own.outputURL = chosen
        own.chapterMetadataGroups = [TimedMetadataGroup(chapterTitled: "Mine", timeRange: TimeRange(start: .ms(100), end: .ms(900)))]
        try await own.export()
        let mine = try await Self.chapterLines(of: chosen, in: scratch)
        #expect(mine == ["0.100000,0.900000,Mine"], "\(mine ?? [])")
        let bare = scratch.file("bare.mp4")
        let none = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil))
        none.outputURL = bare
        none.carriesSourceMetadata = false
        try await none.export()
        #expect(try await Asset.load(from: bare).chapterMetadataGroups.isEmpty)
    }

    /// Passthrough copies the pictures and carries the chapters by the same rule: a cut on key frames removes Gone
    /// and moves Outro 1 s earlier; an export range from 0.5 s clips Intro and moves everything.
    @Test func passthroughCarriesTheChaptersThroughACut() async throws {
        let scratch = try ScratchDirectory("chapter-carry-copy")
        defer { scratch.remove() }
        guard let asset = try await Self.source(in: scratch) else { return }
        var composition = try MutableComposition(asset: asset)
        try composition.removeTimeRange(TimeRange(start: .ms(3000), duration: .ms(1000)))
        let url = scratch.file("copied.mp4")
        let session = AssetExportSession(asset: composition, preset: .passthrough)
        session.outputURL = url
        try await session.export()
        guard let lines = try await Self.chapterLines(of: url, in: scratch) else { return }
        #expect(lines == ["0.000000,1.500000,Intro", "1.500000,3.000000,Middle", "3.000000,5.000000,Outro"], "\(lines)")

        let trimmed = scratch.file("trimmed.mkv")
        let range = AssetExportSession(asset: composition, preset: .passthrough)
        range.outputURL = trimmed
        range.timeRange = TimeRange(start: .ms(1000), end: .ms(5000))
        try await range.export()
        #expect(try await Self.chapterLines(of: trimmed, in: scratch)
            == ["0.000000,0.500000,Intro", "0.500000,2.000000,Middle", "2.000000,4.000000,Outro"])
    }
}
