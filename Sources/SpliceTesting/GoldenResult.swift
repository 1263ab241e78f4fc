import Foundation

/// The outcome of comparing a frame (or a digest log) with its golden file, with the figures and the paths of any
/// files written — everything a failure message needs, and a value XCTest users can assert on
/// (`XCTAssertTrue(result.passed, result.description)`).
public struct GoldenResult: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Within tolerance (or, for logs, identical text).
        case matched
        /// Compared and outside tolerance (or, for logs, different text); the actual (and, for frames, a difference
        /// picture) was written beside the golden.
        case mismatched
        /// The frame and the golden differ in size; the actual frame was written beside the golden.
        case sizeMismatch
        /// There is no golden yet and recording is off; the actual was written beside where the golden belongs.
        case missingGolden
        /// The golden was written (record mode); nothing was compared.
        case recorded
        /// Comparing or writing failed (an unreadable golden, a read-only directory); see ``GoldenResult/error``.
        case failed
    }

    /// What happened.
    public var outcome: Outcome
    /// The golden file.
    public var goldenURL: URL
    /// The tolerance used (frames only; nil for digest logs, which must match exactly).
    public var tolerance: GoldenTolerance?
    /// The figures, when a frame was compared with a golden of the same size.
    public var comparison: FrameComparison?
    /// The actual frame or log written beside the golden on failure (`<name>.actual.png` / `.actual.framemd5`).
    public var actualURL: URL?
    /// The difference picture written beside the golden on a frame mismatch (`<name>.diff.png`, see
    /// ``FrameComparison/differenceImage(actual:expected:gain:)``).
    public var differenceURL: URL?
    /// For a log mismatch: the first line that differs.
    public var firstDifference: LineDifference?
    /// The error behind ``Outcome/failed`` or ``Outcome/sizeMismatch``.
    public var error: GoldenFrameError?

    /// The first line where an actual log differs from its golden.
    public struct LineDifference: Sendable, Hashable {
        /// 1-based line number.
        public var line: Int
        /// The golden's line (empty past its end).
        public var expected: String
        /// The actual line (empty past its end).
        public var actual: String

        /// A difference at 1-based `line`.
        public init(line: Int, expected: String, actual: String) {
            self.line = line
            self.expected = expected
            self.actual = actual
        }
    }

    /// A result; the comparison library makes these.
    public init(outcome: Outcome, goldenURL: URL, tolerance: GoldenTolerance? = nil, comparison: FrameComparison? = nil,
                actualURL: URL? = nil, differenceURL: URL? = nil, error: GoldenFrameError? = nil) {
        self.outcome = outcome
        self.goldenURL = goldenURL
        self.tolerance = tolerance
        self.comparison = comparison
        self.actualURL = actualURL
        self.differenceURL = differenceURL
        self.error = error
    }

    /// True only for ``Outcome/matched``: a recorded golden still needs a person to look at it.
    public var passed: Bool { outcome == .matched }

    /// A message naming the golden, the figures against the tolerance and the files written.
    public var description: String {
        let name = goldenURL.lastPathComponent
        var text: String
        switch outcome {
        case .matched:
            text = "\(name) matches" + (comparison.map { ": \($0)" } ?? "")
        case .mismatched:
            if let comparison, let tolerance {
                text = "\(name) differs beyond tolerance (\(tolerance)): \(comparison)"
            } else {
                text = "\(name) differs"
            }
            if let firstDifference {
                text += " — first difference at line \(firstDifference.line):\n  expected: \(firstDifference.expected)\n"
                    + "  actual:   \(firstDifference.actual)"
            }
        case .sizeMismatch:
            text = "\(name) cannot be compared: \(error.map(\.description) ?? "sizes differ")"
        case .missingGolden:
            text = "no golden at \(goldenURL.path); look at the actual file, then record it with "
                + "\(GoldenRecordMode.environmentVariable)=missing (or =1 to re-record all)"
        case .recorded:
            text = "recorded the golden \(goldenURL.path): look at it before committing, then run again without "
                + GoldenRecordMode.environmentVariable
        case .failed:
            text = "\(name): \(error.map(\.description) ?? "comparison failed")"
        }
        if let actualURL { text += "\n  actual: \(actualURL.path)" }
        if let differenceURL { text += "\n  difference: \(differenceURL.path)" }
        if outcome != .recorded && outcome != .missingGolden { text += "\n  golden: \(goldenURL.path)" }
        return text
    }
}
