import Foundation
internal import CFontconfig

/// Finds the fonts a text overlay is drawn with: for each character, the first font in fontconfig's fallback order
/// for the overlay's family that has it.
///
/// FFmpeg 5.1's `drawtext` draws a whole text with one font file (its `font=` option asks fontconfig for the best
/// match of the family alone, so characters that font lacks are drawn as its `.notdef` box). Splice asks fontconfig
/// for the family's whole fallback list (`FcFontSort`, the order `fc-match -s` prints), so the family's own font
/// draws every character it has and the next fonts in that order draw the rest: `"Title 标题"` in `"DejaVu Sans"`
/// is "Title " in DejaVu Sans and "标题" in a CJK font. A text one font covers is drawn by one `drawtext`; a text
/// that needs several is split into runs (``TextLayout``). Only face 0 of a font collection (`.ttc`) is chosen, the
/// face `drawtext` loads. Whitespace and control characters need no glyph.
enum FontResolver {
    /// How `text` in `family` at `fontSize` pixels is drawn: `.file` when every character takes the same font (the
    /// family's own font whenever it covers the text), `.runs` when several fonts are needed, or nil when
    /// fontconfig cannot be used (no configuration), in which case `drawtext` resolves the family itself.
    ///
    /// - Throws: ``ExportError/noFontForCharacter(character:text:family:)`` naming the first character (in text
    ///   order) no installed font has; ``ExportError/unsupportedSettings(_:)`` when FreeType cannot open a font
    ///   fontconfig listed.
    static func font(family: String, text: String, fontSize: Double) throws(ExportError) -> FontChoice? {
        guard let fonts = FontFallbackList(family: family), !fonts.files.isEmpty else { return nil }
        var seen = Set<UInt32>()
        let needed = text.unicodeScalars.filter(needsGlyph).map(\.value).filter { seen.insert($0).inserted }  // text order
        if let missing = needed.first(where: { fonts.firstFont(having: $0) == nil }) {
            throw ExportError.noFontForCharacter(character: describe(missing), text: text, family: family)
        }
        // The characters drawtext draws (shaped, in visual order), each with the first font that has it.
        let logical = text.unicodeScalars.map(\.value)
        let visual = TextShaping.visual(logical)
        var choices = visual.map { glyph -> (code: UInt32, font: Int?) in
            guard let scalar = Unicode.Scalar(glyph.code), needsGlyph(scalar) else { return (glyph.code, nil) }
            if let font = fonts.firstFont(having: glyph.code) { return (glyph.code, font) }
            // No font has the shaped form (an Arabic presentation form): the character itself, unshaped.
            let source = logical[glyph.source]
            return (source, fonts.firstFont(having: source))
        }
        // Characters without a glyph take the font of the glyph before them (after them at the start of a line).
        var previous: Int?
        for index in choices.indices {
            if TextShaping.isNewline(choices[index].code) { previous = nil }
            if let font = choices[index].font { previous = font } else if let previous { choices[index].font = previous }
        }
        var next: Int?
        for index in choices.indices.reversed() {
            if TextShaping.isNewline(choices[index].code) { next = nil; continue }
            if let font = choices[index].font { next = font } else { choices[index].font = next ?? 0 }
        }
        let used = Set(choices.compactMap(\.font))
        // One font, and drawtext's own shaping gives the forms it has: one drawtext.
        let unshaped = zip(choices, visual).contains { $0.code != $1.code }
        if used.count <= 1, !unshaped { return .file(fonts.files[used.first ?? 0]) }
        let runs = choices.map { (code: $0.code, file: fonts.files[$0.font ?? 0]) }
        return .runs(try TextLayout(visual: runs, fontSize: fontSize, text: text))
    }

    /// False for characters drawn without a glyph: whitespace, controls and format characters (e.g. U+200D).
    static func needsGlyph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: return false
        default: return !scalar.properties.isWhitespace
        }
    }

    /// `'标' (U+6807)`.
    static func describe(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return Unicode.Scalar(value).map { "'\(Character($0))' (\(code))" } ?? code
    }
}

/// fontconfig's fallback list for a family (`FcFontSort`, face 0 of each file), with each font's character set.
final class FontFallbackList {
    /// The font files, best match first.
    let files: [String]
    /// Each file's character set (a reference fontconfig counts, released in `deinit`).
    private let charsets: [OpaquePointer?]

    /// The list for `family`, or nil when fontconfig cannot be used.
    init?(family: String) {
        guard FcInit() != 0, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
        }
        guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(nil, pattern, 0, nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }
        var files: [String] = [], charsets: [OpaquePointer?] = []
        for index in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[index] else { continue }
            var face: Int32 = 0
            if FcPatternGetInteger(font, FC_INDEX, 0, &face) == FcResultMatch, face != 0 { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            var charset: OpaquePointer?
            _ = FcPatternGetCharSet(font, FC_CHARSET, 0, &charset)
            files.append(String(cString: file))
            charsets.append(charset.flatMap { FcCharSetCopy($0) })
        }
        self.files = files
        self.charsets = charsets
    }

    deinit {
        for charset in charsets { if let charset { FcCharSetDestroy(charset) } }
    }

    /// The index in ``files`` of the first font that has `scalar`, or nil when none has it.
    func firstFont(having scalar: UInt32) -> Int? {
        charsets.firstIndex { charset in charset.map { FcCharSetHasChar($0, scalar) != 0 } ?? false }
    }
}
