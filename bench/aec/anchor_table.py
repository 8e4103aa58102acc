"""bench/aec/anchor_table.py: the aec table against the anchor (issue 26): aupipe's defaults beside
WebRTC's AEC3 + NS (aec3.py), WebRTC 0.3's AEC + NS (true delay) and speexdsp + preprocessor,
with ERLE per kind, the near end in double talk, convergence, CPU per second of audio and
AECMOS per talk type (aecmos.py); and the ERLE-over-time plot of one scene.

The figures come from compare.py's table run (results[(label, scene)]: metrics.measure's
figures, with "mos" from compare.rated) and are kept in bench/out/aec-anchor.json.
"""
import json

import numpy as np

COLUMNS = [("aupipe", "aupipe defaults"), ("aec3", "AEC3 + NS"), ("webrtc", "WebRTC 0.3 AEC + NS"), ("speex+pp", "speexdsp + pp")]
SECONDS = 42.0
MOS_TYPES = [("far-half", 0, "far alone, last half: echo"), ("far-whole", 0, "far alone, whole segments: echo"),
             ("start", 0, "first 2.5 s of the call: echo"), ("change", 0, "2.5 s after a path change: echo"),
             ("dt", 0, "double talk: echo"), ("dt", 1, "double talk: other"), ("near", 1, "near end alone: other")]


def f1(x, sign=False):
    if x is None:
        return "-"
    return f"{x:+.1f}" if sign else f"{x:.1f}"


def erle(r):
    """Echo-only where there is one (aupipe: its comfort noise taken out; compare.echo_only)."""
    return r.get("erle_echo", r.get("erle_c", r["erle"]))


def erle_cn(r):
    """The output as it is, comfort noise counted as residual echo by phase inversion."""
    return r.get("erle_c", r["erle"])


def show(names, results, cpu, json_path, rate=16000):
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"names": names, "cpu": cpu, "rate": rate, "results": {f"{p}|{n}": r for (p, n), r in results.items()}}, f)
    ok = lambda p: [n for n in names if "error" not in results.get((p, n), {"error": 1})]  # noqa: E731
    cols = [(p, t) for p, t in COLUMNS if ok(p)]
    kinds = sorted({results[("aupipe", n)]["kind"] for n in ok("aupipe")})
    w = 22
    print()
    print(f"Against the anchor (issue 26), {len(names)} scenes of {SECONDS:.0f} s at {rate // 1000} kHz; aec3 = WebRTC AEC3 through PyPI's livekit")
    print("  (echo cancellation, noise suppression, high-pass; 10 ms frames, the far end first; it finds the delay itself).")
    print(f"{'':34}" + "".join(f" | {t:>{w}}" for _, t in cols))
    for title, of in (("ERLE per kind, mean / worst (dB)", erle), ("the same, comfort noise counted", erle_cn)):
        if of is erle_cn and not any("erle_echo" in results[("aupipe", n)] for n in ok("aupipe")):
            continue
        print(f"{title:34}" + "".join(f" | {'':>{w}}" for _ in cols))
        for k in kinds:
            cells = []
            for p, _ in cols:
                v = [of(results[(p, n)]) for n in ok(p) if results[(p, n)]["kind"] == k]
                cells.append(f"{f1(np.mean(v))} / {f1(min(v))}" if v else "-")
            print(f"  {k:32}" + "".join(f" | {c:>{w}}" for c in cells))

    def row(label, fn):
        print(f"{label:34}" + "".join(f" | {fn(p):>{w}}" for p, _ in cols))

    def gains(p, quiet):
        return [results[(p, n)]["near_gain"] for n in ok(p)
                if results[(p, n)]["near_gain"] is not None and (results[(p, n)]["kind"] == "quietnear") == quiet]

    def worst_time(p, key):
        """Mean and worst over the scenes where it can be measured (conv_measurable; the path
        changes for reconv), and how many never got there."""
        rs = [results[(p, n)] for n in ok(p)]
        rs = [r for r in rs if r.get("conv_measurable", True)] if key == "conv" else [r for r in rs if r["kind"] == "pathchange"]
        v = [r.get(key) for r in rs if r.get(key) is not None]
        never = len(rs) - len(v)
        return (f"{f1(np.mean(v))} / {f1(max(v))}" if v else "-") + (f", {never} never" if never else "")

    row("near end in double talk, mean/worst", lambda p: f"{f1(np.mean(gains(p, False)), True)} / {f1(min(gains(p, False)), True)}")
    row("  quiet near talkers, mean/worst", lambda p: f"{f1(np.mean(gains(p, True)), True)} / {f1(min(gains(p, True)), True)}" if gains(p, True) else "-")
    row("convergence, mean/worst (s)", lambda p: worst_time(p, "conv"))
    row("reconvergence, mean/worst (s)", lambda p: worst_time(p, "reconv"))
    row("CPU per second of audio (ms)", lambda p: f"{1000 * cpu.get(p, 0) / (len(ok(p)) * SECONDS):.1f}")
    mos_cols = cols + [("mic", "unprocessed mic")]

    def mos_of(p):
        src = "aupipe" if p == "mic" else p
        return [results[(src, n)]["mos"][p] for n in ok(src) if p in results[(src, n)].get("mos", {})]

    if not mos_of("aupipe"):
        print("  (no AECMOS: see compare.py's note on stderr)")
        return
    print(f"{'AECMOS (16 kHz model, 1-5), mean':34}" + "".join(f" | {t:>{w}}" for _, t in mos_cols))
    for typ, i, label in MOS_TYPES:
        cells = []
        for p, _ in mos_cols:
            v = [s[i] for m in mos_of(p) for s in m[0].get(typ, [])]
            cells.append(f"{np.mean(v):.2f} ({len(v)})" if v else "-")
        print(f"  {label:32}" + "".join(f" | {c:>{w}}" for c in cells))
    cells = []
    for p, _ in mos_cols:
        m = mos_of(p)
        cells.append(f"{sum(x[1] for x in m)} of {sum(x[2] for x in m)}" if m else "-")
    print(f"  {'windows mostly exact zeros':32}" + "".join(f" | {c:>{w}}" for c in cells))
    print("  ERLE: aupipe's echo-only (the same run with comfort=off: its output less its comfort noise), then, as before,")
    print("  with the comfort noise counted as residual echo; the other columns' comfort noise cannot be taken out (the same figure).")
    print("  CPU: aupipe, webrtc and speex+pp: the process's user + system time over the microphone run of each scene;")
    print("  aec3: its frame loop's thread CPU time less the same loop through a module with every feature off (aec3.py).")
    print("  AECMOS: (n) windows rated; near end alone from a run with a silent far end (aecmos.py; bench/README.md).")
    targets(names, results, cpu, rate)


def targets(names, results, cpu, rate=16000):
    """Issue 26's targets for aupipe's defaults, each with its figure and MET / MISSED (AECMOS
    against AEC3's figure of the same run). Latency is bench/run's."""
    ok = [n for n in names if "error" not in results.get(("aupipe", n), {"error": 1})]
    rs = {n: results[("aupipe", n)] for n in ok}
    lines = []

    def line(label, value, met):
        lines.append(f"  {label:66} {value:>12}   {'MET' if met else 'MISSED'}")

    def kind_mean(k):
        v = [erle(r) for r in rs.values() if r["kind"] == k]
        return np.mean(v) if v else None

    for label, k, floor in (("ERLE, rooms 0-120 ms, mean >= 46 dB", "room-near", 46), ("ERLE, rooms 300-400 ms, mean >= 46 dB", "room-far", 46),
                            ("ERLE, saturating loudspeaker, mean >= 38 dB", "sat", 38), ("ERLE, babble 15 dB SNR, mean >= 38 dB", "babble15", 38),
                            ("ERLE, drift, mean >= 40 dB", "drift", 40)):
        m = kind_mean(k)
        if m is not None:
            line(label, f1(m), m >= floor)
    under = sorted((erle(r), n) for n, r in rs.items() if erle(r) < 30)
    line("ERLE, no scene under 30 dB", f"{len(under)} under", not under)
    if under:
        lines.append("    " + ", ".join(f"{n} {f1(e)}" for e, n in under))
    g = [r["near_gain"] for r in rs.values() if r["near_gain"] is not None]
    if g:
        line("near end in double talk, every scene >= -2 dB (quiet talkers too)", f1(min(g), True), min(g) >= -2)
        line("near end in double talk, mean >= -1.5 dB", f1(np.mean(g), True), np.mean(g) >= -1.5)
    conv = [r.get("conv") for r in rs.values() if r.get("conv_measurable", True)]
    if conv:
        worst = max((c for c in conv if c is not None), default=None)
        line("convergence, every scene <= 0.5 s", f"{worst:.2f} s, {conv.count(None)} never" if worst is not None else "never", worst is not None and worst <= 0.5 and None not in conv)
    reconv = [r.get("reconv") for r in rs.values() if r["kind"] == "pathchange"]
    if reconv:
        worst = max((c for c in reconv if c is not None), default=None)
        line("reconvergence, every path change <= 0.5 s", f"{worst:.2f} s" if worst is not None else "never", worst is not None and worst <= 0.5 and None not in reconv)
    worst = [(r["worst_frame"], n) for n, r in rs.items() if r.get("worst_frame") is not None]
    if worst:
        w, n = max(worst)
        line(f"worst frame's thread CPU time <= 50 % of its real time{' (48 kHz)' if rate == 48000 else ''}", f"{100 * w:.0f} % ({n})", w <= 0.5)
    if rate != 16000:
        lines.append(f"  (CPU at {rate // 1000} kHz: the target is within 2x of the 16 kHz figure; bench/README.md)")
    elif cpu.get("aupipe") and cpu.get("aec3"):
        a = cpu["aupipe"] / len(ok)
        b = cpu["aec3"] / len([n for n in names if "error" not in results.get(("aec3", n), {"error": 1})])
        line("CPU per second of audio <= 1.0x AEC3's", f"{a / b:.2f}x", a <= b)

    def mos(p, typ, i):
        v = [s[i] for n in names for s in results.get((p, n), {}).get("mos", {}).get(p, ({},))[0].get(typ, [])]
        return np.mean(v) if v else None

    for typ, i, label in MOS_TYPES:
        a, b = mos("aupipe", typ, i), mos("aec3", typ, i)
        if a is None or b is None:
            continue
        least = {"start": 4.3, "change": 4.5, "far-whole": 4.4}.get(typ, 0)
        line(f"AECMOS {label}, >= AEC3's{f' and >= {least}' if least else ''}", f"{a:.2f} / {b:.2f}", a >= b and a >= least)
    zeros = [results[("aupipe", n)]["mos"]["aupipe"][1] for n in ok if "aupipe" in results[("aupipe", n)].get("mos", {})]
    if zeros:
        line("AECMOS windows mostly exact zeros: none", str(sum(zeros)), sum(zeros) == 0)
    print("Issue 26's targets, aupipe's defaults (AECMOS: aupipe / AEC3; latency: bench/run)")
    print("\n".join(lines))


def reprint(json_path):
    """The anchor table again from a run's aec-anchor.json (no canceller runs)."""
    with open(json_path) as f:
        saved = json.load(f)
    results = {tuple(k.split("|", 1)): r for k, r in saved["results"].items()}
    names = saved.get("names") or sorted({n for _, n in results})
    show(names, results, saved["cpu"], None, saved.get("rate", 16000))


def plot(json_path, scene, png, t0=0.0, t1=None):
    """The short-term ERLE (100 ms pieces, far end alone) of aupipe and AEC3 over time on scene,
    from t0 to t1 s (the whole scene by default)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with open(json_path) as f:
        res = json.load(f)["results"]
    fig, ax = plt.subplots(figsize=(10, 4), dpi=100)
    for p, style in (("aupipe", "-"), ("aec3", "--")):
        r = res.get(f"{p}|{scene}", {})
        if "track" in r:
            t, e = (np.array(x, dtype=float) for x in r["track"])
            cut = np.nonzero(np.diff(t) > 0.15)[0] + 1        # no line across the stretches not measured
            t, e = np.insert(t, cut, np.nan), np.insert(e, cut, np.nan)
            ax.plot(t, e, style, marker=".", markersize=3, linewidth=1, label=f"{p} (ERLE {f1(erle(r))} dB after 3 s)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("short-term ERLE, 100 ms pieces (dB)")
    ax.set_title(f"{scene}: ERLE over time where the far end talks alone (capped at 60 dB)")
    ax.set_ylim(-5, 62)
    ax.set_xlim(float(t0), float(t1) if t1 is not None else SECONDS)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(png)
