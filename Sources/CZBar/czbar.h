// libzbar's C API for Capture's machine-readable code scanner (Sources/Capture/Metadata). The one shim: the
// four-character code of 8-bit gray pictures, which zbar.h defines as a function-like macro Swift cannot import.
#include <zbar.h>

static inline unsigned long czbar_gray8_fourcc(void) { return zbar_fourcc('Y', '8', '0', '0'); }
