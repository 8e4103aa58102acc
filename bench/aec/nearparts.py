#!/usr/bin/env python3
"""bench/aec/nearparts.py: what a scene's near-end figure is made of, per second and per band, with
the scene's parts remixed: the same near talker with the echo taken out of the microphone, with the
noise taken out, alone, and the far end silent or not.

Usage: nearparts.py AUPIPE SCENE_DIR [MIC:FAR:ARGS ...]

Each variant is MIC:FAR:ARGS, MIC one of
  scene   the scene's mic.wav (echo + near + noise)
  noecho  near + noise (no echo reaches the microphone)
  nonoise echo + near
  near    the near talker alone
FAR one of scene (the scene's far.wav) or silent (zeros), and ARGS aec's arguments separated by
commas (e.g. 'scene:scene:residual=0,denoise=0'). Without variants: a default list. Every run adds
comfort=off (as bench/aec/echo_near.py: comfort noise is not the near end's and only adds scatter).

Prints, per variant, metrics.py's near_gain (the least-squares gain of the output on the near end
per 100 ms piece where the near end is above -45 dBFS, energy weighted), the same per second of the
double talk and per band (the output and the near end through the same brick-wall band-pass,
nearbands.py's), and the SNR of the near end over the noise per second in the microphone."""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import metrics  # noqa: E402
from nearbands import band, BANDS_HZ  # noqa: E402

DEFAULT = ["scene:scene:", "scene:scene:denoise=0", "scene:scene:residual=0", "scene:scene:residual=0,denoise=0",
           "scene:scene:preprocess=0", "noecho:silent:", "noecho:silent:denoise=0", "noecho:scene:", "nonoise:scene:",
           "near:silent:"]


def db(g, ps, sel):
    return 10 * np.log10(max(np.sum(g[sel] ** 2 * ps[sel]) / np.sum(ps[sel]), 1e-12)) if np.any(sel) else float("nan")


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    aupipe, scene = sys.argv[1], sys.argv[2]
    variants = sys.argv[3:] or DEFAULT
    facts, parts = metrics.load_scene(scene)
    near, n = parts["near"], len(parts["mic"])
    ps, act = metrics.near_pieces(near)
    t = np.arange(len(ps)) * metrics.PIECE / metrics.RATE
    seconds = sorted(set(int(x) for x in t[act]))
    bands = [(lo, min(hi, metrics.RATE // 2)) for lo, hi in BANDS_HZ if lo < metrics.RATE // 2]
    pn = np.sum(metrics.framed(parts["noise"], metrics.PIECE) ** 2, axis=1)
    pe = np.sum(metrics.framed(parts["echo"], metrics.PIECE) ** 2, axis=1)
    print(f"{os.path.basename(scene.rstrip('/'))}: near over noise per second (dB): "
          + " ".join(f"{s}s {10 * np.log10(ps[act & (t // 1 == s)].sum() / pn[act & (t // 1 == s)].sum()):+.1f}" for s in seconds))
    print(f"  near over echo per second (dB): "
          + " ".join(f"{s}s {10 * np.log10(ps[act & (t // 1 == s)].sum() / max(pe[act & (t // 1 == s)].sum(), 1e-20)):+.1f}" for s in seconds))
    nb = []
    for lo, hi in bands:
        x = band(near, lo, hi)
        nb.append(x)
    share = [10 * np.log10(max(np.sum(x[: len(act) * metrics.PIECE].reshape(-1, metrics.PIECE)[act] ** 2), 1e-20)
                           / np.sum(ps[act])) for x in nb]
    print("  bands (Hz): " + "  ".join(f"{lo}-{hi} ({s:+.0f} dB)" for (lo, hi), s in zip(bands, share)))
    print(f"  {'variant':44} {'all':>6}  " + " ".join(f"{s:>5}s" for s in seconds) + "  | " + " ".join(f"{lo:>5}" for lo, _ in bands))
    with tempfile.TemporaryDirectory() as tmp:
        mics = {"scene": os.path.join(scene, "mic.wav")}
        for name, x in (("noecho", parts["near"] + parts["noise"]), ("nonoise", parts["echo"] + parts["near"]), ("near", parts["near"])):
            mics[name] = os.path.join(tmp, name + ".wav")
            metrics.write_wav(mics[name], metrics.to16(x))
        fars = {"scene": os.path.join(scene, "far.wav"), "silent": os.path.join(tmp, "silent.wav")}
        metrics.write_wav(fars["silent"], np.zeros(n, dtype=np.int16))
        for v in variants:
            m, f, a = v.split(":", 2)
            args = [x for x in a.split(",") if x]
            out = os.path.join(tmp, "out.wav")
            with open(mics[m], "rb") as fin, open(out, "wb") as fout:
                subprocess.run([aupipe, "aec", f"ref={fars[f]}", *args, "comfort=off"], stdin=fin, stdout=fout,
                               stderr=subprocess.DEVNULL, check=True)
            y = metrics.fit(metrics.read_wav(out), n)
            y = metrics.aligned(y, metrics.lag(y, near))
            g, _ = metrics.piece_gains(y, near, act)
            per_s = [db(g, ps, act & (t // 1 == s)) for s in seconds]
            per_b = []
            for (lo, hi), x in zip(bands, nb):
                gb, psb = metrics.piece_gains(band(y, lo, hi), x, act & (np.sum(metrics.framed(x, metrics.PIECE) ** 2, axis=1) > 0))
                per_b.append(db(gb, psb, act & (psb > 0)))
            print(f"  {v:44} {db(g, ps, act):+6.2f}  " + " ".join(f"{x:+6.2f}" for x in per_s) + "  | "
                  + " ".join(f"{x:+5.1f}" for x in per_b), flush=True)


if __name__ == "__main__":
    main()
