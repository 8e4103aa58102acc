#!/usr/bin/env python3
"""bench/ripple.py make OUT_RAW_F32 RATE | bench/ripple.py RAW_F32 RATE: passband ripple.

`make` writes 4 s of a multi-tone at RATE (mono f32): 60 tones at whole Hz, spaced evenly
from 100 Hz to 7200 Hz (0.9 x the Nyquist of 16 kHz), each at -40 dBFS with its own fixed
phase (seed 14; the sum peaks at -14.6 dBFS). Measuring, the resampled file (at RATE) is cut to whole
seconds from 1 s on (whole periods of every tone: rectangular window, each tone on its own
bin), and each tone's level is compared with its input level: the ripple printed is the
largest minus the smallest gain in dB over 0...0.9 x Nyquist of the lower rate (16 kHz)."""
import sys
import numpy as np

TONES = np.round(np.linspace(100, 7200, 60)).astype(int)
AMP = 10 ** (-40 / 20)
PHASES = np.random.default_rng(14).uniform(0, 2 * np.pi, len(TONES))

if sys.argv[1] == "make":
    rate = int(sys.argv[3])
    t = np.arange(4 * rate) / rate
    x = sum(AMP * np.sin(2 * np.pi * f * t + p) for f, p in zip(TONES, PHASES))
    x.astype("<f4").tofile(sys.argv[2])
    sys.exit(0)

rate = int(sys.argv[2])
y = np.fromfile(sys.argv[1], dtype="<f4").astype(np.float64)
seconds = min(2, len(y) // rate - 2)
seg = y[rate: rate + seconds * rate]
spectrum = np.abs(np.fft.rfft(seg)) * 2 / len(seg)
gains = 20 * np.log10(spectrum[TONES * seconds] / AMP)
ripple = gains.max() - gains.min()
print(f"{ripple:.3f}" if ripple >= 0.001 else "<0.001")
