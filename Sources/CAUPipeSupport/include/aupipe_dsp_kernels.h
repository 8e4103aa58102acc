#ifndef AUPIPE_DSP_KERNELS_H
#define AUPIPE_DSP_KERNELS_H
/* The inner loops of the FFT and of partitioned convolution, in C so that they can run on
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

/* sum = (add ? sum : 0) + x·h over `bins` complex values (split real and imaginary), the
   product as (xr·hr − xi·hi, xr·hi + xi·hr), added after it is formed. */
void aupipe_spectral_product(float *sum_re, float *sum_im, const float *xr, const float *xi,
                             const float *hr, const float *hi, long bins, int add);

/* y[j] = Σᵢ h[i]·x[j + i] for i < taps (a multiple of 16) and j < n: per output two 8-lane
   partial sums over alternate groups of eight, added lane by lane, then the eight lanes summed
   as ((0+4)+(2+6))+((1+5)+(3+7)). A direct FIR when h holds the taps reversed. */
void aupipe_dot16_run(const float *h, long taps, const float *x, float *y, long n);

/* 1 when the AVX2 bodies are in use (for the record: bench notes, tests). */
int aupipe_dsp_kernels_wide(void);
#endif
