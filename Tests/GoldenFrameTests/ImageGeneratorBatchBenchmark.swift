import Foundation
import Splice
import Testing
import SpliceTestSupport

/// The cost of a sorted batch of pictures against the same pictures asked for one by one — the issue's "100 sorted
/// times must not seek 100 times from scratch". A benchmark, not run by default (it decodes a 1080p clip many times
/// over): `SPLICE_BENCHMARKS=1 swift test --filter ImageGeneratorBatchBenchmark`.
@Suite("Image generator batch benchmark")
struct ImageGeneratorBatchBenchmark {
    static let clip = Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4")
    static let enabled = ProcessInfo.processInfo.environment["SPLICE_BENCHMARKS"] == "1"
        && FileManager.default.fileExists(atPath: clip.path)

    /// M09: 1080p30 H.264, 106 frames, key frames at 0, 2 and 3 s. 100 sorted exact times across the clip.
    @Test(.enabled(if: enabled, "set SPLICE_BENCHMARKS=1 (and have ../shared/media/M09) to run the batch benchmark"))
    func sortedBatchCostsFarLessThanIndependentRequests() async throws {
        let asset = try await Asset.load(from: Self.clip)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let times = (0..<100).map { MediaTime(value: Int64($0) * 35, timescale: 1000) }  // 0 … 3.465 s

        let clock = ContinuousClock()
        var batch: [VideoFrame] = []
        let batchTime = try await clock.measure {
            for try await item in generator.images(for: times) { batch.append(item.image) }
        }
        var single: [VideoFrame] = []
        let singleTime = try await clock.measure {
            for time in times { single.append(try await generator.image(at: time).image) }
        }
        print("100 sorted 1080p pictures: batch \(batchTime), one by one \(singleTime) "
              + "(\(String(format: "%.1f", singleTime / batchTime))× slower)")
        #expect(batch == single, "both ways give the same pictures")
        #expect(batchTime * 2 < singleTime)
    }
}
