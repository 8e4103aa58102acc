// libpng from the system (Debian: libpng-dev), found with pkg-config: spectrogram's PNG files.
#include <png.h>
