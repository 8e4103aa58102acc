/* convert: the floor for `aupipe convert format=s24le : convert format=s16le` (decode, one
 * quantizing stage in float, encode). Reads a 16-bit
 * WAV from stdin in 64 KiB chunks, decodes every sample to float (x / 32768) into a float
 * buffer, encodes it back to s16 (x * 32768, round to nearest even, clipped) and writes the
 * same WAV to stdout; sizes are patched at the end when stdout is a regular file.
 * Usage: convert < in.wav > out.wav */
#include <math.h>
#include "wav.h"

#define CHUNK 65536

int main(void) {
    static int16_t in[CHUNK / 2], out[CHUNK / 2];
    static float f[CHUNK / 2];
    struct wav w = wav_read_header(0);
    unsigned char h[44];
    wav_header(h, w, 0xFFFFFFFFu);
    write_full(1, h, 44);
    size_t carried = 0;                                        /* bytes of a partial frame */
    uint64_t total = 0;
    for (;;) {
        size_t got = read_full(0, (char *)in + carried, sizeof in - carried);
        if (got == 0) break;
        size_t avail = carried + got;
        size_t n = avail / 2 / w.channels * w.channels;           /* whole frames, in samples */
        for (size_t i = 0; i < n; i++) f[i] = (float)in[i] * (1.0f / 32768);
        for (size_t i = 0; i < n; i++) {
            float y = rintf(f[i] * 32768);
            out[i] = y >= 32767 ? 32767 : y <= -32768 ? -32768 : (int16_t)y;
        }
        write_full(1, out, n * 2);
        total += n * 2;
        carried = avail - n * 2;
        if (carried) memmove(in, (char *)in + n * 2, carried);
    }
    wav_patch(1, w, total);
    return 0;
}
