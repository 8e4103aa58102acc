"""Frame-level F1 of aupipe's vad and WebRTC's VAD (modes 0-3) on speech in pink and babble
noise at 0, 5, 10 and 20 dB SNR (bench/vad/run; figures in bench/README.md, "vad").

Speech, CLIPS clips of CLIP_SECONDS s at 16 kHz, each with seeds of its own: one sentence at a
time (a phrase a speaker says, then a pause of PAUSE_SECONDS), from two espeak-ng voices of
TARGET_VOICES and, for about one utterance in RECORDED_SHARE, alsa-utils' recorded human voice
(/usr/share/sounds/alsa, "Front left" ...), at random speeds and pitches; 40-60 % of frames
speech by the labels. Active level -26 dBFS. Noise: pink (scenes.py) and babble of BABBLE_TALKERS
other talkers than the target (scenes.py's BABBLE_VOICES, none of them in TARGET_VOICES, talking
with short pauses, each at the same level), a new seed per clip, scaled to the SNR against the
speech's active level (RMS of its 20 ms frames within 30 dB of the loudest). Labels per 10 ms
frame from the clean speech before noise is added: a frame is speech when its energy is within
LABEL_DB of the clean clip's active level, with a hangover of LABEL_HANGOVER frames (word ends);
cross-checked by WebRTC's VAD on the clean clip.
F1 = 2TP / (2TP + FP + FN) over all clips' frames of a condition.
Usage: python3 vad_bench.py AUPIPE OUTDIR [vad parameters...]
"""
import json
import os
import subprocess
import sys
import wave

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "aec"))
import scenes  # noqa: E402
import webrtcvad  # noqa: E402

RATE = 16000
FRAME = RATE // 100
CLIPS = 8
CLIP_SECONDS = 30
SPEECH_DBFS = -26.0
LABEL_DB = 30.0
LABEL_HANGOVER = 5
SNRS = [0, 5, 10, 20]
NOISES = ["pink", "babble"]
TARGET_VOICES = ["en-us+m3", "en-gb+f3", "en-gb-x-rp+m4", "en-029+f4", "en-us+m7", "en-gb+f5"]
PAUSE_SECONDS = (0.6, 3.0)
RECORDED = "/usr/share/sounds/alsa"
RECORDED_NAMES = ["Front_Center", "Front_Left", "Front_Right", "Rear_Center", "Rear_Left", "Rear_Right",
                  "Side_Left", "Side_Right"]
RECORDED_SHARE = 0.25
BABBLE_TALKERS = [4, 5, 6, 7]
assert not set(TARGET_VOICES) & set(scenes.BABBLE_VOICES)


def recorded(name):
    """One of alsa-utils' recorded phrases at 16 kHz, its silent ends trimmed."""
    with wave.open(os.path.join(RECORDED, name + ".wav")) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768
    n = int(len(x) * RATE / rate)
    y = scenes.kaiser_sinc_resample(x, rate / RATE, n, min(1.0, RATE / rate) * 0.95)
    nz = np.nonzero(np.abs(y) > 3e-3)[0]
    y = y[nz[0]:nz[-1] + 1]
    fade = np.minimum(1, np.minimum(np.arange(len(y)), np.arange(len(y))[::-1]) / (0.005 * RATE))
    return y * fade


SENTENCES = [t.strip().rstrip(".") + "." for text in scenes.TEXTS for t in text.split(". ")]


def target(rng, voices, count):
    """The near talker: one sentence (or a recorded phrase) at a time, then a pause."""
    out = np.zeros(count)
    pos = int(rng.uniform(0.2, 1.5) * RATE)
    while pos < count:
        if rng.uniform() < RECORDED_SHARE:
            s = recorded(RECORDED_NAMES[rng.integers(len(RECORDED_NAMES))])
            s = s * 10 ** (rng.uniform(-3, 3) / 20)
        else:
            s = scenes.espeak(SENTENCES[rng.integers(len(SENTENCES))], voices[rng.integers(len(voices))],
                              int(rng.integers(145, 185)), int(rng.integers(35, 65)))
            nz = np.nonzero(np.abs(s) > 1e-3)[0]
            s = s[nz[0]:nz[-1] + 1] / np.sqrt((s ** 2).mean()) * 0.08 * 10 ** (rng.uniform(-3, 3) / 20)
        m = min(len(s), count - pos)
        out[pos:pos + m] += s[:m]
        pos += m + int(rng.uniform(*PAUSE_SECONDS) * RATE)
    return out


def babble(rng, count, talkers):
    """`talkers` of scenes.BABBLE_VOICES, each talking with short pauses at the same active level, summed."""
    x = np.zeros(count)
    for v in rng.permutation(scenes.BABBLE_VOICES)[:talkers]:
        x += scenes.scale_to(scenes.talker(rng, [str(v)], count, gaps=(0.05, 0.3)), -20)
    return x / np.sqrt((x ** 2).mean())


def write_wav(path, x):
    x16 = np.clip(np.round(x * 32768), -32768, 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(x16.tobytes())
    return x16


def labels(clean):
    f = clean[: len(clean) // FRAME * FRAME].reshape(-1, FRAME)
    p = (f ** 2).mean(axis=1)
    level = scenes.active_rms(clean) ** 2
    return hangover(p > level * 10 ** (-LABEL_DB / 10), LABEL_HANGOVER)


def hangover(frames, count):
    """frames (bools per 10 ms) with each run of True extended by count frames after it."""
    out = frames.copy()
    left = 0
    for i, r in enumerate(frames):
        left = count + 1 if r else left
        out[i] = left > 0
        left = max(0, left - 1)
    return out


def webrtc(x16, mode):
    v = webrtcvad.Vad(mode)
    b = x16.tobytes()
    n = len(x16) // FRAME
    return np.array([v.is_speech(b[i * 2 * FRAME:(i + 1) * 2 * FRAME], RATE) for i in range(n)])


def aupipe(binary, path, outdir, extra):
    events = os.path.join(outdir, "events.jsonl")
    subprocess.run([binary, "-i", path, "vad", *extra, "events=" + events, "-o", "/dev/null"], check=True)
    n = os.path.getsize(path)  # upper bound; trimmed by the caller
    out = np.zeros(n // 2 // FRAME + 1, dtype=bool)
    with open(events) as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "end":
                out[e["start"] // FRAME:e["frame"] // FRAME] = True
    return out


def f1(ref, hyp):
    n = min(len(ref), len(hyp))
    ref, hyp = ref[:n], hyp[:n]
    tp = int((ref & hyp).sum())
    fp = int((~ref & hyp).sum())
    fn = int((ref & ~hyp).sum())
    return tp, fp, fn


def score(c):
    tp, fp, fn = c
    return 2 * tp / max(1, 2 * tp + fp + fn)


def main():
    binary, outdir = sys.argv[1], sys.argv[2]
    extra = sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    clips = []
    for i in range(CLIPS):
        rng = np.random.default_rng(2800 + i)
        n = CLIP_SECONDS * RATE
        voices = [TARGET_VOICES[i % len(TARGET_VOICES)], TARGET_VOICES[(i + 3) % len(TARGET_VOICES)]]
        clean = scenes.scale_to(target(rng, voices, n), SPEECH_DBFS)
        noise = {"pink": scenes.pink(rng, n), "babble": babble(rng, n, BABBLE_TALKERS[i % len(BABBLE_TALKERS)])}
        clips.append((clean, noise))
    systems = ["aupipe vad"] + [f"WebRTC mode {m}" for m in range(4)]
    table = {}
    check = [0, 0, 0]
    for ci, (clean, noise) in enumerate(clips):
        ref = labels(clean)
        c16 = write_wav(os.path.join(outdir, f"clean{ci}.wav"), clean)
        for k, v in enumerate(f1(ref, webrtc(c16, 0))):
            check[k] += v
        for kind in NOISES:
            for snr in SNRS:
                nz = noise[kind] * (scenes.active_rms(clean) * 10 ** (-snr / 20))
                path = os.path.join(outdir, f"{kind}{snr}_{ci}.wav")
                x16 = write_wav(path, clean + nz)
                hyps = [aupipe(binary, path, outdir, extra)] + [webrtc(x16, m) for m in range(4)]
                for s, h in zip(systems, hyps):
                    acc = table.setdefault((kind, snr, s), [0, 0, 0])
                    for k, v in enumerate(f1(ref, h)):
                        acc[k] += v
    shares = [labels(c).mean() for c, _ in clips]
    speech = sum(shares) / CLIPS
    print(f"{CLIPS} clips x {CLIP_SECONDS} s at 16 kHz, {100 * speech:.0f} % speech frames by the labels "
          f"({100 * min(shares):.0f}-{100 * max(shares):.0f} % per clip); "
          f"labels vs WebRTC mode 0 on the clean speech: F1 {score(check):.3f}; every frame called speech: F1 "
          f"{2 * speech / (1 + speech):.3f}")
    print("noise   SNR  " + "  ".join(f"{s:>14}" for s in systems) + "  best WebRTC  vad >= best")
    met = True
    for kind in NOISES:
        for snr in SNRS:
            fs = [score(table[(kind, snr, s)]) for s in systems]
            best = max(fs[1:])
            ok = fs[0] >= best
            met &= ok
            print(f"{kind:<7} {snr:>2} dB " + "  ".join(f"{f:>14.3f}" for f in fs) + f"  {best:>11.3f}  {'yes' if ok else 'NO'}")
    print("target (vad at least as good as WebRTC's best mode at every SNR):", "MET" if met else "MISSED")


if __name__ == "__main__":
    main()
