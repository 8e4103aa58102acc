#ifndef AUPIPE_DSP_KERNELS_H
#define AUPIPE_DSP_KERNELS_H
#include <stdint.h>
/* The inner loops of the FFT, of partitioned convolution and of the edge dither, in C so that they can run on
   256-bit vectors (AVX2) where the processor has them: Swift has no per-function target
   features, and the package is built for baseline x86-64 (SSE2). Each kernel has one body,
   compiled twice (baseline and AVX2) and chosen once per process by the processor's features;
   both do the same float operations in the same order, lane by lane, with no fused multiply-add
   (no FMA target, contraction off), so the results are the same bits on every x86-64 (and on
   other architectures, which get the baseline body). */

/* One radix-2 pass of span `half` (a multiple of 8, < `size`) over `size` split complex values,
   in place: for each pair (a, b = a + half) and its twiddle w = cos[j] + i·sign·sin[j],
   t = w·x[b], x[b] = x[a] − t, x[a] = x[a] + t, exactly as FFT.swift's scalar loop writes it.
   `cos_table` and `sin_table` hold `half` values each (the pass's own table). */
void aupipe_fft_butterflies(float *re, float *im, long size, long half,
                            const float *cos_table, const float *sin_table, float sign);

/* The bit-reversal permutation and the passes of span 1, 2 and 4 of a radix-2 FFT of `size`
   points (a power of two ≥ 64), out of place: `in` in natural order, `out` after those passes,
   as FFT.swift's swap loop and `firstThreePasses` leave it. `group[b]` (b < size/8) is b with
   its log2(size) − 3 bits reversed: the group of eight that inputs b, b + size/8, ... feed.
   `w` holds the twiddles as (cos, sign·sin) pairs: c0, s0, c1, s1 (span 2), then q0, p0 ... q3,
   p3 (span 4). Eight groups at a time, a group per lane, transposed on the way out. */
void aupipe_fft_first_passes(const float *in_re, const float *in_im, float *out_re, float *out_im,
                             long size, const int *group, const float *w);

/* RealFFT's packing after the half-size transform Z (zr, zi: h values), for bins 1 ≤ k < h:
   E = (Z[k] + Z*[h−k])/2, O = (Z[k] − Z*[h−k])/(2i), X[k] = E + (c − i·s)·O with c = cos_table[k],
   s = sin_table[k], written into re[k], im[k] as RealFFT.swift's `bin` writes them. */
void aupipe_real_fft_pack(const float *zr, const float *zi, const float *cos_table,
                          const float *sin_table, float *re, float *im, long h);

/* RealFFT's unpacking before the inverse half-size transform, for 0 ≤ k < h: from X[k] and
   X[h−k] (re, im: h + 1 values), Z[k] = E + i·O into zr[k], zi[k], as RealFFT.swift writes it. */
void aupipe_real_fft_unpack(const float *re, const float *im, const float *cos_table,
                            const float *sin_table, float *zr, float *zi, long h);

/* sum = (add ? sum : 0) + x·h over `bins` complex values (split real and imaginary), the
   product as (xr·hr − xi·hi, xr·hi + xi·hr), added after it is formed. */
void aupipe_spectral_product(float *sum_re, float *sum_im, const float *xr, const float *xi,
                             const float *hr, const float *hi, long bins, int add);

/* y[j] = Σᵢ h[i]·x[j + i] for i < taps and j < n, each output summed in order of i from 0
   (eight outputs at a time, one per lane, the rest one by one: the same bits for each j
   whatever n is). A direct FIR when h holds the taps reversed. */
void aupipe_fir_direct(const float *h, long taps, const float *x, float *y, long n);

/* Ditherer's Float TPDF path, 16 bits or fewer: for i < count, y = input[i]·scale, plus the TPDF
   value of stream sample `low` + i under `key` (DitherNoise: lowbias32 of (low + i)·0x9E3779B9 ^ key,
   high half minus low half, × 2^−16, in (−1, 1) steps) where windowed[i] ≠ 0, rounded to an
   integer (to nearest, ties to even, by adding and subtracting 1.5·2^23) and times `inverse`,
   into output[i] (`output` may be `input`). `low` + i wraps at 2^32 as the Swift code's does. */
void aupipe_tpdf_round(const float *input, float *output, long count, const uint8_t *windowed,
                       uint32_t key, uint32_t low, float scale, float inverse);

/* `aupipe_tpdf_round` for a 16-bit grid (`scale` 32768) fused with the s16 encoder: the rounded
   value y (in steps) is encoded by SampleCodec's rule (NaN to 0; counted when y ≥ 32767.5 or
   y < −32768.5; clamped to −32768...32767) into output[i] as a native int16 (little-endian on
   x86-64), the same value dither then encode gives. Returns the number clipped. */
long aupipe_tpdf_s16(const float *input, int16_t *output, long count, const uint8_t *windowed,
                     uint32_t key, uint32_t low, float scale);

/* 1 when the AVX2 bodies are in use (for the record: bench notes, tests). */
int aupipe_dsp_kernels_wide(void);

/* For tests: 0 makes every kernel run its baseline body from now on, 1 the AVX2 body where the
   processor has it (the default). Returns whether the AVX2 bodies were in use before. Either
   gives the same bits, which is what the tests check. */
int aupipe_dsp_kernels_set_wide(int on);
#endif
