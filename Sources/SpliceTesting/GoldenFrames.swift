import Foundation
import Composition
import Export
import Testing

/// A directory of golden files — approved PNG pictures and `framemd5`-style digest logs — and the assertions that
/// compare rendered frames and logs with them.
///
/// ```swift
/// import Splice
/// import SpliceTesting
/// import Testing
///
/// let goldens = GoldenFrames(directory: "Goldens")   // beside this test file
///
/// @Test func titleCard() async throws {
///     let (frame, _) = try await generator.image(at: MediaTime(seconds: 1))
///     goldens.expect(frame, matchesGolden: "title-card", tolerance: .psnr(atLeast: 40))
/// }
/// ```
///
/// **On failure** the actual frame is written beside the golden as `<name>.actual.png` with a difference picture
/// `<name>.diff.png` (|actual − golden| × 8 per channel), and the message gives the PSNR, the largest channel
/// difference and where it is, and the paths. A later match removes those two files again. Keep them out of version
/// control (`*.actual.png`, `*.diff.png`, `*.actual.framemd5` in `.gitignore`).
///
/// **Recording** is deliberate: set `SPLICE_RECORD_GOLDENS=missing` to write goldens that do not exist yet, or
/// `SPLICE_RECORD_GOLDENS=1` to rewrite all of them (see ``GoldenRecordMode``). Every recording is reported as an
/// issue so that a recording run never passes silently; look at each new picture before committing it.
///
/// The `expect` methods report through Swift Testing (`Issue.record`); the `compare` methods only return a
/// ``GoldenResult``, for XCTest (`XCTAssertTrue(result.passed, result.description)`) or your own reporting.
public struct GoldenFrames: Sendable {
    /// The directory holding the golden files.
    public var directory: URL
    /// Whether goldens are written instead of compared; from `SPLICE_RECORD_GOLDENS` by default.
    public var recordMode: GoldenRecordMode

    /// Goldens in `directory`.
    /// - Parameters:
    ///   - directory: a `file:` URL; created when a golden is recorded into it.
    ///   - recordMode: ``GoldenRecordMode/environment`` by default.
    public init(directory: URL, recordMode: GoldenRecordMode = .environment) {
        self.directory = directory
        self.recordMode = recordMode
    }

    /// Goldens in a directory given relative to the source file that creates them, so tests find their goldens
    /// wherever the package is checked out (no bundle resources needed).
    /// - Parameters:
    ///   - path: a path relative to the directory of `filePath`, e.g. `"Goldens"` or `"../../Fixtures/goldens"`.
    ///   - filePath: the calling source file (`#filePath`, the default).
    ///   - recordMode: ``GoldenRecordMode/environment`` by default.
    public init(directory path: String, relativeTo filePath: StaticString = #filePath, recordMode: GoldenRecordMode = .environment) {
        let base = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        self.init(directory: base.appendingPathComponent(path).standardizedFileURL, recordMode: recordMode)
    }

    /// The golden file for `name`: `<directory>/<name>.<extension>` (`name` may already end in `.<extension>`;
    /// other dots are part of the name, as in `"opacity-0.5"`).
    public func url(forGolden name: String, extension pathExtension: String = "png") -> URL {
        let file = name.hasSuffix(".\(pathExtension)") ? name : "\(name).\(pathExtension)"
        return directory.appendingPathComponent(file)
    }

    // MARK: Frames

    /// Compares `frame` with the golden PNG `name` within `tolerance` (or records it, per ``recordMode``), writing
    /// the actual and difference pictures beside the golden on failure. Reports nothing: see
    /// ``expect(_:matchesGolden:tolerance:sourceLocation:)`` for the Swift Testing assertion.
    ///
    /// - Parameters:
    ///   - frame: the rendered picture.
    ///   - name: the golden's name (`"rotation-30"` → `rotation-30.png`).
    ///   - tolerance: how close the frame must be.
    /// - Returns: the outcome, the figures and the files written.
    public func compare(_ frame: VideoFrame, toGolden name: String, tolerance: GoldenTolerance) -> GoldenResult {
        let golden = url(forGolden: name)
        let actualURL = sibling(of: golden, suffix: "actual", extension: "png")
        let differenceURL = sibling(of: golden, suffix: "diff", extension: "png")
        let exists = FileManager.default.fileExists(atPath: golden.path)

        if recordMode == .all || (recordMode == .missing && !exists) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try frame.write(to: golden)
                removeStale([actualURL, differenceURL])
                return GoldenResult(outcome: .recorded, goldenURL: golden, tolerance: tolerance)
            } catch {
                return GoldenResult(outcome: .failed, goldenURL: golden, tolerance: tolerance,
                                    error: .writeFailed(golden, reason: "\(error)"))
            }
        }
        guard exists else {
            let written = write(frame, to: actualURL)
            return GoldenResult(outcome: .missingGolden, goldenURL: golden, tolerance: tolerance, actualURL: written.url,
                                error: written.error)
        }
        let expected: VideoFrame
        do {
            expected = try VideoFrame(contentsOf: golden)
        } catch {
            return GoldenResult(outcome: .failed, goldenURL: golden, tolerance: tolerance,
                                error: .goldenUnreadable(golden, reason: "\(error)"))
        }
        let comparison: FrameComparison
        do {
            comparison = try FrameComparison(actual: frame, expected: expected)
        } catch {
            let written = write(frame, to: actualURL)
            return GoldenResult(outcome: .sizeMismatch, goldenURL: golden, tolerance: tolerance, actualURL: written.url,
                                error: (error as? GoldenFrameError) ?? written.error)
        }
        if tolerance.accepts(comparison) {
            removeStale([actualURL, differenceURL])
            return GoldenResult(outcome: .matched, goldenURL: golden, tolerance: tolerance, comparison: comparison)
        }
        let actual = write(frame, to: actualURL)
        var difference: (url: URL?, error: GoldenFrameError?) = (nil, nil)
        do {
            difference = write(try FrameComparison.differenceImage(actual: frame, expected: expected), to: differenceURL)
        } catch {
            difference.error = error as? GoldenFrameError
        }
        return GoldenResult(outcome: .mismatched, goldenURL: golden, tolerance: tolerance, comparison: comparison,
                            actualURL: actual.url, differenceURL: difference.url, error: actual.error ?? difference.error)
    }

    /// Swift Testing assertion: ``compare(_:toGolden:tolerance:)``, recording an issue (`Issue.record`) with the
    /// figures and paths unless the frame matches.
    /// - Returns: the result, for further checks or for printing the figures.
    @discardableResult
    public func expect(
        _ frame: VideoFrame, matchesGolden name: String, tolerance: GoldenTolerance,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> GoldenResult {
        let result = compare(frame, toGolden: name, tolerance: tolerance)
        if !result.passed { Issue.record(Comment(rawValue: result.description), sourceLocation: sourceLocation) }
        return result
    }

    // MARK: Digest logs

    /// Compares a digest log's text with the golden log `name` (`<name>.framemd5`) exactly — for lossless paths,
    /// where any changed pixel or sample is a regression — or records it, per ``recordMode``. On a mismatch the
    /// actual log is written beside the golden as `<name>.actual.framemd5` and the first differing line is given.
    /// - Parameters:
    ///   - log: the actual log, e.g. ``FrameDigestLog/text`` or lines of ``VideoFrame/md5()`` values.
    ///   - name: the golden's name.
    public func compare(_ log: String, toGoldenLog name: String) -> GoldenResult {
        let golden = url(forGolden: name, extension: "framemd5")
        let actualURL = sibling(of: golden, suffix: "actual", extension: "framemd5")
        let exists = FileManager.default.fileExists(atPath: golden.path)
        if recordMode == .all || (recordMode == .missing && !exists) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(log.utf8).write(to: golden, options: .atomic)
                removeStale([actualURL])
                return GoldenResult(outcome: .recorded, goldenURL: golden)
            } catch {
                return GoldenResult(outcome: .failed, goldenURL: golden, error: .writeFailed(golden, reason: "\(error)"))
            }
        }
        guard exists else {
            let written = write(log, to: actualURL)
            return GoldenResult(outcome: .missingGolden, goldenURL: golden, actualURL: written.url, error: written.error)
        }
        let expected: String
        do {
            expected = String(decoding: try FileContents.data(of: golden), as: UTF8.self)
        } catch {
            return GoldenResult(outcome: .failed, goldenURL: golden, error: .goldenUnreadable(golden, reason: "\(error)"))
        }
        if expected == log {
            removeStale([actualURL])
            return GoldenResult(outcome: .matched, goldenURL: golden)
        }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = log.split(separator: "\n", omittingEmptySubsequences: false)
        let index = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let written = write(log, to: actualURL)
        var result = GoldenResult(outcome: .mismatched, goldenURL: golden, actualURL: written.url, error: written.error)
        result.firstDifference = GoldenResult.LineDifference(
            line: index + 1, expected: index < expectedLines.count ? String(expectedLines[index]) : "",
            actual: index < actualLines.count ? String(actualLines[index]) : "")
        return result
    }

    /// Swift Testing assertion: ``compare(_:toGoldenLog:)``, recording an issue unless the log matches.
    @discardableResult
    public func expect(_ log: String, matchesGoldenLog name: String, sourceLocation: SourceLocation = #_sourceLocation) -> GoldenResult {
        let result = compare(log, toGoldenLog: name)
        if !result.passed { Issue.record(Comment(rawValue: result.description), sourceLocation: sourceLocation) }
        return result
    }

    // MARK: Files

    /// `<directory>/<name>.<suffix>.<extension>` for the golden `<name>.<ext>`.
    private func sibling(of golden: URL, suffix: String, extension pathExtension: String) -> URL {
        golden.deletingPathExtension().appendingPathExtension(suffix).appendingPathExtension(pathExtension)
    }

    private func write(_ frame: VideoFrame, to url: URL) -> (url: URL?, error: GoldenFrameError?) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try frame.write(to: url)
            return (url, nil)
        } catch {
            return (nil, .writeFailed(url, reason: "\(error)"))
        }
    }

    private func write(_ text: String, to url: URL) -> (url: URL?, error: GoldenFrameError?) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            return (url, nil)
        } catch {
            return (nil, .writeFailed(url, reason: "\(error)"))
        }
    }

    private func removeStale(_ urls: [URL]) {
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}
