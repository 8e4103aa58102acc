#include "aupipe_dsp_kernels.h"

/* No contraction of a·b + c into a fused multiply-add: the same bits on every target. */
#pragma clang fp contract(off)

/* Eight floats; in an AVX2 function one register, in a baseline one two SSE registers. Read
   and written through `v8u` (any alignment, may alias float): no vector crosses a call. */
typedef float v8 __attribute__((vector_size(32)));
typedef float v8u __attribute__((vector_size(32), aligned(4), may_alias));
#define load8(p) (*(const v8u *)(p))
#define store8(p, v) (*(v8u *)(p) = (v))

#define ALWAYS static inline __attribute__((always_inline))

ALWAYS void butterflies_body(float *re, float *im, long size, long half,
                             const float *cs, const float *sn, float sign) {
    for (long start = 0; start < size; start += 2 * half) {
        for (long j = 0; j < half; j += 8) {
            v8 wr = load8(cs + j), wi = sign * load8(sn + j);
            long a = start + j, b = a + half;
            v8 xr = load8(re + b), xi = load8(im + b);
            v8 ar = load8(re + a), ai = load8(im + a);
            v8 tr = wr * xr - wi * xi;
            v8 ti = wr * xi + wi * xr;
            store8(re + b, ar - tr);
            store8(im + b, ai - ti);
            store8(re + a, ar + tr);
            store8(im + a, ai + ti);
        }
    }
}

/* A butterfly of span 1 and one with the twiddle (wr, wi), lane by lane as FFT.swift's `plain`
   and `twiddled` write them. */
#define PLAIN(ar, ai, br, bi) do { v8 xr_ = br, xi_ = bi; br = ar - xr_; bi = ai - xi_; ar = ar + xr_; ai = ai + xi_; } while (0)
#define TWIDDLED(ar, ai, br, bi, wr, wi) do { v8 xr_ = br, xi_ = bi; \
    v8 tr_ = wr * xr_ - wi * xi_; v8 ti_ = wr * xi_ + wi * xr_; \
    br = ar - tr_; bi = ai - ti_; ar = ar + tr_; ai = ai + ti_; } while (0)

/* The rows r[0..7] (eight lanes each) become the columns. */
ALWAYS void transpose8(v8 r[8]) {
    v8 t0 = __builtin_shufflevector(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
    v8 t1 = __builtin_shufflevector(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
    v8 t2 = __builtin_shufflevector(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
    v8 t3 = __builtin_shufflevector(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
    v8 t4 = __builtin_shufflevector(r[4], r[5], 0, 8, 1, 9, 4, 12, 5, 13);
    v8 t5 = __builtin_shufflevector(r[4], r[5], 2, 10, 3, 11, 6, 14, 7, 15);
    v8 t6 = __builtin_shufflevector(r[6], r[7], 0, 8, 1, 9, 4, 12, 5, 13);
    v8 t7 = __builtin_shufflevector(r[6], r[7], 2, 10, 3, 11, 6, 14, 7, 15);
    v8 u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    v8 u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    v8 u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    v8 u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
    v8 u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
    v8 u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    v8 u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
    v8 u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    r[0] = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
    r[4] = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
    r[1] = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
    r[5] = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
    r[2] = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
    r[6] = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);
    r[3] = __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);
    r[7] = __builtin_shufflevector(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);
}

ALWAYS void first_passes_body(const float *in_re, const float *in_im, float *out_re, float *out_im,
                              long size, const int *group, const float *w) {
    long stride = size / 8;
    /* Position r of a group (after the permutation) holds input b + stride·rev3(r). */
    static const int rev3[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    v8 c0 = w[0] - (v8){0}, s0 = w[1] - (v8){0}, c1 = w[2] - (v8){0}, s1 = w[3] - (v8){0};
    v8 q0 = w[4] - (v8){0}, p0 = w[5] - (v8){0}, q1 = w[6] - (v8){0}, p1 = w[7] - (v8){0};
    v8 q2 = w[8] - (v8){0}, p2 = w[9] - (v8){0}, q3 = w[10] - (v8){0}, p3 = w[11] - (v8){0};
    for (long b = 0; b < stride; b += 8) {
        v8 re[8], im[8];
        for (int r = 0; r < 8; r++) {
            re[r] = load8(in_re + b + stride * rev3[r]);
            im[r] = load8(in_im + b + stride * rev3[r]);
        }
        PLAIN(re[0], im[0], re[1], im[1]); PLAIN(re[2], im[2], re[3], im[3]);
        PLAIN(re[4], im[4], re[5], im[5]); PLAIN(re[6], im[6], re[7], im[7]);
        TWIDDLED(re[0], im[0], re[2], im[2], c0, s0); TWIDDLED(re[1], im[1], re[3], im[3], c1, s1);
        TWIDDLED(re[4], im[4], re[6], im[6], c0, s0); TWIDDLED(re[5], im[5], re[7], im[7], c1, s1);
        TWIDDLED(re[0], im[0], re[4], im[4], q0, p0); TWIDDLED(re[1], im[1], re[5], im[5], q1, p1);
        TWIDDLED(re[2], im[2], re[6], im[6], q2, p2); TWIDDLED(re[3], im[3], re[7], im[7], q3, p3);
        transpose8(re);
        transpose8(im);
        for (int l = 0; l < 8; l++) {
            long g = (long)group[b + l] * 8;
            store8(out_re + g, re[l]);
            store8(out_im + g, im[l]);
        }
    }
}

/* p[i + 7], p[i + 6], ..., p[i]. */
#define reversed8(p, i) __builtin_shufflevector(load8((p) + (i)), load8((p) + (i)), 7, 6, 5, 4, 3, 2, 1, 0)

ALWAYS void pack_body(const float *zr, const float *zi, const float *cs, const float *sn,
                      float *re, float *im, long h) {
    long k = 1;
    for (; k + 8 <= h; k += 8) {
        v8 ar = load8(zr + k), ai = load8(zi + k);
        v8 br = reversed8(zr, h - k - 7), bi = reversed8(zi, h - k - 7);
        v8 c = load8(cs + k), s = load8(sn + k);
        v8 er = (ar + br) / 2, ei = (ai - bi) / 2;
        v8 or = (ai + bi) / 2, oi = (br - ar) / 2;
        store8(re + k, er + c * or + s * oi);
        store8(im + k, ei + c * oi - s * or);
    }
    for (; k < h; k++) {
        long b = h - k;
        float er = (zr[k] + zr[b]) / 2, ei = (zi[k] - zi[b]) / 2;
        float or = (zi[k] + zi[b]) / 2, oi = (zr[b] - zr[k]) / 2;
        re[k] = er + cs[k] * or + sn[k] * oi;
        im[k] = ei + cs[k] * oi - sn[k] * or;
    }
}

ALWAYS void unpack_body(const float *re, const float *im, const float *cs, const float *sn,
                        float *zr, float *zi, long h) {
    long k = 0;
    for (; k + 8 <= h; k += 8) {
        v8 ar = load8(re + k), ai = load8(im + k);
        v8 br = reversed8(re, h - k - 7), bi = reversed8(im, h - k - 7);
        v8 er = (ar + br) / 2, ei = (ai - bi) / 2;
        v8 dr = (ar - br) / 2, di = (ai + bi) / 2;
        v8 c = load8(cs + k), s = load8(sn + k);
        v8 or = c * dr - s * di, oi = c * di + s * dr;
        store8(zr + k, er - oi);
        store8(zi + k, ei + or);
    }
    for (; k < h; k++) {
        long b = h - k;
        float er = (re[k] + re[b]) / 2, ei = (im[k] - im[b]) / 2;
        float dr = (re[k] - re[b]) / 2, di = (im[k] + im[b]) / 2;
        float c = cs[k], s = sn[k];
        float or = c * dr - s * di, oi = c * di + s * dr;
        zr[k] = er - oi;
        zi[k] = ei + or;
    }
}

ALWAYS void product_body(float *sr, float *si, const float *xr, const float *xi,
                         const float *hr, const float *hi, long bins, int add) {
    long wide = bins / 8 * 8, k = 0;
    if (add) {
        for (; k < wide; k += 8) {
            v8 a = load8(xr + k), b = load8(xi + k), c = load8(hr + k), d = load8(hi + k);
            store8(sr + k, (a * c - b * d) + load8(sr + k));
            store8(si + k, (a * d + b * c) + load8(si + k));
        }
        for (; k < bins; k++) {
            sr[k] = (xr[k] * hr[k] - xi[k] * hi[k]) + sr[k];
            si[k] = (xr[k] * hi[k] + xi[k] * hr[k]) + si[k];
        }
    } else {
        for (; k < wide; k += 8) {
            v8 a = load8(xr + k), b = load8(xi + k), c = load8(hr + k), d = load8(hi + k);
            store8(sr + k, a * c - b * d);
            store8(si + k, a * d + b * c);
        }
        for (; k < bins; k++) {
            sr[k] = xr[k] * hr[k] - xi[k] * hi[k];
            si[k] = xr[k] * hi[k] + xi[k] * hr[k];
        }
    }
}

ALWAYS void dot_body(const float *h, long taps, const float *x, float *y, long n) {
    long j = 0;
    /* Four vectors of outputs at once: four independent chains of additions. */
    for (; j + 32 <= n; j += 32) {
        v8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
        for (long i = 0; i < taps; i++) {
            const float *p = x + j + i;
            a0 = a0 + h[i] * load8(p);
            a1 = a1 + h[i] * load8(p + 8);
            a2 = a2 + h[i] * load8(p + 16);
            a3 = a3 + h[i] * load8(p + 24);
        }
        store8(y + j, a0); store8(y + j + 8, a1); store8(y + j + 16, a2); store8(y + j + 24, a3);
    }
    for (; j + 8 <= n; j += 8) {
        v8 acc = {0};
        for (long i = 0; i < taps; i++) acc = acc + h[i] * load8(x + j + i);
        store8(y + j, acc);
    }
    for (; j < n; j++) {
        float acc = 0;
        for (long i = 0; i < taps; i++) acc = acc + h[i] * x[j + i];
        y[j] = acc;
    }
}


/* Ditherer's TPDF noise, added where the 32-sample window is off the grid, and the rounding to
   the grid, as Ditherer.swift's Float loop and DitherNoise.tpdf write them: eight samples at a
   time in 32-bit lanes (the hash's two multiplies are one vpmulld each in the AVX2 body, and
   pmuludq pairs in the baseline one), the rest one by one. Every step is exact or one rounding
   per lane, so the lanes and the scalar tail give the same bits. */
typedef uint32_t u8v __attribute__((vector_size(32)));
typedef int32_t i8v __attribute__((vector_size(32)));
typedef uint8_t b8v __attribute__((vector_size(8)));
typedef uint8_t b8u __attribute__((vector_size(8), aligned(1), may_alias));
#define TPDF_STEP 0x9E3779B9u
#define TPDF_MAGIC 12582912.0f
#define TPDF_UNIT (1.0f / 65536)

ALWAYS uint32_t tpdf_mix1(uint32_t z) {
    z ^= z >> 16; z *= 0x7FEB352Du; z ^= z >> 15; z *= 0x846CA68Bu; return z ^ (z >> 16);
}

/* Eight samples at `i` scaled, with TPDF noise (one hash per sample, indexed low + i) added
   where `windowed` says so, into `*v`: the value both kernels below round (written through a
   pointer: a returned 32-byte vector would change the ABI of the non-AVX body). */
ALWAYS void tpdf_dithered8(v8 *v, const float *input, const uint8_t *windowed, long i, uint32_t key, uint32_t low, float scale) {
    const u8v lane = {0, 1, 2, 3, 4, 5, 6, 7};
    u8v z = ((low + (uint32_t)i + lane) * TPDF_STEP) ^ key;
    z ^= z >> 16; z *= 0x7FEB352Du; z ^= z >> 15; z *= 0x846CA68Bu; z ^= z >> 16;
    v8 d = (__builtin_convertvector((i8v)(z >> 16), v8) - __builtin_convertvector((i8v)(z & 0xFFFFu), v8)) * TPDF_UNIT;
    v8 y = load8(input + i) * scale;
    b8v flags = *(const b8u *)(windowed + i);
    i8v on = __builtin_convertvector(flags, i8v) != 0;
    *v = (v8)(((i8v)(y + d) & on) | ((i8v)y & ~on));
}

/* One sample of the same. */
ALWAYS float tpdf_dithered1(const float *input, const uint8_t *windowed, long i, uint32_t key, uint32_t low, float scale) {
    uint32_t z = tpdf_mix1(((low + (uint32_t)i) * TPDF_STEP) ^ key);
    float d = ((float)(int32_t)(z >> 16) - (float)(int32_t)(z & 0xFFFFu)) * TPDF_UNIT;
    float y = input[i] * scale;
    return windowed[i] != 0 ? y + d : y;
}

ALWAYS void tpdf_round_body(const float *input, float *output, long count, const uint8_t *windowed,
                            uint32_t key, uint32_t low, float scale, float inverse) {
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        v8 v;
        tpdf_dithered8(&v, input, windowed, i, key, low, scale);
        store8(output + i, ((v + TPDF_MAGIC) - TPDF_MAGIC) * inverse);
    }
    for (; i < count; i++) {
        float v = tpdf_dithered1(input, windowed, i, key, low, scale);
        output[i] = ((v + TPDF_MAGIC) - TPDF_MAGIC) * inverse;
    }
}


/* The same noise and rounding, then the s16le encoder's rule (SampleCodec.encodeS16LE: NaN to 0,
   a count of the values that round outside -32768...32767, clamped, rounded to nearest even) on
   the rounded value, written as int16: the Float that `aupipe_tpdf_round` would write, times
   32768, is that value exactly (scaling by powers of two), so the bytes are the same as dither
   then encode, in one pass and without the Float buffer between them. Returns the clip count. */
typedef int16_t h8v __attribute__((vector_size(16)));
typedef int16_t h8u __attribute__((vector_size(16), aligned(2), may_alias));

ALWAYS long tpdf_s16_body(const float *input, int16_t *output, long count, const uint8_t *windowed,
                          uint32_t key, uint32_t low, float scale) {
    long i = 0, clipped = 0;
    i8v clips = {0};
    for (; i + 8 <= count; i += 8) {
        v8 q;
        tpdf_dithered8(&q, input, windowed, i, key, low, scale);
        q = (q + TPDF_MAGIC) - TPDF_MAGIC;
        q = (v8)((i8v)q & (q == q));
        clips -= (q >= 32767.5f) | (q < -32768.5f);
        q = (v8)(((i8v)q & ~(q > 32767.0f)) | ((i8v)((v8){0} + 32767.0f) & (q > 32767.0f)));
        q = (v8)(((i8v)q & ~(q < -32768.0f)) | ((i8v)((v8){0} - 32768.0f) & (q < -32768.0f)));
        i8v r = (i8v)(q + TPDF_MAGIC) - 0x4B400000;
        *(h8u *)(output + i) = __builtin_convertvector(r, h8v);
    }
    for (int k = 0; k < 8; k++) clipped += clips[k];
    for (; i < count; i++) {
        float q = (tpdf_dithered1(input, windowed, i, key, low, scale) + TPDF_MAGIC) - TPDF_MAGIC;
        if (q != q) q = 0;
        if (q >= 32767.5f || q < -32768.5f) clipped++;
        if (q > 32767.0f) q = 32767.0f;
        if (q < -32768.0f) q = -32768.0f;
        union { float f; int32_t n; } u = { q + TPDF_MAGIC };
        output[i] = (int16_t)(u.n - 0x4B400000);
    }
    return clipped;
}

#if defined(__x86_64__) && defined(__clang__)
#define WIDE __attribute__((target("avx2")))
WIDE static void butterflies_wide(float *re, float *im, long size, long half, const float *cs, const float *sn, float sign) {
    butterflies_body(re, im, size, half, cs, sn, sign);
}
WIDE static void first_passes_wide(const float *in_re, const float *in_im, float *out_re, float *out_im, long size, const int *group, const float *w) {
    first_passes_body(in_re, in_im, out_re, out_im, size, group, w);
}
WIDE static void pack_wide(const float *zr, const float *zi, const float *cs, const float *sn, float *re, float *im, long h) {
    pack_body(zr, zi, cs, sn, re, im, h);
}
WIDE static void unpack_wide(const float *re, const float *im, const float *cs, const float *sn, float *zr, float *zi, long h) {
    unpack_body(re, im, cs, sn, zr, zi, h);
}
WIDE static void product_wide(float *sr, float *si, const float *xr, const float *xi, const float *hr, const float *hi, long bins, int add) {
    product_body(sr, si, xr, xi, hr, hi, bins, add);
}
WIDE static void dot_wide(const float *h, long taps, const float *x, float *y, long n) { dot_body(h, taps, x, y, n); }
WIDE static long tpdf_s16_wide(const float *in, int16_t *out, long n, const uint8_t *w, uint32_t key, uint32_t low, float scale) {
    return tpdf_s16_body(in, out, n, w, key, low, scale);
}
WIDE static void tpdf_round_wide(const float *in, float *out, long n, const uint8_t *w, uint32_t key, uint32_t low, float scale, float inverse) {
    tpdf_round_body(in, out, n, w, key, low, scale, inverse);
}

/* Read once, on first use: the processor does not change under a running process. */
static int wide_state = -1;
static int wide_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}
static int wide(void) {
    int w = __atomic_load_n(&wide_state, __ATOMIC_RELAXED);
    if (w < 0) {
        w = wide_supported();
        __atomic_store_n(&wide_state, w, __ATOMIC_RELAXED);
    }
    return w;
}
int aupipe_dsp_kernels_set_wide(int on) {
    int before = wide();
    __atomic_store_n(&wide_state, on && wide_supported() ? 1 : 0, __ATOMIC_RELAXED);
    return before;
}
#define DISPATCH(call_wide, call_base) do { if (wide()) { call_wide; } else { call_base; } } while (0)
#else
static int wide(void) { return 0; }
int aupipe_dsp_kernels_set_wide(int on) { (void)on; return 0; }
#define DISPATCH(call_wide, call_base) do { call_base; } while (0)
#endif

static void butterflies_base(float *re, float *im, long size, long half, const float *cs, const float *sn, float sign) {
    butterflies_body(re, im, size, half, cs, sn, sign);
}
static void first_passes_base(const float *in_re, const float *in_im, float *out_re, float *out_im, long size, const int *group, const float *w) {
    first_passes_body(in_re, in_im, out_re, out_im, size, group, w);
}
static void pack_base(const float *zr, const float *zi, const float *cs, const float *sn, float *re, float *im, long h) {
    pack_body(zr, zi, cs, sn, re, im, h);
}
static void unpack_base(const float *re, const float *im, const float *cs, const float *sn, float *zr, float *zi, long h) {
    unpack_body(re, im, cs, sn, zr, zi, h);
}
static void product_base(float *sr, float *si, const float *xr, const float *xi, const float *hr, const float *hi, long bins, int add) {
    product_body(sr, si, xr, xi, hr, hi, bins, add);
}
static void dot_base(const float *h, long taps, const float *x, float *y, long n) { dot_body(h, taps, x, y, n); }
static long tpdf_s16_base(const float *in, int16_t *out, long n, const uint8_t *w, uint32_t key, uint32_t low, float scale) {
    return tpdf_s16_body(in, out, n, w, key, low, scale);
}
static void tpdf_round_base(const float *in, float *out, long n, const uint8_t *w, uint32_t key, uint32_t low, float scale, float inverse) {
    tpdf_round_body(in, out, n, w, key, low, scale, inverse);
}

void aupipe_fft_butterflies(float *re, float *im, long size, long half,
                            const float *cos_table, const float *sin_table, float sign) {
    DISPATCH(butterflies_wide(re, im, size, half, cos_table, sin_table, sign),
             butterflies_base(re, im, size, half, cos_table, sin_table, sign));
}

void aupipe_fft_first_passes(const float *in_re, const float *in_im, float *out_re, float *out_im,
                             long size, const int *group, const float *w) {
    DISPATCH(first_passes_wide(in_re, in_im, out_re, out_im, size, group, w),
             first_passes_base(in_re, in_im, out_re, out_im, size, group, w));
}

void aupipe_real_fft_pack(const float *zr, const float *zi, const float *cos_table,
                          const float *sin_table, float *re, float *im, long h) {
    DISPATCH(pack_wide(zr, zi, cos_table, sin_table, re, im, h), pack_base(zr, zi, cos_table, sin_table, re, im, h));
}

void aupipe_real_fft_unpack(const float *re, const float *im, const float *cos_table,
                            const float *sin_table, float *zr, float *zi, long h) {
    DISPATCH(unpack_wide(re, im, cos_table, sin_table, zr, zi, h), unpack_base(re, im, cos_table, sin_table, zr, zi, h));
}

void aupipe_spectral_product(float *sum_re, float *sum_im, const float *xr, const float *xi,
                             const float *hr, const float *hi, long bins, int add) {
    DISPATCH(product_wide(sum_re, sum_im, xr, xi, hr, hi, bins, add),
             product_base(sum_re, sum_im, xr, xi, hr, hi, bins, add));
}

void aupipe_fir_direct(const float *h, long taps, const float *x, float *y, long n) {
    DISPATCH(dot_wide(h, taps, x, y, n), dot_base(h, taps, x, y, n));
}

void aupipe_tpdf_round(const float *input, float *output, long count, const uint8_t *windowed,
                       uint32_t key, uint32_t low, float scale, float inverse) {
    DISPATCH(tpdf_round_wide(input, output, count, windowed, key, low, scale, inverse),
             tpdf_round_base(input, output, count, windowed, key, low, scale, inverse));
}

long aupipe_tpdf_s16(const float *input, int16_t *output, long count, const uint8_t *windowed,
                     uint32_t key, uint32_t low, float scale) {
    long clipped = 0;
    DISPATCH(clipped = tpdf_s16_wide(input, output, count, windowed, key, low, scale),
             clipped = tpdf_s16_base(input, output, count, windowed, key, low, scale));
    return clipped;
}

int aupipe_dsp_kernels_wide(void) { return wide(); }
