/* resample: the floor for `aupipe resample RATE engine=speex quality=Q`. A bare loop around
 * speexdsp (resample_loop.h: s16 WAV in, 480-frame blocks through the library, s16 WAV out,
 * the tail flushed to exactly round(N * out / in) frames). Like aupipe it calls
 * speex_resampler_skip_zeros first. Prints "frames IN OUT" on stderr.
 * Usage: resample OUT_RATE QUALITY < in.wav > out.wav */
#include <speex/speex_resampler.h>
#include "resample_loop.h"

static size_t speex_step(void *ctx, const float *in, size_t in_frames, size_t *consumed, float *out, size_t out_room) {
    spx_uint32_t in_len = (spx_uint32_t)in_frames, out_len = (spx_uint32_t)out_room;
    speex_resampler_process_interleaved_float(ctx, in, &in_len, out, &out_len);
    *consumed = in_len;
    return out_len;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: resample OUT_RATE QUALITY < in.wav > out.wav\n"); return 64; }
    unsigned out_rate = (unsigned)atoi(argv[1]);
    int quality = atoi(argv[2]), err = 0;
    struct wav w = wav_read_header(0);
    SpeexResamplerState *st = speex_resampler_init(w.channels, w.rate, out_rate, quality, &err);
    if (!st || err) { fprintf(stderr, "speex_resampler_init: %d\n", err); return 70; }
    speex_resampler_skip_zeros(st);
    int status = resample_stream(w, out_rate, speex_step, st, "speex");
    speex_resampler_destroy(st);
    return status;
}
