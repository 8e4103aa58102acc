/* mix: the floor for `aupipe mix input=B1,gain=G1 input=B2,gain=G2 ...` (duration=first,
 * overload=clip, no pan, no offset). Reads the main stream, a 16-bit WAV, from stdin and each
 * bus, a 16-bit WAV of the same rate and channel count, from its file, in 64 KiB chunks of the
 * main stream (16384 frames of stereo s16; the same frames from every bus; `-b FRAMES` sets
 * another block, e.g. -b 480 for aupipe's 10 ms blocks at 48 kHz); per chunk it decodes every
 * sample to float (x / 32768), sums them in one pass with the gains in bus order
 * (y = x0 g0 + x1 g1 + x2 g2 + ..., the order aupipe adds in, so the float results agree),
 * clips y to [-1, 1], encodes it to s16 (y * 32768, round to nearest even, clipped to 32767)
 * and writes a WAV to stdout; sizes are patched at the end when stdout is a regular file.
 * A bus that ends is silence from then on; the main stream decides the length.
 * A gain is Float(10^(dB / 20)) computed in double, as aupipe does.
 * Usage: mix [-b FRAMES] MAIN_GAIN_DB BUS.wav GAIN_DB [BUS.wav GAIN_DB]... < main.wav > out.wav */
#include <fcntl.h>
#include <math.h>
#include "wav.h"

#define MAXBUS 16

int main(int argc, char **argv) {
    size_t block = 16384;                                       /* frames per chunk */
    int a = 1;
    if (a + 1 < argc && !strcmp(argv[a], "-b")) { block = (size_t)atol(argv[a + 1]); a += 2; }
    if (argc - a < 3 || (argc - a - 1) % 2 || (argc - a - 1) / 2 > MAXBUS || block == 0) {
        fprintf(stderr, "usage: mix [-b FRAMES] MAIN_GAIN_DB BUS.wav GAIN_DB [BUS.wav GAIN_DB]... < main.wav > out.wav\n");
        return 64;
    }
    int nbus = (argc - a - 1) / 2;
    float gain[MAXBUS + 1];
    int fd[MAXBUS + 1];
    gain[0] = (float)pow(10, atof(argv[a]) / 20);
    fd[0] = 0;
    struct wav w = wav_read_header(0);
    for (int k = 1; k <= nbus; k++) {
        const char *path = argv[a + 2 * k - 1];
        gain[k] = (float)pow(10, atof(argv[a + 2 * k]) / 20);
        if ((fd[k] = open(path, O_RDONLY)) < 0) { perror(path); return 66; }
        struct wav b = wav_read_header(fd[k]);
        if (b.channels != w.channels || b.rate != w.rate) {
            fprintf(stderr, "%s: not %u Hz, %u channels like the main stream\n", path, w.rate, w.channels);
            return 65;
        }
    }
    size_t ch = w.channels, frame = 2 * ch, cap = block * ch;
    int16_t *in[MAXBUS + 1], *out = malloc(cap * 2);
    for (int k = 0; k <= nbus; k++) in[k] = malloc(cap * 2);
    unsigned char h[44];
    wav_header(h, w, 0xFFFFFFFFu);
    write_full(1, h, 44);
    size_t carried = 0;                                   /* bytes of a partial main frame */
    uint64_t total = 0;
    for (;;) {
        size_t got = read_full(0, (char *)in[0] + carried, cap * 2 - carried);
        if (got == 0) break;
        size_t avail = carried + got;
        size_t n = avail / frame * ch;                           /* whole frames, in samples */
        for (int k = 1; k <= nbus; k++) {                        /* the same frames of each bus */
            size_t b = fd[k] < 0 ? 0 : read_full(fd[k], in[k], n * 2) / frame * frame;
            if (b < n * 2) {                                     /* ended: silence from now on */
                memset((char *)in[k] + b, 0, n * 2 - b);
                if (fd[k] >= 0) { close(fd[k]); fd[k] = -1; }
            }
        }
        for (size_t i = 0; i < n; i++) {
            float y = (float)in[0][i] * (1.0f / 32768) * gain[0];
            for (int k = 1; k <= nbus; k++) y += (float)in[k][i] * (1.0f / 32768) * gain[k];
            y = y > 1 ? 1 : y < -1 ? -1 : y;
            y = rintf(y * 32768);
            out[i] = y >= 32767 ? 32767 : y <= -32768 ? -32768 : (int16_t)y;
        }
        write_full(1, out, n * 2);
        total += n * 2;
        carried = avail - n * 2;
        if (carried) memmove(in[0], (char *)in[0] + n * 2, carried);
    }
    wav_patch(1, w, total);
    return 0;
}
