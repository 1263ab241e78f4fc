import Foundation
import Composition

/// A sidecar text subtitle file (SubRip `.srt`, WebVTT `.vtt`, ASS/SSA `.ass`) checked before libavformat reads it:
/// its character encoding decided, and SubRip and WebVTT cue blocks checked line by line.
///
/// libavformat's text demuxers are lenient: a timing line without its `-->` makes a SubRip file unrecognisable and a
/// WebVTT cue vanish, a missing blank line turns the next cue's timing line into text, a timestamp such as `00:00:3,000`
/// is read as some time. This check refuses such files with the line and column instead; the cues themselves are
/// still read by libavformat and libavcodec (``SubtitleCueReader``).
///
/// Encodings, in order:
/// - a byte order mark (UTF-8, UTF-16 little- or big-endian) decides; UTF-16 text is handed to libavformat as UTF-8
///   (``utf8Text``): FFmpeg 5.1's text reader converts UTF-16 itself, but drops all but the first byte of a
///   character that starts a line when that character takes more than one byte in UTF-8 (a line of Japanese,
///   Arabic, or one starting with « or é);
/// - text that is valid UTF-8 is UTF-8;
/// - otherwise SubRip and ASS text (which declare no encoding) are read as Windows-1252, a superset of the printable
///   Latin-1 range, converted by libavcodec (`sub_charenc`, through iconv); a byte Windows-1252 leaves undefined
///   (0x81, 0x8D, 0x8F, 0x90, 0x9D) is refused;
/// - WebVTT text is always UTF-8 (W3C WebVTT, "WebVTT file structure"): any other byte is refused.
struct SubtitleTextFile: Sendable, Hashable {
    /// The text formats the check knows, by libavformat's demuxer name or the file's extension.
    enum Kind: String, Sendable, Hashable {
        case subRip, webVTT, ass

        /// The kind libavformat's demuxer `formatName` reads (`srt`, `webvtt`, `ass`), or nil.
        init?(formatName: String) {
            switch formatName {
            case "srt": self = .subRip
            case "webvtt": self = .webVTT
            case "ass": self = .ass
            default: return nil
            }
        }

        /// The kind a file extension names (`srt`, `vtt`, `ass`, `ssa`; any case), or nil.
        init?(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "srt": self = .subRip
            case "vtt": self = .webVTT
            case "ass", "ssa": self = .ass
            default: return nil
            }
        }

        var name: String {
            switch self {
            case .subRip: "SubRip"
            case .webVTT: "WebVTT"
            case .ass: "ASS"
            }
        }
    }

    /// How the file's bytes are decoded.
    enum Encoding: String, Sendable, Hashable {
        /// UTF-8, with or without a byte order mark.
        case utf8
        /// UTF-16 announced by its byte order mark (converted to UTF-8 before libavformat reads it: ``utf8Text``).
        case utf16
        /// Windows-1252 (no mark, not valid UTF-8), converted by libavcodec.
        case windows1252
    }

    var kind: Kind
    var encoding: Encoding
    /// The file's text as UTF-8 (without a byte order mark) when libavformat must read that instead of the file:
    /// for ``Encoding/utf16``; nil otherwise.
    var utf8Text: Data?

    /// The `sub_charenc` a decoder of this file needs (iconv's name), or nil when libavcodec receives UTF-8.
    var decoderCharacterEncoding: String? { encoding == .windows1252 ? "CP1252" : nil }

    /// Reads and checks the file at `url`.
    /// - Throws: ``AssetLoadingError/undecodableText(_:line:column:reason:)`` for text in no accepted encoding,
    ///   ``AssetLoadingError/malformedSubtitles(_:line:column:reason:)`` for a SubRip or WebVTT syntax error (lines
    ///   and columns 1-based, columns counted in characters), ``AssetLoadingError/readFailed(_:reason:)`` when the
    ///   file cannot be read.
    init(url: URL, kind: Kind) throws {
        let bytes: [UInt8]
        do {
            bytes = try [UInt8](FileContents.data(of: url))
        } catch {
            throw AssetLoadingError.readFailed(url, reason: "\(error.localizedDescription)")
        }
        self.kind = kind
        let text: String
        (encoding, text) = try Self.decode(bytes, kind: kind, url: url)
        utf8Text = encoding == .utf16 ? Data(text.utf8) : nil
        var lines = SubtitleTextLines(text)
        switch kind {
        case .subRip: try SubtitleSyntax.checkSubRip(&lines, url: url)
        case .webVTT: try SubtitleSyntax.checkWebVTT(&lines, url: url)
        case .ass: break  // libass and libavcodec's ASS decoder read ASS's sections themselves
        }
    }

    /// The encoding of `bytes` and their text (Windows-1252 as one character per byte, which keeps the columns).
    private static func decode(_ bytes: [UInt8], kind: Kind, url: URL) throws -> (Encoding, String) {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let encoding: String.Encoding = bytes[0] == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            guard bytes.count % 2 == 0, let text = String(data: Data(bytes.dropFirst(2)), encoding: encoding) else {
                throw AssetLoadingError.undecodableText(
                    url, line: 1, column: 1, reason: "the byte order mark announces UTF-16, but the text is not valid UTF-16")
            }
            return (.utf16, text)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let invalid = firstInvalidUTF8(body) else { return (.utf8, String(decoding: body, as: UTF8.self)) }
        let byte = String(format: "0x%02X", body[invalid.offset])
        switch kind {
        case .webVTT:
            throw AssetLoadingError.undecodableText(
                url, line: invalid.line, column: invalid.column,
                reason: "byte \(byte) is not UTF-8, and WebVTT text is always UTF-8")
        case .subRip, .ass:
            let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
            if let offset = body.firstIndex(where: undefined.contains) {
                let (line, column) = position(of: offset, in: body)
                throw AssetLoadingError.undecodableText(
                    url, line: line, column: column,
                    reason: "the text is neither UTF-8 (byte \(byte) at line \(invalid.line), column \(invalid.column)) "
                        + "nor Windows-1252 (byte \(String(format: "0x%02X", body[offset])) is undefined there)")
            }
            return (.windows1252, String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) })))
        }
    }

    /// Where the first byte of `bytes` that breaks UTF-8 is, or nil when all of it is UTF-8.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int, column: Int)? {
        var line = 1, column = 1, offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return nil
            case .error:
                return (offset, line, column)
            }
        }
    }

    /// The 1-based line and column of byte `offset` of single-byte text.
    private static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        let before = bytes[..<offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return (line, offset - lineStart + 1)
    }
}

/// The lines of a text file (`\r\n`, `\n` or `\r` ends a line), read one at a time with their 1-based numbers.
struct SubtitleTextLines {
    private let lines: [Substring]
    private var index = 0

    init(_ text: String) {
        var lines: [Substring] = []
        var start = text.startIndex
        var position = text.startIndex
        while position < text.endIndex {
            let character = text[position]
            if character == "\n" || character == "\r\n" || character == "\r" {
                lines.append(text[start..<position])
                start = text.index(after: position)
            }
            position = text.index(after: position)
        }
        if start < text.endIndex { lines.append(text[start...]) }
        self.lines = lines
    }

    /// The 1-based number of the line ``next()`` returns.
    var number: Int { index + 1 }

    /// The next line without consuming it, or nil at the end.
    var peek: Substring? { index < lines.count ? lines[index] : nil }

    /// The next line, or nil at the end.
    mutating func next() -> Substring? {
        defer { if index < lines.count { index += 1 } }
        return peek
    }

    /// Skips blank lines (empty or only spaces and tabs).
    mutating func skipBlankLines() {
        while let line = peek, SubtitleSyntax.isBlank(line) { index += 1 }
    }
}
