import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// A segmented export whose range ends inside a frame (1.95 s at 30 fps: the 59th picture shows for 1/60 s) ends
/// its picture track where the single export does, read back by ffprobe.
@Suite struct SegmentedEndTests {
    @Test func theJoinedLastPictureEndsAtTheExportsEnd() async throws {
        let scratch = try ScratchDirectory("segments-end")
        defer { scratch.remove() }
        let source = try SmartRenderEdit.source(
            .h264, openGOP: false, seconds: 2, audio: "sine=f=440:r=48000", named: "clip.mov", in: scratch)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(value: 39, timescale: 20)),
                                        of: try await Asset.load(from: source), at: .zero)
        let settings = ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: AudioSettings())

        func export(segments: Int?, to name: String) async throws -> [String] {
            let session = AssetExportSession(asset: composition, settings: settings)
            session.outputURL = scratch.file(name)
            session.concurrentSegments = segments
            try await session.export()
            let text = try await Executable.output(of: "ffprobe", [
                "-v", "error", "-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames,duration",
                "-of", "csv=p=0", scratch.file(name).path])
            return text.split(separator: "\n").map(String.init)
        }
        let single = try await export(segments: nil, to: "single.mp4")
        #expect(single == ["1.950000,59"])
        for count in [2, 3] {
            #expect(try await export(segments: count, to: "segments-\(count).mp4") == single, "\(count) segments")
        }
    }
}
