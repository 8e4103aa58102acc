/* soxr: the floor for `aupipe resample RATE engine=soxr quality=Q`. A bare loop around libsoxr
 * (float interleaved in and out, one thread, no dither; Q = 4 high (SOXR_HQ), 6 very-high
 * (SOXR_VHQ)), otherwise as resample.c (resample_loop.h: s16 WAV in, 480-frame blocks, s16 WAV
 * out, the tail flushed to exactly round(N * out / in) frames). Prints "frames IN OUT" on stderr.
 * Usage: soxr OUT_RATE RECIPE < in.wav > out.wav */
#include <soxr.h>
#include "resample_loop.h"

static size_t soxr_step(void *ctx, const float *in, size_t in_frames, size_t *consumed, float *out, size_t out_room) {
    size_t out_len = 0;
    soxr_process(ctx, in, in_frames, consumed, out, out_room, &out_len);
    return out_len;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: soxr OUT_RATE RECIPE < in.wav > out.wav\n"); return 64; }
    unsigned out_rate = (unsigned)atoi(argv[1]);
    int quality = atoi(argv[2]);
    struct wav w = wav_read_header(0);
    soxr_error_t e = 0;
    soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    soxr_quality_spec_t q = soxr_quality_spec((unsigned long)quality, 0);
    soxr_runtime_spec_t rt = soxr_runtime_spec(1);
    soxr_t st = soxr_create(w.rate, out_rate, w.channels, &e, &io, &q, &rt);
    if (!st || e) { fprintf(stderr, "soxr_create: %s\n", e); return 70; }
    int status = resample_stream(w, out_rate, soxr_step, st, "soxr");
    soxr_delete(st);
    return status;
}
