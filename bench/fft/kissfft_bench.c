/* bench/fft/kissfft_bench.c: a bare C loop around Debian's libkissfft (kiss_fftr, float): one
 * forward and one inverse real transform per round, for the sizes convolution uses (64..65536).
 * Prints "kissfft N ns_per_pair" lines. Build and run: bench/fft/run. */
#include <kiss_fftr.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    for (int n = 64; n <= 65536; n *= 2) {
        kiss_fftr_cfg fwd = kiss_fftr_alloc(n, 0, NULL, NULL), inv = kiss_fftr_alloc(n, 1, NULL, NULL);
        float *x = malloc(sizeof(float) * n);
        kiss_fft_cpx *X = malloc(sizeof(kiss_fft_cpx) * (n / 2 + 1));
        for (int i = 0; i < n; i++) x[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.5f;
        /* About 2^26 butterflies' worth of rounds per size; the best of 5 batches counts. */
        long rounds = (1L << 26) / ((long)n * __builtin_ctz(n)) + 1;
        double best = 1e30;
        for (int b = 0; b < 5; b++) {
            double t0 = now();
            for (long r = 0; r < rounds; r++) {
                kiss_fftr(fwd, x, X);
                kiss_fftri(inv, X, x);
                for (int i = 0; i < n; i++) x[i] *= 1.0f / n;
            }
            double t = (now() - t0) / rounds;
            if (t < best) best = t;
        }
        printf("kissfft %d %.0f\n", n, best * 1e9);
        kiss_fftr_free(fwd); kiss_fftr_free(inv); free(x); free(X);
    }
    return 0;
}
