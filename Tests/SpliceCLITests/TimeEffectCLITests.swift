import Foundation
import Splice
import SpliceTestSupport
import Testing

/// `Examples/time-effects.json` (reverse, freeze frame, speed ramp on the bundled fixtures) validates and exports
/// with the `splice` tool from a fresh clone.
@Suite("splice: time effects example")
struct TimeEffectCLITests {
    @Test func timeEffectsExampleExports() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let example = Fixture.example("time-effects.json").path
        let validated = try await SpliceTool.run(["validate", example])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout.contains(": valid — "))
        let output = scratch.file("time-effects.mp4")
        let run = try await SpliceTool.run(["export", example, "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let asset = try await Asset.load(from: output)
        // 1 s forwards + 1 s reversed + 1 s frozen + the 2 s ramp, at 30 fps; sound to the sample.
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 150)
        #expect(asset.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(seconds: 5))
    }
}
