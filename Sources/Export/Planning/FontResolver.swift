import Foundation
internal import CFontconfig

/// Finds the font file a text overlay is drawn with: the first font, in fontconfig's fallback order for the
/// overlay's family, that has every character of the text.
///
/// FFmpeg 5.1's `drawtext` draws a whole text with one font file (its `font=` option asks fontconfig for the best
/// match of the family alone, so characters that font lacks are drawn as its `.notdef` box). Splice asks fontconfig
/// for the family's whole fallback list (`FcFontSort`, the order `fc-match -s` prints) and picks the first font that
/// covers the text: `"Title 标题"` in `"DejaVu Sans"` is drawn with a CJK font (whose Latin letters then draw
/// "Title" too); a Latin-only text keeps the family's own font. Only face 0 of a font collection (`.ttc`) is chosen,
/// the face `drawtext` loads. Whitespace and control characters need no glyph.
enum FontResolver {
    /// The path of the first font in `family`'s fallback order that has every character of `text`, or nil when
    /// fontconfig cannot be used (no configuration), in which case `drawtext` resolves the family itself.
    ///
    /// - Throws: ``ExportError/noFontForCharacter(character:text:family:)`` naming the first character (in text
    ///   order) no installed font has; ``ExportError/unsupportedSettings(_:)`` naming the characters the best font
    ///   lacks when every character is in some font but no one font has them all.
    static func fontFile(family: String, covering text: String) throws(ExportError) -> String? {
        guard FcInit() != 0 else { return nil }
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
        }
        guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(nil, pattern, 0, nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }

        var seen = Set<UInt32>()
        let needed = text.unicodeScalars.filter(needsGlyph).map(\.value).filter { seen.insert($0).inserted }  // text order
        func covered(_ scalar: UInt32, _ charset: OpaquePointer?) -> Bool {
            charset.map { FcCharSetHasChar($0, scalar) != 0 } ?? false
        }
        var candidates: [(file: String, charset: OpaquePointer?)] = []
        for index in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[index] else { continue }
            var face: Int32 = 0
            if FcPatternGetInteger(font, FC_INDEX, 0, &face) == FcResultMatch, face != 0 { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            var charset: OpaquePointer?
            _ = FcPatternGetCharSet(font, FC_CHARSET, 0, &charset)
            let path = String(cString: file)
            if needed.allSatisfy({ covered($0, charset) }) { return path }
            candidates.append((path, charset))
        }
        guard let best = candidates.first else { return nil }
        if let missing = needed.first(where: { scalar in !candidates.contains { covered(scalar, $0.charset) } }) {
            throw ExportError.noFontForCharacter(character: describe(missing), text: text, family: family)
        }
        // Every character is in some font, but no one font has them all (drawtext draws a text with one font).
        let lacking = needed.filter { !covered($0, best.charset) }.map(describe).joined(separator: ", ")
        throw ExportError.unsupportedSettings(
            "no one installed font has every character of the text '\(text)': \(best.file), the best match for "
                + "'\(family)', lacks \(lacking), which other fonts have; FFmpeg's drawtext draws a text with one font, so "
                + "split the text into overlays or install a font that covers all of it (e.g. fonts-noto-cjk)")
    }

    /// False for characters drawn without a glyph: whitespace, controls and format characters (e.g. U+200D).
    private static func needsGlyph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: return false
        default: return !scalar.properties.isWhitespace
        }
    }

    /// `'标' (U+6807)`.
    private static func describe(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return Unicode.Scalar(value).map { "'\(Character($0))' (\(code))" } ?? code
    }
}
