#ifndef AUPIPE_STRAY_STDOUT_H
#define AUPIPE_STRAY_STDOUT_H
/* Plugins (LV2, LADSPA) are third-party code, and some print on standard output (x42's
   convolvers describe the impulse response they load): with stdout the audio stream, their text
   would land in the audio when C's stdout buffer is flushed (at exit, or when it fills). While a
   chain runs aupipe writes its audio to descriptor 1 with write(2), never through that buffer,
   so whatever waits there after a plugin call is a plugin's. */
#include <stddef.h>

/* Writes what waits in C's stdout buffer to stderr instead of stdout (descriptor 1 points at
   stderr while the buffer is flushed). Returns how many bytes were moved; 0, the usual case,
   costs one call to __fpending. Call it on the thread that writes the audio. */
size_t aupipe_divert_stray_stdout(void);
#endif
