import Foundation
import Testing
import Splice
import SpliceTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// ``AssetWriter/movieFragmentInterval`` against a real `kill -9`: a child process (``ChildTest``) writes H.264 with
/// B-frames and AAC in 0.5 s fragments and kills itself with SIGKILL once three fragments are on disk, its encoders
/// and the writer still holding samples. What it leaves is read box by box (``MovieFragmentScan``), by `ffprobe`
/// and `ffmpeg`, and by Splice's loader.
@Suite("AssetWriter after kill -9")
struct AssetWriterKillTests {
    static let role = "asset-writer-kill"
    static let outputVariable = "SPLICE_WRITER_KILL_OUTPUT"

    @Test("a writer killed mid-write leaves a movie that plays up to its last fragment, sound and pictures from 0")
    func aKilledWriterLeavesItsFragments() async throws {
        let scratch = try ScratchDirectory("writer-kill")
        defer { scratch.remove() }
        let output = scratch.file("killed.mp4")
        let result = try await withCheckedThrowingContinuation { continuation in
            // Blocking wait for the child: on a thread of GCD's, not Swift's cooperative pool.
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try ChildTest.run(filter: "AssetWriterKillTests/killedChild", role: Self.role,
                                      environment: [Self.outputVariable: output.path], timeout: 120)
                })
            }
        }
        #expect(result.status == SIGKILL && !result.timedOut && result.reports["killed after"] != nil,
                "child: \(result.output.suffix(3000))")

        // Complete fragments only (a fragment is written whole, then flushed), the moov first with its edit lists:
        // the AAC priming (1024 samples) and the pictures' reordering delay hidden.
        let scan = try MovieFragmentScan(url: output)
        #expect(Array(scan.topLevel.prefix(2)) == ["ftyp", "moov"] && !scan.isTorn, "\(scan.topLevel)")
        #expect(scan.fragments.count >= 3, "\(scan.fragments.count) fragments")
        #expect(scan.editStart[2] == 1024 && (scan.editStart[1] ?? 0) > 0, "\(scan.editStart)")
        let pictures = scan.durations(ofTrack: 1).count
        let sound = scan.durations(ofTrack: 2).reduce(0) { $0 + Int($1) }

        // FFmpeg reads every picture of the fragments, the first shown at 0, and decodes all their sound: the priming
        // before 0, then the sine from sample 0 (AAC within 0.02).
        let packets = try await CommandLineTool.probe(output, stream: "v:0", section: "packet", entries: "pts_time")
        #expect(packets.count == pictures && pictures > 0, "\(packets.count) packets, \(pictures) pictures in fragments")
        #expect(packets.compactMap { $0.first.flatMap(Double.init) }.min() == 0)
        let start = try await CommandLineTool.probe(output, stream: "a:0", section: "stream", entries: "start_time")
        #expect(start == [["-0.021333"]], "\(start)")
        let decoded = try await AssetWriterFragmentTimingTests.decodedLeftChannel(of: output, in: scratch)
        #expect(decoded.count == sound && sound > 1024 + 4800, "\(decoded.count) decoded, \(sound) in fragments")
        let error = (0..<4800).map { abs(decoded[1024 + $0] - AssetWriterFragmentTimingTests.sine($0)) }.max() ?? 1
        #expect(error < 0.02, "max difference from the sine over the first 0.1 s: \(error)")
        let decode = try await Executable.run("ffmpeg", ["-nostdin", "-v", "error", "-i", output.path, "-f", "null", "-"])
        #expect(decode.succeeded && decode.errors.isEmpty, "\(decode.errors)")

        // Splice's loader: both tracks from 0, the pictures counted.
        let asset = try await Asset.load(from: output)
        #expect(asset.tracks.map(\.timeRange.start) == [.zero, .zero])
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == pictures)
    }

    /// The child: appends 0.1 s at a time (3 pictures, then the sound) into 0.5 s fragments, and once three
    /// fragments are on disk sends itself SIGKILL.
    @Test(.enabled(if: ChildTest.is(AssetWriterKillTests.role)))
    func killedChild() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.outputVariable])
        let url = URL(fileURLWithPath: path)
        let (writer, _, audio, adaptor) = try AssetWriterFragmentTimingTests.startedWriter(
            url, movieFragmentInterval: MediaTime(value: 1, timescale: 2))
        for block in 0..<600 {
            try await AssetWriterSettingsTests.appendPictures(adaptor, 3 * block..<3 * block + 3)
            try await AssetWriterSettingsTests.appendSound(audio, block..<block + 1)
            if ((try? MovieFragmentScan(url: url))?.fragments.count ?? 0) >= 3 {
                ChildTest.report("killed after", "\(block + 1) blocks of 0.1 s")
                kill(getpid(), SIGKILL)
            }
            usleep(5_000)
        }
        Issue.record("60 s appended and fewer than 3 fragments on disk")
        writer.cancelWriting()
    }
}
