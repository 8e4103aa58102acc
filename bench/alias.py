#!/usr/bin/env python3
"""bench/alias.py RAW_F32 RATE: the level of a 7 kHz alias in a mono f32 raw file (a 9 kHz
tone at -1 dBFS resampled from 48 kHz to 16 kHz), as dB below the tone: Hann window, FFT,
the largest bin within 20 Hz of 7 kHz, the first and last 0.25 s left out."""
import sys
import numpy as np

x = np.fromfile(sys.argv[1], dtype="<f4").astype(np.float64)
rate = int(sys.argv[2])
x = x[rate // 4: len(x) - rate // 4]
w = np.hanning(len(x))
spectrum = np.abs(np.fft.rfft(x * w)) * 2 / w.sum()
hz = np.fft.rfftfreq(len(x), 1 / rate)
near = np.abs(hz - 7000) <= 20
level = 20 * np.log10(max(spectrum[near].max(), 1e-30))
print(f"{-1 - level:.0f}")
