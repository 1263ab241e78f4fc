import Foundation

/// The cue-block syntax of SubRip and WebVTT files, checked line by line so that a malformed file is refused with
/// the line and column of its first error (``AssetLoadingError/malformedSubtitles(_:line:column:reason:)``).
///
/// SubRip (no formal specification; the form every SubRip writer produces): blocks separated by blank lines, each a
/// cue number line (optional), a timing line `HH:MM:SS,mmm --> HH:MM:SS,mmm` (`.` accepted for `,`; hours of one or
/// more digits; anything after the end time, such as `X1:` coordinates, ignored), then the cue's text lines.
/// WebVTT (W3C WebVTT, "WebVTT file structure"): a `WEBVTT` line and header, then blocks separated by blank lines:
/// `NOTE`, `STYLE` and `REGION` blocks, and cues of an optional identifier line, a timing line
/// `[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [settings]` and text lines, which never contain `-->`.
/// In both, minutes and seconds are two digits below 60, milliseconds three digits, and a cue ends after it starts.
enum SubtitleSyntax {
    /// A syntax error on one line: its 1-based column (in characters) and what is wrong there.
    struct Problem: Error {
        var column: Int
        var reason: String
    }

    /// True for an empty line or one of spaces and tabs only.
    static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    /// Checks a SubRip file's lines.
    /// - Throws: ``AssetLoadingError/malformedSubtitles(_:line:column:reason:)`` at the first error.
    static func checkSubRip(_ lines: inout SubtitleTextLines, url: URL) throws {
        lines.skipBlankLines()
        while let first = lines.peek {
            let firstNumber = lines.number
            var timingLine = first
            let numbered = isCueNumber(first)
            if numbered {
                _ = lines.next()
                guard let line = lines.peek, !isBlank(line) else {
                    throw malformed(url, line: lines.number, column: 1,
                                    "cue \(first.trimmingCharacters(in: .whitespaces)) has no timing line")
                }
                timingLine = line
            }
            if case .failure(var problem) = timing(timingLine, webVTT: false) {
                if !numbered, problem.column == 1 {
                    problem.reason = "expected a cue number or a timing line (HH:MM:SS,mmm --> HH:MM:SS,mmm)"
                }
                throw malformed(url, line: numbered ? firstNumber + 1 : firstNumber, column: problem.column, problem.reason)
            }
            _ = lines.next()
            var previous: (line: Substring, number: Int)?
            while let text = lines.peek, !isBlank(text) {
                if text.contains("-->"), case .success = timing(text, webVTT: false) {
                    // The blank line belongs before the next cue's number when the line above is one.
                    let at = previous.flatMap { isCueNumber($0.line) ? $0.number : nil } ?? lines.number
                    throw malformed(url, line: at, column: 1,
                                    "a blank line is missing before this cue, which would be read as the previous cue's text")
                }
                previous = (text, lines.number)
                _ = lines.next()
            }
            lines.skipBlankLines()
        }
    }

    /// Checks a WebVTT file's lines.
    /// - Throws: ``AssetLoadingError/malformedSubtitles(_:line:column:reason:)`` at the first error.
    static func checkWebVTT(_ lines: inout SubtitleTextLines, url: URL) throws {
        guard let header = lines.next(), header.hasPrefix("WEBVTT"),
              header.count == 6 || [" ", "\t"].contains(header[header.index(header.startIndex, offsetBy: 6)]) else {
            throw malformed(url, line: 1, column: 1, "a WebVTT file starts with a 'WEBVTT' line")
        }
        while let line = lines.peek, !isBlank(line) {
            if line.contains("-->") {
                throw malformed(url, line: lines.number, column: 1, "a blank line is missing between the header and this cue")
            }
            _ = lines.next()
        }
        lines.skipBlankLines()
        while let first = lines.peek {
            if ["NOTE", "STYLE", "REGION"].contains(where: { startsBlock(first, with: $0) }) {
                while let line = lines.peek, !isBlank(line) { _ = lines.next() }
                lines.skipBlankLines()
                continue
            }
            var timingLine = first
            var timingNumber = lines.number
            if !first.contains("-->") {
                if case .success = timestamp(Array(first), at: 0, webVTT: true), case .failure(let problem) = timing(first, webVTT: true) {
                    throw malformed(url, line: timingNumber, column: problem.column, problem.reason)
                }
                _ = lines.next()  // the cue's identifier
                guard let line = lines.peek, !isBlank(line) else {
                    throw malformed(url, line: lines.number, column: 1, "the cue identifier '\(first)' is followed by no timing line")
                }
                timingLine = line
                timingNumber = lines.number
            }
            if case .failure(let problem) = timing(timingLine, webVTT: true) {
                let reason = first.contains("-->") || timingLine.contains("-->")
                    ? problem.reason : "expected a timing line ([HH:]MM:SS.mmm --> [HH:]MM:SS.mmm) after the cue identifier"
                throw malformed(url, line: timingNumber, column: problem.column, reason)
            }
            _ = lines.next()
            while let text = lines.peek, !isBlank(text) {
                if let arrow = text.range(of: "-->") {
                    throw malformed(url, line: lines.number, column: text.distance(from: text.startIndex, to: arrow.lowerBound) + 1,
                                    "a blank line is missing before this cue (cue text never contains '-->')")
                }
                _ = lines.next()
            }
            lines.skipBlankLines()
        }
    }

    /// The start and end (milliseconds) of a timing line, or where it breaks the rules.
    static func timing(_ line: Substring, webVTT: Bool) -> Result<(start: Int64, end: Int64), Problem> {
        let characters = Array(line)
        let start: (milliseconds: Int64, end: Int)
        switch timestamp(characters, at: 0, webVTT: webVTT) {
        case .success(let value): start = value
        case .failure(let problem): return .failure(problem)
        }
        var index = skipSpaces(characters, from: start.end)
        guard characters[index...].starts(with: "-->") else {
            return .failure(Problem(column: index + 1, reason: "expected '-->' after the start time"))
        }
        index = skipSpaces(characters, from: index + 3)
        let end: (milliseconds: Int64, end: Int)
        switch timestamp(characters, at: index, webVTT: webVTT) {
        case .success(let value): end = value
        case .failure(let problem): return .failure(problem)
        }
        if end.end < characters.count, characters[end.end] != " ", characters[end.end] != "\t" {
            return .failure(Problem(column: end.end + 1, reason: "expected a space or the end of the line after the end time"))
        }
        guard end.milliseconds > start.milliseconds else {
            return .failure(Problem(column: index + 1, reason: "the cue ends at \(end.milliseconds) ms, not after its start at \(start.milliseconds) ms"))
        }
        return .success((start.milliseconds, end.milliseconds))
    }

    /// A timestamp at `start` of `characters`: its value in milliseconds and the index after it, or the problem.
    static func timestamp(_ characters: [Character], at start: Int, webVTT: Bool) -> Result<(milliseconds: Int64, end: Int), Problem> {
        let form = webVTT ? "[HH:]MM:SS.mmm" : "HH:MM:SS,mmm"
        var index = start
        func digits() -> (value: Int64, count: Int, column: Int) {
            let column = index + 1
            var value: Int64 = 0
            var count = 0
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII,
                  count < 18 {
                value = value * 10 + Int64(digit)
                count += 1
                index += 1
            }
            return (value, count, column)
        }
        func problem(_ column: Int, _ what: String) -> Result<(milliseconds: Int64, end: Int), Problem> {
            .failure(Problem(column: column, reason: "bad timestamp: \(what) (expected \(form))"))
        }
        var groups = [digits()]
        guard groups[0].count > 0 else { return problem(groups[0].column, "no digits") }
        while groups.count < 3, index < characters.count, characters[index] == ":" {
            index += 1
            let group = digits()
            guard group.count > 0 else { return problem(group.column, "no digits after ':'") }
            groups.append(group)
        }
        if groups.count < (webVTT ? 2 : 3) {
            return problem(index + 1, webVTT ? "expected ':' and the seconds" : "hours, minutes and seconds are needed")
        }
        let hours = groups.count == 3 ? groups[0] : nil
        let minutes = groups[groups.count - 2]
        let seconds = groups[groups.count - 1]
        if let hours, webVTT, hours.count < 2 { return problem(hours.column, "hours have two or more digits") }
        for (group, name) in [(minutes, "minutes"), (seconds, "seconds")] {
            guard group.count == 2, group.value < 60 else { return problem(group.column, "\(name) are two digits from 00 to 59") }
        }
        guard index < characters.count, characters[index] == "." || (!webVTT && characters[index] == ",") else {
            return problem(index + 1, "expected '\(webVTT ? "." : ",")' and the milliseconds after the seconds")
        }
        index += 1
        let milliseconds = digits()
        guard milliseconds.count == 3 else { return problem(milliseconds.column, "milliseconds are three digits") }
        let total = (((hours?.value ?? 0) * 60 + minutes.value) * 60 + seconds.value) * 1000 + milliseconds.value
        return .success((total, index))
    }

    private static func skipSpaces(_ characters: [Character], from start: Int) -> Int {
        var index = start
        while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
        return index
    }

    private static func isCueNumber(_ line: Substring) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && trimmed.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func startsBlock(_ line: Substring, with keyword: String) -> Bool {
        guard line.hasPrefix(keyword) else { return false }
        let rest = line.dropFirst(keyword.count)
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }

    private static func malformed(_ url: URL, line: Int, column: Int, _ reason: String) -> AssetLoadingError {
        .malformedSubtitles(url, line: line, column: column, reason: reason)
    }
}
