import Composition
import Foundation
import Testing

/// `MediaTime`'s own `Codable` reads every time-syntax form, so a model decodes the same way from any decoder.
@Suite("MediaTime decoding")
struct MediaTimeDecodingTests {
    static func decode(_ json: String, frameDuration: MediaTime? = nil, numbersAreSeconds: Bool = false) throws -> [MediaTime] {
        let decoder = JSONDecoder()
        if let frameDuration { decoder.userInfo[.frameDuration] = frameDuration }
        if numbersAreSeconds { decoder.userInfo[.numbersAreSeconds] = true }
        return try decoder.decode([MediaTime].self, from: Data(json.utf8))
    }

    @Test func readsTheTimeSyntax() throws {
        let times = try Self.decode(#"["1.5s", "250ms", "00:01:02.5", "0.1", 3.5, 0.1, 2, 1e-3, "90f"]"#,
                                    frameDuration: MediaTime(value: 1, timescale: 30), numbersAreSeconds: true)
        #expect(times == [
            MediaTime(value: 3, timescale: 2), MediaTime(value: 1, timescale: 4), MediaTime(value: 125, timescale: 2),
            MediaTime(value: 1, timescale: 10), MediaTime(value: 7, timescale: 2), MediaTime(value: 1, timescale: 10),
            MediaTime(seconds: 2), MediaTime(value: 1, timescale: 1000), MediaTime(seconds: 3),
        ])
        #expect(times.allSatisfy { !$0.hasBeenRounded })
    }

    @Test func keepsTheRationalForms() throws {
        let rounded = MediaTime(value: 1, timescale: 3).convertScale(10)
        let times = try Self.decode(#"["1001/30000", "\#(rounded.rationalText)", "+inf", {"value": 5, "timescale": 10}]"#)
        #expect(times == [MediaTime(value: 1001, timescale: 30000), rounded, .positiveInfinity, MediaTime(value: 1, timescale: 2)])
        #expect(times[1].hasBeenRounded && times[1].timescale == 10)
    }

    @Test func framesNeedAFrameDuration() {
        #expect(throws: DecodingError.self) { try Self.decode(#"["90f"]"#) }
    }

    /// A bare number is a time only where the decoder says numbers are seconds (as composition documents do).
    @Test func numbersNeedTheOption() throws {
        #expect(throws: DecodingError.self) { try Self.decode("[0.033]") }
        #expect(try Self.decode("[0.033]", numbersAreSeconds: true) == [MediaTime(value: 33, timescale: 1000)])
    }

    @Test func namesTheTextAndTheReason() throws {
        do {
            _ = try Self.decode(#"["3x"]"#)
            Issue.record("decoded '3x'")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "'3x' is not a time: unknown unit 'x' (use s, ms or f)")
        }
    }

    @Test func refusesOtherValues() {
        #expect(throws: DecodingError.self) { try Self.decode("[true]") }
        #expect(throws: DecodingError.self) { try Self.decode("[[1]]") }
        #expect(throws: DecodingError.self) { try Self.decode("[0.1234567891]", numbersAreSeconds: true) }
    }
}
