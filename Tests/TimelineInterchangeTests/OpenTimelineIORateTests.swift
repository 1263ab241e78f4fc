import Composition
import Testing
@testable import TimelineInterchange

/// OpenTimelineIO's floating-point rates and values read as exact rationals.
struct OpenTimelineIORateTests {
    @Test(arguments: [
        ("24.0", 24, 1), ("24", 24, 1), ("25.0", 25, 1), ("23.976", 24000, 1001), ("23.976023976023978", 24000, 1001),
        ("29.97", 30000, 1001), ("29.97002997002997", 30000, 1001), ("59.94", 60000, 1001), ("47.952", 48000, 1001),
        ("12.5", 25, 2), ("48000.0", 48000, 1),
    ])
    func ratesSnapToTheirRationals(literal: String, frames: Int64, seconds: Int64) throws {
        let rate = try #require(OpenTimelineIORate(literal: literal))
        #expect(rate.frames == frames)
        #expect(rate.seconds == seconds)
    }

    @Test func ratesThatAreNotRatesAreRefused() {
        #expect(OpenTimelineIORate(literal: "0.0") == nil)
        #expect(OpenTimelineIORate(literal: "-24.0") == nil)
        #expect(OpenTimelineIORate(literal: "abc") == nil)
    }

    @Test func framesBecomeExactTimes() throws {
        let ntsc = try #require(OpenTimelineIORate(literal: "29.97"))
        // 300 frames at 30000/1001 fps: 10.01 s exactly, no float drift.
        #expect(ntsc.time(frames: "300.0") == MediaTime(value: 1001, timescale: 100))
        #expect(ntsc.time(frames: "1.0") == MediaTime(value: 1001, timescale: 30000))
        // One hour of timecode at 24 fps.
        let film = try #require(OpenTimelineIORate(literal: "24.0"))
        #expect(film.time(frames: "86400.0") == MediaTime(seconds: 3600))
        #expect(film.time(frames: "0.5") == MediaTime(value: 1, timescale: 48))
        #expect(ntsc.wholeFrames(in: MediaTime(value: 1001, timescale: 100)) == 300)
        #expect(ntsc.wholeFrames(in: MediaTime(value: 1, timescale: 30)) == nil)
    }

    @Test func ratesAreWrittenAsOpenTimelineIOWritesThem() throws {
        #expect(try #require(OpenTimelineIORate(frames: 30000, seconds: 1001)).literal == "29.97002997002997")
        #expect(try #require(OpenTimelineIORate(frames: 24, seconds: 1)).literal == "24.0")
    }
}
