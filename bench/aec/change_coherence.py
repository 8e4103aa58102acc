"""After an echo-path change, per 20 ms frame (the suppressor's windows: 40 ms sqrt-Hann, 1024-point
transforms, smoothing 0.85): the share of a signal's power that the far end X explains linearly at
one lag (FarEndLagCoherence's share: sum over bins of |S_sx|^2/S_xx over sum of S_ss, less the
estimate's bias), the best of the lags from one window before the bulk delay to three after, for
C (aupipe's canceller output, `aec ref=far.wav residual=0 preprocess=0`) and for D (the
microphone), once with the scene's own microphone (echo alone after the change) and once with a
near talker added who starts 0.1 s after the change (2 s of the scene's near speech from its first
double-talk span, at its own level). Prints per 0.5 s piece the medians over frames of echo, resp.
of the near talker, and the share of frames in a run of 4 (80 ms) at 0.4 or more; then, pooled over
the scenes' first 1.5 s after the change, the share of frames at or over each threshold.
Usage, from the repository's root, under bench/out/venv/bin/python:
change_coherence.py AUPIPE SCENE_DIR...   (16 kHz scenes with path_change_s; a one-off measurement, bench/README.md
"The change by its lag coherence")"""
import json, os, subprocess, sys, tempfile
import numpy as np
sys.path.insert(0, "bench/aec")
import metrics

if len(sys.argv) < 3:
    print(__doc__.strip().splitlines()[-2], file=sys.stderr)
    sys.exit(64)
AUPIPE = sys.argv[1]; DIRS = sys.argv[2:]
TMP = tempfile.mkdtemp(prefix="aec-changecoh-")
N, L, F, A = 320, 640, 1024, 0.85
win = np.sqrt(np.hanning(L + 1)[:L])
def spec(x):
    n = len(x) // N
    out = np.zeros((n, F // 2 + 1), complex)
    for t in range(n):
        seg = x[max(0, t * N - L + N):t * N + N]
        seg = np.pad(seg, (L - len(seg), 0))
        out[t] = np.fft.rfft(win * seg, F)
    return out
def shares(C, X, lags):
    T, K = C.shape
    best = np.zeros(T); scc = np.zeros(K); sxx = np.zeros(K)
    sx = {j: np.zeros(K, complex) for j in lags}; w = sw = 0.0
    px = np.zeros((T, K))
    for t in range(T):
        sxx = A * sxx + (1 - A) * abs(X[t]) ** 2; px[t] = sxx
        scc = A * scc + (1 - A) * abs(C[t]) ** 2
        w = A * w + (1 - A); sw = A * A * sw + (1 - A) ** 2
        bias = sw / w / w
        b = 0
        for j in lags:
            if t - j < 0: continue
            sx[j] = A * sx[j] + (1 - A) * C[t] * np.conj(X[t - j])
            p = px[t - j]
            e = np.sum(np.minimum(np.where(p > 0, abs(sx[j]) ** 2 / np.maximum(p, 1e-30), 0), scc))
            b = max(b, e)
        tot = scc.sum()
        best[t] = max(0, (b / tot - bias) / (1 - bias)) if tot > 0 and bias < 1 else 0
    return best
def aec(far, mic, out):
    with open(mic, "rb") as i, open(out, "wb") as o:
        subprocess.run([AUPIPE, "aec", f"ref={far}", "residual=0", "preprocess=0"], stdin=i, stdout=o, check=True, stderr=subprocess.DEVNULL)
POOL = {"C": ([], []), "D": ([], [])}
for d in DIRS:
    sc = json.load(open(os.path.join(d, "scene.json"))); metrics.set_rate(16000)
    z = np.load(os.path.join(d, "parts.npz")); ch = sc["path_change_s"]; R = 16000
    far = os.path.join(d, "far.wav"); x = metrics.read_wav(far)
    dt0 = sc["double_talk"][0][0]
    near = np.zeros_like(z["near"]); s0 = int((ch + 0.1) * R)
    near[s0:s0 + 2 * R] = z["near"][int(dt0 * R):int(dt0 * R) + 2 * R]
    mic2 = z["echo"] + z["noise"] + near
    metrics.write_wav(os.path.join(TMP, "mic2.wav"), np.clip(np.round(mic2 * 32768), -32768, 32767))
    aec(far, os.path.join(d, "mic.wav"), os.path.join(TMP, "c1.wav")); aec(far, os.path.join(TMP, "mic2.wav"), os.path.join(TMP, "c2.wav"))
    c1, c2 = metrics.read_wav(os.path.join(TMP, "c1.wav")), metrics.read_wav(os.path.join(TMP, "c2.wav"))
    t0, t1 = int((ch - 3) * R), int((ch + 3) * R)
    x = metrics.fit(x, len(z["echo"]))
    X = spec(x[t0:t1]); dl = int(round(sc["delay_ms"] / 20))
    lags = list(range(max(0, dl - 1), dl + 4))
    s1 = shares(spec(c1[t0:t1]), X, lags); s2 = shares(spec(c2[t0:t1]), X, lags)
    mic = z["echo"] + z["noise"] + z["near"]
    sd1 = shares(spec(mic[t0:t1]), X, lags); sd2 = shares(spec(mic2[t0:t1]), X, lags)
    wl = list(range(0, dl + 10)); sw1 = shares(spec(c1[t0:t1]), X, wl)
    nf = spec(near[t0:t1]); ef = spec(z["echo"][t0:t1])
    npow = (abs(nf) ** 2).sum(1); epow = (abs(ef) ** 2).sum(1)
    f0 = int(3 / 0.02)
    def run4(s):
        r = 0; out = []
        for v in s:
            r = r + 1 if v >= 0.4 else 0; out.append(r >= 4)
        return np.array(out)
    r1, r2 = run4(s1), run4(s2); rd1, rd2 = run4(sd1), run4(sd2)
    print(f"== {os.path.basename(d)} change {ch}s delay {sc['delay_ms']}ms lags {lags}")
    for a_, b_ in ((0, .5), (.5, 1), (1, 1.5), (1.5, 2.5)):
        sl = slice(f0 + int(a_ / .02), f0 + int(b_ / .02))
        farf = epow[sl] > 1e-4 * epow.max()
        nearf = npow[sl] > 1e-3 * npow.max()
        print(f"  {a_}-{b_}s echo alone: share median {np.median(s1[sl][farf]) if farf.any() else 0:.2f}, run4 {r1[sl][farf].mean() if farf.any() else 0:.2f}"
              f" | near talker: share median {np.median(s2[sl][nearf]) if nearf.any() else 0:.2f}, run4 {r2[sl][nearf].mean() if nearf.any() else 0:.2f} ({nearf.sum()} frames)"
              f" || D: echo {np.median(sd1[sl][farf]) if farf.any() else 0:.2f} near {np.median(sd2[sl][nearf]) if nearf.any() else 0:.2f} run4 {rd1[sl][farf].mean() if farf.any() else 0:.2f}/{rd2[sl][nearf].mean() if nearf.any() else 0:.2f}; C any lag {np.median(sw1[sl][farf]) if farf.any() else 0:.2f}")
    sl = slice(f0, f0 + int(1.5 / .02)); farf = epow[sl] > 1e-4 * epow.max(); nearf = npow[sl] > 1e-3 * npow.max()
    POOL["C"][0].extend(s1[sl][farf]); POOL["C"][1].extend(s2[sl][nearf]); POOL["D"][0].extend(sd1[sl][farf]); POOL["D"][1].extend(sd2[sl][nearf])
    pre = slice(f0 - 100, f0 - 10); farf = epow[pre] > 1e-4 * epow.max()
    print(f"  before change (converged): share median {np.median(s1[pre][farf]):.2f}")

for k, (e, n) in POOL.items():
    e, n = np.array(e), np.array(n)
    print(k, "0-1.5 s after the change, frames: echo alone", len(e), "near talker", len(n))
    for th in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6):
        print(f"  share >= {th}: echo alone {np.mean(e >= th):.2f}, near talker {np.mean(n >= th):.2f}")

import shutil
shutil.rmtree(TMP, ignore_errors=True)
