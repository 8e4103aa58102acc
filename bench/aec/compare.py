#!/usr/bin/env python3
"""bench/aec/compare.py: runs the echo cancellers over the scenes and prints the aec table.

  compare.py table AUPIPE SPEEX_AEC WEBRTC_AEC SCENES_DIR
      aupipe's defaults (aec ref=far.wav), speexdsp + preprocessor with the true delay
      (bench/c/aec.c), WebRTC's AEC with the true delay and delay-agnostic
      (bench/c/webrtc_aec.cc), per scene; then the targets (MET/MISSED) and the CPU cost of
      aupipe's defaults next to the bare speexdsp loop (aec.c without the preprocessor).
      Each canceller runs twice per scene, the second time with the noise inverted (ERLE by
      phase inversion: metrics.py); aupipe's twice more with comfort=off (its echo-only ERLE:
      echo_only) and its linear stage four more times in the noisy scenes (metrics.split_check).
  compare.py sweep AUPIPE SCENES_DIR 'ARGS' ['ARGS'...]
      aupipe aec ref=far.wav ARGS for each ARGS over every scene: mean and worst ERLE, worst
      near-end gain in double talk, per kind and overall (the measurement behind the defaults;
      ERLE is echo-only: comfort=off's runs, less erle_c's correction where the scene is noisy).
      With bench/out/venv's python (livekit, onnxruntime, librosa: bench/aec/run makes it), also
      WebRTC's AEC3 (aec3.py) and AECMOS (aecmos.py), and the anchor table (anchor_table.py),
      whose figures go to bench/out/aec-anchor.json. AEC_WORKERS=2: two jobs at a time.
  compare.py anchor bench/out/aec-anchor.json
      the anchor table again from a table run's figures.
  compare.py plot bench/out/aec-anchor.json SCENE OUT.png [T0 T1]
      the short-term ERLE over time of aupipe and AEC3 on SCENE, from a table's run (matplotlib),
      from T0 to T1 s (the whole scene by default).
Always exits 0 once it has run (a benchmark: the figures are the answer).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import anchor_table  # noqa: E402
import metrics  # noqa: E402

AEC3_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "aec3.py")

SPEEX_TAIL_MS = 200   # the speexdsp + preprocessor column: aupipe's tail before issue 13 (10 ms frames)
BARE_TAIL_MS, BARE_FRAME_MS = 400, 20   # the bare loop of the CPU row: aupipe's default tail and frame


def scenes_in(d):
    return sorted(n for n in os.listdir(d) if os.path.exists(os.path.join(d, n, "scene.json")))


def run(cmd, mic, out):
    """Runs cmd < mic > out; returns the child's CPU seconds (user + system), or the figure the
    child gives on stderr as `cpu-net SECONDS` (aec3.py: its frame loop less the same loop with
    processing off, thread CPU time)."""
    with open(mic, "rb") as i, open(out, "wb") as o:
        p = subprocess.Popen(cmd, stdin=i, stdout=o, stderr=subprocess.PIPE)
        _, status, ru = os.wait4(p.pid, 0)
        err = p.stderr.read().decode(errors="replace").strip()
        p.stderr.close()
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {err.splitlines()[-1] if err else ''}")
    net = [line.split()[1] for line in err.splitlines() if line.startswith("cpu-net ")]
    return float(net[-1]) if net else ru.ru_utime + ru.ru_stime


def fill(cmd, far):
    return [a.replace("{far}", far) for a in cmd]


REALIZATION_SHIFTS_S = (11, 23)   # babble15 scenes: the noise moved by these many seconds, two more realizations


def measured(facts, parts, cmd, linear, far, mic, path):
    """cmd (with {far}) over the microphone file mic and over parts' microphone with the noise
    inverted: metrics.measure's figures; with linear (the linear stage's command: cmd is
    aupipe's), also the echo-only ERLE (echo_only: "erle_echo", "conv_echo"), and with noise at
    40 dB SNR or less split_check's and misadjustment_through's figures ("split"), erle_c, and
    erle_echo less what phase inversion misses. path(name) names a scratch file. Returns
    (figures, CPU seconds of the run over mic)."""
    metrics.write_wav(path("inverted.wav"), metrics.inverted_mic(parts))
    cpu = run(fill(cmd, far), mic, path("out.wav"))
    run(fill(cmd, far), path("inverted.wav"), path("out-inverted.wav"))
    y, yi = metrics.read_wav(path("out.wav")), metrics.read_wav(path("out-inverted.wav"))
    res = metrics.measure(facts, parts, y, yi)
    res["_out"] = metrics.aligned(metrics.fit(y, len(parts["mic"])), res["lag"])   # for AECMOS; dropped by one()
    if linear is None:
        return res, cpu
    echo_only(res, facts, parts, cmd, far, mic, path)
    if facts["snr_db"] > 40:
        return res, cpu
    silent = path("silent.wav")
    metrics.write_wav(silent, np.zeros(len(parts["mic"]), dtype=np.int16))
    for name, x in zip(("silent+.wav", "silent-.wav"), metrics.silent_far_mics(parts)):
        metrics.write_wav(path(name), x)
    outs = []
    for i, (f, m) in enumerate([(far, mic), (far, path("inverted.wav")), (silent, path("silent+.wav")), (silent, path("silent-.wav"))]):
        run(fill(linear, f), m, path(f"linear{i}.wav"))
        outs.append(metrics.read_wav(path(f"linear{i}.wav")))
    exact, split, err = metrics.split_check(facts, parts, *outs)
    cells = metrics.misadjustment_through(facts, parts, *(metrics.aligned(x, res["lag"]) for x in (y, yi)), outs)
    res["split"] = {"exact": exact, "split": split, "err": err, "cells": cells}
    res["erle_c"] = res["erle"] - max(0.0, err)
    res["erle_echo"] -= max(0.0, err)
    return res, cpu


def without_comfort(cmd):
    """The aupipe command with comfort=off (whatever it asked): the same output less the comfort
    noise, to the 16-bit rounding (ComfortNoiseSceneTests.theDefaultsLessTheirComfortNoiseAreComfortOff)."""
    return [a for a in cmd if not a.startswith("comfort=")] + ["comfort=off"]


def echo_only(res, facts, parts, cmd, far, mic, path):
    """The echo-only ERLE of aupipe's command into res: phase inversion over the same command with
    its comfort noise taken out (without_comfort; comfort noise is added last and does not
    follow the noise's sign, so phase inversion counts it as residual echo: at babble's level,
    15 dB under the echo, it dominates the residual): "erle_echo" (metrics.measure's erle of those
    runs; measured() takes erle_c's correction off it in noisy scenes), "conv_echo" and
    "track_echo" (convergence and the short-term ERLE over time, the same way)."""
    quiet = without_comfort(cmd)
    if quiet == cmd:
        res["erle_echo"], res["conv_echo"] = res["erle"], res["conv"]
        return
    run(fill(quiet, far), mic, path("quiet.wav"))
    run(fill(quiet, far), path("inverted.wav"), path("quiet-inverted.wav"))
    q = metrics.measure(facts, parts, metrics.read_wav(path("quiet.wav")), metrics.read_wav(path("quiet-inverted.wav")))
    res["erle_echo"], res["conv_echo"], res["track_echo"] = q["erle"], q["conv"], q["track"]


def one(job):
    """(scene dir, label, command, what) -> (label, scene name, figures or error, cpu).
    The command has {far} where the far end's path goes. what: "cpu" (one run, its CPU only),
    "measure" (two runs, the second with the noise inverted: metrics.measure), or the linear
    stage's command: then also, in a scene with noise at 40 dB SNR or less, the linear stage
    checked against phase inversion (metrics.split_check) and erle_c, and in a babble15 scene
    erle_c over two more noise realizations (REALIZATION_SHIFTS_S; "realizations")."""
    d, label, cmd, what = job
    facts, parts = metrics.load_scene(d)
    tmp = tempfile.mkdtemp(prefix="aec-")
    path = lambda name: os.path.join(tmp, name)  # noqa: E731
    try:
        far, mic = os.path.join(d, "far.wav"), os.path.join(d, "mic.wav")
        if what == "cpu":
            cpu = run(fill(cmd, far), mic, path("out.wav"))
            return label, facts["name"], {"kind": facts["kind"]}, cpu
        linear = None if what == "measure" else what
        res, cpu = measured(facts, parts, cmd, linear, far, mic, path)
        if label == "aupipe" and linear is not None:
            res["worst_frame"] = worst_frame(fill(cmd, far), mic)
        if label in RATED and anchor.get("scorer") is not None:
            rated(res, facts, parts, cmd, label, far, path)
        if linear is not None and facts["kind"] == "babble15":
            res["realizations"] = {}
            for shift in REALIZATION_SHIFTS_S:
                moved = metrics.noise_moved(parts, shift)
                metrics.write_wav(path("moved.wav"), metrics.to16(moved["mic"]))
                r = measured(facts, moved, cmd, linear, far, path("moved.wav"), path)[0]
                res["realizations"][shift] = r["erle_c"]
                res.setdefault("realizations_echo", {})[shift] = r["erle_echo"]
    except Exception as e:  # a failed run is reported in its cell
        return label, facts["name"], {"error": str(e)}, None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    res.pop("_out", None)
    res["kind"] = facts["kind"]
    return label, facts["name"], res, cpu


def worst_frame(cmd, mic):
    """aupipe's slowest frame over the scene, as the share of its frame's real time its thread
    CPU time took (`--stats=json`'s `worstFrameRealTimeFraction`; issue 26: at most 0.5 at 48 kHz),
    or None when the run gives none (the scene's other figures stand)."""
    with open(mic, "rb") as i:
        p = subprocess.run([cmd[0], "--stats=json"] + cmd[1:], stdin=i, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.decode(errors="replace")
    try:
        stats, _ = json.JSONDecoder().raw_decode(err[err.index("{"):])
        return stats["units"][0]["figures"]["worstFrameRealTimeFraction"] if p.returncode == 0 else None
    except (ValueError, KeyError, IndexError):
        print(f"compare.py: {' '.join(cmd)} --stats=json gave no worst frame (exit {p.returncode})", file=sys.stderr)
        return None


RATED = ("aupipe", "aec3", "webrtc", "speex+pp")   # the columns AECMOS rates (and the unprocessed microphone)
anchor = {}    # "scorer": the AECMOS model, loaded once per process (setup_anchor)


def setup_anchor(out_dir):
    """Checks livekit (AEC3's column) and loads AECMOS (aecmos.Scorer, or None with a note on
    stderr); returns why there is no AEC3 column, or None."""
    try:
        import aecmos
        anchor["scorer"] = aecmos.Scorer(os.path.join(out_dir, "aecmos"))
    except Exception as e:
        anchor["scorer"] = None
        print(f"compare.py: no AECMOS: {e}", file=sys.stderr)
    try:
        from livekit import rtc  # noqa: F401
        return None
    except Exception as e:
        return str(e)


def rated(res, facts, parts, cmd, label, far, path):
    """AECMOS on the rated windows (aecmos.rate) of the run in res and of one more run whose far
    end is silent and whose microphone is near end + noise (near end alone); for aupipe's
    column also the unprocessed microphone's. Into res["mos"][label or "mic"]: (scores, zero
    windows, windows rated)."""
    import aecmos
    silent = path("silent-far.wav")
    metrics.write_wav(silent, np.zeros(len(parts["mic"]), dtype=np.int16))
    near16 = metrics.silent_far_mics(parts)[0]
    metrics.write_wav(path("near-alone.wav"), near16)
    run(fill(cmd, silent), path("near-alone.wav"), path("near-out.wav"))
    near_mic = near16 / 32768.0
    ny = metrics.fit(metrics.read_wav(path("near-out.wav")), len(near_mic))
    ny = metrics.aligned(ny, metrics.lag(ny, parts["near"]))
    farx = metrics.fit(metrics.read_wav(far), len(parts["mic"]))
    sc = anchor["scorer"]
    # The model is 16 kHz: a 48 kHz scene is rated on a copy of every signal downsampled to 16 kHz.
    farx, mic, out, near_mic, ny = (aecmos.at_model_rate(x, metrics.RATE) for x in (farx, parts["mic"], res["_out"], near_mic, ny))
    res["mos"] = {label: aecmos.rate(sc, facts, farx, mic, out, near_mic, ny)}
    if label == "aupipe":
        res["mos"]["mic"] = aecmos.rate(sc, facts, farx, mic, mic, near_mic, near_mic)


def linear_stage(cmd):
    """The aupipe command's linear canceller alone (preprocess=0, whatever the command asked:
    no preprocessor, no residual echo suppressor or nonlinear canceller; the same filter, delay
    and drift)."""
    return [a for a in cmd if not a.startswith("preprocess=")] + ["preprocess=0"]


def erle_of(r):
    """The ERLE a target is judged on: aupipe's echo-only ERLE (erle_echo: its comfort noise taken
    out, and what phase inversion misses where the linear stage was checked), else erle_c, else erle."""
    return r.get("erle_echo", r.get("erle_c", r["erle"]))


def erle_cn(r):
    """The ERLE of the output as it is, comfort noise counted as residual echo (the figure before
    erle_echo): erle_c where the linear stage was checked, else erle."""
    return r.get("erle_c", r["erle"])


def f1(x, sign=False):
    if x is None:
        return "-"
    return f"{x:+.1f}" if sign else f"{x:.1f}"


def fe(r):
    """ERLE, with * when it is less what phase inversion misses (erle_c), and aupipe's with its
    comfort noise counted after a slash (erle_cn)."""
    star = "*" if "erle_c" in r else " "
    return f1(erle_of(r)) + star + (f"/{f1(erle_cn(r))}" if "erle_echo" in r else "")


def table(aupipe, speex, webrtc, root):
    names = scenes_in(root)
    with open(os.path.join(root, names[0], "scene.json")) as fh:
        first = json.load(fh)
    # One rate and one kind of voice per scene set (scenes.py --rate, --voice).
    rate, recorded = first.get("rate", 16000), first.get("voice") == "recorded"
    aec = [aupipe, "aec", "ref={far}"]
    procs = [("aupipe", lambda f: aec, linear_stage(aec)),
             ("speex+pp", lambda f: [speex, str(SPEEX_TAIL_MS), "1", "{far}", str(f["delay_ms"])], "measure"),
             ("webrtc", lambda f: [webrtc, str(f["delay_ms"]), "{far}"], "measure"),
             ("webrtc-DA", lambda f: [webrtc, "agnostic", "{far}"], "measure"),
             ("bare-speex", lambda f: [speex, str(BARE_TAIL_MS), "0", "{far}", str(f["delay_ms"]), str(BARE_FRAME_MS)], "cpu")]
    out_dir = os.path.dirname(os.path.abspath(root))
    why = setup_anchor(out_dir)
    if why is None:
        procs.insert(1, ("aec3", lambda f: [sys.executable, AEC3_PY, "{far}"], "measure"))
    else:
        print(f"compare.py: no AEC3 column: {why}", file=sys.stderr)
    jobs = []
    for n in names:
        d = os.path.join(root, n)
        with open(os.path.join(d, "scene.json")) as fh:
            facts = json.load(fh)
        jobs += [(d, label, make(facts), what) for label, make, what in procs]
    results, cpu = {}, {}
    # One at a time by default: the CPU figures are per process and the machine may be shared;
    # AEC_WORKERS=2 runs two jobs at once (CPU time, not wall time, is measured).
    workers = int(os.environ.get("AEC_WORKERS", "1"))
    pool = Pool(workers, initializer=setup_anchor, initargs=(out_dir,)) if workers > 1 and why is None else None
    for label, name, res, c in (pool.imap(one, jobs) if pool else map(one, jobs)):
        results[(label, name)] = res
        cpu[label] = cpu.get(label, 0.0) + (c or 0.0)
    shown = [p for p, _, _ in procs if p != "bare-speex"]
    head = f"{'scene':16}" + "".join(f" | {p + (': ERLE/+cn' if p == 'aupipe' else ': ERLE') + ' gain SISDR NR conv':43}" for p in shown)
    print(head)
    print("-" * len(head))
    for n in names:
        cells = []
        for p in shown:
            r = results[(p, n)]
            if "error" in r:
                cells.append(f"{r['error'][:43]:43}")
            else:
                cells.append(f"{fe(r):>14} {f1(r['near_gain'], True):>6} {f1(r['sisdr']):>5} {f1(r['nr']):>5} {f1(r['conv']):>5}   ")
        print(f"{n:16}" + "".join(f" | {c:43}" for c in cells))
    pcs = [n for n in names if results[("aupipe", n)].get("reconv") is not None or "pathchange" in n]
    for n in pcs:
        print(f"{'':16}   reconvergence after the path change in {n} (s): "
              + ", ".join(f"{p} {f1(results[(p, n)].get('reconv'))}" for p in shown))
    print("   ERLE dB after convergence (the residual echo told from the noise by phase inversion; *: less what that misses")
    print("   at the linear stage, below); aupipe's ERLE is echo-only: the same run with comfort=off (its output less the comfort")
    print("   noise, which phase inversion would count as residual echo), then after the slash (+cn) with the comfort noise counted;")
    print("   the other cancellers' comfort noise cannot be taken out); gain: near end's own component in double talk, dB; SISDR in double talk, dB;")
    print("   NR: noise reduction in the noise-only stretch, dB; conv: convergence time, s ('-': never). See bench/README.md.")
    checked = [n for n in names if "split" in results[("aupipe", n)]]
    if checked:
        print()
        print("Phase inversion checked at aupipe's linear stage (aec ref=far.wav preprocess=0), where the residual echo is known")
        print("exactly (the stage's output less its output for near +- noise with a silent far end): the noise moves the")
        print("filter's weights, and that misadjustment, echo though it is, follows the noise's sign and drops out of the sum.")
        print("erle_c = ERLE less that difference (when positive), assuming what follows the linear stage suppresses the")
        print("misadjustment as it suppresses the rest of the residual echo:")
        for n in checked:
            r = results[("aupipe", n)]
            c = r["split"]
            print(f"  {n:18} linear stage: exact {f1(c['exact'])}, phase inversion {f1(c['split'])} ({f1(c['err'], True)});"
                  f" whole chain: phase inversion {f1(r['erle'])}, erle_c {f1(r['erle_c'])}")
        print("The assumption checked: what is left of the linear stage's misadjustment in the chain's output, measured (the")
        print("least-squares projection of half the difference of the two outputs on it, per STFT cell of 100 ms by 400 Hz where")
        print("the far end is alone, less the noise's bias), over those cells: ERLE by phase inversion / with what is measured")
        print("to be left of the misadjustment / with erle_c's correction. The two ways agree within about 1 dB; neither is exact")
        print("(one gain per cell cannot follow the suppressor's gains within it; the cells' samples are not independent):")
        for n in checked:
            c = results[("aupipe", n)]["split"]["cells"]
            if c[0] is not None:
                print(f"  {n:18} {f1(c[0])} / {f1(c[1])} / {f1(c[2])}")
        moved = [n for n in checked if "realizations" in results[("aupipe", n)]]
        if moved:
            print("erle_c over other realizations of the noise (the same babble moved by " + " and ".join(f"{s} s" for s in REALIZATION_SHIFTS_S)
                  + "): one realization moves the figure by a dB or so; echo-only, then with the comfort noise counted:")
            for n in moved:
                r = results[("aupipe", n)]
                print(f"  {n:18} {f1(r['erle_echo'])} as made, " + ", ".join(f"{f1(x)} moved {s} s" for s, x in r["realizations_echo"].items())
                      + f"; {f1(r['erle_c'])} as made, " + ", ".join(f"{f1(x)} moved {s} s" for s, x in r["realizations"].items()))

    a = {n: results[("aupipe", n)] for n in names}
    ok = [n for n in names if "error" not in a[n]]

    def mean(rs, key):
        v = [r[key] for r in rs if r[key] is not None]
        return float(np.mean(v)) if v else None

    def worst(rs, key):
        v = [r[key] if r[key] is not None else -99 for r in rs]
        return min(v) if v else None

    def rows(p):
        """The targets' rows for processor p: (label, figure, target or None for a row that is no target)."""
        def rs(k=None):
            return [results[(p, n)] | {"kind": a[n].get("kind")} for n in names
                    if "error" not in results[(p, n)] and "error" not in a[n] and (k is None or a[n]["kind"] == k)]
        talk = [r for r in rs() if r["kind"] != "quietnear"]
        return [("mean ERLE, rooms at delays <= 120 ms >= 40 dB", mean(rs("room-near"), "erle"), 40),
                ("mean ERLE, rooms at delays 300-400 ms >= 40 dB", mean(rs("room-far"), "erle"), 40),
                ("ERLE with a saturating loudspeaker >= 30 dB (worst)", worst(rs("sat"), "erle"), 30),
                ("ERLE, babble at 15 dB SNR >= 30 dB (echo-only, erle_c; worst of 3x3 runs)",
                 worst([r | {"erle": min([erle_of(r)] + list(r.get("realizations_echo", r.get("realizations", {})).values()))} for r in rs("babble15")], "erle"), 30),
                ("ERLE with drift up to +-1000 ppm >= 30 dB (worst)", worst(rs("drift"), "erle"), 30),
                ("near-end gain in double talk >= -2 dB in every scene (worst)", worst(talk, "near_gain"), -2),
                ("  no target: near end 10 dB under the echo, in noise (worst)", worst(rs("quietnear"), "near_gain"), None)]

    print()
    print("Targets, aupipe's defaults (aec ref=far.wav):")
    for label, x, target in rows("aupipe"):
        print(f"  {label:64} {f1(x):>7}  {'' if target is None else 'MET' if x is not None and x >= target else 'MISSED'}")
    pc = [a[n] for n in ok if a[n].get("reconv") is not None or a[n]["kind"] == "pathchange"]
    if pc:
        x = max((r["reconv"] if r["reconv"] is not None else 99) for r in pc)
        print(f"  {'reconvergence after an echo-path change within 1 s':64} {f1(x):>7}  {'MET' if x <= 1 else 'MISSED'}")
    never = [n for n in names if "error" in a[n] or (a[n]["conv"] is None and a[n]["conv_measurable"])]
    unknown = [n for n in names if n not in never and a[n]["conv"] is None]
    print(f"  {'every scene converges':64} {len(names) - len(never) - len(unknown):>3}/{len(names)}  {'MET' if not never else 'MISSED: ' + ' '.join(never)}"
          + (f" (not measurable: the echo too rarely 10 dB above the noise: {' '.join(unknown)})" if unknown else ""))
    if cpu.get("bare-speex"):
        r = cpu["aupipe"] / cpu["bare-speex"]
        print(f"  {f'CPU at {rate // 1000} kHz mono <= 3x the bare speexdsp loop':64} {r:>6.2f}x  {'MET' if r <= 3 else 'MISSED'}"
              f"   (aupipe {cpu['aupipe']:.2f} s, bare loop tail {BARE_TAIL_MS} ms frame {BARE_FRAME_MS} ms {cpu['bare-speex']:.2f} s of CPU over"
              f" {len(names)} scenes of {len(names) * 42} s audio)")
    print("  for comparison (the same rows; babble by phase inversion alone: their linear stages cannot be run apart): "
          + "; ".join(f"{p}: " + " / ".join(f1(x) for _, x, _ in rows(p)) for p in shown[1:]))
    if why is None:
        json_name = f"aec-anchor-{first['set']}.json" if first.get("set") in ("apart", "early") else "aec-anchor16r.json" if recorded else "aec-anchor.json" if rate == 16000 else f"aec-anchor{rate // 1000}.json"
        anchor_table.show(names, results, cpu, os.path.join(out_dir, json_name), rate)


def sweep(aupipe, root, configs, workers=2):
    names = scenes_in(root)
    jobs = [(os.path.join(root, n), cfg, [aupipe, "aec", "ref={far}"] + cfg.split(), linear_stage([aupipe, "aec", "ref={far}"] + cfg.split()))
            for cfg in configs for n in names]
    with Pool(workers) as pool:
        out = pool.map(one, jobs)
    by = {}
    for cfg, name, res, _ in out:
        by.setdefault(cfg, []).append((name, res))
    kinds = sorted({r["kind"] for rs in by.values() for _, r in rs if "kind" in r})
    print(f"{'aec ARGS':44} {'mean':>5} {'worst':>5} {'gainmin':>7} {'sisdr':>5} {'noconv':>6} {'worst*':>6} {'gain*':>6} {'early':>5}  " + " ".join(f"{k[:9]:>9}" for k in kinds))
    for cfg in configs:
        rs = [r for _, r in by[cfg] if "error" not in r]
        if len(rs) < len(by[cfg]):
            print(f"{cfg:44} failed: {[r['error'] for _, r in by[cfg] if 'error' in r][0]}")
            continue
        e = [erle_of(r) for r in rs]
        per = " ".join(f"{np.mean([erle_of(r) for r in rs if r['kind'] == k]):4.1f}/{min(erle_of(r) for r in rs if r['kind'] == k):4.1f}" for k in kinds)
        print(f"{cfg or '(defaults)':44} {np.mean(e):5.1f} {min(e):5.1f} {min(r['near_gain'] for r in rs):+7.1f} "
              f"{np.mean([r['sisdr'] for r in rs]):5.1f} {sum(r['conv'] is None for r in rs):6d} "
              f"{min(erle_of(r) for r in rs if r['kind'] != 'drift'):6.1f} {min(r['near_gain'] for r in rs if r['kind'] != 'drift'):+6.1f} {np.mean([r['erle_early'] for r in rs if r['kind'] != 'drift']):5.1f}  {per}", flush=True)
    print("   mean/worst ERLE (dB) over all scenes and per kind (mean/worst); gainmin: the worst near-end gain in double talk (dB);")
    print("   sisdr: mean SI-SDR in double talk (dB); noconv: scenes that never converged; worst*, gain*: the worst ERLE and")
    print("   near-end gain without the drift scenes (which need drift tracking, not these parameters); early: the mean ERLE")
    print("   over 1-4 s (while converging), without the drift scenes.")


def main():
    if len(sys.argv) >= 6 and sys.argv[1] == "table":
        table(*sys.argv[2:6])
    elif len(sys.argv) >= 3 and sys.argv[1] == "anchor":
        anchor_table.reprint(sys.argv[2])
    elif len(sys.argv) >= 5 and sys.argv[1] == "plot":
        anchor_table.plot(*sys.argv[2:7])
    elif len(sys.argv) >= 4 and sys.argv[1] == "sweep":
        sweep(sys.argv[2], sys.argv[3], sys.argv[4:] or [""])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)


if __name__ == "__main__":
    main()
