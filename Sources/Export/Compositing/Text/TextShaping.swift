internal import CTextLayout

/// FFmpeg 5.1 `drawtext`'s `text_shaping` step (libfribidi), done by Splice for a text drawn in several font runs
/// so that the runs together show what one `drawtext` would show if one font had every glyph.
///
/// `drawtext` (vf_drawtext.c, `shape_text`) resolves the bidi levels with the paragraph fixed left to right, joins
/// and shapes Arabic into its presentation forms (U+FB50…U+FEFF, ligatures included), reorders each line to visual
/// order (right-to-left runs reversed) and drops the fill characters fribidi leaves for ligatures. There is no
/// OpenType shaping (FFmpeg 5.1 has no HarfBuzz): scripts that need it (Devanagari, Thai, …) are drawn unshaped.
/// Splice does the same over the whole text, then splits the visual text into font runs, each drawn with
/// `text_shaping=0`, so a right-to-left passage is reversed as a whole even where it changes font.
enum TextShaping {
    /// `text` (Unicode scalar values, logical order) as `drawtext` draws it: the drawn code points in visual order,
    /// each with the index in `text` of the character it comes from. Line breaks stay where they are.
    static func visual(_ text: [UInt32]) -> [(code: UInt32, source: Int)] {
        let count = text.count
        guard count > 0, count < Int(Int32.max) else { return [] }
        let length = FriBidiStrIndex(count)
        var codes = text
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        fribidi_get_bidi_types(codes, length, &types)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = splice_fribidi_par_ltr
        // fribidi_get_par_embedding_levels (what drawtext calls; deprecated) is this with no bracket types.
        guard fribidi_get_par_embedding_levels_ex(types, nil, length, &direction, &levels) != 0 else {
            return text.enumerated().map { ($0.element, $0.offset) }
        }
        var joining = [FriBidiArabicProp](repeating: 0, count: count)
        fribidi_get_joining_types(codes, length, &joining)
        fribidi_join_arabic(types, length, levels, &joining)
        fribidi_shape(splice_fribidi_flags, levels, length, &joining, &codes)
        var map = (0..<count).map { FriBidiStrIndex($0) }
        var start = 0
        for end in 0..<count where isNewline(codes[end]) || end == count - 1 {
            _ = fribidi_reorder_line(
                splice_fribidi_flags, types, FriBidiStrIndex(end - start + 1), FriBidiStrIndex(start), direction,
                &levels, &codes, &map)
            start = end + 1
        }
        // FRIBIDI_CHAR_FILL (U+FEFF), which drawtext removes.
        return zip(codes, map).filter { $0.0 != 0xFEFF }.map { ($0.0, Int($0.1)) }
    }

    /// drawtext's line breaks: LF, CR, FF and VT (a CR LF pair is one break).
    static func isNewline(_ code: UInt32) -> Bool {
        code == 0x0A || code == 0x0D || code == 0x0C || code == 0x0B
    }
}
