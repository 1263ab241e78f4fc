import Foundation
import Splice
import SpliceTestSupport
import Testing

/// Damaged and hostile `.otio` files: every number of a valid timeline replaced by extreme values, one at a time,
/// is read or refused with a ``DocumentError`` — never a trap.
@Suite("OpenTimelineIO: bad input")
struct OpenTimelineIOBadInputTests {
    static let timeline = OpenTimelineIOReadingTests.timeline(children: """
        { "OTIO_SCHEMA": "Clip.2", "name": "a", "source_range": \(OpenTimelineIOReadingTests.range(10, 24)),
          "effects": [ { "OTIO_SCHEMA": "LinearTimeWarp.1", "time_scalar": 2.0 } ],
          "markers": [ { "OTIO_SCHEMA": "Marker.2", "marked_range": \(OpenTimelineIOReadingTests.range(12, 2)) } ],
          "media_references": { "DEFAULT_MEDIA": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "a.mov",
            "available_range": \(OpenTimelineIOReadingTests.range(0, 64)) } } },
        { "OTIO_SCHEMA": "Clip.1", "name": "b", "source_range": \(OpenTimelineIOReadingTests.range(10, 24)),
          "media_reference": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "b.mov" } },
        { "OTIO_SCHEMA": "Transition.1", "transition_type": "SMPTE_Dissolve",
          "in_offset": { "OTIO_SCHEMA": "RationalTime.1", "rate": 24.0, "value": 3 },
          "out_offset": { "OTIO_SCHEMA": "RationalTime.1", "rate": 24.0, "value": 3 } },
        { "OTIO_SCHEMA": "Clip.1", "name": "c", "source_range": \(OpenTimelineIOReadingTests.range(10, 24)),
          "media_reference": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "c.mov" } },
        { "OTIO_SCHEMA": "Gap.1", "source_range": \(OpenTimelineIOReadingTests.range(0, 12)) }
        """)

    static let extremes = ["0", "-1", "-0.5", "1e300", "-1e300", "9223372036854775807", "-9223372036854775808",
                           "0.000000000001", "23.976", "1e-300", "2147483648"]

    @Test func everyNumberReplacedByAnExtremeIsReadOrRefused() throws {
        let scratch = try ScratchDirectory("otio-bad")
        defer { scratch.remove() }
        let text = Self.timeline
        // The timeline itself reads: 24 + 24 + 24 + 12 frames, one transition.
        let valid = try OpenTimelineIO.read(from: try scratch.write("valid.otio", text))
        #expect(valid.transitions.count == 1)
        #expect(valid.document.composition.tracks.count == 2)
        let numbers = try NSRegularExpression(pattern: #"(?<=: )-?[0-9][0-9.e+-]*"#)
        let matches = numbers.matches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(matches.count >= 20)
        var refused = 0
        for match in matches {
            for extreme in Self.extremes {
                let mutated = (text as NSString).replacingCharacters(in: match.range, with: extreme)
                let file = try scratch.write("bad.otio", mutated)
                do {
                    _ = try OpenTimelineIO.read(from: file)
                } catch {
                    #expect(!error.problems.isEmpty)
                    refused += 1
                }
            }
        }
        // A rate of 0, a negative duration, a value that does not fit: refused (at least once per number).
        #expect(refused >= matches.count)
    }

    /// A time in a message is written as every message of the package writes it: −1000.5 frames at 1000 fps is
    /// −1.001 s (the exact −2001/2000 rounded half away from zero), not the −1.000 s of its `Double` printed with
    /// `%.3f`.
    @Test func aNegativeDurationIsNamedToTheMillisecondAsEveryMessageRoundsIt() throws {
        let scratch = try ScratchDirectory("otio-negative")
        defer { scratch.remove() }
        let gap = #"{ "OTIO_SCHEMA": "Gap.1", "source_range": { "OTIO_SCHEMA": "TimeRange.1", "#
            + #""start_time": { "OTIO_SCHEMA": "RationalTime.1", "rate": 1000, "value": 0 }, "#
            + #""duration": { "OTIO_SCHEMA": "RationalTime.1", "rate": 1000, "value": -1000.5 } } }"#
        let file = try scratch.write("negative.otio", OpenTimelineIOReadingTests.timeline(children: gap))
        do {
            _ = try OpenTimelineIO.read(from: file)
            Issue.record("a negative duration was read")
        } catch {
            #expect(error.problems.map(\.message) == ["a duration is not negative (-1.001 s)"])
        }
    }
}
