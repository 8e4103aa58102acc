#ifndef AUPIPE_ECHO_KERNELS_H
#define AUPIPE_ECHO_KERNELS_H
/* The per-bin loops of `aec`'s residual echo suppressor (ResidualEchoSuppressor.swift), in C so
   that they run on 256-bit vectors (AVX2) where the processor has them, as dsp_kernels.c's
   kernels do (one body, compiled baseline and AVX2, chosen by aupipe_dsp_kernels_wide()). Each
   bin's values are the same float operations in the same order as the Swift loops they replace
   (no fused multiply-add; a minimum and a maximum chosen as Swift's min and max choose); the
   sums over bins are added one bin after the other, from bin 0: the same bits. */

/* The statistics of one frame, bin k < bins of a `size`-point transform (re, im) that holds C in
   its real part and Ŷ in its imaginary part: E = C and Y = Ŷ split from bins k and size − k, D = Y
   + E; then, with a = `stats` and g = `fast`: see, syy, sdd (|E|², |Y|², |D|²), sdy (D·conj(Y),
   re and im) smoothed by a, efast (|E|²) by g; p = max(|Y|², decay·p); coh = |sdy|²/(sdd·syy +
   1e-20); minnow = min(minnow, see); noise = bias·min(minnow, minbefore). Then the sums over the
   bins into sums[0..4]: p, coh·syy, syy, sdd, noise. */
void aupipe_res_statistics(const float *re, const float *im, long size, long bins, float stats, float fast,
                           float decay, float bias, float *see, float *syy, float *sdd, float *sdy_re,
                           float *sdy_im, float *efast, float *p, float *coh, float *minnow,
                           const float *minbefore, float *noise, float sums[5]);

/* The model's regressors smoothed (sp, ss by a from p and s) and, with `adapt`, one NLMS step per
   bin whose coherence coh[k] ≥ `near_coherence`: target max(see − noise, 0), the prediction
   w1·sp + w2·ss + w3·sb, mu = step·err/(sp² + ss² + sb² + 1e-24), each weight w + mu·x within
   0...max_weight. */
void aupipe_res_adapt(long bins, float a, const float *p, const float *s, float *sp, float *ss, float sb,
                      int adapt, const float *coh, float near_coherence, const float *see, const float *noise,
                      float step, float max_weight, float *w1, float *w2, float *w3);

/* The gains: per bin r = w1·p + w2·s + w3·b, e2 = max(efast, 1e-20), near where coh <
   near_coherence and e2 > near_over·r; g = 1 − (near ? min(1, beta) : beta)·r/e2, at least
   min(1, √(noise/e2)) and (near ? active : floor), at most 1, into raw (which held coh). Then
   gain = smooth·gain + (1 − smooth)·(¼·raw[k−1] + ½·raw[k] + ¼·raw[k+1]), the edges repeated. */
void aupipe_res_gains(long bins, const float *w1, const float *w2, const float *w3, const float *p,
                      const float *s, float b, const float *efast, const float *noise, float *raw,
                      float near_coherence, float near_over, float beta, float active, float floor_gain,
                      float smooth, float *gain);
#endif
