"""The first 2.5 s of a call and the 2.5 s after an echo-path change, per 0.5 s piece: aupipe's
AECMOS echo rating (aecmos.Scorer.score("st", far, mic, out)) of each piece and the mean short-term
echo-only ERLE (the 100 ms far-end-alone pieces of metrics.measure's track, comfort noise off) in
it, beside the whole scene's echo-only ERLE and near end (compare.one's figures are not rerun).
Usage, from the repository's root, under bench/out/venv/bin/python with AECMOS_MODEL set:
pieces.py AUPIPE SCENE_DIR OUT.json [aec ARGS...]   (NAMES="a b" for some scenes; AEC_WORKERS)"""
import json, os, shutil, sys, tempfile
from multiprocessing import Pool
import numpy as np
sys.path.insert(0, "bench/aec")
import compare, metrics, aecmos

PIECE_S, SPAN_S = 0.5, 2.5


def one(job):
    d, cmd = job
    facts, parts = metrics.load_scene(d)
    tmp = tempfile.mkdtemp(prefix="aec-pieces-")
    path = lambda n: os.path.join(tmp, n)  # noqa: E731
    try:
        far, mic = os.path.join(d, "far.wav"), os.path.join(d, "mic.wav")
        res, _ = compare.measured(facts, parts, cmd, None, far, mic, path)
        quiet = compare.without_comfort(cmd)
        metrics.write_wav(path("inverted.wav"), metrics.inverted_mic(parts))
        compare.run(compare.fill(quiet, far), mic, path("q.wav"))
        compare.run(compare.fill(quiet, far), path("inverted.wav"), path("qi.wav"))
        q = metrics.measure(facts, parts, metrics.read_wav(path("q.wav")), metrics.read_wav(path("qi.wav")))
        t, st = (np.array(x) for x in q["track"])
        sc = aecmos.Scorer(os.path.abspath("bench/out/aecmos"))
        farx = aecmos.at_model_rate(metrics.fit(metrics.read_wav(far), len(parts["mic"])), metrics.RATE)
        m, out = aecmos.at_model_rate(parts["mic"], metrics.RATE), aecmos.at_model_rate(res["_out"], metrics.RATE)
        R = aecmos.RATE
        cut = lambda x, a, b: x[int(a * R):int(b * R)]  # noqa: E731
        spans = {"start": 0.0}
        if facts.get("path_change_s") is not None:
            spans["change"] = facts["path_change_s"]
        rows = {}
        for k, t0 in spans.items():
            whole = sc.score("st", cut(farx, t0, t0 + SPAN_S), cut(m, t0, t0 + SPAN_S), cut(out, t0, t0 + SPAN_S))[0]
            ps = []
            for i in range(int(SPAN_S / PIECE_S)):
                a, b = t0 + i * PIECE_S, t0 + (i + 1) * PIECE_S
                mos = sc.score("st", cut(farx, a, b), cut(m, a, b), cut(out, a, b))[0]
                w = (t >= a) & (t < b)
                ps.append((mos, float(np.mean(st[w])) if np.any(w) else None))
            rows[k] = (whole, ps)
        return facts["name"], {"rows": rows, "erle_echo": q["erle"], "near_gain": res["near_gain"], "conv": q["conv"], "reconv": q["reconv"]}
    except Exception as e:
        return facts["name"], {"error": str(e)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    aupipe, root, outjson = sys.argv[1:4]
    cmd = [aupipe, "aec", "ref={far}"] + sys.argv[4:]
    names = os.environ["NAMES"].split() if os.environ.get("NAMES") else compare.scenes_in(root)
    with Pool(int(os.environ.get("AEC_WORKERS", "2"))) as pool:
        res = dict(pool.imap(one, [(os.path.join(root, n), cmd) for n in names]))
    f = lambda p: f"{p[0]:.2f} / {'-' if p[1] is None else round(p[1])}"  # noqa: E731
    means = {}
    for n, r in res.items():
        if "error" in r:
            print(n, r["error"])
    for k in ("start", "change"):
        print(f"| {k} | 2.5 s | " + " | ".join(f"{i * PIECE_S:g}-{(i + 1) * PIECE_S:g} s" for i in range(int(SPAN_S / PIECE_S))) + " | ERLE | near | conv/reconv |")
        for n, r in res.items():
            if "error" in r or k not in r["rows"]:
                continue
            whole, ps = r["rows"][k]
            means.setdefault(k, []).append([whole] + [p[0] for p in ps])
            cv = r["conv"] if k == "start" else r["reconv"]
            print(f"| `{n}` | {whole:.2f} | " + " | ".join(f(p) for p in ps) + f" | {r['erle_echo']:.1f} | {r['near_gain']:+.2f} | {cv} |")
        if means.get(k):
            print("| mean | " + " | ".join(f"{x:.2f}" for x in np.mean(means[k], axis=0)) + " | | | |")
    with open(outjson, "w") as fh:
        json.dump(res, fh, indent=1)
