"""bench/aec/metrics.py: what the aec benchmark measures on one processor's output for one scene.

Defined precisely in bench/README.md ("aec scenes: the metrics"); in short, on 16 kHz frames
of 20 ms (ERLE) and pieces of 100 ms (convergence, near end), with the output first aligned to
the microphone (the lag, 0...60 ms, that best matches the output to the near end):
  erle       10 log10(sum echo^2 / sum(out^2 - noise floor)) over far-end-only frames after 3 s,
             outside the second after a path change, where the echo is >= 10 dB above the noise;
             the noise floor is the output's mean power in the noise-only stretch; capped at 60 dB.
             When the residual (out^2 - floor) is below a quarter of the floor over those frames
             (6 dB under the output's noise), it cannot be told from the noise: the figure is then
             a lower bound, 10 log10(sum echo^2 / (floor / 4)), flagged erle_bound (shown as >X)
  near_gain  in double talk: the near end's own component in the output (least-squares gain per
             100 ms piece where the near end is above -45 dBFS), its power over the near end's (dB)
  sisdr      SI-SDR of the output against the near end over those pieces (dB)
  nr         noise reduction: microphone power over output power in the noise-only stretch (dB)
  erle_early the same over the far-end-only frames of 1-4 s (while still converging)
  conv       convergence: the first time from which the short-term ERLE of every qualifying
             100 ms piece (at least 3) in the next second is >= 10 dB (s; None if never); not
             measurable when most such pieces are lower bounds or no second holds 3 of them
  reconv     the same from the echo-path change, in seconds after it (path-change scenes)
"""
import json
import os
import wave

import numpy as np

RATE = 16000
FRAME = 320      # 20 ms
PIECE = 1600     # 100 ms
CAP_DB = 60.0


def read_wav(path):
    with wave.open(path, "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768


def load_scene(d):
    with open(os.path.join(d, "scene.json")) as f:
        facts = json.load(f)
    z = np.load(os.path.join(d, "parts.npz"))
    parts = {k: z[k].astype(np.float64) for k in ("echo", "near", "noise")}
    parts["mic"] = read_wav(os.path.join(d, "mic.wav"))
    return facts, parts


def lag(out, near, most=960):
    """The delay of the output behind the microphone (samples, 0...most): the lag at which the
    output correlates best with the near end (0 when the output holds no near end)."""
    n = 1
    while n < 2 * len(out):
        n <<= 1
    c = np.fft.irfft(np.fft.rfft(out, n) * np.conj(np.fft.rfft(near, n)), n)[: most + 1]
    return int(np.argmax(c)) if np.max(c) > 0 else 0


def framed(x, size):
    m = len(x) // size
    return x[: m * size].reshape(m, size)


def short_erle(e, y, floor):
    """Per frame, with the residual at least a quarter of the noise floor (a lower bound where
    it is below); frames without echo (e = 0) get -inf (they are never selected)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.minimum(CAP_DB, 10 * np.log10(e / np.maximum(np.maximum(y - floor, floor / 4), e * 10 ** (-CAP_DB / 10))))


def measure(facts, parts, out):
    echo, near, noise, mic = parts["echo"], parts["near"], parts["noise"], parts["mic"]
    n = len(mic)
    out = np.concatenate([out, np.zeros(max(0, n - len(out)))])[:n]
    L = lag(out, near)
    y = np.concatenate([out[L:], np.zeros(L)])
    res = {"lag": L}
    a, b = (int(t * RATE) for t in facts["noise_only"])
    floor = float(np.mean(y[a:b] ** 2))                         # per sample
    res["nr"] = 10 * np.log10(np.sum(mic[a:b] ** 2) / max(np.sum(y[a:b] ** 2), 1e-20))
    pc = facts.get("path_change_s")

    def far_only(size, start_s, exclude_pc):
        E, Nr, Z, Y = (np.sum(framed(s, size) ** 2, axis=1) for s in (echo, near, noise, y))
        t = np.arange(len(E)) * size / RATE
        ok = (Nr == 0) & (E >= 10 * Z) & (E > 0) & (t >= start_s)
        if exclude_pc and pc is not None:
            ok &= ~((t + size / RATE > pc) & (t < pc + 1.0))
        return t, E, Y, ok

    t, E, Y, ok = far_only(FRAME, facts["converge_from_s"], True)
    e, r, fl = E[ok].sum(), (Y[ok] - floor * FRAME).sum(), floor * FRAME * np.count_nonzero(ok)
    res["erle_bound"] = bool(r < fl / 4)
    r = max(r, fl / 4, e * 10 ** (-CAP_DB / 10))
    res["erle"] = float(min(CAP_DB, 10 * np.log10(e / r))) if e > 0 else None

    # The same over the first 1-4 s only: how much a canceller cancels while it still converges.
    t, E, Y, ok = far_only(FRAME, 1.0, False)
    ok &= t < 4.0
    e, r, fl = E[ok].sum(), (Y[ok] - floor * FRAME).sum(), floor * FRAME * np.count_nonzero(ok)
    res["erle_early"] = float(min(CAP_DB, 10 * np.log10(e / max(r, fl / 4, e * 10 ** (-CAP_DB / 10))))) if e > 0 else None

    t, E, Y, ok = far_only(PIECE, 0.0, False)
    st = short_erle(E, Y, floor * PIECE)

    def converged_after(t0):
        idx = np.nonzero(ok & (t >= t0))[0]
        for i in idx:
            w = idx[(t[idx] >= t[i]) & (t[idx] < t[i] + 1.0)]
            if len(w) >= 3 and np.all(st[w] >= 10):
                return float(t[i])
        return None

    res["conv"] = converged_after(0.0)
    # Whether the short-term ERLE could be measured at all: not when most qualifying pieces
    # are lower bounds (the residual lost in the noise); a scene that then never "converges"
    # says nothing about the canceller.
    # Nor when no second holds the 3 qualifying pieces the definition asks for: then not even a
    # perfect canceller could converge by it (pink5: the echo is 10 dB above the noise in 9
    # pieces of 420, never 3 in a second).
    idx = np.nonzero(ok)[0]
    windows = max((int(np.count_nonzero((t[idx] >= t[i]) & (t[idx] < t[i] + 1.0))) for i in idx), default=0)
    res["conv_measurable"] = bool(np.count_nonzero(ok & (Y - floor * PIECE >= floor * PIECE / 4)) * 2 >= np.count_nonzero(ok)) and windows >= 3
    res["reconv"] = None
    if pc is not None:
        c = converged_after(pc)
        res["reconv"] = None if c is None else max(0.0, c - pc)

    S, Yp = framed(near, PIECE), framed(y, PIECE)
    ps = np.sum(S ** 2, axis=1)
    act = ps / PIECE >= 10 ** (-45 / 10)
    if np.any(act):
        g = np.sum(Yp[act] * S[act], axis=1) / ps[act]
        res["near_gain"] = float(10 * np.log10(np.sum(g ** 2 * ps[act]) / np.sum(ps[act])))
        s, yy = S[act].ravel(), Yp[act].ravel()
        alpha = np.dot(yy, s) / np.dot(s, s)
        res["sisdr"] = float(10 * np.log10(np.sum((alpha * s) ** 2) / max(np.sum((yy - alpha * s) ** 2), 1e-20)))
    else:
        res["near_gain"] = res["sisdr"] = None
    return res
