/// A text drawn in several font runs, laid out as FFmpeg 5.1's `drawtext` lays out one text, in pixels.
///
/// `drawtext` draws one text with one font: the runs are drawn by one `drawtext` each (`text_shaping=0`, the text
/// already shaped and in visual order, ``TextShaping``), placed so that together they are the block one `drawtext`
/// would draw if one font had every glyph (vf_drawtext.c, `draw_text`): the runs of a line sit side by side, each
/// starting where the previous one's advance ends (kerning applies within a run, not across fonts); all glyphs of
/// all lines share one baseline per line, `ascent` below the line's top, the highest glyph top of the whole text;
/// lines are `lineHeight` apart, the tallest glyph extent of the text (`max_glyph_h`); lines start at the block's
/// left edge. The block is `width` (the widest line's advance, `text_w`) by `height` (`text_h`) and is placed by
/// the overlay's alignment rules exactly as one `drawtext`'s `x`/`y` expressions place it.
///
/// Why `drawtext` runs and not libass (the linked libavfilter has `ass` and `subtitles`, which do font fallback and
/// HarfBuzz shaping themselves): those filters read a subtitle file, size fonts by ASS rules (not the em height
/// `drawtext` and `fontSize` use) and place text by ASS margins, so every text overlay's size, position and picture
/// would change; runs keep a text one font covers exactly as it was and draw the others as that one `drawtext`.
struct TextLayout: Hashable, Sendable {
    /// A piece of one line drawn with one font.
    struct Run: Hashable, Sendable {
        /// The code points to draw, shaped and in visual order (drawn with `text_shaping=0`).
        var text: String
        var fontFile: String
        /// The line (0 first).
        var line: Int
        /// The run's left edge from the block's left edge (pixels).
        var x: Int
        /// The run's advance (pixels): where the next run of the line starts.
        var width: Int
        /// The run's own highest glyph top above the baseline (pixels), where its `drawtext` puts the baseline
        /// below its `y`.
        var ascent: Int
    }

    var runs: [Run]
    /// The widest line's advance (pixels): one `drawtext`'s `text_w`.
    var width: Int
    /// The block's height (pixels): one `drawtext`'s `text_h` (lines × `lineHeight`).
    var height: Int
    /// The highest glyph top of the text above the baseline (pixels).
    var ascent: Int
    /// Distance between lines' baselines (pixels): the highest glyph top minus the lowest glyph bottom.
    var lineHeight: Int

    /// The `y` (from the block's top) at which `run`'s `drawtext` puts its baseline on the line's baseline.
    func top(of run: Run) -> Int {
        run.line * lineHeight + ascent - run.ascent
    }
}

extension TextLayout {
    /// Lays out `visual` (the drawn code points in visual order, line breaks included, each with its font file) at
    /// `fontSize` pixels, measuring every glyph with FreeType as `drawtext` does.
    ///
    /// - Parameter text: the overlay's text, named in errors.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` when FreeType cannot open one of the fonts.
    init(visual: [(code: UInt32, file: String)], fontSize: Double, text: String) throws(ExportError) {
        // drawtext rounds its font size to whole pixels.
        let pixels = UInt32(max(1, min(fontSize.rounded(), 65_535)))
        guard let measurer = GlyphMeasurer(pixelSize: pixels) else {
            throw ExportError.unsupportedSettings("FreeType could not be initialised to lay out the text '\(text)'")
        }
        var pieces: [(codes: [UInt32], file: String, line: Int)] = []
        var line = 0, previousCode: UInt32 = 0
        for (code, file) in visual {
            defer { previousCode = code }
            if TextShaping.isNewline(code) {
                if !(previousCode == 0x0D && code == 0x0A) { line += 1 }
                continue
            }
            if let last = pieces.last, last.file == file, last.line == line {
                pieces[pieces.count - 1].codes.append(code)
            } else {
                pieces.append(([code], file, line))
            }
        }
        var runs: [Run] = [], lineWidths = [Int](repeating: 0, count: line + 1)
        var ascent = Int.min, descent = Int.max
        for piece in pieces {
            guard let metrics = measurer.measure(piece.codes, file: piece.file) else {
                throw ExportError.unsupportedSettings("FreeType could not open the font \(piece.file) for the text '\(text)'")
            }
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: piece.codes.compactMap(Unicode.Scalar.init))
            runs.append(Run(text: String(scalars), fontFile: piece.file, line: piece.line, x: lineWidths[piece.line],
                            width: metrics.advance, ascent: metrics.ascent))
            lineWidths[piece.line] += metrics.advance
            ascent = max(ascent, metrics.ascent)
            descent = min(descent, metrics.descent)
        }
        if runs.isEmpty { (ascent, descent) = (0, 0) }
        self.runs = runs
        self.width = lineWidths.max() ?? 0
        self.ascent = ascent
        self.lineHeight = ascent - descent
        self.height = (line + 1) * lineHeight
    }
}
