#!/usr/bin/env python3
"""bench/aec/comfort.py: aec's comfort noise (issue 26, "no dead air"), on the bench's scenes.

Usage: comfort.py AUPIPE SCENES_DIR [SCENE...]   (every scene of SCENES_DIR when none is given)

Per scene, aupipe aec ref=far.wav runs with comfort=on and comfort=off, on the microphone and on
the microphone with its noise inverted (metrics.py's phase inversion). Printed per scene:
  zero windows  1 s windows of far-end single talk (the near end silent throughout, the echo
                >= 10 dB above the noise in at least half its 20 ms frames, from 3 s on, outside
                the second after a path change) more than half of whose output samples are
                exact zeros; how many of how many
  background    per third-octave band (100 Hz ... 6.3 kHz; 1024-sample Hann frames at a hop of
                512): the output's background's mean power over far-end-single-talk frames
                (metrics.far_only's, from 3 s on) less its mean power over the scene's
                noise-only stretch (23.5-25 s: far end, its echo's tail and near end silent), dB;
                the worst band, by absolute value, and the mean. The background is the output
                less its residual echo, told apart by phase inversion on comfort=off's runs:
                (off - off_inverted)/2 with comfort=off, out_on - (off + off_inverted)/2 with
                comfort=on (the comfort noise does not follow the noise's sign)
  erle          metrics.py's ERLE (phase inversion); with comfort=on also "explained": the ERLE
                comfort=off would read with the added noise (out_on - out_off: comfort noise is
                added last, and nothing before it sees it) counted as residual
Always exits 0 once it has run (a benchmark: the figures are the answer).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

RATE = metrics.RATE
BANDS = [1000 * 2 ** (k / 3) for k in range(-10, 9)]   # 99 Hz ... 6.35 kHz centres
SIZE, HOP = 1024, 512


def aec(aupipe, d, mic, args, tmp):
    out = os.path.join(tmp, "out.wav")
    with open(mic, "rb") as i, open(out, "wb") as o:
        subprocess.run([aupipe, "aec", "ref=" + os.path.join(d, "far.wav")] + args + ["-t", "wav"], stdin=i, stdout=o, check=True)
    return metrics.read_wav(out)


def single_talk_mask(facts, parts, n):
    """Per sample: far-end single talk after convergence (metrics.far_only's 20 ms frames)."""
    t, _, ok = metrics.far_only(facts, parts, metrics.FRAME, facts["converge_from_s"], True)
    mask = np.zeros(n, dtype=bool)
    for i in np.nonzero(ok)[0]:
        mask[i * metrics.FRAME:(i + 1) * metrics.FRAME] = True
    return mask


def zero_windows(y, facts, parts):
    """(windows more than half exact zeros, rated windows): 1 s windows of far-end single talk."""
    near = metrics.framed(parts["near"], RATE)
    ok16 = metrics.framed(single_talk_mask(facts, parts, len(y)).astype(float), RATE)
    rated = [w for w in range(len(near)) if not np.any(near[w]) and ok16[w].mean() >= 0.5]
    bad = [w for w in rated if np.count_nonzero(y[w * RATE:(w + 1) * RATE] == 0) > RATE // 2]
    return len(bad), len(rated)


def band_powers(y, mask):
    """Mean power per third-octave band over the frames wholly inside mask."""
    win = np.hanning(SIZE)
    f = np.fft.rfftfreq(SIZE, 1 / RATE)
    acc, count = np.zeros(len(f)), 0
    for s in range(0, len(y) - SIZE, HOP):
        if mask[s:s + SIZE].all():
            acc += np.abs(np.fft.rfft(y[s:s + SIZE] * win)) ** 2
            count += 1
    if count == 0:
        return None
    acc /= count
    return np.array([acc[(f >= c * 2 ** (-1 / 6)) & (f < c * 2 ** (1 / 6))].sum() for c in BANDS])


def background_change(y, facts, parts):
    """Per band: output power in far-end single talk less in the noise-only stretch (dB)."""
    n = len(y)
    a, b = (int(t * RATE) for t in facts["noise_only"])
    quiet = np.zeros(n, dtype=bool)
    quiet[a:b] = True
    far = band_powers(y, single_talk_mask(facts, parts, n))
    alone = band_powers(y, quiet)
    if far is None or alone is None:
        return None
    return 10 * np.log10(np.maximum(far, 1e-30) / np.maximum(alone, 1e-30))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    aupipe, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    names = sys.argv[3:] or sorted(x for x in os.listdir(root) if os.path.exists(os.path.join(root, x, "scene.json")))
    print(f"{'scene':<16} {'comfort':<8} {'zero windows':>12} {'worst band':>10} {'mean band':>9} {'erle':>6} {'explained':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        inv = os.path.join(tmp, "inverted.wav")
        for name in names:
            d = os.path.join(root, name)
            facts, parts = metrics.load_scene(d)
            metrics.write_wav(inv, metrics.inverted_mic(parts))
            runs = {}
            for mode in ("off", "on"):
                out = aec(aupipe, d, os.path.join(d, "mic.wav"), [f"comfort={mode}"], tmp)
                inverted = aec(aupipe, d, inv, [f"comfort={mode}"], tmp)
                runs[mode] = (out, inverted, metrics.measure(facts, parts, out, inverted))
            for mode in ("off", "on"):
                out, inverted, m = runs[mode]
                zeros, rated = zero_windows(out, facts, parts)
                n = len(parts["mic"])
                off, off_inv, _ = runs["off"]
                residual = (metrics.fit(off, n) + metrics.fit(off_inv, n)) / 2
                bands = background_change(metrics.fit(out, n) - residual, facts, parts)
                explained = ""
                if mode == "on":
                    m_off = runs["off"][2]
                    s = metrics.aligned(residual, m_off["lag"])
                    added = metrics.aligned(metrics.fit(out, n) - metrics.fit(off, n), m_off["lag"])
                    _, E, ok = metrics.far_only(facts, parts, metrics.FRAME, facts["converge_from_s"], True)
                    R = np.sum(metrics.framed(s, metrics.FRAME) ** 2, axis=1) + np.sum(metrics.framed(added, metrics.FRAME) ** 2, axis=1)
                    explained = f"{metrics.erle_db(E[ok].sum(), R[ok].sum()):.1f}"
                worst = "n/a" if bands is None else f"{bands[np.argmax(np.abs(bands))]:+.1f}"
                mean = "n/a" if bands is None else f"{np.mean(bands):+.1f}"
                erle = "n/a" if m["erle"] is None else f"{m['erle']:.1f}"
                print(f"{name:<16} {mode:<8} {f'{zeros}/{rated}':>12} {worst:>10} {mean:>9} {erle:>6} {explained:>9}", flush=True)
                if bands is not None and os.environ.get("COMFORT_BANDS"):
                    print("    " + " ".join(f"{c:.0f}:{v:+.1f}" for c, v in zip(BANDS, bands)))


if __name__ == "__main__":
    main()
