"""aupipe alone over a scene set (every scene in SCENE_DIR, or NAMES="..."): compare.one with aupipe's label,
as compare.py table runs it (AECMOS with AECMOS_MODEL); prints ERLE, near end, convergence, reconvergence, CPU
and worst frame next to a previous run's json (BEFORE: compare.py's aec-anchor*.json or this script's), and
AECMOS per talk type, and writes this run's results as JSON. Usage, from the repository's root:
aupipe_only.py AUPIPE SCENE_DIR OUT.json BEFORE.json [aec ARGS...]"""
import json, os, sys
from multiprocessing import Pool
sys.path.insert(0, "bench/aec")
import compare

aupipe, root, out, before = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
extra = sys.argv[5:]
names = os.environ["NAMES"].split() if os.environ.get("NAMES") else compare.scenes_in(root)
aec = [aupipe, "aec", "ref={far}"] + extra
out_dir = os.path.abspath("bench/out")
jobs = [(os.path.join(root, n), "aupipe", aec, compare.linear_stage(aec)) for n in names]
compare.setup_anchor(out_dir)
with Pool(int(os.environ.get("AEC_WORKERS", "2")), initializer=compare.setup_anchor, initargs=(out_dir,)) as pool:
    res = list(pool.imap(compare.one, jobs))
prev = json.load(open(before))["results"]
results = {}
def mos(r):
    m = r.get("mos", {}).get("aupipe")
    if not m: return {}
    w = m[0]
    avg = lambda k, i: sum(x[i] for x in w[k]) / len(w[k]) if w.get(k) else float("nan")
    return {"far-half": avg("far-half", 0), "far-whole": avg("far-whole", 0), "start": avg("start", 0), "change": avg("change", 0),
            "dt-echo": avg("dt", 0), "dt-other": avg("dt", 1), "near-other": avg("near", 1), "zeros": m[1]}
f = lambda v: "   -" if v is None else f"{v:6.1f}"
print(f"{'scene':22} {'ERLE':>13} {'near':>13} {'conv':>13} {'reconv':>13} {'cpu ms/s':>15} {'worst':>11}")
tot_cpu = 0.0
for label, name, r, cpu in res:
    results[f"aupipe|{name}"] = r
    if "error" in r:
        print(name, r["error"]); continue
    p = prev.get(f"aupipe|{name}", {})
    tot_cpu += cpu or 0
    print(f"{name:22} {f(p.get('erle_echo'))} {f(r.get('erle_echo'))} {f(p.get('near_gain'))} {f(r.get('near_gain'))} {f(p.get('conv_echo'))} {f(r.get('conv_echo'))} "
          f"{f(p.get('reconv'))} {f(r.get('reconv'))}  {1000*(cpu or 0)/42:7.1f} {f(100*(p.get('worst_frame') or 0))} {f(100*(r.get('worst_frame') or 0))}")
    mb, ma = mos(p), mos(r)
    if ma:
        print("    AECMOS " + ", ".join(f"{k} {mb.get(k, float('nan')):.2f}->{ma[k]:.2f}" for k in ma))
print(f"CPU per second of audio: {1000 * tot_cpu / (42 * len(res)):.1f} ms (this run, {len(res)} scenes)")
json.dump({"results": results, "cpu": {"aupipe": tot_cpu}}, open(out, "w"))
