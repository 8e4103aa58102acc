#!/usr/bin/env python3
"""bench/alias.py RAW_F32 RATE: the level of a 7 kHz alias in a mono f32 raw file (a 9 kHz
tone at -1 dBFS resampled from 48 kHz to 16 kHz), as dB below the tone: Hann window, FFT,
the largest bin within 20 Hz of 7 kHz, the first and last 0.25 s left out.

The measurement floor: the spectrum is computed in float64 from float32 samples, so a bin
below the window's own leakage of one float32 rounding step of the tone (2^-24 of -1 dBFS,
-145 dB, spread by the FFT's gain over N samples: -145 - 10*log10(N/2) dB, about -187 dB for
N = 56000) cannot be told from zero. A bin under that floor, or an all-zero spectrum, prints
"> F" with F the floor in dB below the tone."""
import sys
import numpy as np

x = np.fromfile(sys.argv[1], dtype="<f4").astype(np.float64)
rate = int(sys.argv[2])
x = x[rate // 4: len(x) - rate // 4]
w = np.hanning(len(x))
spectrum = np.abs(np.fft.rfft(x * w)) * 2 / w.sum()
hz = np.fft.rfftfreq(len(x), 1 / rate)
near = np.abs(hz - 7000) <= 20
tone = 10 ** (-1 / 20)
floor_db = 20 * np.log10(tone * 2.0 ** -24) - 10 * np.log10(len(x) / 2)
peak = spectrum[near].max()
if peak <= 0 or 20 * np.log10(peak) < floor_db:
    print(f">{-1 - floor_db:.0f}")
else:
    print(f"{-1 - 20 * np.log10(peak):.0f}")
