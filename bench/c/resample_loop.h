/* The loop the bare resampler harnesses (resample.c: speexdsp, soxr.c: libsoxr) share, so that
 * they differ only in the library call: reads a 16-bit WAV from stdin in 64 KiB chunks, and for
 * every 480-frame block decodes s16 to float (x / 32768), calls `step`, and encodes the result
 * back to s16 (x * 32768, round to nearest even, clipped); at the end flushes the tail with
 * zeros until exactly round(N * out / in) frames are out (halves up), as aupipe does. Writes a
 * WAV on stdout (sizes patched when it is a file) and "frames IN OUT" on stderr. */
#include <math.h>
#include "wav.h"

#define CHUNK 65536
#define BLOCK 480

/* One call of the library: resamples up to `in_frames` interleaved frames of `in` into at most
 * `out_room` frames of `out`; sets *consumed to the frames taken and returns the frames written. */
typedef size_t (*resample_step)(void *ctx, const float *in, size_t in_frames, size_t *consumed, float *out, size_t out_room);

static void encode(const float *f, int16_t *o, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float y = rintf(f[i] * 32768);
        o[i] = y >= 32767 ? 32767 : y <= -32768 ? -32768 : (int16_t)y;
    }
}

/* Resamples the WAV `w` on stdin to `out_rate` through `step`; `name` names the library in
 * messages. Returns the exit status (0, or 70 when the library does not keep up). */
static int resample_stream(struct wav w, unsigned out_rate, resample_step step, void *ctx, const char *name) {
    struct wav wo = w;
    wo.rate = out_rate;
    unsigned ch = w.channels;
    size_t max_out = (size_t)BLOCK * out_rate / w.rate + 8;    /* frames per block, with slack */
    size_t chunk_frames = CHUNK / 2 / ch;
    int16_t *in = malloc(CHUNK);
    float *fin = malloc(BLOCK * ch * sizeof(float));
    float *fout = malloc(max_out * ch * sizeof(float));
    size_t out_cap = (chunk_frames / BLOCK + 1) * max_out * ch;
    int16_t *out = malloc(out_cap * 2);
    unsigned char h[44];
    wav_header(h, wo, 0xFFFFFFFFu);
    write_full(1, h, 44);

    uint64_t frames_in = 0, frames_out = 0;
    size_t carried = 0;
    for (;;) {
        size_t got = read_full(0, (char *)in + carried, chunk_frames * ch * 2 - carried);
        if (got == 0) break;
        size_t avail = carried + got, frames = avail / (2 * ch), produced = 0;
        for (size_t done = 0; done < frames; done += BLOCK) {
            size_t count = frames - done < BLOCK ? frames - done : BLOCK;
            const int16_t *s = in + done * ch;
            for (size_t i = 0; i < count * ch; i++) fin[i] = (float)s[i] * (1.0f / 32768);
            size_t consumed = 0;
            size_t out_len = step(ctx, fin, count, &consumed, fout, max_out);
            if (consumed != count) { fprintf(stderr, "%s consumed %zu of %zu\n", name, consumed, count); return 70; }
            encode(fout, out + produced * ch, out_len * ch);
            produced += out_len;
        }
        write_full(1, out, produced * ch * 2);
        frames_in += frames;
        frames_out += produced;
        carried = avail - frames * 2 * ch;
        if (carried) memmove(in, (char *)in + frames * 2 * ch, carried);
    }

    uint64_t expected = (frames_in * out_rate * 2 + w.rate) / (2 * (uint64_t)w.rate);
    memset(fin, 0, BLOCK * ch * sizeof(float));
    while (frames_out < expected) {
        size_t consumed = 0, room = max_out;
        if (expected - frames_out < room) room = (size_t)(expected - frames_out);
        size_t out_len = step(ctx, fin, BLOCK, &consumed, fout, room);
        if (out_len == 0 && consumed == 0) { fprintf(stderr, "no progress while flushing\n"); return 70; }
        encode(fout, out, out_len * ch);
        write_full(1, out, out_len * ch * 2);
        frames_out += out_len;
    }
    wav_patch(1, wo, frames_out * ch * 2);
    fprintf(stderr, "frames %llu %llu\n", (unsigned long long)frames_in, (unsigned long long)frames_out);
    free(in); free(fin); free(fout); free(out);
    return 0;
}
