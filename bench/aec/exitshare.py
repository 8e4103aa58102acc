"""bench/aec/exitshare.py: where aupipe's residual echo sits against the near talker's activity.

Per scene (every scene in SCENE_DIR, or NAMES="..."): aupipe's command with comfort=off over the
microphone and over the microphone with its noise inverted (the residual by phase inversion, as
metrics.measure), then the echo-only frames that metrics' ERLE counts (20 ms, the near end silent,
the echo >= 10 dB above the noise, after converge_from_s, outside the second after a path change)
split by the time since the near end was last active (a 20 ms frame with any near-end sample):
0-20 ms, 20-40, 40-60, 60-120, 120-300, over 300 ms (or never). Prints, per scene, the ERLE over all of them and
per bucket, each bucket's share of the residual's energy, and near_gain. Usage, from the
repository's root (the venv's python):
exitshare.py AUPIPE SCENE_DIR [aec ARGS...]   (AEC_WORKERS=2: scenes at a time; JSON=path: figures)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

BUCKETS_S = ((0.0, 0.02), (0.02, 0.04), (0.04, 0.06), (0.06, 0.12), (0.12, 0.3), (0.3, np.inf))


def run(cmd, mic, out):
    with open(mic, "rb") as i, open(out, "wb") as o:
        subprocess.run(cmd, stdin=i, stdout=o, stderr=subprocess.DEVNULL, check=True)


def one(job):
    d, cmd = job
    facts, parts = metrics.load_scene(d)
    tmp = tempfile.mkdtemp(prefix="exitshare-")
    try:
        far, mic = os.path.join(d, "far.wav"), os.path.join(d, "mic.wav")
        inv = os.path.join(tmp, "inv.wav")
        metrics.write_wav(inv, metrics.inverted_mic(parts))
        c = [a.replace("{far}", far) for a in cmd]
        run(c, mic, os.path.join(tmp, "o.wav"))
        run(c, inv, os.path.join(tmp, "oi.wav"))
        y, yi = metrics.read_wav(os.path.join(tmp, "o.wav")), metrics.read_wav(os.path.join(tmp, "oi.wav"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    res = metrics.measure(facts, parts, y, yi)
    n = len(parts["mic"])
    s = metrics.aligned((metrics.fit(y, n) + metrics.fit(yi, n)) / 2, res["lag"])
    t, E, ok = metrics.far_only(facts, parts, metrics.FRAME, facts["converge_from_s"], True)
    R = np.sum(metrics.framed(s, metrics.FRAME) ** 2, axis=1)[: len(E)]
    near_on = np.any(metrics.framed(parts["near"], metrics.FRAME) != 0, axis=1)[: len(E)]
    since = np.full(len(E), 1e9)
    last = None
    for i in range(len(E)):
        if near_on[i]:
            last = i
        elif last is not None:
            since[i] = (i - last - 1) * metrics.FRAME / metrics.RATE
    out = {"name": facts["name"], "erle": metrics.erle_db(E[ok].sum(), R[ok].sum()), "near_gain": res["near_gain"], "buckets": []}
    total = R[ok].sum()
    for lo, hi in BUCKETS_S:
        m = ok & (since >= lo) & (since < hi)
        out["buckets"].append({"frames": int(m.sum()), "erle": metrics.erle_db(E[m].sum(), R[m].sum()) if m.any() else None,
                               "share": float(R[m].sum() / total) if total > 0 else None})
    return out


def main():
    aupipe, root = sys.argv[1], sys.argv[2]
    cmd = [aupipe, "aec", "ref={far}"] + sys.argv[3:] + ["comfort=off"]
    names = os.environ["NAMES"].split() if os.environ.get("NAMES") else sorted(
        x for x in os.listdir(root) if os.path.exists(os.path.join(root, x, "scene.json")))
    with Pool(int(os.environ.get("AEC_WORKERS", "2"))) as pool:
        res = pool.map(one, [(os.path.join(root, x), cmd) for x in names])
    f = lambda v: "    -" if v is None else f"{v:5.1f}"  # noqa: E731
    print(f"{'scene':22} {'ERLE':>5} {'near':>6}  " + "  ".join(f"{int(lo*1000)}-{'' if hi == np.inf else int(hi*1000)}ms " for lo, hi in BUCKETS_S))
    for r in res:
        print(f"{r['name']:22} {f(r['erle'])} {r['near_gain'] if r['near_gain'] is None else round(r['near_gain'], 2):6}  "
              + "  ".join(f"{f(b['erle'])} {100 * (b['share'] or 0):4.0f}%{'':1}" for b in r["buckets"]))
    if os.environ.get("JSON"):
        with open(os.environ["JSON"], "w") as fh:
            json.dump(res, fh)


if __name__ == "__main__":
    main()
