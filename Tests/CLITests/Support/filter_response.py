#!/usr/bin/env python3
"""Measures the frequency response of aupipe's filter units from their output and compares it
with outside references: scipy.signal's butter + sosfreqz (Butterworth, Linkwitz-Riley), the
RBJ Audio EQ Cookbook evaluated here in numpy and the same filter run by ffmpeg in double
precision (single sections; sox for its own bass and treble), and analytic points (gain at the centre or corner).

Usage: filter_response.py AUPIPE [--peers]   (--peers: ffmpeg and sox too)   (prints one FAIL line per miss, then a summary)

An impulse (f32) goes through the aupipe binary; the response is the DTFT of what comes out,
at 200 log-spaced frequencies from 10 Hz to 0.45 x rate, checked wherever the reference is
above -80 dB: magnitude within 0.01 dB, phase within 0.1 degrees."""
import subprocess, sys
import numpy as np
from scipy import signal

AUPIPE = sys.argv[1]
USE_PEERS = "--peers" in sys.argv
RATES = [8000, 44100, 48000, 192000]
MAG_DB, PHASE_DEG, FLOOR_DB = 0.01, 0.1, -80.0
SECONDS = 2.0          # impulse length: every case here has decayed below 1e-12 by then
failures, points, worst = [], 0, [0.0, 0.0]

def aupipe_impulse(rate, args):
    n = int(SECONDS * rate)
    x = np.zeros(n, np.float32); x[0] = 1
    r = subprocess.run([AUPIPE, "--in-format", f"f32le:{rate}:1", "-t", "raw", "--out-format", f"f32le:{rate}:1"] + args,
                       input=x.tobytes(), capture_output=True)
    if r.returncode != 0: raise SystemExit(f"FAIL aupipe {' '.join(args)} at {rate}: {r.stderr.decode()}")
    return np.frombuffer(r.stdout, np.float32).astype(np.float64)

def ffmpeg_impulse(rate, af):
    n = int(SECONDS * rate)
    x = np.zeros(n, np.float64); x[0] = 1
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "f64le", "-ar", str(rate), "-ac", "1", "-i", "pipe:",
                        "-af", af, "-f", "f64le", "pipe:"], input=x.tobytes(), capture_output=True)
    if r.returncode != 0: raise SystemExit(f"FAIL ffmpeg {af} at {rate}: {r.stderr.decode()}")
    return np.frombuffer(r.stdout, np.float64)

def sox_impulse(rate, effect):
    """sox's response, from an impulse of 0.1: sox carries samples as 32-bit integers between
    effects, so a gain above 0 dB on a full-scale impulse would clip."""
    n = int(SECONDS * rate)
    x = np.zeros(n, np.float64); x[0] = 0.1
    raw = ["-t", "raw", "-e", "floating-point", "-b", "64", "-r", str(rate), "-c", "1"]
    r = subprocess.run(["sox", "-V1"] + raw + ["-"] + raw + ["-"] + effect, input=x.tobytes(), capture_output=True)
    if r.returncode != 0: raise SystemExit(f"FAIL sox {effect} at {rate}: {r.stderr.decode()}")
    return np.frombuffer(r.stdout, np.float64) * 10

def dtft(h, freqs, rate):
    h = h[: max(1, np.nonzero(np.abs(h) > 1e-13 * np.abs(h).max())[0][-1] + 1)]
    n = np.arange(len(h))
    return np.array([np.dot(h, np.exp(-2j * np.pi * f / rate * n)) for f in freqs])

def compare(name, rate, measured, reference, freqs):
    global points
    ref_db = 20 * np.log10(np.maximum(np.abs(reference), 1e-300))
    ok = ref_db > FLOOR_DB
    mag = np.abs(20 * np.log10(np.maximum(np.abs(measured), 1e-300)) - ref_db)[ok]
    ph = np.abs(np.degrees(np.angle(measured / reference)))[ok]
    points += int(ok.sum())
    worst[0] = max(worst[0], mag.max(initial=0)); worst[1] = max(worst[1], ph.max(initial=0))
    if mag.max(initial=0) > MAG_DB or ph.max(initial=0) > PHASE_DEG:
        i = int(np.argmax(np.maximum(mag / MAG_DB, ph / PHASE_DEG)))
        f = freqs[ok][i]
        failures.append(f"FAIL {name} at {rate} Hz: at {f:.1f} Hz magnitude off by {mag[i]:.5f} dB, phase by {ph[i]:.4f} deg")

def cookbook(kind, f0, rate, q=None, gain=0.0, octaves=None, hz=None, slope=None):
    """The cookbook's formulas, written out from its text (not from aupipe's code)."""
    w0 = 2 * np.pi * f0 / rate; cw, sw = np.cos(w0), np.sin(w0); A = 10 ** (gain / 40)
    if octaves is not None: alpha = sw * np.sinh(np.log(2) / 2 * octaves * w0 / sw)
    elif hz is not None: alpha = sw / (2 * (f0 / hz))
    elif slope is not None: alpha = sw / 2 * np.sqrt((A + 1 / A) * (1 / slope - 1) + 2)
    else: alpha = sw / (2 * q)
    sA = 2 * np.sqrt(A) * alpha
    b, a = {
        "lowpass": ([(1 - cw) / 2, 1 - cw, (1 - cw) / 2], [1 + alpha, -2 * cw, 1 - alpha]),
        "highpass": ([(1 + cw) / 2, -(1 + cw), (1 + cw) / 2], [1 + alpha, -2 * cw, 1 - alpha]),
        "bandpass": ([alpha, 0, -alpha], [1 + alpha, -2 * cw, 1 - alpha]),
        "notch": ([1, -2 * cw, 1], [1 + alpha, -2 * cw, 1 - alpha]),
        "allpass": ([1 - alpha, -2 * cw, 1 + alpha], [1 + alpha, -2 * cw, 1 - alpha]),
        "peaking": ([1 + alpha * A, -2 * cw, 1 - alpha * A], [1 + alpha / A, -2 * cw, 1 - alpha / A]),
        "lowshelf": ([A * ((A + 1) - (A - 1) * cw + sA), 2 * A * ((A - 1) - (A + 1) * cw), A * ((A + 1) - (A - 1) * cw - sA)],
                     [(A + 1) + (A - 1) * cw + sA, -2 * ((A - 1) + (A + 1) * cw), (A + 1) + (A - 1) * cw - sA]),
        "highshelf": ([A * ((A + 1) + (A - 1) * cw + sA), -2 * A * ((A - 1) + (A + 1) * cw), A * ((A + 1) + (A - 1) * cw - sA)],
                      [(A + 1) - (A - 1) * cw + sA, 2 * ((A - 1) - (A + 1) * cw), (A + 1) - (A - 1) * cw - sA]),
    }[kind]
    return np.array(b) / a[0], np.array(a) / a[0]

def point(name, rate, h, f, expected_db=None, expected_deg=None):
    """An analytic point: the measured response at f against what the filter's definition says."""
    H = dtft(h, [f], rate)[0]
    if expected_db is not None and abs(20 * np.log10(abs(H)) - expected_db) > MAG_DB:
        failures.append(f"FAIL {name} at {rate} Hz: {20*np.log10(abs(H)):.5f} dB at {f} Hz, expected {expected_db:.5f} dB")
    if expected_deg is not None and abs(np.degrees(np.angle(H)) - expected_deg) > PHASE_DEG and abs(abs(np.degrees(np.angle(H))) - abs(expected_deg)) > PHASE_DEG:
        failures.append(f"FAIL {name} at {rate} Hz: phase {np.degrees(np.angle(H)):.4f} deg at {f} Hz, expected {expected_deg} deg")

BW3 = 10 * np.log10(0.5)   # -3.0103 dB: a Butterworth corner
for rate in RATES:
    freqs = np.geomspace(10, 0.45 * rate, 200)
    fc = min(1000.0, 0.2 * rate)
    # Butterworth and Linkwitz-Riley, against scipy's design.
    for kind, f0, order, lr in [("highpass", 20.0, 2, False), ("highpass", 80.0, 1, False), ("highpass", 80.0, 5, False),
                                ("lowpass", fc, 2, False), ("lowpass", fc, 3, False), ("lowpass", fc, 8, False),
                                ("highpass", fc, 4, True), ("lowpass", fc, 8, True)]:
        args = [kind, f"{f0:g}", f"order={order}"] + (["type=linkwitz-riley"] if lr else [])
        h = aupipe_impulse(rate, args)
        sos = signal.butter(order // 2 if lr else order, f0, btype=kind[:-4] if kind == "highpass" else "low", fs=rate, output="sos")
        if lr: sos = np.vstack([sos, sos])
        _, ref = signal.sosfreqz(sos, worN=freqs, fs=rate)
        compare(" ".join(args), rate, dtft(h, freqs, rate), ref, freqs)
        point(" ".join(args), rate, h, f0, expected_db=2 * BW3 if lr else BW3)
    # Cookbook single sections, against the cookbook here, ffmpeg's biquads and analytic points.
    cases = [
        (["lowpass", f"{fc:g}", "q=2"], ("lowpass", dict(q=2)), f"lowpass=f={fc:g}:t=q:w=2", None),
        (["highpass", "20", "q=0.5"], ("highpass", dict(q=0.5)), "highpass=f=20:t=q:w=0.5", None),
        (["bandpass", f"{fc:g}", "q=2"], ("bandpass", dict(q=2)), f"bandpass=f={fc:g}:t=q:w=2", (0.0, 0.0)),
        (["bandpass", f"{fc:g}", "width=1oct"], ("bandpass", dict(octaves=1)), f"bandpass=f={fc:g}:t=o:w=1", (0.0, 0.0)),
        (["notch", "50", "q=5"], ("notch", dict(q=5)), "bandreject=f=50:t=q:w=5", None),
        (["bandreject", f"{fc:g}", "width=200"], ("notch", dict(hz=200)), f"bandreject=f={fc:g}:t=h:w=200", None),
        (["allpass", f"{fc:g}", "q=0.7"], ("allpass", dict(q=0.7)), f"allpass=f={fc:g}:t=q:w=0.7", (0.0, 180.0)),
        (["equalizer", f"{fc:g}", "gain=-6", "q=2"], ("peaking", dict(q=2, gain=-6)), f"equalizer=f={fc:g}:t=q:w=2:g=-6", (-6.0, 0.0)),
        (["equalizer", "100", "gain=9", "width=0.5oct"], ("peaking", dict(octaves=0.5, gain=9)), "equalizer=f=100:t=o:w=0.5:g=9", (9.0, 0.0)),
        (["lowshelf", "200", "gain=6"], ("lowshelf", dict(slope=1, gain=6)), "lowshelf=f=200:t=s:w=1:g=6", (3.0, None)),
        (["highshelf", f"{fc:g}", "gain=-4", "q=0.9"], ("highshelf", dict(q=0.9, gain=-4)), f"highshelf=f={fc:g}:t=q:w=0.9:g=-4", (-2.0, None)),
        # sox's own bass and treble, against sox (ffmpeg's bass and treble are not the cookbook's shelf at slope 0.5).
        (["bass", "5"], ("lowshelf", dict(slope=0.5, gain=5, f0=100)), ["bass", "5"], (2.5, None)),
        (["treble", "-3"], ("highshelf", dict(slope=0.5, gain=-3, f0=3000)), ["treble", "-3"], (-1.5, None)),
    ]
    for args, (kind, params), af, centre in cases:
        params = dict(params); f0 = params.pop("f0", None) or float(args[1].rstrip("k"))
        if f0 >= 0.45 * rate: continue
        name = " ".join(args)
        h = aupipe_impulse(rate, args)
        measured = dtft(h, freqs, rate)
        b, a = cookbook(kind, f0, rate, **params)
        _, ref = signal.freqz(b, a, worN=freqs, fs=rate)
        compare(name, rate, measured, ref, freqs)
        if isinstance(af, list):
            if USE_PEERS: compare(name + " (vs sox " + " ".join(af) + ")", rate, measured, dtft(sox_impulse(rate, af), freqs, rate), freqs)
        elif USE_PEERS:
            compare(name + " (vs ffmpeg " + af + ")", rate, measured, dtft(ffmpeg_impulse(rate, af), freqs, rate), freqs)
        if centre: point(name, rate, h, f0, expected_db=centre[0], expected_deg=centre[1])
    # The all-pass by its phase (above: 180 degrees at the centre, and the cookbook's phase everywhere); here: flat.
    h = aupipe_impulse(rate, ["allpass", f"{fc:g}", "q=0.7"])
    mags = 20 * np.log10(np.abs(dtft(h, freqs, rate)))
    if np.abs(mags).max() > MAG_DB: failures.append(f"FAIL allpass at {rate} Hz: not flat, {np.abs(mags).max():.5f} dB off")

for f in failures: print(f)
print(f"checked {points} points; worst magnitude {worst[0]:.2e} dB, worst phase {worst[1]:.2e} deg; {len(failures)} failures")
sys.exit(1 if failures else 0)
