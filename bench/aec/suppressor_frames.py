"""Where a scene's residual echo goes through the residual echo suppressor, from its per-frame traces: apply
bench/aec/suppressor_trace.patch (a temporary trace, not merged; it applies to c589559), build, and run
  AEC_SPK_TRACE=T1 AEC_SPK_TRACE2=T2 aupipe aec ref=SCENE/far.wav comfort=off < SCENE/mic.wav > /dev/null
then: suppressor_frames.py SCENE T1 T2. Over the frames of far end alone by the scene's parts (after 3 s, the far
end's pause left out): the share of the frames and of the gain's output (before bins of near end pass C) taken
for a near end by `aec`'s detector, the level test, NearEndPresence alone and incoherence alone, and echo alone;
in DistortedEcho's deep frames, C's power over the output's (dB) and the share of the raw gain's output held at the
noise bed, at 1 − β·R/|C|² and at the floor. The patch also holds aecspk4's screening switches (AEC_SPK_W: the spread's
weight for a second reading of NearEndPresence's frames; AEC_SPK_LOWHZ, AEC_SPK_LOWN, AEC_SPK_WIDEN: what keeps a frame)
and AEC_SPK_TRACE3 (per bin, for chosen frames' spectra)."""
import sys, json
import numpy as np

scene, t1, t2 = sys.argv[1:4]
N = 320  # 20 ms frames at 16 kHz
facts = json.load(open(scene + "/scene.json")); d = np.load(scene + "/parts.npz")
A, B = np.loadtxt(t1), np.loadtxt(t2)
n = min(len(A), len(B), len(d["echo"]) // N); A, B = A[:n], B[:n]
power = lambda x: np.mean(x[: n * N].reshape(n, N) ** 2, axis=1)
near, echo, t = power(d["near"]), power(d["echo"]), np.arange(n) * N / facts["rate"]
fs = facts["far_silent"]
far = (near < 1e-9) & (t > 3) & (echo > 1e-5) & ~((t >= fs[0]) & (t < fs[1] + 0.5))
dt, loud, expl, nef, coh = (A[:, i] > 0 for i in (1, 2, 4, 5, 9))
active, deep, out = B[:, 1] > 0, B[:, 2] > 0, B[:, 5]
classes = {"detector": active & dt, "level test": active & ~dt & loud, "NearEndPresence": active & ~dt & ~loud & nef,
           "incoherent, not explained": active & ~dt & ~loud & ~nef & ~coh & ~expl, "echo alone": ~active, "  of which deep": deep}
total = out[far].sum()
for name, m in classes.items():
    m = m & far
    print(f"{name:28} frames {m.sum() / far.sum():6.1%}  output {out[m].sum() / total:6.1%}")
m = far & deep
bounds = B[m, 9:12].sum(axis=0)
print(f"deep frames: C -> output {10 * np.log10(B[m, 4].sum() / out[m].sum()):.1f} dB (the suppressor's gain alone "
      f"{10 * np.log10(B[m, 4].sum() / B[m, 7].sum()):.1f}); raw gain's output at the bed {bounds[0] / bounds.sum():.0%}, "
      f"at 1 - beta*R/C {bounds[1] / bounds.sum():.0%}, at the floor {bounds[2] / bounds.sum():.0%}")
