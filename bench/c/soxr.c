/* soxr: the floor for `aupipe resample RATE engine=soxr quality=Q`. A bare loop around libsoxr
 * (float interleaved in and out, one thread, no dither; Q = 4 high (SOXR_HQ), 6 very-high (SOXR_VHQ)),
 * otherwise as resample.c, whose comment follows: a bare loop around speexdsp:
 * reads a 16-bit WAV from stdin in 64 KiB chunks, and for every 480-frame block decodes s16 to
 * float (x / 32768), calls speex_resampler_process_interleaved_float, and encodes the result
 * back to s16 (x * 32768, round to nearest even, clipped). Like aupipe it calls
 * speex_resampler_skip_zeros first and flushes the tail with zeros at the end, so it writes
 * exactly round(N * out / in) frames. Prints "frames IN OUT" on stderr.
 * Usage: resample OUT_RATE QUALITY < in.wav > out.wav */
#include <math.h>
#include <soxr.h>
#include "wav.h"

#define CHUNK 65536
#define BLOCK 480

static void encode(const float *f, int16_t *o, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float y = rintf(f[i] * 32768);
        o[i] = y >= 32767 ? 32767 : y <= -32768 ? -32768 : (int16_t)y;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: soxr OUT_RATE RECIPE < in.wav > out.wav\n"); return 64; }
    unsigned out_rate = (unsigned)atoi(argv[1]);
    int quality = atoi(argv[2]), err = 0;
    struct wav w = wav_read_header(0), wo = w;
    wo.rate = out_rate;
    unsigned ch = w.channels;
    (void)err;
    soxr_error_t e = 0;
    soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    soxr_quality_spec_t q = soxr_quality_spec((unsigned long)quality, 0);
    soxr_runtime_spec_t rt = soxr_runtime_spec(1);
    soxr_t st = soxr_create(w.rate, out_rate, ch, &e, &io, &q, &rt);
    if (!st || e) { fprintf(stderr, "soxr_create: %s\n", e); return 70; }

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
            size_t in_len = 0, out_len = 0;
            soxr_process(st, fin, count, &in_len, fout, max_out, &out_len);
            if (in_len != count) { fprintf(stderr, "soxr consumed %zu of %zu\n", in_len, count); return 70; }
            encode(fout, out + produced * ch, out_len * ch);
            produced += out_len;
        }
        write_full(1, out, produced * ch * 2);
        frames_in += frames;
        frames_out += produced;
        carried = avail - frames * 2 * ch;
        if (carried) memmove(in, (char *)in + frames * 2 * ch, carried);
    }

    /* Flush the filter's tail with zeros until round(N * out / in) frames are out (halves up). */
    uint64_t expected = (frames_in * out_rate * 2 + w.rate) / (2 * (uint64_t)w.rate);
    memset(fin, 0, BLOCK * ch * sizeof(float));
    while (frames_out < expected) {
        size_t in_len = 0, out_len = 0, room = max_out;
        if (expected - frames_out < room) room = (size_t)(expected - frames_out);
        soxr_process(st, fin, BLOCK, &in_len, fout, room, &out_len);
        if (out_len == 0 && in_len == 0) { fprintf(stderr, "no progress while flushing\n"); return 70; }
        encode(fout, out, out_len * ch);
        write_full(1, out, out_len * ch * 2);
        frames_out += out_len;
    }
    wav_patch(1, wo, frames_out * ch * 2);
    fprintf(stderr, "frames %llu %llu\n", (unsigned long long)frames_in, (unsigned long long)frames_out);
    soxr_delete(st);
    return 0;
}
