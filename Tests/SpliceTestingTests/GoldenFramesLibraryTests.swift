import SpliceFFmpeg
import Foundation
import Composition
import Export
import SpliceTesting
import Testing
import SpliceTestSupport

/// The SpliceTesting library itself: figures, tolerances, record modes, files written on failure, issues reported.
@Suite("SpliceTesting golden assertions")
struct GoldenFramesLibraryTests {
    /// A `width × height` frame of one colour.
    static func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255, width: Int = 10, height: Int = 10) -> VideoFrame {
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) { pixels += [r, g, b, a] }
        return VideoFrame(width: width, height: height, bytesPerRow: width * 4, pixels: pixels)!
    }

    /// `frame` with pixel (x, y) channel `channel` set to `value`.
    static func changing(_ frame: VideoFrame, x: Int, y: Int, channel: Int, to value: UInt8) -> VideoFrame {
        var pixels = frame.pixels
        pixels[y * frame.bytesPerRow + 4 * x + channel] = value
        return VideoFrame(width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow, pixels: pixels)!
    }

    @Test func comparisonFigures() throws {
        let grey = Self.solid(100, 100, 100)
        let same = try FrameComparison(actual: grey, expected: grey)
        #expect(same.psnr == .infinity && same.maximumDifference == 0 && same.isIdentical)
        #expect(same.maximumDifferenceAt == nil && same.differingPixelCount == 0)

        // One channel of one pixel off by 10 in 10×10: MSE = 100 / 300.
        let off = Self.changing(grey, x: 3, y: 7, channel: 1, to: 110)
        let c = try FrameComparison(actual: off, expected: grey)
        #expect(abs(c.psnr - 10 * log10(255.0 * 255.0 / (100.0 / 300.0))) < 1e-9)
        #expect(c.maximumDifference == 10 && c.maximumDifferenceAt == FrameComparison.Pixel(x: 3, y: 7))
        #expect(c.differingPixelCount == 1)
        #expect(abs(c.meanAbsoluteDifference - 10.0 / 300.0) < 1e-12)
        #expect(c.description.hasPrefix("PSNR 52.90 dB, max difference 10 at (3, 7), 1 of 100 pixels differ"), "\(c)")

        // Alpha is not in the PSNR but is in the maximum difference.
        let alpha = try FrameComparison(actual: Self.changing(grey, x: 0, y: 0, channel: 3, to: 0), expected: grey)
        #expect(alpha.psnr == .infinity && alpha.maximumDifference == 255 && !alpha.isIdentical)

        #expect(throws: GoldenFrameError.sizeMismatch(actual: Size(width: 10, height: 10), expected: Size(width: 12, height: 10))) {
            try FrameComparison(actual: grey, expected: Self.solid(0, 0, 0, width: 12))
        }
    }

    @Test func differenceImageAmplifiesPerChannel() throws {
        let a = Self.changing(Self.solid(100, 100, 100), x: 1, y: 2, channel: 0, to: 103)
        let diff = try FrameComparison.differenceImage(actual: a, expected: Self.solid(100, 100, 100))
        #expect(diff.pixel(x: 1, y: 2)! == (24, 0, 0, 255))
        #expect(diff.pixel(x: 0, y: 0)! == (0, 0, 0, 255))
        let big = try FrameComparison.differenceImage(actual: Self.solid(0, 0, 0), expected: Self.solid(200, 0, 0), gain: 2)
        #expect(big.pixel(x: 5, y: 5)!.red == 255)
    }

    @Test func tolerances() throws {
        let grey = Self.solid(100, 100, 100)
        let c = try FrameComparison(actual: Self.changing(grey, x: 0, y: 0, channel: 0, to: 103), expected: grey)
        #expect(!GoldenTolerance.exact.accepts(c))
        #expect(GoldenTolerance().accepts(try FrameComparison(actual: grey, expected: grey)))
        #expect(!GoldenTolerance().accepts(c), "no limit stated means identical")
        #expect(GoldenTolerance.maximumDifference(3).accepts(c) && !GoldenTolerance.maximumDifference(2).accepts(c))
        #expect(GoldenTolerance.psnr(atLeast: 60).accepts(c) && !GoldenTolerance.psnr(atLeast: 70).accepts(c))  // 64.03 dB
        #expect(!GoldenTolerance(minimumPSNR: 60, maximumChannelDifference: 2).accepts(c))
        #expect(GoldenTolerance(minimumPSNR: 60, maximumChannelDifference: 3).description == "PSNR ≥ 60.0 dB and max difference ≤ 3")
    }

    @Test func recordModeFromEnvironmentValues() {
        #expect(GoldenRecordMode.mode(fromEnvironmentValue: nil) == .never)
        #expect(GoldenRecordMode.mode(fromEnvironmentValue: "") == .never)
        #expect(GoldenRecordMode.mode(fromEnvironmentValue: "0") == .never)
        #expect(GoldenRecordMode.mode(fromEnvironmentValue: "1") == .all)
        #expect(GoldenRecordMode.mode(fromEnvironmentValue: "ALL") == .all)
        #expect(GoldenRecordMode.mode(fromEnvironmentValue: "missing") == .missing)
    }

    @Test func missingRecordMatchMismatchLifecycle() throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let grey = Self.solid(100, 100, 100)
        let compare = GoldenFrames(directory: scratch.url, recordMode: .never)
        let golden = scratch.file("card.png"), actual = scratch.file("card.actual.png"), diff = scratch.file("card.diff.png")

        // No golden: a failure, the actual written where it can be looked at.
        var missing: GoldenResult?
        withKnownIssue { missing = compare.expect(grey, matchesGolden: "card", tolerance: .exact) }
        #expect(missing?.outcome == .missingGolden && missing?.actualURL == actual && missing?.passed == false)
        #expect(missing?.description.contains("SPLICE_RECORD_GOLDENS") == true)
        #expect(FileManager.default.fileExists(atPath: actual.path))

        // Recording the missing one: reported (never passes silently), the stale actual removed.
        var recorded: GoldenResult?
        withKnownIssue {
            recorded = GoldenFrames(directory: scratch.url, recordMode: .missing).expect(grey, matchesGolden: "card", tolerance: .exact)
        }
        #expect(recorded?.outcome == .recorded)
        #expect(try VideoFrame(contentsOf: golden) == grey)
        #expect(!FileManager.default.fileExists(atPath: actual.path))

        // A match.
        let matched = compare.expect(grey, matchesGolden: "card", tolerance: .exact)
        #expect(matched.passed && matched.comparison?.isIdentical == true)

        // A mismatch: figures, the actual and the difference beside the golden.
        let off = Self.changing(grey, x: 2, y: 2, channel: 2, to: 140)
        var mismatch: GoldenResult?
        withKnownIssue { mismatch = compare.expect(off, matchesGolden: "card", tolerance: .maximumDifference(3)) }
        let result = try #require(mismatch)
        #expect(result.outcome == .mismatched)
        #expect(result.comparison?.maximumDifference == 40)
        #expect(result.actualURL == actual && result.differenceURL == diff)
        #expect(result.description.contains("max difference 40 at (2, 2)") && result.description.contains(diff.path))
        #expect(try VideoFrame(contentsOf: actual) == off)
        #expect(try VideoFrame(contentsOf: diff).pixel(x: 2, y: 2)! == (0, 0, 255, 255))
        #expect(try VideoFrame(contentsOf: golden) == grey, "a failure never touches the golden")

        // Within tolerance again: the failure files go away.
        #expect(compare.compare(Self.changing(grey, x: 0, y: 0, channel: 0, to: 102), toGolden: "card", tolerance: .maximumDifference(3)).passed)
        #expect(!FileManager.default.fileExists(atPath: actual.path) && !FileManager.default.fileExists(atPath: diff.path))

        // A different size cannot be compared.
        let small = compare.compare(Self.solid(100, 100, 100, width: 4, height: 4), toGolden: "card", tolerance: .psnr(atLeast: 10))
        #expect(small.outcome == .sizeMismatch && small.actualURL == actual)
        #expect(small.error == .sizeMismatch(actual: Size(width: 4, height: 4), expected: Size(width: 10, height: 10)))

        // Re-recording everything replaces the golden.
        let red = Self.solid(255, 0, 0)
        #expect(GoldenFrames(directory: scratch.url, recordMode: .all).compare(red, toGolden: "card", tolerance: .exact).outcome == .recorded)
        #expect(try VideoFrame(contentsOf: golden) == red)
    }

    @Test func unreadableGoldenIsAFailureNotACrash() throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        try Data("not a png".utf8).write(to: scratch.file("bad.png"))
        let result = GoldenFrames(directory: scratch.url, recordMode: .never).compare(Self.solid(0, 0, 0), toGolden: "bad", tolerance: .exact)
        #expect(result.outcome == .failed)
        guard case .goldenUnreadable(let url, _) = result.error else { Issue.record("\(result)"); return }
        #expect(url == scratch.file("bad.png"))
    }

    @Test func digestLogsMatchExactlyAndNameTheFirstDifference() throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let log = "#hash: MD5\n0, 0, 0, 1, 4, aaaa\n0, 1, 1, 1, 4, bbbb\n"
        #expect(GoldenFrames(directory: scratch.url, recordMode: .missing).compare(log, toGoldenLog: "run").outcome == .recorded)
        let goldens = GoldenFrames(directory: scratch.url, recordMode: .never)
        #expect(goldens.expect(log, matchesGoldenLog: "run").passed)
        var mismatch: GoldenResult?
        withKnownIssue { mismatch = goldens.expect(log.replacingOccurrences(of: "bbbb", with: "cccc"), matchesGoldenLog: "run") }
        let result = try #require(mismatch)
        #expect(result.outcome == .mismatched)
        #expect(result.firstDifference == GoldenResult.LineDifference(line: 3, expected: "0, 1, 1, 1, 4, bbbb", actual: "0, 1, 1, 1, 4, cccc"))
        #expect(result.actualURL == scratch.file("run.actual.framemd5"))
        let shorter = goldens.compare("#hash: MD5\n0, 0, 0, 1, 4, aaaa\n", toGoldenLog: "run")
        #expect(shorter.firstDifference?.line == 3 && shorter.firstDifference?.actual == "")
    }

    @Test func directoryRelativeToTheCallingFile() {
        let goldens = GoldenFrames(directory: "../../Fixtures/goldens", recordMode: .never)
        #expect(goldens.directory == Fixture.goldens.standardizedFileURL)
        #expect(goldens.url(forGolden: "x") == Fixture.goldens.standardizedFileURL.appendingPathComponent("x.png"))
        #expect(goldens.url(forGolden: "opacity-0.5").lastPathComponent == "opacity-0.5.png")
        #expect(goldens.url(forGolden: "x.png").lastPathComponent == "x.png")
        #expect(goldens.url(forGolden: "run", extension: "framemd5").lastPathComponent == "run.framemd5")
    }
}
