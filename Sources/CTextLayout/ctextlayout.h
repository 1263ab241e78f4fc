// FreeType and libfribidi for Export's multi-font text layout (Compositing/Text/): FreeType
// measures each font run as FFmpeg 5.1's drawtext does, libfribidi shapes and orders the text as drawtext's
// `text_shaping` does. The constants below are compound macros Swift does not import.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include <fribidi.h>

/// drawtext's shaping flags: FRIBIDI_FLAGS_DEFAULT | FRIBIDI_FLAGS_ARABIC.
static const FriBidiFlags splice_fribidi_flags = FRIBIDI_FLAGS_DEFAULT | FRIBIDI_FLAGS_ARABIC;
/// The paragraph direction drawtext fixes: left to right.
static const FriBidiParType splice_fribidi_par_ltr = FRIBIDI_PAR_LTR;

/// FT_HAS_KERNING(face): whether drawtext applies the font's kerning.
static inline int splice_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
