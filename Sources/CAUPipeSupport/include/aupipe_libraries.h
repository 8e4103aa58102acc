#ifndef AUPIPE_LIBRARIES_H
#define AUPIPE_LIBRARIES_H
/* What `aupipe version` reports about the shared libraries in the process. */
#include <stddef.h>

/* The real path (symbolic links resolved: /usr/lib/x86_64-linux-gnu/libsoxr.so.0.1.2) of the
   library `name` (a soname such as "libsoxr.so.0", or a path) if it is loaded in this process,
   written into `out` (`size` bytes). 0 on success; -1 when it is not loaded (nothing is loaded
   here) or the path does not fit. */
int aupipe_loaded_library_path(const char *name, char *out, size_t size);

/* speexdsp's version as pkg-config gave it when aupipe was built (scripts/install and
   scripts/package-deb pass it as -DAUPIPE_SPEEXDSP_VERSION), or NULL when the build did not
   record it: speexdsp has no call that returns its version. */
const char *aupipe_speexdsp_build_version(void);

/* ALSA's version (snd_asoundlib_version) once aupipe_alsa_load succeeded, else NULL. */
const char *aupipe_alsa_version(void);
#endif
