#ifndef AUPIPE_DECIMATE_KERNELS_H
#define AUPIPE_DECIMATE_KERNELS_H
/* Decimator's FIR at its output rate, in C so that eight outputs run at once on 256-bit vectors
   (AVX2) where the processor has them, as dsp_kernels.c's kernels do (one body, compiled
   baseline and AVX2, chosen by aupipe_dsp_kernels_wide()). */

/* y[k] = Σⱼ h[j]·x[k·stride + j] for j < taps, k < n, each output summed in order of j from 0
   (from 0 + h[0]·x[k·stride]), as Decimator.swift's scalar loop sums it: the same bits for every
   k. x holds (n − 1)·stride + taps values; scratch holds stride·(n + taps/stride + 2) floats
   (x split into its stride phases, so that eight outputs' inputs for one tap are contiguous). */
void aupipe_fir_decimate(const float *h, long taps, const float *x, long stride, float *y, long n, float *scratch);
#endif
