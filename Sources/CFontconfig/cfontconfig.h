// fontconfig's API for Export's font fallback (Compositing/Text/FontResolver.swift). Nothing to shim: the object
// names (FC_FILE, FC_CHARSET, FC_INDEX) are string-literal macros Swift imports as they are.
#include <fontconfig/fontconfig.h>
