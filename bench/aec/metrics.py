"""bench/aec/metrics.py: what the aec benchmark measures on one processor's output for one scene.

Defined precisely in bench/README.md ("aec scenes: the metrics"); in short, on 16 kHz frames
of 20 ms (ERLE) and pieces of 100 ms (convergence, near end), with the output first aligned to
the microphone (the lag, 0...60 ms, that best matches the output to the near end).

Residual echo is told from noise by phase inversion (Hagerman and Olofsson, 2004): the processor
runs twice, on the microphone and on the microphone with its noise inverted (echo + near - noise);
half the sum of the two outputs keeps what does not follow the noise's sign (the residual echo,
the near end) and drops the processed noise, half the difference keeps the noise.
  erle       10 log10(sum echo^2 / sum residual^2) over far-end-only frames after 3 s, outside
             the second after a path change, where the echo is >= 10 dB above the noise; the
             residual is half the sum of the two outputs; capped at 60 dB
  erle_c     erle less what phase inversion misses (split_check): the noise also moves an
             adaptive filter's weights, and that misadjustment, echo though it is, follows the
             noise's sign and falls out of the sum (given only where the linear stage was measured);
             misadjustment_through checks the assumption this makes by measuring what is left of
             the misadjustment in the chain's output
  near_gain  in double talk: the near end's own component in the output (least-squares gain per
             100 ms piece where the near end is above -45 dBFS), its power over the near end's (dB)
  sisdr      SI-SDR of the output against the near end over those pieces (dB)
  nr         noise reduction: microphone power over output power in the noise-only stretch (dB)
  erle_early the same as erle over the far-end-only frames of 1-4 s (while still converging)
  conv       convergence: the first time from which the short-term ERLE of every qualifying
             100 ms piece (at least 3) in the next second is >= 10 dB (s; None if never); not
             measurable when no second holds 3 of them
  reconv     the same from the echo-path change, in seconds after it (path-change scenes)
"""
import json
import os
import subprocess
import tempfile
import wave

import numpy as np

RATE = 16000
FRAME = 320      # 20 ms
PIECE = 1600     # 100 ms


def set_rate(rate):
    """The scenes' sample rate (16000 or 48000: scene.json's "rate"): frames stay 20 ms and
    pieces 100 ms. compare.py calls it per scene, before any other function here."""
    global RATE, FRAME, PIECE
    RATE, FRAME, PIECE = rate, rate // 50, rate // 10
CAP_DB = 60.0


def to16(x):
    """Full scale 1.0 to 16-bit samples, rounded and clipped as scenes.py makes mic.wav."""
    return np.round(np.clip(x, -1, 32767 / 32768) * 32768).astype(np.int16)


def inverted_mic(parts):
    """The microphone with its noise inverted, rounded to 16 bits as the scene's mic.wav is."""
    return to16(parts["echo"] + parts["near"] - parts["noise"])


def silent_far_mics(parts):
    """near + noise and near - noise, rounded to 16 bits: what a linear stage is given with a
    silent far end in split_check."""
    return tuple(to16(parts["near"] + sign * parts["noise"]) for sign in (1, -1))


def noise_moved(parts, seconds):
    """The scene's parts with its noise moved (circularly) by seconds: another realization of the
    same noise; the microphone made again from them."""
    moved = dict(parts)
    moved["noise"] = np.roll(parts["noise"], int(seconds * RATE))
    moved["mic"] = to16(moved["echo"] + moved["near"] + moved["noise"]) / 32768
    return moved


def aligned(x, L):
    """x moved L samples earlier (the output's lag behind the microphone), zeros at the end."""
    return np.concatenate([x[L:], np.zeros(L)])


def write_wav(path, x16):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.asarray(x16, dtype="<i2").tobytes())


def read_wav(path):
    with wave.open(path, "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768


def load_scene(d):
    """A scene's facts (scene.json) and parts (parts.npz, the microphone), with the module's rate
    set to the scene's (set_rate): every measure below reads it."""
    with open(os.path.join(d, "scene.json")) as f:
        facts = json.load(f)
    set_rate(facts.get("rate", 16000))
    z = np.load(os.path.join(d, "parts.npz"))
    parts = {k: z[k].astype(np.float64) for k in ("echo", "near", "noise")}
    parts["mic"] = read_wav(os.path.join(d, "mic.wav"))
    return facts, parts


def lag(out, near, most=None):
    """The delay of the output behind the microphone (samples, 0...most; by default 60 ms): the
    lag at which the output correlates best with the near end (0 when the output holds no near end)."""
    most = most if most is not None else RATE * 60 // 1000
    n = 1
    while n < 2 * len(out):
        n <<= 1
    c = np.fft.irfft(np.fft.rfft(out, n) * np.conj(np.fft.rfft(near, n)), n)[: most + 1]
    return int(np.argmax(c)) if np.max(c) > 0 else 0


def phase_inverted_outputs(binary, scene, parts, args):
    """`binary aec ref=SCENE/far.wav ARGS comfort=off` over the scene's microphone and over it with
    its noise inverted (inverted_mic): the two outputs, for measure()'s phase inversion (comfort
    noise does not follow the noise's sign, so it is taken out)."""
    with tempfile.TemporaryDirectory() as tmp:
        inverted = os.path.join(tmp, "inverted.wav")
        write_wav(inverted, inverted_mic(parts))
        outs = []
        for i, mic in enumerate((os.path.join(scene, "mic.wav"), inverted)):
            out = os.path.join(tmp, f"out{i}.wav")
            with open(mic, "rb") as fin, open(out, "wb") as fout:
                subprocess.run([binary, "aec", f"ref={os.path.join(scene, 'far.wav')}", *args, "comfort=off"],
                               stdin=fin, stdout=fout, stderr=subprocess.DEVNULL, check=True)
            outs.append(read_wav(out))
    return outs


def framed(x, size):
    m = len(x) // size
    return x[: m * size].reshape(m, size)


def near_pieces(near):
    """Per 100 ms piece: the near end's power, and whether it is active (above -45 dBFS)."""
    ps = np.sum(framed(near, PIECE) ** 2, axis=1)
    return ps, ps / PIECE >= 10 ** (-45 / 10)


def piece_gains(y, near, act):
    """Per 100 ms piece: the least-squares gain of y on near (0 outside the pieces `act`), and
    near's power: the near end's own component in y, as near_gain reads it."""
    S, Y = framed(near, PIECE), framed(y, PIECE)
    ps = np.sum(S ** 2, axis=1)
    g = np.zeros(len(ps))
    g[act] = np.sum(Y[act] * S[act], axis=1) / ps[act]
    return g, ps


def fit(x, n):
    """x cut or padded with zeros to n samples."""
    return np.concatenate([x, np.zeros(max(0, n - len(x)))])[:n]


def erle_db(e, r):
    """10 log10(e / r), capped at CAP_DB; None without echo."""
    return float(min(CAP_DB, 10 * np.log10(e / max(r, e * 10 ** (-CAP_DB / 10))))) if e > 0 else None


def far_only(facts, parts, size, start_s, exclude_pc):
    """Frames of `size` samples (their start times, echo energies and which qualify): the near
    end silent, from start_s on, the echo >= 10 dB above the noise, and (exclude_pc) not within
    the second after a path change."""
    E, Nr, Z = (np.sum(framed(parts[k], size) ** 2, axis=1) for k in ("echo", "near", "noise"))
    t = np.arange(len(E)) * size / RATE
    ok = (Nr == 0) & (E >= 10 * Z) & (E > 0) & (t >= start_s)
    pc = facts.get("path_change_s")
    if exclude_pc and pc is not None:
        ok &= ~((t + size / RATE > pc) & (t < pc + 1.0))
    return t, E, ok


def residual_erle(facts, parts, residual):
    """ERLE (dB) of a residual echo signal over the far-end-only frames after convergence."""
    _, E, ok = far_only(facts, parts, FRAME, facts["converge_from_s"], True)
    R = np.sum(framed(fit(residual, len(parts["mic"])), FRAME) ** 2, axis=1)
    return erle_db(E[ok].sum(), R[ok].sum())


def split_check(facts, parts, plus, minus, silent_plus, silent_minus):
    """What phase inversion misses at a canceller's linear stage, where the residual echo is known
    exactly: plus/minus are the stage's outputs for the microphone and for it with the noise
    inverted; silent_plus/silent_minus its outputs for near + noise and near - noise with a silent
    far end (what it does to everything but the echo: a linear, time-invariant filter, so the
    exact residual echo is plus - silent_plus). Returns (exact ERLE, phase-inversion ERLE,
    their difference) in dB: the difference is the misadjustment the noise drives into the
    filter (echo that follows the noise's sign)."""
    n = len(parts["mic"])
    plus, minus, silent_plus, silent_minus = (fit(x, n) for x in (plus, minus, silent_plus, silent_minus))
    exact = residual_erle(facts, parts, plus - silent_plus)
    split = residual_erle(facts, parts, (plus + minus) / 2 - (silent_plus + silent_minus) / 2)
    return exact, split, split - exact


def stft(x, hop=None, size=None):
    """sqrt-Hann windows of 2 hops at a hop of `hop` (a 20 ms frame by default): frame i covers
    samples i*hop ... (i+2)*hop; transformed at `size` points (zero-padded; default 2 hops)."""
    hop = hop or FRAME
    m = len(x) // hop - 1
    w = np.sqrt(np.hanning(2 * hop + 1)[: 2 * hop])
    idx = np.arange(2 * hop)[None, :] + hop * np.arange(m)[:, None]
    return np.fft.rfft(x[idx] * w, size, axis=1)


def misadjustment_through(facts, parts, out, inverted, linear, cell_frames=5, cell_bins=16):
    """Checks erle_c's assumption by measuring instead: how much of the linear stage's
    misadjustment M (known exactly: split_check's exact residual less its phase-inversion
    residual) is left in the whole chain's output. M follows the noise's sign, so what is left
    of it is in half the difference of the chain's two outputs, with the processed noise; per
    cell of the STFT (cell_frames frames of 20 ms by cell_bins bins of 25 Hz, only where every
    frame is far end alone as for erle) it is the least-squares projection of that difference
    on M, its power less the bias the noise gives a projection (the bias for independent
    samples: the cells' samples are not quite independent, and one gain per cell cannot follow
    the suppressor's gains within it, so the figure holds to about 1 dB). out/inverted: the chain's outputs (aligned with the microphone);
    linear: split_check's four outputs. Returns (ERLE of the chain with the residual taken as
    half the sum only, the same with M's measured remainder added, the same with erle_c's
    correction instead), all over those cells, in dB."""
    n = len(parts["mic"])
    out, inverted = fit(out, n), fit(inverted, n)
    plus, minus, silent_plus, silent_minus = (fit(x, n) for x in linear)
    exact_linear = plus - silent_plus
    split_linear = (plus + minus) / 2 - (silent_plus + silent_minus) / 2
    _, _, ok = far_only(facts, parts, FRAME, facts["converge_from_s"], True)
    E, S, D, M, R, X = (stft(x) for x in (parts["echo"], (out + inverted) / 2, (out - inverted) / 2,
                                          exact_linear - split_linear, split_linear, exact_linear))
    e = s = left = r = x = 0.0
    for t0 in range(0, len(E) - cell_frames + 1, cell_frames):
        # STFT frame t covers 20 ms frames t and t + 1: both must qualify.
        if not all(t + 1 < len(ok) and ok[t] and ok[t + 1] for t in range(t0, t0 + cell_frames)):
            continue
        for b0 in range(0, E.shape[1], cell_bins):
            cell = (slice(t0, t0 + cell_frames), slice(b0, b0 + cell_bins))
            d, mv = D[cell].ravel(), M[cell].ravel()
            pm = np.vdot(mv, mv).real
            e += np.sum(np.abs(E[cell]) ** 2)
            s += np.sum(np.abs(S[cell]) ** 2)
            r += np.sum(np.abs(R[cell]) ** 2)
            x += np.sum(np.abs(X[cell]) ** 2)
            if pm > 0:
                g = np.vdot(mv, d) / pm
                fitted = abs(g) ** 2 * pm
                left += fitted - (np.vdot(d, d).real - fitted) / max(len(d) - 1, 1)
    if e <= 0 or s <= 0 or r <= 0:
        return None, None, None
    assumed = 10 * np.log10(e / s) - max(0.0, 10 * np.log10(x / r))
    return 10 * np.log10(e / s), 10 * np.log10(e / (s + max(left, 0.0))), assumed


def measure(facts, parts, out, inverted):
    """The figures of one processor on one scene: out is its output for the microphone,
    inverted for the microphone with the noise inverted (inverted_mic)."""
    echo, near, mic = parts["echo"], parts["near"], parts["mic"]
    n = len(mic)
    out, inverted = fit(out, n), fit(inverted, n)
    L = lag(out, near)
    y = aligned(out, L)
    # What does not follow the noise's sign: the residual echo (and the near end, silent in the
    # frames measured).
    s = aligned((out + inverted) / 2, L)
    res = {"lag": L}
    a, b = (int(t * RATE) for t in facts["noise_only"])
    res["nr"] = 10 * np.log10(np.sum(mic[a:b] ** 2) / max(np.sum(y[a:b] ** 2), 1e-20))
    pc = facts.get("path_change_s")
    res["erle"] = residual_erle(facts, parts, s)

    # The same over the first 1-4 s only: how much a canceller cancels while it still converges.
    t, E, ok = far_only(facts, parts, FRAME, 1.0, False)
    ok &= t < 4.0
    S = np.sum(framed(s, FRAME) ** 2, axis=1)
    res["erle_early"] = erle_db(E[ok].sum(), S[ok].sum())

    t, E, ok = far_only(facts, parts, PIECE, 0.0, False)
    S = np.sum(framed(s, PIECE) ** 2, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        st = np.minimum(CAP_DB, 10 * np.log10(E / np.maximum(S, E * 10 ** (-CAP_DB / 10))))

    def converged_after(t0):
        idx = np.nonzero(ok & (t >= t0))[0]
        for i in idx:
            w = idx[(t[idx] >= t[i]) & (t[idx] < t[i] + 1.0)]
            if len(w) >= 3 and np.all(st[w] >= 10):
                return float(t[i])
        return None

    res["track"] = (t[ok].tolist(), st[ok].tolist())   # short-term ERLE per qualifying piece (for plots)
    res["conv"] = converged_after(0.0)
    # Whether convergence could be measured at all: not when no second holds the 3 qualifying
    # pieces the definition asks for: then not even a perfect canceller could converge by it
    # (pink5: the echo is 10 dB above the noise in 9 pieces of 420, never 3 in a second).
    idx = np.nonzero(ok)[0]
    windows = max((int(np.count_nonzero((t[idx] >= t[i]) & (t[idx] < t[i] + 1.0))) for i in idx), default=0)
    res["conv_measurable"] = windows >= 3
    res["reconv"] = None
    if pc is not None:
        c = converged_after(pc)
        res["reconv"] = None if c is None else max(0.0, c - pc)

    S, Yp = framed(near, PIECE), framed(y, PIECE)
    ps, act = near_pieces(near)
    if np.any(act):
        g = piece_gains(y, near, act)[0][act]
        res["near_gain"] = float(10 * np.log10(np.sum(g ** 2 * ps[act]) / np.sum(ps[act])))
        s, yy = S[act].ravel(), Yp[act].ravel()
        alpha = np.dot(yy, s) / np.dot(s, s)
        res["sisdr"] = float(10 * np.log10(np.sum((alpha * s) ** 2) / max(np.sum((yy - alpha * s) ** 2), 1e-20)))
    else:
        res["near_gain"] = res["sisdr"] = None
    return res
