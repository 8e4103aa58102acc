#!/usr/bin/env python3
"""bench/aec/nearbands.py: where aec loses the near end in double talk, per stage and per band.

Usage: nearbands.py AUPIPE SCENE_DIR [SCENE_DIR...] -- 'ARGS' ['ARGS'...]

Runs `aupipe aec ref=far.wav ARGS` for each ARGS (the stages turned off one at a time, e.g.
'comfort=0', 'residual=0', 'denoise=0', 'preprocess=0') on each scene (16 or 48 kHz, from
scenes.py) and prints the near end's gain in double talk (metrics.py's: the least-squares gain
of the output on the near end per 100 ms piece where the near end is above -45 dBFS, energy
weighted), its SI-SDR, and the same gain per band: the output and the near end both through
the same brick-wall band-pass (an FFT mask over the whole signal), the gain over the same
pieces. Per band also the share of the near end's energy in it (dB of the whole). A figure
of 0 dB: the band kept; -10 dB: ducked.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import metrics  # noqa: E402

BANDS_HZ = [(0, 100), (100, 300), (300, 1000), (1000, 4000), (4000, 8000), (8000, 12000), (12000, 24000)]


def band(x, lo, hi):
    X = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / metrics.RATE)
    X[(f < lo) | (f >= hi)] = 0
    return np.fft.irfft(X, len(x))


def gain(y, near, act):
    """metrics.measure's near-end gain of y on near over the pieces act (dB), or None."""
    S, Y = metrics.framed(near, metrics.PIECE)[act], metrics.framed(y, metrics.PIECE)[act]
    ps = np.sum(S ** 2, axis=1)
    keep = ps > 0
    if not np.any(keep):
        return None
    g = np.sum(Y[keep] * S[keep], axis=1) / ps[keep]
    return float(10 * np.log10(max(np.sum(g ** 2 * ps[keep]) / np.sum(ps[keep]), 1e-12)))


def main():
    if "--" not in sys.argv or sys.argv.index("--") < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    k = sys.argv.index("--")
    aupipe, dirs, configs = sys.argv[1], sys.argv[2:k], sys.argv[k + 1:] or [""]
    bands = None
    for d in dirs:
        facts, parts = metrics.load_scene(d)
        near = parts["near"]
        n = len(near)
        ps = np.sum(metrics.framed(near, metrics.PIECE) ** 2, axis=1)
        act = ps / metrics.PIECE >= 10 ** (-45 / 10)
        bands = [(lo, min(hi, metrics.RATE // 2)) for lo, hi in BANDS_HZ if lo < metrics.RATE // 2]
        nb = [band(near, lo, hi) for lo, hi in bands]
        share = [10 * np.log10(np.sum(b ** 2) / np.sum(near ** 2)) for b in nb]
        print(f"{facts['name']} at {metrics.RATE} Hz; near end's energy per band (dB of the whole): "
              + "  ".join(f"{lo}-{hi} Hz {s:.1f}" for (lo, hi), s in zip(bands, share)))
        print(f"  {'aec ARGS':36} {'gain':>6} {'SISDR':>6}  " + " ".join(f"{f'{lo // 100 / 10:g}-{hi // 100 / 10:g}k':>7}" for lo, hi in bands))
        for cfg in configs:
            with tempfile.TemporaryDirectory(prefix="nearbands-") as tmp:
                out = os.path.join(tmp, "out.wav")
                with open(os.path.join(d, "mic.wav"), "rb") as i, open(out, "wb") as o:
                    subprocess.run([aupipe, "aec", f"ref={os.path.join(d, 'far.wav')}"] + cfg.split(), stdin=i, stdout=o, check=True)
                y = metrics.fit(metrics.read_wav(out), n)
            res = metrics.measure(facts, parts, y, y)
            y = metrics.aligned(y, res["lag"])
            per = [gain(band(y, lo, hi), b, act) for (lo, hi), b in zip(bands, nb)]
            print(f"  {cfg or '(defaults)':36} {res['near_gain']:+6.1f} {res['sisdr']:6.1f}  "
                  + " ".join(f"{'-' if g is None else f'{g:+.1f}':>7}" for g in per), flush=True)


if __name__ == "__main__":
    main()
