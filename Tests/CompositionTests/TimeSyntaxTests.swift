import Composition
import Testing

@Suite("Time syntax")
struct TimeSyntaxTests {
    static let frame30 = MediaTime(value: 1, timescale: 30)

    @Test(arguments: [
        ("3.5s", MediaTime(value: 7, timescale: 2)),
        ("3.5", MediaTime(value: 7, timescale: 2)),
        (" 3.5 s ", MediaTime(value: 7, timescale: 2)),
        ("0.1s", MediaTime(value: 1, timescale: 10)),
        ("250ms", MediaTime(value: 1, timescale: 4)),
        ("1.5ms", MediaTime(value: 3, timescale: 2000)),
        ("00:01:02.5", MediaTime(value: 125, timescale: 2)),
        ("01:02.5", MediaTime(value: 125, timescale: 2)),
        ("1:00:00", MediaTime(seconds: 3600)),
        ("90f", MediaTime(seconds: 3)),
        ("1f", MediaTime(value: 1, timescale: 30)),
        ("1001/30000", MediaTime(value: 1001, timescale: 30000)),
        ("4", MediaTime(seconds: 4)),
        ("-2s", MediaTime(seconds: -2)),
        ("1e-3", MediaTime(value: 1, timescale: 1000)),
        ("0.123456789s", MediaTime(value: 123_456_789, timescale: 1_000_000_000)),
    ])
    func readsExactly(text: String, expected: MediaTime) throws {
        let time = try TimeSyntax.parse(text, frameDuration: Self.frame30)
        #expect(time == expected, "\(text) -> \(time)")
        #expect(!time.hasBeenRounded)
    }

    @Test func framesFollowTheFrameDuration() throws {
        let ntsc = MediaTime(value: 1001, timescale: 30000)
        #expect(try TimeSyntax.parse("90f", frameDuration: ntsc) == MediaTime(value: 90_090, timescale: 30000))
    }

    @Test func specialValues() throws {
        #expect(try TimeSyntax.parse("+inf") == .positiveInfinity)
        #expect(try TimeSyntax.parse("-inf") == .negativeInfinity)
        #expect(try TimeSyntax.parse("indefinite").isIndefinite)
    }

    @Test(arguments: [
        ("", "the text is empty"),
        ("3.5x", "unknown unit 'x' (use s, ms or f)"),
        ("90f", "frames need the composition's frame rate, which is not known here (write seconds instead)"),
        ("1.5f", "a frame count is a whole number (\"90f\")"),
        ("1/0", "a fraction is written \"value/timescale\" with whole numbers and a timescale > 0"),
        ("00:61:00", "minutes must be below 60"),
        ("01:60", "seconds must be below 60"),
        ("0.1234567891s", "too precise: at most 9 decimals"),
        ("abc", "unknown unit 'abc' (use s, ms or f)"),
        ("1.2.3s", "write seconds (\"3.5s\" or 3.5), milliseconds (\"250ms\"), a clock time (\"00:01:02.5\"), frames (\"90f\") or a fraction (\"1001/30000\")"),
    ])
    func rejectsWithAReason(text: String, reason: String) {
        #expect(throws: TimeSyntaxError(text: text, reason: reason)) {
            try TimeSyntax.parse(text)
        }
    }

    @Test func errorDescriptionNamesTheText() {
        #expect(TimeSyntaxError(text: "3.5x", reason: "unknown unit 'x' (use s, ms or f)").description
            == "'3.5x' is not a time: unknown unit 'x' (use s, ms or f)")
    }
}
