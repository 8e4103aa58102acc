#include "aupipe_decimate_kernels.h"
#include "aupipe_dsp_kernels.h"

/* No contraction of a·b + c into a fused multiply-add: the same bits on every target. */
#pragma clang fp contract(off)

typedef float v8 __attribute__((vector_size(32)));
typedef float v8u __attribute__((vector_size(32), aligned(4), may_alias));
#define load8(p) (*(const v8u *)(p))
#define store8(p, v) (*(v8u *)(p) = (v))
#define ALWAYS static inline __attribute__((always_inline))

ALWAYS void decimate_body(const float *h, long taps, const float *x, long s, float *y, long n, float *scratch) {
    long length = (n - 1) * s + taps, rows = n + taps / s + 2;
    /* Phase r, entry m: x[m·s + r] (zero past the end: never read by an output kept). */
    for (long r = 0; r < s; r++)
        for (long m = 0; m < rows; m++) {
            long i = m * s + r;
            scratch[r * rows + m] = i < length ? x[i] : 0;
        }
    long k = 0;
    for (; k + 8 <= n; k += 8) {
        v8 acc = {0};
        long r = 0, q = 0;   /* j = q·s + r */
        for (long j = 0; j < taps; j++) {
            acc = acc + h[j] * load8(scratch + r * rows + q + k);
            if (++r == s) { r = 0; q++; }
        }
        store8(y + k, acc);
    }
    for (; k < n; k++) {
        float acc = 0;
        for (long j = 0; j < taps; j++) acc = acc + h[j] * x[k * s + j];
        y[k] = acc;
    }
}

#if defined(__x86_64__) && defined(__clang__)
__attribute__((target("avx2"))) static void decimate_wide(const float *h, long taps, const float *x, long s, float *y, long n, float *scratch) {
    decimate_body(h, taps, x, s, y, n, scratch);
}
#endif
static void decimate_base(const float *h, long taps, const float *x, long s, float *y, long n, float *scratch) {
    decimate_body(h, taps, x, s, y, n, scratch);
}

void aupipe_fir_decimate(const float *h, long taps, const float *x, long stride, float *y, long n, float *scratch) {
    if (n <= 0) return;
#if defined(__x86_64__) && defined(__clang__)
    if (aupipe_dsp_kernels_wide()) { decimate_wide(h, taps, x, stride, y, n, scratch); return; }
#endif
    decimate_base(h, taps, x, stride, y, n, scratch);
}
