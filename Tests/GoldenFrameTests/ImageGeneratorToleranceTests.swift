import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// `AssetImageGenerator`'s time tolerances, as AVFoundation's: with a tolerance the picture of the nearest key frame
/// in the window (decoded in one step); without one, the exact time.
/// `markers/flash-beep.mp4`: H.264 30 fps, key frames at 0, 1 and 2 s, every frame black except frame 30 (1.000 s),
/// white.
@Suite("Image generator tolerances")
struct ImageGeneratorToleranceTests {
    static func generator(before: MediaTime, after: MediaTime) async throws -> AssetImageGenerator {
        let asset = try await Asset.load(from: Fixture.url("markers/flash-beep.mp4"))
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = before
        generator.requestedTimeToleranceAfter = after
        return generator
    }

    static func isWhite(_ frame: VideoFrame) -> Bool {
        let mean = frame.meanColor(in: Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)))
        return mean.red > 250 && mean.green > 250 && mean.blue > 250
    }

    /// Default (infinite) tolerances: 0.9 s gives the key frame at 1 s — the white flash — and 0.3 s the one at 0.
    @Test func defaultToleranceReturnsTheNearestKeyFrame() async throws {
        let generator = try await Self.generator(before: .positiveInfinity, after: .positiveInfinity)
        let (late, lateTime) = try await generator.image(at: .ms(900))
        #expect(lateTime == MediaTime(seconds: 1))
        #expect(Self.isWhite(late), "the key frame at 1 s is the white flash")
        let (_, earlyTime) = try await generator.image(at: .ms(300))
        #expect(earlyTime == .zero)
        var times: [MediaTime] = []
        for try await item in generator.images(for: [.ms(100), .ms(600), .ms(1400), .ms(1600), .ms(2900)]) { times.append(item.actualTime) }
        #expect(times == [.zero, MediaTime(seconds: 1), MediaTime(seconds: 1), MediaTime(seconds: 2), MediaTime(seconds: 2)])
    }

    /// Only before: the key frame at 1 s is out of reach from 0.9 s; 1.2 s reaches back to it.
    @Test func toleranceBeforeOnly() async throws {
        let generator = try await Self.generator(before: .ms(250), after: .zero)
        let (_, t1) = try await generator.image(at: .ms(1200))
        #expect(t1 == MediaTime(seconds: 1))
        // No key frame in [0.65, 0.9]: the output frame grid (0.9 = frame 27).
        let (notWhite, t2) = try await generator.image(at: .ms(905))
        #expect(t2 == MediaTime(value: 27, timescale: 30))
        #expect(!Self.isWhite(notWhite))
    }

    /// A batch whose task is cancelled after its first picture throws `CancellationError` instead of ending as if
    /// it were complete: 90 exact times requested, none taken after the cancel, however many were already rendered.
    @Test func cancelledBatchThrows() async throws {
        let generator = try await Self.generator(before: .zero, after: .zero)
        let times = (0..<90).map { MediaTime(value: Int64($0), timescale: 30) }
        let task = Task { () -> (delivered: Int, error: (any Error)?) in
            var delivered = 0
            do {
                for try await _ in generator.images(for: times) {
                    delivered += 1
                    if delivered == 1 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (delivered, nil)
            } catch {
                return (delivered, error)
            }
        }
        let (delivered, error) = await task.value
        #expect(error is CancellationError, "ended with \(String(describing: error)) after \(delivered) pictures")
        #expect(delivered == 1, "pictures taken after the cancel")
    }

    /// Zero tolerances: exactly the requested time; frame 29 (0.9667 s) is black, 1.0 s is white.
    @Test func zeroToleranceIsExact() async throws {
        let generator = try await Self.generator(before: .zero, after: .zero)
        let (black, t1) = try await generator.image(at: MediaTime(value: 29, timescale: 30))
        #expect(t1 == MediaTime(value: 29, timescale: 30) && !Self.isWhite(black))
        let (white, t2) = try await generator.image(at: MediaTime(seconds: 1))
        #expect(t2 == MediaTime(seconds: 1) && Self.isWhite(white))
    }

    /// A snapped picture is the exact picture of the time it reports.
    @Test func snappedPictureEqualsTheExactPictureAtItsTime() async throws {
        let loose = try await Self.generator(before: .positiveInfinity, after: .positiveInfinity)
        let exact = try await Self.generator(before: .zero, after: .zero)
        let (picture, time) = try await loose.image(at: .ms(2300))
        #expect(time == MediaTime(seconds: 2))
        #expect(try await exact.image(at: time).image == picture)
    }

    /// A sorted batch at zero tolerance (decoded forward in one pass) gives the pictures the same times give asked one
    /// by one (each found from its key frame): `canonical/clipA.mp4`, 120 different frames, 24 times across it. How
    /// much the batch saves is measured by Benchmarks/run (W4s ÷ W4), not here.
    @Test func sortedBatchGivesThePicturesOfSingleRequests() async throws {
        let asset = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let times = (0..<24).map { MediaTime(value: Int64($0) * 160, timescale: 1000) }  // 0 … 3.68 s
        var batch: [VideoFrame] = []
        for try await item in generator.images(for: times) { batch.append(item.image) }
        var single: [VideoFrame] = []
        for time in times { single.append(try await generator.image(at: time).image) }
        #expect(batch.count == times.count)
        #expect(Set(try batch.map { try $0.md5() }).count > 12, "the times show different pictures")
        for (index, (a, b)) in zip(batch, single).enumerated() {
            #expect(a == b, "picture \(index) at \(times[index]): the batch's differs from the one asked alone")
        }
    }
}
