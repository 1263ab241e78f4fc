internal import CTextLayout

/// Measures runs of text with FreeType exactly as FFmpeg 5.1's `drawtext` measures its text (vf_drawtext.c,
/// `load_glyph` and `draw_text`), so runs drawn by separate `drawtext`s can be placed side by side.
///
/// Per glyph, as `drawtext`: `FT_Load_Char` with the default load flags (hinted) at the pixel size, the advance
/// `advance.x >> 6`, the box `FT_Glyph_Get_CBox` in whole pixels of the rendered bitmap glyph. Per run: kerning
/// `FT_Get_Kerning(previous code, code) >> 6` when the face has kerning — `drawtext` passes the character codes
/// where FreeType expects glyph indices, and Splice passes the same, since the aim is the picture `drawtext` draws.
/// Tabs and line breaks count for no height, as in `drawtext`. One FreeType library and each face opened once per
/// measurer; not shared between threads.
final class GlyphMeasurer {
    /// A run's size: its advance (the sum of advances and kerning, pixels), and its highest glyph top and lowest
    /// glyph bottom relative to the baseline (pixels, up positive).
    struct Metrics {
        var advance: Int
        var ascent: Int
        var descent: Int
    }

    private let library: FT_Library
    private let pixelSize: UInt32
    private var faces: [String: FT_Face] = [:]

    /// A measurer at `pixelSize` pixels per em, or nil when FreeType cannot be initialised.
    init?(pixelSize: UInt32) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        self.library = library
        self.pixelSize = pixelSize
    }

    deinit {
        for face in faces.values { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// The metrics of `codes` drawn in face 0 of `file`, or nil when the file cannot be opened as a font.
    func measure(_ codes: [UInt32], file: String) -> Metrics? {
        guard let face = face(file) else { return nil }
        let kerning = splice_ft_has_kerning(face) != 0
        var metrics = Metrics(advance: 0, ascent: Int.min, descent: Int.max)
        var previous: UInt32?
        for code in codes {
            guard let glyph = self.glyph(code, in: face) else { previous = nil; continue }
            if code != 0x09 {
                metrics.ascent = max(metrics.ascent, glyph.top)
                metrics.descent = min(metrics.descent, glyph.bottom)
            }
            if kerning, let previous, code != 0 {
                var delta = FT_Vector()
                if FT_Get_Kerning(face, FT_UInt(previous), FT_UInt(code), FT_KERNING_DEFAULT.rawValue, &delta) == 0 {
                    metrics.advance += Int(delta.x >> 6)
                }
            }
            metrics.advance += glyph.advance
            previous = code
        }
        if metrics.ascent == Int.min { (metrics.ascent, metrics.descent) = (0, 0) }
        return metrics
    }

    private func face(_ file: String) -> FT_Face? {
        if let face = faces[file] { return face }
        var face: FT_Face?
        guard FT_New_Face(library, file, 0, &face) == 0, let face else { return nil }
        guard FT_Set_Pixel_Sizes(face, 0, pixelSize) == 0 else {
            FT_Done_Face(face)
            return nil
        }
        faces[file] = face
        return face
    }

    /// One glyph's advance and pixel box (top and bottom above the baseline), or nil when FreeType cannot load it.
    private func glyph(_ code: UInt32, in face: FT_Face) -> (advance: Int, top: Int, bottom: Int)? {
        guard FT_Load_Char(face, FT_ULong(code), Int32(FT_LOAD_DEFAULT)) == 0, let slot = face.pointee.glyph else { return nil }
        let advance = Int(slot.pointee.advance.x >> 6)
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(slot, &glyph) == 0, glyph != nil else { return nil }
        defer { FT_Done_Glyph(glyph) }
        guard FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, nil, 1) == 0, let bitmap = glyph else { return nil }
        var box = FT_BBox()
        FT_Glyph_Get_CBox(bitmap, FT_GLYPH_BBOX_PIXELS.rawValue, &box)
        return (advance, Int(box.yMax), Int(box.yMin))
    }
}
