import Foundation
import Testing
@testable import Composition

@Suite("MediaTime")
struct MediaTimeTests {
    @Test func equalityIsExactAcrossTimescales() {
        #expect(MediaTime(value: 1, timescale: 2) == MediaTime(value: 15, timescale: 30))
        #expect(MediaTime(value: 1001, timescale: 30000) != MediaTime(value: 1, timescale: 30))
        #expect(MediaTime(value: 1, timescale: 2).hashValue == MediaTime(value: 15, timescale: 30).hashValue)
        #expect(Set([MediaTime(value: 1, timescale: 2), MediaTime(value: 300, timescale: 600)]).count == 1)
    }

    @Test func specialValuesHaveATotalOrder() {
        let ordered: [MediaTime] = [
            .negativeInfinity, MediaTime(value: Int64.min, timescale: 1), MediaTime(value: -1, timescale: 3), .zero,
            MediaTime(value: Int64.max, timescale: 1), .indefinite, .positiveInfinity, .invalid,
        ]
        for (i, lhs) in ordered.enumerated() {
            for (j, rhs) in ordered.enumerated() {
                #expect((lhs < rhs) == (i < j), "\(lhs) < \(rhs)")
                #expect((lhs == rhs) == (i == j), "\(lhs) == \(rhs)")
            }
        }
    }

    @Test func additionIsExactInTheLeastCommonTimescale() {
        let sum = MediaTime(value: 1001, timescale: 30000) + MediaTime(value: 1, timescale: 600)
        #expect(sum.timescale == 30000)
        #expect(sum.value == 1051)
        #expect(!sum.hasBeenRounded)
        #expect(MediaTime(value: 15, timescale: 30) + MediaTime(value: 15, timescale: 30) == MediaTime(seconds: 1))
        #expect((MediaTime(value: 3, timescale: 4) - MediaTime(value: 1, timescale: 3)) == MediaTime(value: 5, timescale: 12))
    }

    @Test func specialValuesAbsorbAsCMTimeDoes() {
        let one = MediaTime(seconds: 1)
        #expect(!(MediaTime.invalid + one).isValid)
        #expect(!(MediaTime.positiveInfinity + .negativeInfinity).isValid)
        #expect((MediaTime.positiveInfinity + one).isPositiveInfinity)
        #expect((MediaTime.negativeInfinity - one).isNegativeInfinity)
        #expect((MediaTime.indefinite + one).isIndefinite)
        #expect((MediaTime.positiveInfinity + .indefinite).isPositiveInfinity)
        #expect(!(MediaTime.positiveInfinity - .positiveInfinity).isValid)
        #expect(!(MediaTime.positiveInfinity * 0).isValid)
        #expect((MediaTime.positiveInfinity * -2).isNegativeInfinity)
    }

    @Test func overflowNeverWraps() {
        let big = MediaTime(value: Int64.max, timescale: 1)
        let sum = big + big
        #expect(sum.isPositiveInfinity && sum.hasBeenRounded)
        let product = big * 3
        #expect(product.isPositiveInfinity && product.hasBeenRounded)
        let negated = -MediaTime(value: Int64.min, timescale: 1)
        #expect(negated.isPositiveInfinity && negated.hasBeenRounded)
        // Coprime timescales whose LCM overflows Int32 round to the larger timescale.
        let a = MediaTime(value: 1, timescale: 2_147_483_647)  // prime
        let b = MediaTime(value: 1, timescale: 2_147_483_629)  // prime
        let rounded = a + b
        #expect(rounded.hasBeenRounded)
        #expect(rounded.timescale == 2_147_483_647)
        #expect(rounded.value == 2)
    }

    @Test(arguments: [
        (MediaTime.RoundingMethod.halfAwayFromZero, Int64(3), Int64(-3)),
        (.towardZero, 2, -2),
        (.awayFromZero, 3, -3),
        (.towardPositiveInfinity, 3, -2),
        (.towardNegativeInfinity, 2, -3),
    ])
    func roundingAtHalf(method: MediaTime.RoundingMethod, positive: Int64, negative: Int64) {
        // 2.5 units: 5/2 seconds in timescale 1.
        let plus = MediaTime(value: 5, timescale: 2).convertScale(1, method: method)
        let minus = MediaTime(value: -5, timescale: 2).convertScale(1, method: method)
        #expect(plus.value == positive && plus.hasBeenRounded)
        #expect(minus.value == negative && minus.hasBeenRounded)
        let exact = MediaTime(value: 6, timescale: 2).convertScale(1, method: method)
        #expect(exact.value == 3 && !exact.hasBeenRounded)
    }

    @Test func secondsConversions() {
        let t = MediaTime(seconds: 1.5, preferredTimescale: 600)
        #expect(t.value == 900 && t.timescale == 600 && !t.hasBeenRounded)
        let third = MediaTime(seconds: 1.0 / 3.0, preferredTimescale: 1000)
        #expect(third.value == 333 && third.hasBeenRounded)
        #expect(!MediaTime(seconds: .nan, preferredTimescale: 600).isValid)
        #expect(MediaTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
        #expect(MediaTime(seconds: 1e300, preferredTimescale: 600).isPositiveInfinity)
        #expect(!MediaTime(value: 1, timescale: 0).isValid)
        #expect(MediaTime(value: 1001, timescale: 1000).seconds == 1.001)
    }

    @Test func multiplyByRatio() {
        let t = MediaTime(value: 10, timescale: 30)
        #expect(t.multiplied(byRatio: 1, over: 2) == MediaTime(value: 1, timescale: 6))
        #expect(!t.multiplied(byRatio: 1, over: 2).hasBeenRounded)
        #expect(!t.multiplied(byRatio: 1, over: 0).isValid)
        #expect(t * 3 == MediaTime(seconds: 1))
    }

    /// `secondsText`, the one way messages write a time: rounded half away from zero from the exact fraction, where
    /// a `Double` printed with `%.3f` gives 1.000 for 1.0005 s (its nearest `Double` lies below the half); a special
    /// value by its name.
    @Test func secondsTextRoundsTheExactFractionAndNamesSpecialValues() {
        #expect(MediaTime(value: 2001, timescale: 2000).secondsText == "1.001 s")
        #expect(MediaTime(value: -2001, timescale: 2000).secondsText == "-1.001 s")
        #expect(String(format: "%.3f s", MediaTime(value: 2001, timescale: 2000).seconds) == "1.000 s")
        #expect(MediaTime(value: 1, timescale: 3).secondsText == "0.333 s")
        #expect(MediaTime.positiveInfinity.secondsText == "+∞")
        #expect(MediaTime.negativeInfinity.secondsText == "−∞")
        #expect(MediaTime.indefinite.secondsText == "indefinite")
        #expect(MediaTime.invalid.secondsText == "invalid")
    }

    @Test func descriptionAndCodable() throws {
        #expect(MediaTime(value: 1001, timescale: 1000).description == "1.001 s (1001/1000)")
        #expect(MediaTime(value: -1, timescale: 3).description == "-0.333 s (-1/3)")
        #expect(MediaTime.positiveInfinity.description == "+∞")
        let times: [MediaTime] = [
            MediaTime(value: 1001, timescale: 30000), .zero, .invalid, .indefinite, .positiveInfinity, .negativeInfinity,
            MediaTime(value: 1, timescale: 3).convertScale(10),
        ]
        let data = try JSONEncoder().encode(times)
        let decoded = try JSONDecoder().decode([MediaTime].self, from: data)
        #expect(decoded == times)
        #expect(decoded.map(\.timescale) == times.map(\.timescale))
        #expect(decoded.map(\.hasBeenRounded) == times.map(\.hasBeenRounded))
        let human = try JSONDecoder().decode([MediaTime].self, from: Data(#"["1001/30000", "3", {"value": 5, "timescale": 10}]"#.utf8))
        #expect(human == [MediaTime(value: 1001, timescale: 30000), MediaTime(seconds: 3), MediaTime(value: 1, timescale: 2)])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([MediaTime].self, from: Data(#"["1/0"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([MediaTime].self, from: Data(#"["abc"]"#.utf8)) }
    }
}
