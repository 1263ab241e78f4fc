import Testing
@testable import Composition

/// Deterministic SplitMix64, so the randomized algebra tests see the same cases on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Checks MediaTime's arithmetic against an independent 128-bit rational reference.
@Suite("MediaTime algebra (randomized, fixed seed)")
struct MediaTimeAlgebraTests {
    static let timescales: [Int32] = [1, 2, 3, 24, 25, 30, 600, 1000, 1001, 24000, 30000, 44100, 48000, 90000,
                                      1_000_000, 65_537, 2_147_483_647, 2_147_483_629]

    static func randomTime(_ rng: inout SeededGenerator) -> MediaTime {
        let timescale = timescales[Int(rng.next() % UInt64(timescales.count))]
        let value: Int64
        switch rng.next() % 4 {
        case 0: value = Int64(bitPattern: rng.next())                    // anywhere, incl. near overflow
        case 1: value = Int64(bitPattern: rng.next()) >> 40              // moderate
        case 2: value = Int64(rng.next() % 1000) - 500                   // small, both signs
        default: value = Int64(timescale) * (Int64(rng.next() % 7200))   // whole seconds
        }
        return MediaTime(value: value, timescale: timescale)
    }

    /// `t` denotes exactly num/den.
    static func denotes(_ t: MediaTime, _ num: Int128, _ den: Int128) -> Bool {
        Int128(t.value) * den == num * Int128(t.timescale)
    }

    /// `t` is within half a unit of its own timescale of num/den: |value·den − num·ts| · 2 ≤ den.
    static func withinHalfUnit(_ t: MediaTime, _ num: Int128, _ den: Int128) -> Bool {
        let difference = Int128(t.value) * den - num * Int128(t.timescale)
        return difference.magnitude * 2 <= den.magnitude
    }

    @Test func comparisonMatchesCrossMultiplication() {
        var rng = SeededGenerator(state: 2026)
        for _ in 0..<20_000 {
            let a = Self.randomTime(&rng), b = Self.randomTime(&rng)
            let left = Int128(a.value) * Int128(b.timescale), right = Int128(b.value) * Int128(a.timescale)
            #expect((a < b) == (left < right))
            #expect((a == b) == (left == right))
            if a == b { #expect(a.hashValue == b.hashValue) }
        }
    }

    @Test func additionIsExactOrCorrectlyRounded() {
        var rng = SeededGenerator(state: 7)
        var exactCount = 0, roundedCount = 0, infiniteCount = 0
        for _ in 0..<20_000 {
            let a = Self.randomTime(&rng), b = Self.randomTime(&rng)
            let num = Int128(a.value) * Int128(b.timescale) + Int128(b.value) * Int128(a.timescale)
            let den = Int128(a.timescale) * Int128(b.timescale)
            let sum = a + b
            if sum.isNumeric {
                if sum.hasBeenRounded {
                    roundedCount += 1
                    #expect(Self.withinHalfUnit(sum, num, den), "\(a) + \(b) = \(sum)")
                } else {
                    exactCount += 1
                    #expect(Self.denotes(sum, num, den), "\(a) + \(b) = \(sum)")
                }
            } else {
                infiniteCount += 1
                // Only a magnitude beyond Int64 at the larger timescale may become infinite.
                #expect(sum.hasBeenRounded && (sum.isPositiveInfinity == (num > 0)))
                let magnitudeInLargerScale = num.magnitude * UInt128(max(a.timescale, b.timescale)) / den.magnitude
                #expect(magnitudeInLargerScale >= UInt128(Int64.max))
            }
            // Subtraction is addition of the negation.
            let difference = a - b
            let dnum = Int128(a.value) * Int128(b.timescale) - Int128(b.value) * Int128(a.timescale)
            if difference.isNumeric && !difference.hasBeenRounded {
                #expect(Self.denotes(difference, dnum, den))
            }
        }
        // The generator must exercise all three outcomes, or this test proves little.
        #expect(exactCount > 1000 && roundedCount > 100 && infiniteCount > 10,
                "exact \(exactCount) rounded \(roundedCount) infinite \(infiniteCount)")
    }

    @Test func convertScaleRoundsInTheStatedDirection() {
        var rng = SeededGenerator(state: 99)
        for _ in 0..<10_000 {
            let t = Self.randomTime(&rng)
            let target = Self.timescales[Int(rng.next() % UInt64(Self.timescales.count))]
            let num = Int128(t.value) * Int128(target)  // exact value in target units = num / t.timescale
            let den = Int128(t.timescale)
            for method in MediaTime.RoundingMethod.allCases {
                let r = t.convertScale(target, method: method)
                guard r.isNumeric else {
                    #expect((num / den).magnitude >= UInt128(Int64.max))
                    continue
                }
                #expect(r.timescale == target)
                let scaledValue = Int128(r.value) * den  // compare r.value with num/den
                #expect(r.hasBeenRounded == (scaledValue != num) || t.hasBeenRounded)
                switch method {
                case .towardZero: #expect(scaledValue.magnitude <= num.magnitude)
                case .awayFromZero: #expect(scaledValue.magnitude >= num.magnitude)
                case .towardPositiveInfinity: #expect(scaledValue >= num)
                case .towardNegativeInfinity: #expect(scaledValue <= num)
                case .halfAwayFromZero:
                    let twice = (scaledValue - num).magnitude * 2
                    #expect(twice <= den.magnitude)
                    if twice == den.magnitude { #expect(scaledValue.magnitude > num.magnitude) }  // ties away from zero
                }
            }
        }
    }

    @Test func timeRangeMappingIsExact() {
        // A 2x speed-up: source [10 s, 14 s) onto target [3 s, 5 s).
        let source = TimeRange(start: MediaTime(seconds: 10), duration: MediaTime(seconds: 4))
        let target = TimeRange(start: MediaTime(seconds: 3), duration: MediaTime(seconds: 2))
        #expect(TimeRange.mapTime(MediaTime(value: 12_012, timescale: 1000), from: source, to: target)
                == MediaTime(value: 4006, timescale: 1000))
        #expect(TimeRange.mapDuration(MediaTime(value: 1001, timescale: 30000), from: source, to: target)
                == MediaTime(value: 1001, timescale: 60000))
        #expect(!TimeRange.mapTime(MediaTime.zero, from: TimeRange.zero, to: target).isValid)
    }

    @Test func timeRangeBasics() {
        let r = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2))
        #expect(r.end == MediaTime(seconds: 3))
        #expect(r.contains(MediaTime(seconds: 1)) && !r.contains(MediaTime(seconds: 3)))
        #expect(r.contains(MediaTime(value: 2999, timescale: 1000)))
        #expect(r.contains(TimeRange(start: MediaTime(seconds: 3), duration: .zero)))
        let other = TimeRange(start: MediaTime(seconds: 2), end: MediaTime(seconds: 5))
        #expect(r.intersection(other) == TimeRange(start: MediaTime(seconds: 2), end: MediaTime(seconds: 3)))
        #expect(r.union(other) == TimeRange(start: MediaTime(seconds: 1), end: MediaTime(seconds: 5)))
        let apart = TimeRange(start: MediaTime(seconds: 10), duration: MediaTime(seconds: 1))
        #expect(r.intersection(apart).isEmpty && r.intersection(apart).start == MediaTime(seconds: 10))
        #expect(r.clamp(MediaTime(seconds: 7)) == MediaTime(seconds: 3))
        #expect(!TimeRange(start: MediaTime(seconds: 2), end: MediaTime(seconds: 1)).isValid)
        #expect(TimeRange(start: .zero, duration: .positiveInfinity).isValid)
        #expect(!TimeRange.invalid.isValid && !TimeRange.invalid.contains(MediaTime.zero))
        #expect(TimeMapping(emptyTarget: r).isEmpty)
    }

    @Test func extremeRatiosNeverTrap() {
        // Found by review: 128-bit products overflowed here and trapped.
        let huge = MediaTime(value: Int64.max, timescale: 1)
        let mapped = TimeRange.mapDuration(
            huge, from: TimeRange(start: .zero, duration: MediaTime(value: 1, timescale: Int32.max)),
            to: TimeRange(start: .zero, duration: huge))
        #expect(mapped.isPositiveInfinity && mapped.hasBeenRounded)
        var rng = SeededGenerator(state: 123)
        for _ in 0..<20_000 {
            let t = Self.randomTime(&rng)
            let m = Int64(bitPattern: rng.next()), d = Int64(bitPattern: rng.next()) | 1
            let r = t.multiplied(byRatio: m, over: d)
            // No trap, and the sign follows the factors' signs (an exact zero aside).
            if r.isNumeric && r.value != 0 {
                let expectedNegative = ((t.value < 0) != (m < 0)) != (d < 0)
                #expect((r.value < 0) == expectedNegative, "\(t) × \(m)/\(d) = \(r)")
            }
        }
    }
}
