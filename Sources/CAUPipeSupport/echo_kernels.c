#include "aupipe_echo_kernels.h"
#include "aupipe_dsp_kernels.h"
#include <string.h>

/* No contraction of a·b + c into a fused multiply-add: the same bits on every target. */
#pragma clang fp contract(off)

/* Eight floats (see dsp_kernels.c), and eight lanes of a comparison's mask. */
typedef float v8 __attribute__((vector_size(32)));
typedef float v8u __attribute__((vector_size(32), aligned(4), may_alias));
typedef int v8i __attribute__((vector_size(32)));
#define load8(p) (*(const v8u *)(p))
#define store8(p, v) (*(v8u *)(p) = (v))
#define ALWAYS static inline __attribute__((always_inline))

/* Macros, not functions: a 32-byte vector passed or returned by value changes the ABI of the
   baseline body (clang's -Wpsabi). PICK(m, a, b): m ? a : b, lane by lane (m a comparison's
   mask); SWIFT_MAX(x, y) and SWIFT_MIN(x, y): Swift's max (y >= x ? y : x) and min
   (y < x ? y : x); SPLAT(x): x in every lane; REVERSED(v): lane l is lane 7 − l of v. */
#define PICK(m, a, b) ((v8)(((v8i)(m) & (v8i)(a)) | (~(v8i)(m) & (v8i)(b))))
#define SWIFT_MAX(x, y) ({ v8 x_ = (x), y_ = (y); PICK(y_ >= x_, y_, x_); })
#define SWIFT_MIN(x, y) ({ v8 x_ = (x), y_ = (y); PICK(y_ < x_, y_, x_); })
#define SPLAT(x) ((x) - (v8){0})
#define REVERSED(v) ({ v8 v_ = (v); __builtin_shufflevector(v_, v_, 7, 6, 5, 4, 3, 2, 1, 0); })

/* Eight bins of aupipe_res_statistics: the transform's bins k..k+7 at (xr, xi), their mirrors at
   (mr, mi), the other way round when `mirrored` (mr[7 − l] is lane l's); the arrays point at bin k. */
ALWAYS void statistics8(const float *xr, const float *xi, const float *mr, const float *mi, int mirrored, float a, float g, float decay, float bias,
                        float *see, float *syy, float *sdd, float *sdy_re, float *sdy_im, float *efast,
                        float *p, float *coh, float *minnow, const float *minbefore, float *noise) {
    v8 ar = load8(xr), ai = load8(xi), br = load8(mr), bi = load8(mi);
    if (mirrored) { br = REVERSED(br); bi = REVERSED(bi); }
    v8 er = (ar + br) / 2.0f, ei = (ai - bi) / 2.0f;
    v8 yr = (ai + bi) / 2.0f, yi = (br - ar) / 2.0f;
    v8 dr = yr + er, di = yi + ei;
    v8 e2 = er * er + ei * ei, y2 = yr * yr + yi * yi;
    float b = 1 - a, h = 1 - g;
    v8 vsee = a * load8(see) + b * e2;
    v8 vsyy = a * load8(syy) + b * y2;
    v8 vsdd = a * load8(sdd) + b * (dr * dr + di * di);
    v8 vre = a * load8(sdy_re) + b * (dr * yr + di * yi);
    v8 vim = a * load8(sdy_im) + b * (di * yr - dr * yi);
    store8(see, vsee); store8(syy, vsyy); store8(sdd, vsdd); store8(sdy_re, vre); store8(sdy_im, vim);
    store8(efast, g * load8(efast) + h * e2);
    store8(p, SWIFT_MAX(y2, decay * load8(p)));
    store8(coh, (vre * vre + vim * vim) / (vsdd * vsyy + 1e-20f));
    v8 m = SWIFT_MIN(load8(minnow), vsee);
    store8(minnow, m);
    store8(noise, bias * SWIFT_MIN(m, load8(minbefore)));
}

ALWAYS void statistics_body(const float *re, const float *im, long size, long bins, float a, float g, float decay,
                            float bias, float *see, float *syy, float *sdd, float *sdy_re, float *sdy_im,
                            float *efast, float *p, float *coh, float *minnow, const float *minbefore, float *noise) {
    long k = 1;
    /* Bins 1 ... whose mirrors size − k are contiguous, downwards: eight at a time. */
    for (; k + 8 <= bins; k += 8) {
        statistics8(re + k, im + k, re + size - k - 7, im + size - k - 7, 1, a, g, decay, bias, see + k, syy + k, sdd + k,
                    sdy_re + k, sdy_im + k, efast + k, p + k, coh + k, minnow + k, minbefore + k, noise + k);
    }
    /* Bin 0 and the bins left, through eight-lane copies (their other lanes discarded). */
    long rest[8], n = 0;
    rest[n++] = 0;
    for (; k < bins; k++) rest[n++] = k;
    for (long from = 0; from < n; from += 8) {
        float l[15][8];
        memset(l, 0, sizeof l);
        long count = n - from < 8 ? n - from : 8;
        const float *arrays[10] = { see, syy, sdd, sdy_re, sdy_im, efast, p, minnow, minbefore, coh };
        for (long i = 0; i < count; i++) {
            long b = rest[from + i], j = (size - b) & (size - 1);
            l[0][i] = re[b]; l[1][i] = im[b]; l[2][i] = re[j]; l[3][i] = im[j];
            for (int q = 0; q < 9; q++) l[4 + q][i] = arrays[q][b];
        }
        statistics8(l[0], l[1], l[2], l[3], 0, a, g, decay, bias, l[4], l[5], l[6], l[7],
                    l[8], l[9], l[10], l[13], l[11], l[12], l[14]);
        float *outputs[10] = { see, syy, sdd, sdy_re, sdy_im, efast, p, minnow, coh, noise };
        const int slot[10] = { 4, 5, 6, 7, 8, 9, 10, 11, 13, 14 };
        for (long i = 0; i < count; i++) {
            long b = rest[from + i];
            for (int q = 0; q < 10; q++) outputs[q][b] = l[slot[q]][i];
        }
    }
}

/* Eight bins of aupipe_res_adapt. */
ALWAYS void adapt8(float a, const float *p, const float *s, float *sp, float *ss, float sb, int adapt,
                   const float *coh, float near_coherence, const float *see, const float *noise, float step,
                   float max_weight, float *w1, float *w2, float *w3) {
    v8 x1 = a * load8(sp) + (1 - a) * load8(p), x2 = a * load8(ss) + (1 - a) * load8(s);
    store8(sp, x1);
    store8(ss, x2);
    if (!adapt) return;
    v8 x3 = SPLAT(sb), zero = SPLAT(0), top = SPLAT(max_weight);
    v8 o1 = load8(w1), o2 = load8(w2), o3 = load8(w3);
    v8 target = SWIFT_MAX(load8(see) - load8(noise), zero);
    v8 err = target - (o1 * x1 + o2 * x2 + o3 * x3);
    v8 mu = step * err / (x1 * x1 + x2 * x2 + x3 * x3 + 1e-24f);
    v8i on = load8(coh) >= near_coherence;
    store8(w1, PICK(on, SWIFT_MIN(SWIFT_MAX(o1 + mu * x1, zero), top), o1));
    store8(w2, PICK(on, SWIFT_MIN(SWIFT_MAX(o2 + mu * x2, zero), top), o2));
    store8(w3, PICK(on, SWIFT_MIN(SWIFT_MAX(o3 + mu * x3, zero), top), o3));
}

/* Eight bins of aupipe_res_gains' first loop. */
ALWAYS void gains8(const float *w1, const float *w2, const float *w3, const float *p, const float *s, float b,
                   const float *efast, const float *noise, float *raw, float near_coherence, float near_over,
                   float beta, float active, float floor_gain) {
    v8 r = load8(w1) * load8(p) + load8(w2) * load8(s) + load8(w3) * b;
    v8 e2 = SWIFT_MAX(load8(efast), SPLAT(1e-20f));
    v8i near = (load8(raw) < near_coherence) & (e2 > near_over * r);
    float gentle = beta < 1 ? beta : 1;   /* Swift's min(1, beta) */
    v8 g = 1.0f - PICK(near, SPLAT(gentle), SPLAT(beta)) * r / e2;
    v8 q = SWIFT_MIN(SPLAT(1), __builtin_elementwise_sqrt(load8(noise) / e2));
    g = SWIFT_MAX(SWIFT_MAX(g, q), PICK(near, SPLAT(active), SPLAT(floor_gain)));
    store8(raw, SWIFT_MIN(g, SPLAT(1)));
}

/* Eight bins of the gains' smoothing at gain: l, c, r the raw gains of bins k − 1, k, k + 1. */
#define SMOOTHED8(gain, l, c, r, smooth) \
    store8(gain, (smooth) * load8(gain) + (1 - (smooth)) * (0.25f * load8(l) + 0.5f * load8(c) + 0.25f * load8(r)))

ALWAYS void adapt_body(long bins, float a, const float *p, const float *s, float *sp, float *ss, float sb, int adapt,
                       const float *coh, float near_coherence, const float *see, const float *noise, float step,
                       float max_weight, float *w1, float *w2, float *w3) {
    long k = 0;
    for (; k + 8 <= bins; k += 8)
        adapt8(a, p + k, s + k, sp + k, ss + k, sb, adapt, coh + k, near_coherence, see + k, noise + k, step, max_weight,
               w1 + k, w2 + k, w3 + k);
    if (k == bins) return;
    float l[11][8];
    memset(l, 0, sizeof l);
    const float *in[11] = { p, s, sp, ss, coh, see, noise, w1, w2, w3, 0 };
    for (long i = 0; k + i < bins; i++)
        for (int q = 0; q < 10; q++) l[q][i] = in[q][k + i];
    adapt8(a, l[0], l[1], l[2], l[3], sb, adapt, l[4], near_coherence, l[5], l[6], step, max_weight, l[7], l[8], l[9]);
    for (long i = 0; k + i < bins; i++) {
        sp[k + i] = l[2][i]; ss[k + i] = l[3][i];
        w1[k + i] = l[7][i]; w2[k + i] = l[8][i]; w3[k + i] = l[9][i];
    }
}

ALWAYS void gains_body(long bins, const float *w1, const float *w2, const float *w3, const float *p,
                       const float *s, float b, const float *efast, const float *noise, float *raw,
                       float near_coherence, float near_over, float beta, float active, float floor_gain,
                       float smooth, float *gain) {
    long k = 0;
    for (; k + 8 <= bins; k += 8)
        gains8(w1 + k, w2 + k, w3 + k, p + k, s + k, b, efast + k, noise + k, raw + k, near_coherence, near_over, beta,
               active, floor_gain);
    if (k < bins) {
        float l[8][8];
        memset(l, 0, sizeof l);
        const float *in[8] = { w1, w2, w3, p, s, efast, noise, raw };
        for (long i = 0; k + i < bins; i++)
            for (int q = 0; q < 8; q++) l[q][i] = in[q][k + i];
        gains8(l[0], l[1], l[2], l[3], l[4], b, l[5], l[6], l[7], near_coherence, near_over, beta, active, floor_gain);
        for (long i = 0; k + i < bins; i++) raw[k + i] = l[7][i];
    }
    /* The smoothing over neighbours: bins 1 ... bins − 2 eight at a time, the rest (the edges
       repeat their own gain) through copies. */
    long j = 1;
    for (; j + 8 <= bins - 1; j += 8)
        SMOOTHED8(gain + j, raw + j - 1, raw + j, raw + j + 1, smooth);
    long rest[9], n = 0;
    rest[n++] = 0;
    for (; j < bins; j++) if (j > 0) rest[n++] = j;
    for (long from = 0; from < n; from += 8) {
        float g8[8] = {0}, l8[8] = {0}, c8[8] = {0}, r8[8] = {0};
        long count = n - from < 8 ? n - from : 8;
        for (long i = 0; i < count; i++) {
            long q = rest[from + i];
            g8[i] = gain[q];
            l8[i] = raw[q > 0 ? q - 1 : 0];
            c8[i] = raw[q];
            r8[i] = raw[q + 1 < bins ? q + 1 : bins - 1];
        }
        SMOOTHED8(g8, l8, c8, r8, smooth);
        for (long i = 0; i < count; i++) gain[rest[from + i]] = g8[i];
    }
}

#if defined(__x86_64__) && defined(__clang__)
#define WIDE __attribute__((target("avx2")))
WIDE static void statistics_wide(const float *re, const float *im, long size, long bins, float a, float g, float decay,
                                 float bias, float *see, float *syy, float *sdd, float *sdy_re, float *sdy_im,
                                 float *efast, float *p, float *coh, float *minnow, const float *minbefore, float *noise) {
    statistics_body(re, im, size, bins, a, g, decay, bias, see, syy, sdd, sdy_re, sdy_im, efast, p, coh, minnow, minbefore, noise);
}
WIDE static void adapt_wide(long bins, float a, const float *p, const float *s, float *sp, float *ss, float sb, int adapt,
                            const float *coh, float nc, const float *see, const float *noise, float step, float mw,
                            float *w1, float *w2, float *w3) {
    adapt_body(bins, a, p, s, sp, ss, sb, adapt, coh, nc, see, noise, step, mw, w1, w2, w3);
}
WIDE static void gains_wide(long bins, const float *w1, const float *w2, const float *w3, const float *p, const float *s,
                            float b, const float *efast, const float *noise, float *raw, float nc, float no, float beta,
                            float active, float floor_gain, float smooth, float *gain) {
    gains_body(bins, w1, w2, w3, p, s, b, efast, noise, raw, nc, no, beta, active, floor_gain, smooth, gain);
}
#define DISPATCH(call_wide, call_base) do { if (aupipe_dsp_kernels_wide()) { call_wide; } else { call_base; } } while (0)
#else
#define DISPATCH(call_wide, call_base) do { call_base; } while (0)
#endif

static void statistics_base(const float *re, const float *im, long size, long bins, float a, float g, float decay,
                            float bias, float *see, float *syy, float *sdd, float *sdy_re, float *sdy_im,
                            float *efast, float *p, float *coh, float *minnow, const float *minbefore, float *noise) {
    statistics_body(re, im, size, bins, a, g, decay, bias, see, syy, sdd, sdy_re, sdy_im, efast, p, coh, minnow, minbefore, noise);
}
static void adapt_base(long bins, float a, const float *p, const float *s, float *sp, float *ss, float sb, int adapt,
                       const float *coh, float nc, const float *see, const float *noise, float step, float mw,
                       float *w1, float *w2, float *w3) {
    adapt_body(bins, a, p, s, sp, ss, sb, adapt, coh, nc, see, noise, step, mw, w1, w2, w3);
}
static void gains_base(long bins, const float *w1, const float *w2, const float *w3, const float *p, const float *s,
                       float b, const float *efast, const float *noise, float *raw, float nc, float no, float beta,
                       float active, float floor_gain, float smooth, float *gain) {
    gains_body(bins, w1, w2, w3, p, s, b, efast, noise, raw, nc, no, beta, active, floor_gain, smooth, gain);
}

void aupipe_res_statistics(const float *re, const float *im, long size, long bins, float stats, float fast,
                           float decay, float bias, float *see, float *syy, float *sdd, float *sdy_re,
                           float *sdy_im, float *efast, float *p, float *coh, float *minnow,
                           const float *minbefore, float *noise, float sums[5]) {
    DISPATCH(statistics_wide(re, im, size, bins, stats, fast, decay, bias, see, syy, sdd, sdy_re, sdy_im, efast, p, coh, minnow, minbefore, noise),
             statistics_base(re, im, size, bins, stats, fast, decay, bias, see, syy, sdd, sdy_re, sdy_im, efast, p, coh, minnow, minbefore, noise));
    /* The sums, one bin after the other from bin 0, as the Swift loop added them. */
    float ps = 0, cw = 0, yw = 0, dw = 0, ns = 0;
    for (long k = 0; k < bins; k++) {
        ps += p[k];
        cw += coh[k] * syy[k];
        yw += syy[k];
        dw += sdd[k];
        ns += noise[k];
    }
    sums[0] = ps; sums[1] = cw; sums[2] = yw; sums[3] = dw; sums[4] = ns;
}

void aupipe_res_adapt(long bins, float a, const float *p, const float *s, float *sp, float *ss, float sb,
                      int adapt, const float *coh, float near_coherence, const float *see, const float *noise,
                      float step, float max_weight, float *w1, float *w2, float *w3) {
    DISPATCH(adapt_wide(bins, a, p, s, sp, ss, sb, adapt, coh, near_coherence, see, noise, step, max_weight, w1, w2, w3),
             adapt_base(bins, a, p, s, sp, ss, sb, adapt, coh, near_coherence, see, noise, step, max_weight, w1, w2, w3));
}

void aupipe_res_gains(long bins, const float *w1, const float *w2, const float *w3, const float *p,
                      const float *s, float b, const float *efast, const float *noise, float *raw,
                      float near_coherence, float near_over, float beta, float active, float floor_gain,
                      float smooth, float *gain) {
    DISPATCH(gains_wide(bins, w1, w2, w3, p, s, b, efast, noise, raw, near_coherence, near_over, beta, active, floor_gain, smooth, gain),
             gains_base(bins, w1, w2, w3, p, s, b, efast, noise, raw, near_coherence, near_over, beta, active, floor_gain, smooth, gain));
}
