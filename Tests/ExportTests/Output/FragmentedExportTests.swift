import Foundation
import Testing
import Splice
import SpliceTestSupport

/// ``AssetExportSession/movieFragmentInterval``: an MP4 written as a fragmented movie by every path that writes one
/// (rendered, passthrough, smart rendering, concurrent segments), read back box by box (``MovieFragmentScan``) and
/// by `ffprobe`, against the regular export of the same edit: the same pictures at the same times, the same sound
/// from time 0; and the settings it cannot be combined with, refused before anything is written.
@Suite("Fragmented export")
struct FragmentedExportTests {
    /// clipA 0–3 s then clipB 0–2.51 s: 5.51 s, 166 frames at 30 fps (the last one shortened), 264 480 samples at
    /// 48 kHz (not a whole number of AAC packets).
    static func composition() async throws -> MutableComposition {
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let clipB = try await Fixture.asset("canonical/clipB.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: clipA, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(value: 251, timescale: 100)), of: clipB,
                                        at: MediaTime(seconds: 3))
        return composition
    }

    static let settings = ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"), audio: AudioSettings())

    /// Every video packet of `url` as `ffprobe` lists it: presentation and decoding times, key frame flag.
    static func videoPackets(_ url: URL, ffprobe: String) async throws -> [Substring] {
        try await Executable.output(of: ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time,flags", "-of", "csv=p=0", url.path,
        ]).split(separator: "\n")
    }

    /// The audio samples `ffprobe` decodes from time 0 on (frames at or after 0), and the first such frame's time.
    static func audioFromZero(_ url: URL, ffprobe: String) async throws -> (samples: Int, first: Double?) {
        let lines = try await Executable.output(of: ffprobe, [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts_time,nb_samples", "-of", "csv=p=0", url.path,
        ]).split(separator: "\n")
        var samples = 0
        var first: Double?
        for line in lines {
            let fields = line.split(separator: ",")
            guard fields.count == 2, let time = Double(fields[0]), let count = Int(fields[1]), time >= 0 else { continue }
            if first == nil { first = time }
            samples += count
        }
        return (samples, first)
    }

    @Test("rendered: a moov, then a fragment every 2 s starting on a key frame; pictures and sound as the regular export's")
    func renderedExportIsFragmentedAndExact() async throws {
        guard let ffprobe = Executable.required("ffprobe") else { return }
        let scratch = try ScratchDirectory("fragmented-render")
        defer { scratch.remove() }
        let composition = try await Self.composition()
        for (name, interval) in [("regular.mp4", MediaTime.invalid), ("fragmented.mp4", MediaTime(seconds: 2))] {
            let session = AssetExportSession(asset: composition, settings: Self.settings)
            session.outputURL = scratch.file(name)
            session.movieFragmentInterval = interval
            try await session.export()
        }
        let regular = scratch.file("regular.mp4"), fragmented = scratch.file("fragmented.mp4")

        let scan = try MovieFragmentScan(url: fragmented)
        #expect(Array(scan.topLevel.prefix(4)) == ["ftyp", "moov", "moof", "mdat"], "\(scan.topLevel)")
        #expect(!scan.isTorn)
        // Fragments at 0, 2 and 4 s: 60, 60 and 46 pictures, each run starting on a key frame.
        let videoRuns = scan.fragments.map { $0.filter { $0.trackID == 1 } }
        #expect(videoRuns.map { $0.map(\.durations.count) } == [[60], [60], [46]])
        #expect(videoRuns.allSatisfy { $0.allSatisfy(\.startsWithSyncSample) })
        #expect(try MovieFragmentScan(url: regular).fragments.isEmpty)
        // The sound: the encoder's 1024 priming samples hidden by the edit list, then exactly 5.51 s.
        #expect(scan.editStart[2] == 1024)
        #expect(scan.durations(ofTrack: 2).reduce(0) { $0 + Int($1) } == 1024 + 264_480)

        // The same pictures at the same times as the regular export's; the same samples from time 0.
        let packets = try await Self.videoPackets(fragmented, ffprobe: ffprobe)
        #expect(packets.count == 166)
        #expect(packets == (try await Self.videoPackets(regular, ffprobe: ffprobe)))
        let sound = try await Self.audioFromZero(fragmented, ffprobe: ffprobe)
        let regularSound = try await Self.audioFromZero(regular, ffprobe: ffprobe)
        #expect(sound.first == 0 && sound.samples == regularSound.samples, "\(sound) vs \(regularSound)")
        #expect(sound.samples >= 264_480 && sound.samples < 264_480 + 1024, "\(sound.samples)")
        // Splice's own reader hides the priming of a fragmented file as of a regular one.
        let loaded = try await Asset.load(from: fragmented)
        let audio = try #require(loaded.tracks(withMediaType: .audio).first)
        #expect(audio.timeRange.start == .zero)
        #expect(loaded.tracks(withMediaType: .video).first?.video?.frameCount == 166)
        try await FFmpegCommandLine.expectCleanDecode(of: fragmented)
    }

    @Test("passthrough and concurrent segments: fragments on the copied or joined key frames")
    func copiedAndJoinedExportsAreFragmented() async throws {
        guard let ffprobe = Executable.required("ffprobe") else { return }
        let scratch = try ScratchDirectory("fragmented-copy")
        defer { scratch.remove() }
        // Passthrough of clipA 0–4 s (a key frame every second) with 1 s fragments: four of 30 pictures.
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var copied = MutableComposition()
        try copied.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 4)), of: clip, at: .zero)
        for (name, interval) in [("copy.mp4", MediaTime.invalid), ("copy-fragmented.mp4", MediaTime(seconds: 1))] {
            let session = AssetExportSession(asset: copied, preset: .passthrough)
            session.outputURL = scratch.file(name)
            session.movieFragmentInterval = interval
            try await session.export()
        }
        let copy = try MovieFragmentScan(url: scratch.file("copy-fragmented.mp4"))
        let copiedRuns = copy.fragments.map { $0.filter { $0.trackID == 1 } }
        #expect(copiedRuns.map { $0.map(\.durations.count) } == [[30], [30], [30], [30]])
        #expect(copiedRuns.allSatisfy { $0.allSatisfy(\.startsWithSyncSample) })
        #expect(try await Self.videoPackets(scratch.file("copy-fragmented.mp4"), ffprobe: ffprobe)
                == (try await Self.videoPackets(scratch.file("copy.mp4"), ffprobe: ffprobe)))
        let copiedSound = try await Self.audioFromZero(scratch.file("copy-fragmented.mp4"), ffprobe: ffprobe)
        #expect(copiedSound.first == 0)
        #expect(copiedSound.samples == (try await Self.audioFromZero(scratch.file("copy.mp4"), ffprobe: ffprobe)).samples)

        // Two concurrent segments joined into 2 s fragments: 166 pictures, key frames every 60 from each part's start
        // (frames 0 and 83), so fragments begin at frame 60 and at the first key frame 2 s after it, 143.
        let session = AssetExportSession(asset: try await Self.composition(), settings: Self.settings)
        session.outputURL = scratch.file("segments.mp4")
        session.concurrentSegments = 2
        session.movieFragmentInterval = MediaTime(seconds: 2)
        try await session.export()
        let joined = try MovieFragmentScan(url: scratch.file("segments.mp4"))
        let joinedRuns = joined.fragments.map { $0.filter { $0.trackID == 1 } }
        #expect(joinedRuns.map { $0.map(\.durations.count) } == [[60], [83], [23]])
        #expect(joinedRuns.allSatisfy { $0.allSatisfy(\.startsWithSyncSample) })
        #expect(joined.durations(ofTrack: 2).reduce(0) { $0 + Int($1) } - Int(joined.editStart[2] ?? 0) == 264_480)
        #expect(try await Self.audioFromZero(scratch.file("segments.mp4"), ffprobe: ffprobe).first == 0)
        try await FFmpegCommandLine.expectCleanDecode(of: scratch.file("segments.mp4"))
    }

    @Test("smart rendering: copied groups and re-encoded pieces in 1 s fragments, each on a key frame")
    func smartRenderedExportIsFragmented() async throws {
        guard Executable.required("ffprobe") != nil else { return }
        let scratch = try ScratchDirectory("fragmented-smart")
        defer { scratch.remove() }
        let source = try SmartRenderEdit.source(.h264, openGOP: false, seconds: 4, named: "source.mov", in: scratch)
        let track = try #require(try await Asset.load(from: source).tracks(withMediaType: .video).first)
        // Source 0.5–4 s with a title over 1–2 s: the group at 3 s copied, the rest re-encoded.
        let edit = try SmartRenderEdit.session(
            [track], pieces: [(0.5, 4)], title: TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)),
            settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"), audio: nil),
            output: scratch.file("smart.mp4"))
        edit.session.movieFragmentInterval = MediaTime(seconds: 1)
        try await edit.session.export()
        let report = try #require(edit.session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.spans.contains { $0.action == .copy }, "\(report.spans)")
        let scan = try MovieFragmentScan(url: scratch.file("smart.mp4"))
        let runs = scan.fragments.map { $0.filter { $0.trackID == 1 } }
        // 105 pictures: 0–74 re-encoded as one piece (key frames at 0 and 60), 75–104 the copied group of source
        // 3–4 s. Fragments begin at 0 and at 60; the next key frame, 75, is less than 1 s after 60.
        #expect(runs.map { $0.map(\.durations.count) } == [[60], [45]])
        #expect(runs.allSatisfy { $0.allSatisfy(\.startsWithSyncSample) })
        try await FFmpegCommandLine.expectCleanDecode(of: scratch.file("smart.mp4"))
    }

    @Test("refused before writing: other containers, intervals that are not a positive time, a file length limit", arguments: [
        ("out.mkv", MediaTime(seconds: 2), nil,
         "unsupported export settings: movieFragmentInterval 2.000 s: a .mkv file cannot be written as a fragmented movie; only .mp4 and .mov can"),
        ("out.m4a", MediaTime(seconds: 2), nil,
         "unsupported export settings: movieFragmentInterval 2.000 s: a .m4a file cannot be written as a fragmented movie; only .mp4 and .mov can"),
        ("out.mp4", MediaTime.zero, nil,
         "unsupported export settings: movieFragmentInterval 0.000 s (0/1) must be a positive time of at most 2147.484 s (MediaTime.invalid for a regular movie)"),
        ("out.mp4", MediaTime(seconds: 3000), nil,
         "unsupported export settings: movieFragmentInterval 3000.000 s (3000/1) must be a positive time of at most 2147.484 s (MediaTime.invalid for a regular movie)"),
        ("out.mov", MediaTime(seconds: 2), Int64(1_000_000),
         "unsupported export settings: movieFragmentInterval 2.000 s cannot be combined with fileLengthLimit: a fragmented movie's size is known only fragment by fragment; set one of them only"),
    ] as [(String, MediaTime, Int64?, String)])
    func settingsItCannotTakeAreRefused(name: String, interval: MediaTime, limit: Int64?, message: String) async throws {
        let scratch = try ScratchDirectory("fragmented-refused")
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.composition(), preset: name.hasSuffix(".m4a") ? .appleM4A : .preset640x480)
        session.outputURL = scratch.file(name)
        session.movieFragmentInterval = interval
        session.fileLengthLimit = limit
        await #expect { try await session.validate() } throws: { "\($0)" == message }
        await #expect { try await session.export() } throws: { "\($0)" == message }
        #expect(scratch.contents.isEmpty)
    }

    @Test("written under its own name from the start: an existing file is refused, a cancelled export removes its file")
    func theFileHasItsNameFromTheStart() async throws {
        let scratch = try ScratchDirectory("fragmented-name")
        defer { scratch.remove() }
        let existing = scratch.file("existing.mp4")
        try Data("keep".utf8).write(to: existing)
        let refused = AssetExportSession(asset: try await Self.composition(), settings: Self.settings)
        refused.outputURL = existing
        refused.movieFragmentInterval = MediaTime(seconds: 1)
        await #expect(throws: ExportError.outputFileExists(existing)) { try await refused.export() }
        #expect(try BinaryFile.read(existing) == Data("keep".utf8))

        let session = try await ExportTemporaryFileTests.slowExport(to: scratch.file("out.mp4"))
        session.movieFragmentInterval = MediaTime(seconds: 1)
        let task = Task { try await session.export() }
        let namedWhileExporting = await whenProgress(of: session, passes: 0.05) {
            defer { session.cancelExport() }
            return scratch.contents
        }
        #expect(namedWhileExporting == ["existing.mp4", "out.mp4"], "\(String(describing: namedWhileExporting))")
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scratch.contents == ["existing.mp4"])
    }
}
