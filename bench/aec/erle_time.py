"""Raw echo-only ERLE of one aupipe binary on one scene per window of time, and each window's share
of the residual after convergence: where in the call the residual echo lies (the linear filter's
first seconds against later). Phase inversion as echo_near.py (comfort=off, the microphone and its
noise-inverted copy), without erle_c's correction. Usage, from the repository's root:
erle_time.py AUPIPE SCENE_DIR WINDOW_SECONDS [aec ARGS...]
Prints the whole-scene figure, then per window "ERLE/share%" ("-" where fewer than 5 frames count)."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics

if len(sys.argv) < 4:
    print(__doc__.strip().splitlines()[-2], file=sys.stderr)
    sys.exit(64)
binary, scene, window = sys.argv[1], sys.argv[2], float(sys.argv[3])
facts, parts = metrics.load_scene(scene)
outs = metrics.phase_inverted_outputs(binary, scene, parts, sys.argv[4:])
n = len(parts["mic"])
out, inv = metrics.fit(outs[0], n), metrics.fit(outs[1], n)
s = metrics.aligned((out + inv) / 2, metrics.lag(out, parts["near"]))
t, E, ok = metrics.far_only(facts, parts, metrics.FRAME, 0.0, True)
R = np.sum(metrics.framed(metrics.fit(s, n), metrics.FRAME) ** 2, axis=1)[: len(E)]
after = t >= facts["converge_from_s"]
total = R[ok & after].sum()
row = []
for a in np.arange(0, t[-1], window):
    w = ok & (t >= a) & (t < a + window)
    if w.sum() < 5:
        row.append("-")
        continue
    row.append(f"{10 * np.log10(E[w].sum() / max(R[w].sum(), 1e-20)):.1f}/{100 * R[w & after].sum() / max(total, 1e-30):.0f}%")
print(f"{os.path.basename(scene.rstrip('/'))} {' '.join(sys.argv[4:]) or '(defaults)'}: ERLE {metrics.residual_erle(facts, parts, s):.2f}")
print(f"  per {window:g} s from 0: " + " ".join(row))
