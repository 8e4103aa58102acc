// libsoxr from the system (Debian: libsoxr-dev), found with pkg-config.
#include <soxr.h>
