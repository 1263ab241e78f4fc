import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Segmented export to Matroska, whose timestamps are milliseconds (off the 1/30 s frame grid), of H.264 with
/// B-frames and AAC: the joined file holds the same pictures at the same times as the single export, and the sound
/// at the same times, read back by ffprobe.
@Suite struct SegmentedMatroskaTests {
    /// `ffprobe -v error ARGUMENTS url`'s standard output, one line per entry.
    static func probe(_ url: URL, _ arguments: [String], in scratch: ScratchDirectory) async throws -> [String]? {
        guard let ffprobe = Executable.required("ffprobe") else { return nil }
        let log = scratch.file("probe-\(UUID().uuidString).txt")
        let errors = scratch.file("probe-\(UUID().uuidString).log")
        let child = try ChildProcess(executable: ffprobe, arguments: ["-v", "error"] + arguments + [url.path],
                                     standardOutput: log, standardError: errors)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60), "ffprobe did not finish")
        #expect(child.exitCode == 0, "ffprobe: \(TextFile.text(of: errors))")
        return try TextFile.read(log).split(separator: "\n").map(String.init)
    }

    /// The presentation times (milliseconds, as stored) of the packets of `stream` (`v` or `a`), in time order.
    static func times(of url: URL, stream: String, in scratch: ScratchDirectory) async throws -> [Int]? {
        try await probe(url, ["-select_streams", stream, "-show_entries", "packet=pts", "-of", "csv=p=0"], in: scratch)?
            .compactMap { Int($0) }.sorted()
    }

    @Test func segmentsJoinedInMatroskaKeepTheSingleExportsTimes() async throws {
        let scratch = try ScratchDirectory("segments-matroska")
        defer { scratch.remove() }
        // 2 s at 30 fps (60 frames), 1 s closed groups with B-frames, and a tone.
        let source = try SmartRenderEdit.source(
            .h264, openGOP: false, seconds: 2, audio: "sine=f=440:r=48000", named: "clip.mov", in: scratch)
        let composition = try MutableComposition(asset: try await Asset.load(from: source))
        let settings = ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: AudioSettings())

        let single = scratch.file("single.mkv")
        let ordinary = AssetExportSession(asset: composition, settings: settings)
        ordinary.outputURL = single
        try await ordinary.export()
        guard let pictures = try await Self.times(of: single, stream: "v", in: scratch),
              let sound = try await Self.times(of: single, stream: "a", in: scratch),
              let reordered = try await Self.probe(single, ["-select_streams", "v", "-show_entries", "stream=has_b_frames",
                                                            "-of", "csv=p=0"], in: scratch) else { return }
        #expect(reordered.first.flatMap { Int($0) }.map { $0 > 0 } == true, "no B-frames: \(reordered)")
        // Frame k at k/30 s rounded to the millisecond, every track 21 ms later: the AAC priming (1024 samples at
        // 48 kHz) starts at 0 (docs/timed-text-metadata.md).
        let frameTimes: [Int] = (0..<60).map { (k: Int) -> Int in 21 + (k * 1000 + 15) / 30 }
        #expect(pictures == frameTimes, "\(pictures)")
        #expect(sound.first == 0)

        // 2 segments cut at 1 s; 3 at 0.667 s and 1.333 s, off the millisecond grid.
        for count in [2, 3] {
            let joined = scratch.file("segments-\(count).mkv")
            let segmented = AssetExportSession(asset: composition, settings: settings)
            segmented.outputURL = joined
            segmented.concurrentSegments = count
            try await segmented.export()
            #expect(try await Self.times(of: joined, stream: "v", in: scratch) == pictures, "\(count) segments")
            #expect(try await Self.times(of: joined, stream: "a", in: scratch) == sound, "\(count) segments")
            let decoded = try await Self.probe(
                joined, ["-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0"],
                in: scratch)
            #expect(decoded == ["60"], "\(count) segments")
        }

        // The steps `splice plan`, `render-segment` and `join` run: the AAC rendered into a MOV, which keeps its priming.
        let steps = SegmentedExport(composition: composition, videoComposition: nil, audioMix: nil, settings: settings)
        let plan = try steps.makePlan(segmentCount: 3, fileType: .mkv, documentPath: scratch.file("edit.json").path,
                                      partsDirectory: scratch.file("parts"))
        #expect(plan.audioURL.lastPathComponent == "audio.mov")
        for segment in plan.segments { try await steps.renderSegment(segment.index, of: plan) }
        let planned = scratch.file("planned.mkv")
        try await steps.join(plan, to: planned)
        #expect(try await Self.times(of: planned, stream: "v", in: scratch) == pictures)
        #expect(try await Self.times(of: planned, stream: "a", in: scratch) == sound)
    }

    /// WebM (VP9, no reordering; Opus, whose priming Matroska keeps as `CodecDelay`): 3 segments joined with the
    /// single export's times.
    @Test func segmentsJoinedInWebMKeepTheSingleExportsTimes() async throws {
        let scratch = try ScratchDirectory("segments-webm")
        defer { scratch.remove() }
        let source = try SmartRenderEdit.source(
            .h264, openGOP: false, seconds: 2, audio: "sine=f=440:r=48000", named: "clip.mov", in: scratch)
        let composition = try MutableComposition(asset: try await Asset.load(from: source))
        let settings = ExportSettings(video: VideoSettings(codec: .vp9, rateControl: .constantQuality(40), encoderPreset: "ultrafast"),
                                      audio: AudioSettings(codec: .opus))
        let single = scratch.file("single.webm")
        let ordinary = AssetExportSession(asset: composition, settings: settings)
        ordinary.outputURL = single
        try await ordinary.export()
        let joined = scratch.file("segments.webm")
        let segmented = AssetExportSession(asset: composition, settings: settings)
        segmented.outputURL = joined
        segmented.concurrentSegments = 3
        try await segmented.export()
        guard let pictures = try await Self.times(of: single, stream: "v", in: scratch),
              let sound = try await Self.times(of: single, stream: "a", in: scratch) else { return }
        #expect(pictures.count == 60)
        #expect(try await Self.times(of: joined, stream: "v", in: scratch) == pictures)
        #expect(try await Self.times(of: joined, stream: "a", in: scratch) == sound)
    }
}
