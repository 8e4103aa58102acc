"""bench/aec/aecmos.py: AECMOS, the AEC Challenge's perceptual model, on the windows the challenge rates.

AECMOS (Purin et al., "AECMOS: A speech quality assessment metric for echo impairment",
arXiv 2110.03010) rates a clip from three signals, the loopback (far end as played), the
microphone and the canceller's output, with two scores from 1 to 5: echo (how much echo is
heard) and other degradations (how damaged the near end and background are). This is the
16 kHz scenario model (version 4, Run_1663915512_Stage_0.onnx, MIT licence, Microsoft) from
github.com/microsoft/AEC-Challenge, AECMOS/AECMOS_local; its features are that directory's
aecmos.py's, rewritten here without torch (librosa's mel spectrogram, 160 bands, FFT 513, hop
256, dB from the clip's maximum, (dB + 40) / 40; 20 frames of the scenario marker appended:
far end alone 'st', near end alone 'nst', double talk 'dt'; the GRU's state starts at zero).

The model is not in the repository: model_file() takes it from bench/out/aecmos/ or, on first
use, downloads it there (AECMOS_URL at a fixed commit, checked against AECMOS_SHA256); where the
machine cannot reach it, AECMOS_MODEL=/path/to/Run_1663915512_Stage_0.onnx (a clone of the
challenge's repository has it) is copied in instead.

The windows, per scene (scene.json's times): far end alone (the far end talks, the near end
does not, the far-end gap left out): echo MOS over the last half of each segment (as the
challenge rates its far-end single-talk clips) and over whole segments; the first 2.5 s of the
call and the 2.5 s after an echo-path change (echo MOS); double talk: echo and other MOS over
each double-talk interval; near end alone: other MOS over the same intervals in a second run
whose far end is digital silence (the challenge's near-end single-talk clips have no far end).
The model rates digital silence highly and ignores level: zero_share() counts the rated windows
that are mostly exact zeros, read beside it.
"""
import hashlib
import os
import shutil
import subprocess

import numpy as np

MODEL = "Run_1663915512_Stage_0.onnx"
AECMOS_COMMIT = "6c633d0a9d2a143a0e364899b91b06f127315b18"
AECMOS_URL = f"https://github.com/microsoft/AEC-Challenge/raw/{AECMOS_COMMIT}/AECMOS/AECMOS_local/{MODEL}"
AECMOS_SHA256 = "f53122f43cb7e5b77ec797e85c8b997cfc2aac8220857c709226d876de8c0a99"
RATE = 16000
DFT = 512                # the model's DFT size at 16 kHz (librosa is given DFT + 1, as the challenge's script does)
HOP = DFT // 2
MELS = 160
MAX_SECONDS = 20         # the challenge's script rates at most the first 20 s of a clip
MARKER_FRAMES = 20       # frames of the scenario marker after the features
HIDDEN = (4, 1, 64)      # the GRU's state
WINDOW_S = 2.5           # the first seconds of the call and after a path change
MIN_SEGMENT_S = 2.0      # far-end-alone segments shorter than this are not rated
MOSTLY_ZEROS = 0.5       # a window whose output is more than half exact zeros is counted


class Unavailable(Exception):
    """The model or its runtime cannot be had here; the message says why and what to do."""


def model_file(out_dir):
    """The model's path in out_dir (bench/out/aecmos), fetched there on first use."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, MODEL)
    if os.path.exists(path):
        return path
    tmp = path + ".part"
    src = os.environ.get("AECMOS_MODEL")
    if src:
        shutil.copyfile(src, tmp)
    else:
        r = subprocess.run(["curl", "-sSfL", "--max-time", "120", "-o", tmp, AECMOS_URL], capture_output=True, text=True)
        if r.returncode != 0:
            raise Unavailable(f"cannot download {AECMOS_URL} ({r.stderr.strip()}); set AECMOS_MODEL to a copy of {MODEL} "
                              f"(microsoft/AEC-Challenge, AECMOS/AECMOS_local, commit {AECMOS_COMMIT[:9]})")
    with open(tmp, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != AECMOS_SHA256:
        os.remove(tmp)
        raise Unavailable(f"{src or AECMOS_URL}: sha256 {digest[:16]}..., not the model's {AECMOS_SHA256[:16]}...; "
                          f"give the file of commit {AECMOS_COMMIT[:9]}")
    os.replace(tmp, path)
    return path


class Scorer:
    """The model loaded once; score() rates one window."""

    def __init__(self, out_dir):
        try:
            import librosa
            import onnxruntime as ort
        except ImportError as e:
            raise Unavailable(f"{e}: run under bench/out/venv/bin/python (bench/aec/run makes it)")
        self.librosa = librosa
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1     # one core: the machine is shared, and the figures do not depend on it
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(model_file(out_dir), opts, providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name

    def features(self, x):
        mel = self.librosa.feature.melspectrogram(y=x.astype(np.float32), sr=RATE, n_fft=DFT + 1, hop_length=HOP, n_mels=MELS)
        return ((self.librosa.power_to_db(mel, ref=np.max) + 40) / 40).T

    def score(self, talk, lpb, mic, enh):
        """(echo MOS, other MOS) for one window: talk is 'st', 'nst' or 'dt'; the three signals
        are float (1.0 = full scale), aligned, of one length."""
        n = min(len(lpb), len(mic), len(enh), MAX_SECONDS * RATE)
        lpb, mic, enh = (self.features(x[:n]) for x in (lpb, mic, enh))
        ne_st, fe_st = int(talk == "nst"), int(talk == "st")

        def marked(f, v):
            return np.concatenate([f, np.full((MARKER_FRAMES, MELS), float(v)), np.zeros((MARKER_FRAMES, MELS))])

        feats = np.stack([marked(lpb, 1 - ne_st), marked(mic, 1 - fe_st), marked(enh, 1)]).astype(np.float32)[None]
        out = self.session.run(None, {self.input: feats, "h0": np.zeros(HIDDEN, dtype=np.float32)})[0]
        return float(out[0]), float(out[1])


def at_model_rate(x, rate):
    """x (float, at `rate`: 16000 or 48000) at the model's 16 kHz: as it is, or a third of the
    samples through scipy's polyphase low-pass (resample_poly, Kaiser window, beta 5; scipy
    comes with librosa)."""
    if rate == RATE:
        return x
    from scipy.signal import resample_poly
    return resample_poly(x, RATE, rate, window=("kaiser", 5.0))


def far_alone_segments(facts):
    """(start, end) s of the stretches where the far end talks alone: outside the near end's
    intervals and the far end's gap, at least MIN_SEGMENT_S long."""
    busy = sorted([tuple(i) for i in facts["double_talk"]] + [tuple(facts["far_silent"])])
    segs, t = [], 0.0
    for a, b in busy:
        if a - t >= MIN_SEGMENT_S:
            segs.append((t, a))
        t = max(t, b)
    if facts["seconds"] - t >= MIN_SEGMENT_S:
        segs.append((t, facts["seconds"]))
    return segs


def windows(facts):
    """The rated windows of the main run: (type, talk, start s, end s). Types: far-half,
    far-whole, start, change (echo MOS), dt (echo and other MOS)."""
    w = []
    for a, b in far_alone_segments(facts):
        w.append(("far-half", "st", (a + b) / 2, b))
        w.append(("far-whole", "st", a, b))
    w.append(("start", "st", 0.0, WINDOW_S))
    if facts.get("path_change_s") is not None:
        w.append(("change", "st", facts["path_change_s"], facts["path_change_s"] + WINDOW_S))
    w += [("dt", "dt", a, b) for a, b in facts["double_talk"]]
    return w


def zero_share(x):
    return float(np.mean(np.round(x * 32768) == 0)) if len(x) else 0.0


def rate(scorer, facts, far, mic, out, near_mic=None, near_out=None):
    """The scores of one canceller on one scene: {type: [(echo, other), ...]} and the number of
    windows mostly exact zeros, with the number rated. far, mic: the scene's signals; out: the
    output aligned with the microphone; near_mic/near_out: the near-end-alone run's microphone
    and its aligned output (far end silent), or None."""
    scores, zeros, rated = {}, 0, 0

    def cut(x, a, b):
        return x[int(a * RATE):int(b * RATE)]

    for typ, talk, a, b in windows(facts):
        e = cut(out, a, b)
        scores.setdefault(typ, []).append(scorer.score(talk, cut(far, a, b), cut(mic, a, b), e))
        zeros += zero_share(e) > MOSTLY_ZEROS
        rated += 1
    if near_out is not None:
        silent = np.zeros(len(near_mic))
        for a, b in facts["double_talk"]:
            e = cut(near_out, a, b)
            scores.setdefault("near", []).append(scorer.score("nst", cut(silent, a, b), cut(near_mic, a, b), e))
            zeros += zero_share(e) > MOSTLY_ZEROS
            rated += 1
    return scores, zeros, rated
