"""How vad's constants were fitted (VoiceActivityDetector, SpeechLevelRange): a Python model of the
detector, per-frame features on material from vad_bench.py's generator with other seeds than the
bench's, the logistic fit of the two spectral features, and a grid over the level gate, each
scored like the bench (frame F1 per condition, 100 ms hangover) next to WebRTC's VAD.

  python3 vad_fit.py gen 3800 train.npz       # 8 clips, seeds 3800-3807 (the bench: 2800-2807)
  python3 vad_fit.py features train.npz       # -> train.features.npy (a few minutes)
  python3 vad_fit.py fit train.npz            # logistic weights of presence and band SNR
  python3 vad_fit.py gate train.npz           # F1 table over the gate's start, step and share
  python3 vad_fit.py score test.npz           # the shipped constants on other material

Needs numpy, espeak-ng and webrtcvad-wheels (the venv bench/vad/run makes). The model follows the
Swift code step by step (16 kHz: 20 ms Hann window in a 512-point FFT, bins 150 Hz to 4 kHz); its
F1 figures agree with the binary's to about the third decimal.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vad_bench as vb  # noqa: E402

R, F, W, NF = 16000, 160, 320, 512
WIN = 0.5 - 0.5 * np.cos(2 * np.pi * (np.arange(W) + 0.5) / W)
B0, B1 = int(np.ceil(150 / (R / NF))), int(4000 / (R / NF))
SEED_FRAMES, HANGOVER = 10, 10
# The shipped constants (VoiceActivityDetector, SpeechLevelRange).
BIAS, W_PRESENCE, W_SNR, SMOOTH = -0.478, 2.856, 0.367, 0.8
LOW_Q, HIGH_Q, LEVEL_STEP, SHARE, MIN_RANGE = 0.3, 0.9, 0.015, 0.25, 2.0
WARM_STEP, WARM_FRAMES = 0.2, 100.0


def generate(seed0, out):
    """vad_bench.py's clips, labels and WebRTC decisions (modes 0-3) with seeds seed0...seed0+7."""
    d = {}
    for i in range(vb.CLIPS):
        rng = np.random.default_rng(seed0 + i)
        n = vb.CLIP_SECONDS * vb.RATE
        voices = [vb.TARGET_VOICES[i % 6], vb.TARGET_VOICES[(i + 3) % 6]]
        c = vb.scenes.scale_to(vb.target(rng, voices, n), vb.SPEECH_DBFS)
        noise = {"pink": vb.scenes.pink(rng, n), "babble": vb.babble(rng, n, vb.BABBLE_TALKERS[i % 4])}
        d[f"lab{i}"] = vb.labels(c)
        for kind in vb.NOISES:
            for snr in vb.SNRS:
                x = c + noise[kind] * (vb.scenes.active_rms(c) * 10 ** (-snr / 20))
                x16 = np.clip(np.round(x * 32768), -32768, 32767).astype("<i2")
                d[f"{kind}{snr}_{i}"] = x16
                d[f"web{kind}{snr}_{i}"] = np.array([vb.webrtc(x16, m) for m in range(4)])
    np.savez(out, **d)


def features(x):
    """Per 10 ms frame: presence (share of bins 6 dB over their noise), band SNR and band level
    (nats), as VoiceActivityDetector.decide computes them, and whether the frame is silent (band
    power under white noise at -90 dBFS: it does not seed the noise, and after the seed counts at
    that floor); the seed frames
    (the first 10 that are not silent, and the silent ones before) have presence 0, SNR -99."""
    x = x.astype(np.float64) / 32768
    n, nb = len(x) // F, B1 - B0 + 1
    floor = np.log(10 ** (-90 / 10) * W * 0.375)
    silent_power = np.exp(floor) * nb
    hist, seed, S, L = np.zeros(W), np.zeros(nb), None, None
    out = np.zeros((n, 4))
    seeded = updates = 0
    for k in range(n):
        hist = np.concatenate([hist[F:], x[k * F:(k + 1) * F]])
        P = np.maximum(np.abs(np.fft.rfft(hist * WIN, NF)) ** 2, 1e-14)[B0:B1 + 1]
        a = (np.r_[P[0], P[:-1]] + P + np.r_[P[1:], P[-1]]) / 3
        S = a if S is None else 0.7 * S + 0.3 * a
        silent = P.sum() < silent_power
        if seeded < SEED_FRAMES:
            out[k] = [0, -99, np.log(P.sum()), silent]
            if not silent:
                seeded += 1
                seed += P / SEED_FRAMES
                if seeded == SEED_FRAMES:
                    L = np.maximum(np.log(seed), floor)
            continue
        N = np.exp(L) * 1.28
        # After the seed a silent frame counts too, its level at the floor (since c36409a).
        out[k] = [(S > 4 * N).mean(), np.log(P.sum() / N.sum()), np.log(max(P.sum(), silent_power)), silent]
        step = 0.05 + 0.25 * np.exp(-updates / 100.0)
        updates += 1
        L = np.maximum(np.where(np.log(S) > L, L + step * 0.3, L - step * 0.7), floor)
    return out


def smooth(z, a, first):
    o, s = np.zeros(len(z)), first
    for j, v in enumerate(z):
        s = a * s + (1 - a) * v
        o[j] = s
    return o


def gate(level, silent, seeded, share, min_range):
    """SpeechLevelRange.passes over the frames after the seed (starting at the first one that is
    not silent; silent frames before it do not count, after it they do, at the floor's level;
    the step starts WARM_STEP larger)."""
    ok = np.ones(len(level), bool)
    lo, tracked = None, 0
    for j in np.nonzero(seeded)[0]:
        v = level[j]
        if lo is None:
            if silent[j]:
                continue
            lo = hi = sm = v
        step = LEVEL_STEP + WARM_STEP * np.exp(-tracked / WARM_FRAMES)
        tracked += 1
        lo += step * LOW_Q if v > lo else -step * (1 - LOW_Q)
        hi += step * HIGH_Q if v > hi else -step * (1 - HIGH_Q)
        sm = SMOOTH * sm + (1 - SMOOTH) * v
        ok[j] = hi - lo < min_range or sm - lo >= share * (hi - lo)
    return ok


def decide(f, weights=(BIAS, W_PRESENCE, W_SNR), share=SHARE, min_range=MIN_RANGE):
    seeded = f[:, 1] != -99
    odds = np.full(len(f), -9.0)
    odds[seeded] = smooth(weights[0] + weights[1] * f[seeded, 0] + weights[2] * f[seeded, 1], SMOOTH, 0.0)
    return (odds > 0) & gate(f[:, 2], f[:, 3].astype(bool), seeded, share, min_range)


def hang(dec):
    """The unit's hangover (100 ms) on the detector's decisions."""
    return vb.hangover(dec, HANGOVER)


def counts(ref, hyp):
    n = min(len(ref), len(hyp))
    ref, hyp = ref[:n].astype(bool), hyp[:n].astype(bool)
    return np.array([(ref & hyp).sum(), (~ref & hyp).sum(), (ref & ~hyp).sum()])


def f1(c):
    return 2 * c[0] / max(1, 2 * c[0] + c[1] + c[2])


def table(d, feats, **kw):
    """One line: F1 of the model / WebRTC's best mode per condition, and the conditions missed."""
    cells, missed = [], 0
    for kind in vb.NOISES:
        for snr in vb.SNRS:
            acc, web = np.zeros(3), np.zeros((4, 3))
            for i in range(vb.CLIPS):
                acc += counts(d[f"lab{i}"], hang(decide(feats[f"{kind}{snr}_{i}"], **kw)))
                for m in range(4):
                    web[m] += counts(d[f"lab{i}"], d[f"web{kind}{snr}_{i}"][m])
            best = max(f1(w) for w in web)
            missed += f1(acc) < best
            cells.append(f"{kind[0]}{snr} {f1(acc):.3f}/{best:.3f}")
    return " ".join(cells) + f"  missed {missed}"


def load(path):
    d = np.load(path)
    fpath = path.replace(".npz", ".features.npz")
    return d, (np.load(fpath) if os.path.exists(fpath) else None), fpath


def fit(d, feats):
    """Logistic regression (Newton) of the labels on presence and band SNR, seeded frames of 20-2989."""
    X, Y = [], []
    for kind in vb.NOISES:
        for snr in vb.SNRS:
            for i in range(vb.CLIPS):
                f, keep = feats[f"{kind}{snr}_{i}"][20:2990], d[f"lab{i}"][20:2990]
                X.append(f[f[:, 1] != -99, :2])
                Y.append(keep[f[:, 1] != -99])
    X, Y = np.concatenate(X), np.concatenate(Y).astype(float)
    mu, sd = X.mean(0), X.std(0)
    Xn = np.c_[np.ones(len(X)), (X - mu) / sd]
    w = np.zeros(3)
    for _ in range(30):
        p = 1 / (1 + np.exp(-Xn @ w))
        hess = (Xn * (p * (1 - p))[:, None]).T @ Xn + 1e-6 * np.eye(3)
        w += np.linalg.solve(hess, Xn.T @ (Y - p))
    return np.r_[w[0] - np.sum(w[1:] * mu / sd), w[1:] / sd]


def main():
    cmd, arg = sys.argv[1], sys.argv[2]
    if cmd == "gen":
        generate(int(arg), sys.argv[3])
        return
    d, feats, fpath = load(arg)
    if cmd == "features":
        np.savez(fpath, **{k: features(d[k]) for k in d.files if k[:4] in ("pink", "babb")})
    elif cmd == "fit":
        w = fit(d, feats)
        print("fitted bias, presence, snr weights:", np.round(w, 3), "(shipped bias: fitted + 0.25)")
    elif cmd == "gate":
        global LEVEL_STEP, WARM_STEP, WARM_FRAMES
        for WARM_STEP, WARM_FRAMES in [(0.0, 100.0), (0.1, 100.0), (0.1, 200.0), (0.2, 100.0), (0.2, 200.0)]:
            for LEVEL_STEP in [0.015, 0.02, 0.03]:
                for share in [0.25, 0.3, 0.35]:
                    print(f"warm {WARM_STEP}/{WARM_FRAMES:.0f} step {LEVEL_STEP} share {share}:",
                          table(d, feats, share=share), flush=True)
        WARM_STEP, WARM_FRAMES, LEVEL_STEP = 0.2, 100.0, 0.015
        print("no gate:", table(d, feats, min_range=1e9))
    elif cmd == "score":
        print("shipped:", table(d, feats))
        print("no gate:", table(d, feats, min_range=1e9))


if __name__ == "__main__":
    main()
