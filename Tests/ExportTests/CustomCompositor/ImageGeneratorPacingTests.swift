import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// `AssetImageGenerator.images(for:)` renders at most one picture ahead of its consumer, so a slow consumer never
/// holds a whole batch of pictures (8 MiB each at 1080p) in memory; the counting compositor shows each render.
@Suite("Image generator pacing")
struct ImageGeneratorPacingTests {
    static let times = (0..<10).map { CustomCompositorTests.frameDuration * Int64($0 * 5) }

    static func generator(_ compositor: TestCompositors.Counting, in scratch: ScratchDirectory) async throws -> AssetImageGenerator {
        let (composition, video) = try await CustomCompositorTests.edit(CustomCompositorTests.quadrants(), in: scratch)
        var generator = AssetImageGenerator(asset: composition)
        generator.videoComposition = video
        generator.customVideoCompositor = compositor
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        return generator
    }

    /// Waits (at most `seconds`) until `compositor` has rendered at least `count` pictures; returns how many it had.
    static func renders(_ compositor: TestCompositors.Counting, reach count: Int, within seconds: Double) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while compositor.requestedTimes.count < count && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return compositor.requestedTimes.count
    }

    @Test func renderingWaitsForTheConsumerOnePictureAhead() async throws {
        let scratch = try ScratchDirectory("pacing")
        defer { scratch.remove() }
        let compositor = TestCompositors.Counting(concurrent: false, frameDuration: CustomCompositorTests.frameDuration,
                                                  overlapDeadline: 0)
        let generator = try await Self.generator(compositor, in: scratch)
        var iterator = generator.images(for: Self.times).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.actualTime == .zero)
        // The picture after the one taken may be rendered; a third is not, however long the consumer takes.
        #expect(try await Self.renders(compositor, reach: 2, within: 30) == 2)
        #expect(try await Self.renders(compositor, reach: 3, within: 1) == 2, "rendered ahead: \(compositor.requestedTimes)")
        var levels = [first.image.meanColor(in: Rect(x: 100, y: 100, width: 20, height: 20)).red]
        while let item = try await iterator.next() { levels.append(item.image.meanColor(in: Rect(x: 100, y: 100, width: 20, height: 20)).red) }
        // Every picture, in order: the counting compositor's level is the output frame index × 4.
        #expect(levels.count == 10)
        for (i, level) in levels.enumerated() { #expect(abs(level - Double(i * 5 * 4)) <= 1.5, "picture \(i): level \(level)") }
        #expect(compositor.requestedTimes == Self.times)
    }

    @Test func aConsumerThatStopsEarlyEndsTheRendering() async throws {
        let scratch = try ScratchDirectory("pacing")
        defer { scratch.remove() }
        // The worker thread holds the compositor until it ends: a worker left waiting to hand over a picture would
        // keep it alive for ever.
        weak var probe: TestCompositors.Counting?
        do {
            let compositor = TestCompositors.Counting(concurrent: false, frameDuration: CustomCompositorTests.frameDuration,
                                                      overlapDeadline: 0)
            probe = compositor
            let generator = try await Self.generator(compositor, in: scratch)
            var taken = 0
            for try await _ in generator.images(for: Self.times) {
                taken += 1
                guard taken == 2 else { continue }
                // Let the worker render the third picture and wait to hand it over, then drop the batch.
                #expect(try await Self.renders(compositor, reach: 3, within: 30) == 3)
                try await Task.sleep(for: .milliseconds(300))
                break
            }
            #expect(try await Self.renders(compositor, reach: 4, within: 1) == 3, "rendered: \(compositor.requestedTimes)")
        }
        let deadline = Date().addingTimeInterval(30)
        while probe != nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(probe == nil, "the rendering thread still holds the compositor after the batch was dropped")
    }
}
