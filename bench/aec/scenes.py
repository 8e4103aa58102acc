#!/usr/bin/env python3
"""bench/aec/scenes.py: the echo scenes of the aec benchmark, built deterministically.

Usage: scenes.py [--rate 16000|48000] [--voice espeak|recorded] OUTDIR [NAME...]     (all scenes when no NAME is given)

Per scene, OUTDIR/NAME/ gets far.wav and mic.wav (16 kHz mono s16: what a canceller is given),
parts.npz (float32 at 16 kHz, 1.0 = full scale: echo, near, noise as they are in the
microphone before rounding) and scene.json (the scene's facts: delay, RT60, SNR, drift,
double-talk, path-change and noise-only intervals). Speech comes from espeak-ng (several
voices and texts, resampled 22050 -> 16000 Hz with a windowed-sinc interpolator); every random
choice comes from numpy's default_rng with a fixed seed, so the files are the same on every run.
See bench/README.md for the scene layout.

--rate 48000 renders the same scenes natively at 48 kHz (rooms, delays, drift, noise and the
loudspeaker's filters at 48 kHz; wav files and parts.npz at 48 kHz) with full-band talkers:
espeak-ng synthesizes at 22050 Hz (nothing above 11 kHz), so at 48 kHz every talker says the
nine words of alsa-utils' test recordings (/usr/share/sounds/alsa/*.wav: a real voice recorded
at 48 kHz, energy up to about 20 kHz), each voice at a speed of its own (a resampling: pitch and
formants move together, so each voice sounds like another talker), in random order with the
same pauses. The default, 16 kHz, is unchanged (the same bytes as before the option).

--voice recorded gives the 16 kHz scenes those recordings too (downsampled from 48 kHz with the
same interpolator) instead of espeak-ng: the 48 kHz scenes' layout and talkers at 16 kHz, a real
voice where espeak-ng's is synthetic (steady pitch, little energy above 5 kHz), so that a canceller
tuned on one kind of speech is seen on the other (scene.json then says "voice": "recorded").
At 48 kHz the talkers are always the recordings.
"""
import json
import os
import subprocess
import sys
import wave

import numpy as np

RATE = 16000             # --rate sets this (and N) before any scene is built
SECONDS = 42.0
N = int(SECONDS * RATE)
RATES = (16000, 48000)
VOICES = ("espeak", "recorded")
VOICE = "espeak"          # --voice sets this; at 48 kHz the talkers are the recordings whatever it says
RECORDINGS = "/usr/share/sounds/alsa"   # 48 kHz recordings of a real voice (Debian's alsa-utils)
RECORDING_WORDS = ["Front_Center", "Front_Left", "Front_Right", "Noise", "Rear_Center", "Rear_Left", "Rear_Right",
                   "Side_Left", "Side_Right"]
FAR_DBFS = -18.0          # far end, active speech RMS, as played
ECHO_PATH_DB = -6.0       # room response energy (direct + diffuse), so the echo is ~ -24 dBFS
NEAR_DBFS = -24.0         # near end, active speech RMS, at the microphone (about the echo's level)
DOUBLE_TALK = [(12.0, 18.0), (32.0, 37.0)]
FAR_GAP = (22.0, 25.0)    # the far end is silent here
NOISE_ONLY = (23.5, 25.0)  # far end, its echo's tail (RT60 <= 1 s, delay <= 400 ms) and near end silent
PATH_CHANGE = 27.0
CONVERGE_FROM = 3.0

TEXTS = [
    "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background.",
    "It is easy to tell the depth of a well. These days a chicken leg is a rare dish.",
    "Rice is often served in round bowls. The juice of lemons makes fine punch.",
    "The box was thrown beside the parked truck. The hogs were fed chopped corn and garbage.",
    "Four hours of steady work faced us. A large size in stockings is hard to sell.",
    "The boy was there when the sun rose. A rod is used to catch pink salmon.",
    "The source of the huge river is the clear spring. Kick the ball straight and follow through.",
    "Help the woman get back to her feet. A pot of tea helps to pass the evening.",
    "Smoky fires lack flame and heat. The soft cushion broke the man's fall.",
    "The salt breeze came across from the sea. The girl at the booth sold fifty bonds.",
    "The small pup gnawed a hole in the sock. The fish twisted and turned on the bent hook.",
    "Press the pants and sew a button on the vest. The swan dive was far short of perfect.",
    "The beauty of the view stunned the young boy. Two blue fish swam in the tank.",
    "Her purse was full of useless trash. The colt reared and threw the tall rider.",
    "It snowed, rained, and hailed the same morning. Read verse out loud for pleasure.",
    "Hoist the load to your left shoulder. Take the winding path to reach the lake.",
]
FAR_VOICES = ["en-us+m3", "en-gb+f3", "en-gb-scotland+m1", "en-us+f2"]
NEAR_VOICES = ["en-gb-x-rp+m4", "en-029+f4", "en-us+m7", "en-gb+f5"]
BABBLE_VOICES = ["en-us+m1", "en-gb+f1", "en-us+m5", "en-gb-x-rp+f2", "en-029+m2", "en-us+f4", "en-gb-scotland+f3"]


def scene_list():
    """name -> parameters. kind groups scenes for the targets (see bench/aec/metrics.py)."""
    s = {}

    def add(name, kind, **p):
        base = dict(kind=kind, rt60=0.4, delay_ms=80, noise="pink", snr_db=45.0, drive=None, drift_ppm=0.0,
                    path_change=False, double_talk=DOUBLE_TALK, near_dbfs=NEAR_DBFS, seed=len(s) + 1,
                    curve="tanh", talkers=None, moving=False)
        base.update(p)
        s[name] = base

    for rt, d in [(0.2, 0), (0.2, 40), (0.4, 80), (0.6, 120), (1.0, 120)]:
        add(f"room-rt{int(rt * 10):02d}-d{d}", "room-near", rt60=rt, delay_ms=d)
    for rt, d in [(0.4, 300), (1.0, 300), (0.6, 400)]:
        add(f"room-rt{int(rt * 10):02d}-d{d}", "room-far", rt60=rt, delay_ms=d)
    add("sat-d80", "sat", rt60=0.3, delay_ms=80, drive=3.0)
    add("sat-d300", "sat", rt60=0.6, delay_ms=300, drive=3.0)
    add("babble15", "babble15", rt60=0.4, delay_ms=80, noise="babble", snr_db=15.0)
    add("babble5", "noise", rt60=0.4, delay_ms=80, noise="babble", snr_db=5.0)
    add("pink5", "noise", rt60=0.4, delay_ms=80, noise="pink", snr_db=5.0)
    add("pink20", "noise", rt60=0.4, delay_ms=80, noise="pink", snr_db=20.0)
    add("pink40", "noise", rt60=0.4, delay_ms=80, noise="pink", snr_db=40.0)
    for ppm in [100, -100, 500, -500, 1000, -1000]:
        add(f"drift{ppm:+d}", "drift", rt60=0.4, delay_ms=80, drift_ppm=float(ppm))
    add("pathchange", "pathchange", rt60=0.4, delay_ms=80, path_change=True)
    add("dt", "dt", rt60=0.4, delay_ms=80, double_talk=[(8.0, 20.0), (28.0, 40.0)])
    # More echo-path changes, after every other scene so that the seeds above stay as they are:
    # the table's reconvergence is the worst over these rooms, from short to long tails.
    for rt, d in [(0.2, 40), (0.6, 200), (0.8, 300), (1.0, 120)]:
        add(f"pathchange-rt{int(rt * 10):02d}-d{d}", "pathchange", rt60=rt, delay_ms=d, path_change=True)
    # Babble at 15 dB SNR in two more rooms (after all the others, for the same reason): the
    # table's babble row is the worst of the three.
    for rt, d in [(0.2, 40), (0.8, 300)]:
        add(f"babble15-rt{int(rt * 10):02d}-d{d}", "babble15", rt60=rt, delay_ms=d, noise="babble", snr_db=15.0)
    # A near talker 10 dB under the echo, in babble and in pink noise at the level of babble15's
    # (kind quietnear: beyond the scenes; the table reports its near-end gain apart).
    add("quietnear-babble15", "quietnear", noise="babble", snr_db=15.0, near_dbfs=NEAR_DBFS - 10)
    add("quietnear-pink15", "quietnear", noise="pink", snr_db=15.0, near_dbfs=NEAR_DBFS - 10)
    # Issue 26's kinds, after all the others (the scenes above keep their seeds and files):
    # other saturation curves (hard clip; a small loudspeaker: resonance, asymmetric excursion,
    # little bass), babble of 4-8 talkers in rooms of their own, drift with a near talker who
    # moves, and quiet near talkers in rooms and noise the quietnear pair above lacks.
    add("sat-clip-d80", "sat", rt60=0.3, delay_ms=80, drive=3.0, curve="clip")
    add("sat-clip-d200", "sat", rt60=0.6, delay_ms=200, drive=2.0, curve="clip")
    add("sat-speaker-d80", "sat", rt60=0.3, delay_ms=80, drive=3.0, curve="speaker")
    add("sat-speaker-d300", "sat", rt60=0.8, delay_ms=300, drive=3.0, curve="speaker")
    add("babble4-rooms15", "babble-rooms", noise="babble-rooms", talkers=4, snr_db=15.0)
    add("babble8-rooms15", "babble-rooms", rt60=0.6, delay_ms=120, noise="babble-rooms", talkers=8, snr_db=15.0)
    add("babble6-rooms8", "babble-rooms", rt60=0.8, delay_ms=200, noise="babble-rooms", talkers=6, snr_db=8.0)
    add("drift+500-moving", "drift", drift_ppm=500.0, moving=True)
    add("drift-1000-moving", "drift", rt60=0.6, delay_ms=120, drift_ppm=-1000.0, moving=True, snr_db=30.0)
    add("quietnear-rt06-d120", "quietnear", rt60=0.6, delay_ms=120, snr_db=30.0, near_dbfs=NEAR_DBFS - 12)
    add("quietnear-dt-d300", "quietnear", rt60=0.4, delay_ms=300, snr_db=30.0, near_dbfs=NEAR_DBFS - 16,
        double_talk=[(8.0, 20.0), (28.0, 40.0)])
    return s


# --- signals ---------------------------------------------------------------------------------

def kaiser_sinc_resample(x, step, count, cutoff, half=48, beta=9.0):
    """y[n] = x(n * step) by band-limited interpolation: a windowed sinc (Kaiser, `half` taps
    each side) with its cut-off at `cutoff` x Nyquist of x; x is 0 outside its samples."""
    t = np.arange(count, dtype=np.float64) * step
    base = np.floor(t).astype(np.int64)
    frac = t - base
    y = np.zeros(count)
    right = max(0, int(np.ceil(count * step)) - len(x)) + half + 2
    xp = np.concatenate([np.zeros(half + 1), x, np.zeros(right)])
    norm = np.i0(beta)
    for k in range(-half + 1, half + 1):
        d = frac - k                              # distance from tap base + k, in input samples
        w = np.i0(beta * np.sqrt(np.clip(1 - (d / half) ** 2, 0, 1))) / norm
        y += xp[base + k + half + 1] * cutoff * np.sinc(cutoff * d) * w
    return y


_speech_cache = {}


def espeak(text, voice, speed, pitch):
    key = (text, voice, speed, pitch)
    if key not in _speech_cache:
        raw = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "--stdout", text],
                             check=True, capture_output=True).stdout
        # --stdout writes a WAV with a streaming header; the samples follow the 44-byte header.
        pcm = np.frombuffer(raw[44:len(raw) - (len(raw) - 44) % 2], dtype="<i2").astype(np.float64) / 32768
        n = int(len(pcm) * RATE / 22050)
        _speech_cache[key] = kaiser_sinc_resample(pcm, 22050 / RATE, n, RATE / 22050 * 0.95)
    return _speech_cache[key]


def all_voices():
    return FAR_VOICES + NEAR_VOICES + BABBLE_ROOM_VOICES


def voice_speed(voice):
    """At 48 kHz, the speed at which a voice says the recordings: 0.85 to 1.15, spread over the
    voices (a speed of 0.85 lowers pitch and formants by 15 %, as from a woman's voice to a man's)."""
    i = all_voices().index(voice)
    return 0.85 + 0.3 * ((i * 7) % 16) / 15


_recordings = {}


def recording(word, speed):
    """One of alsa-utils' recordings (48 kHz mono s16) played at `speed` (1.0: as recorded),
    resampled to RATE with the scenes' interpolator; 1.0 = full scale."""
    key = (word, speed)
    if key not in _recordings:
        with wave.open(os.path.join(RECORDINGS, word + ".wav"), "rb") as w:
            if w.getframerate() != 48000 or w.getnchannels() != 1 or w.getsampwidth() != 2:
                sys.exit(f"scenes.py: {RECORDINGS}/{word}.wav: want the 48 kHz mono 16-bit recording (alsa-utils)")
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768
        step = speed * (48000 / RATE)   # exactly `speed` at 48 kHz
        _recordings[key] = kaiser_sinc_resample(pcm, step, int(len(pcm) / step), min(1.0, 1 / step) * 0.97)
    return _recordings[key]


def utterance(rng, voice):
    """One utterance of a voice: espeak-ng at 16 kHz (a random text, speed and pitch), one of the
    recordings at 48 kHz or with --voice recorded (a random word, the voice's speed within +-3 %)."""
    if RATE == 16000 and VOICE == "espeak":
        text = TEXTS[rng.integers(len(TEXTS))]
        return espeak(text, voice, int(rng.integers(145, 185)), int(rng.integers(35, 65)))
    word = RECORDING_WORDS[rng.integers(len(RECORDING_WORDS))]
    return recording(word, round(voice_speed(voice) * rng.uniform(0.97, 1.03), 2))


def talker(rng, voices, count, gaps=(0.3, 0.9)):
    """Utterances of the voices in turn, random texts, speeds and pitches, joined by pauses,
    until `count` samples; scaled later."""
    out = np.zeros(count)
    pos = int(rng.uniform(0, 0.3) * RATE)
    i = 0
    while pos < count:
        voice = voices[i % len(voices)]
        s = utterance(rng, voice)
        # leading/trailing silence of espeak trimmed
        nz = np.nonzero(np.abs(s) > 1e-3)[0]
        s = s[nz[0]:nz[-1] + 1]
        m = min(len(s), count - pos)
        out[pos:pos + m] += s[:m]
        pos += m + int(rng.uniform(*gaps) * RATE)
        i += 1
    return out


def gate(x, intervals, fade=0.02):
    """x kept inside the intervals (seconds), with raised-cosine edges of `fade`, zero elsewhere."""
    g = np.zeros(len(x))
    t = np.arange(len(x)) / RATE
    for a, b in intervals:
        inside = (t >= a) & (t < b)
        e = np.minimum(t - a, b - t) / fade
        g = np.maximum(g, np.where(inside, 0.5 * (1 - np.cos(np.pi * np.clip(e, 0, 1))), 0))
    return x * g


def active_rms(x):
    """RMS over the 20 ms frames within 30 dB of the loudest (speech-active level)."""
    frame = RATE // 50
    f = x[: len(x) // frame * frame].reshape(-1, frame)
    p = (f ** 2).mean(axis=1)
    act = p > p.max() * 1e-3
    return np.sqrt(p[act].mean())


def scale_to(x, dbfs):
    return x * (10 ** (dbfs / 20) / active_rms(x))


def room(rng, rt60):
    """A room response: a direct path (unit tap) and, 2.5 ms later, Gaussian noise under an
    exponential decay of 60 dB in rt60 s, truncated there, whose energy equals the direct path's
    (0 dB direct-to-reverberant ratio, a loudspeaker close to the microphone); then scaled to
    the echo path's energy ECHO_PATH_DB."""
    n = int(rt60 * RATE)
    k = np.arange(n)
    tail = rng.standard_normal(n) * np.exp(-np.log(1000) * k / n)
    start = int(0.0025 * RATE)
    tail[:start] = 0
    tail *= 1 / np.sqrt((tail ** 2).sum())
    h = tail
    h[0] = 1.0
    return h * (10 ** (ECHO_PATH_DB / 20) / np.sqrt((h ** 2).sum()))


def convolve(x, h):
    n = 1
    while n < len(x) + len(h):
        n <<= 1
    return np.fft.irfft(np.fft.rfft(x, n) * np.fft.rfft(h, n), n)[: len(x)]


def pink(rng, count):
    """Pink noise: white Gaussian noise shaped to 1/f power (3 dB per octave) above 20 Hz."""
    n = 1
    while n < count:
        n <<= 1
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / RATE)
    spec /= np.sqrt(np.maximum(f, 20.0))
    x = np.fft.irfft(spec, n)[:count]
    return x / np.sqrt((x ** 2).mean())


def babble(rng, count):
    """Multi-talker babble: seven espeak talkers with short pauses, each at the same active level, summed."""
    x = np.zeros(count)
    for v in BABBLE_VOICES:
        x += scale_to(talker(rng, [v], count, gaps=(0.05, 0.3)), -20)
    return x / np.sqrt((x ** 2).mean())


def biquad(x, b, a):
    """x through one second-order section (b0 b1 b2 / 1 a1 a2), direct form I, from rest."""
    y = np.zeros(len(x))
    x1 = x2 = y1 = y2 = 0.0
    b0, b1, b2 = b
    _, a1, a2 = a
    for i, v in enumerate(x.tolist()):
        o = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, v, y1, o
        y[i] = o
    return y


SPEAKER_RESONANCE_HZ, SPEAKER_RESONANCE_Q, SPEAKER_RESONANCE_DB = 400.0, 2.0, 9.0  # a 40-50 mm driver's cone resonance
SPEAKER_OUTWARD = 1.8     # the suspension stiffens outward: negative excursion saturates at 1/1.8 of positive
SPEAKER_CUTOFF_HZ = 180.0  # no cabinet to speak of: little under 180 Hz (second-order high-pass, Q 0.7)


def loudspeaker(x, drive):
    """A small loudspeaker driven hard: the excursion is the signal with the cone's resonance
    (a +9 dB peak at 400 Hz, Q 2), saturating asymmetrically (tanh, SPEAKER_OUTWARD times
    sooner on one side); what it radiates loses the bass under SPEAKER_CUTOFF_HZ."""
    w = 2 * np.pi * SPEAKER_RESONANCE_HZ / RATE
    A = 10 ** (SPEAKER_RESONANCE_DB / 40)
    al = np.sin(w) / (2 * SPEAKER_RESONANCE_Q)
    a0 = 1 + al / A
    u = biquad(x, ((1 + al * A) / a0, -2 * np.cos(w) / a0, (1 - al * A) / a0), (1, -2 * np.cos(w) / a0, (1 - al / A) / a0))
    k = np.where(u >= 0, drive, drive * SPEAKER_OUTWARD)
    y = np.tanh(k * u) / k
    w = 2 * np.pi * SPEAKER_CUTOFF_HZ / RATE
    al = np.sin(w) / (2 * 0.7071)
    a0 = 1 + al
    c = (1 + np.cos(w)) / 2 / a0
    return biquad(y, (c, -2 * c, c), (1, -2 * np.cos(w) / a0, (1 - al) / a0))


def saturate(x, drive, curve):
    """The loudspeaker's curve at drive: tanh (the first scenes), a hard clip at 1/drive, or loudspeaker()."""
    if curve == "clip":
        return np.clip(drive * x, -1, 1) / drive
    if curve == "speaker":
        return loudspeaker(x, drive)
    return np.tanh(drive * x) / drive


def diffuse(rng, rt60):
    """A talker in another room, heard through a door: no direct path, Gaussian noise under an
    exponential decay of 60 dB in rt60 s after 5-25 ms, unit energy."""
    n = int(rt60 * RATE)
    k = np.arange(n)
    h = rng.standard_normal(n) * np.exp(-np.log(1000) * k / n)
    h = np.concatenate([np.zeros(int(rng.uniform(0.005, 0.025) * RATE)), h])
    return h / np.sqrt((h ** 2).sum())


BABBLE_ROOM_VOICES = BABBLE_VOICES + ["en-us+m6"]


def babble_rooms(rng, count, talkers):
    """Babble of `talkers` espeak talkers, each in a room of its own (RT60 0.3-0.9 s, diffuse())
    at a level of its own (+-4 dB), summed; unit RMS."""
    x = np.zeros(count)
    for v in BABBLE_ROOM_VOICES[:talkers]:
        t = scale_to(talker(rng, [v], count, gaps=(0.05, 0.4)), -20 + rng.uniform(-4, 4))
        x += convolve(t, diffuse(rng, rng.uniform(0.3, 0.9)))
    return x / np.sqrt((x ** 2).mean())


MOVE_PERIOD_S = 10.0  # the near talker walks between two places and back in this time


def moving(rng, x):
    """x said by a talker who moves: heard through two rooms' responses (room(), RT60 0.3 s) mixed
    with a weight going 0 -> 1 -> 0 every MOVE_PERIOD_S, so the near end's path never settles."""
    ha, hb = room(rng, 0.3), room(rng, 0.3)
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(len(x)) / RATE / MOVE_PERIOD_S)
    return (1 - w) * convolve(x, ha) + w * convolve(x, hb)


def build(name, p):
    rng = np.random.default_rng(1000 + p["seed"])
    far = scale_to(talker(rng, FAR_VOICES, N), FAR_DBFS)
    far = gate(far, [(0.0, FAR_GAP[0]), (FAR_GAP[1], SECONDS + 1)])
    far = np.clip(far, -0.99, 0.99)
    far16 = np.round(far * 32768).astype(np.int16)
    played = far16 / 32768.0
    if p["drive"]:
        played = saturate(played, p["drive"], p["curve"])
    if p["drift_ppm"]:
        # The loudspeaker's clock runs at (1 + ppm 1e-6) times the microphone's: microphone
        # sample n hears the far end at its sample n (1 + ppm 1e-6).
        r = 1 + p["drift_ppm"] * 1e-6
        played = kaiser_sinc_resample(played, r, N, min(1.0, 1 / r) * 0.97)
    h1 = room(rng, p["rt60"])
    echo = convolve(played, h1)
    if p["path_change"]:
        h2 = room(rng, p["rt60"])
        echo2 = convolve(played, h2)
        cut = int(PATH_CHANGE * RATE)
        echo = np.concatenate([echo[:cut], echo2[cut:]])  # delayed below: the change is at PATH_CHANGE + delay
    d = int(p["delay_ms"] * RATE / 1000)
    echo = np.concatenate([np.zeros(d), echo[: N - d]])
    near = talker(rng, NEAR_VOICES, N)
    if p["moving"]:
        near = moving(rng, near)
    near = scale_to(near, p["near_dbfs"])
    near = gate(near, p["double_talk"])
    near_level = 10 ** (NEAR_DBFS / 20)
    if p["noise"] == "babble-rooms":
        noise = babble_rooms(rng, N, p["talkers"])
    else:
        noise = pink(rng, N) if p["noise"] == "pink" else babble(rng, N)
    noise *= near_level * 10 ** (-p["snr_db"] / 20)
    mic = echo + near + noise
    mic16 = np.round(np.clip(mic, -1, 32767 / 32768) * 32768).astype(np.int16)
    facts = dict(name=name, kind=p["kind"], rate=RATE, seconds=SECONDS, delay_ms=p["delay_ms"], rt60_s=p["rt60"],
                 noise=p["noise"], snr_db=p["snr_db"], drive=p["drive"], drift_ppm=p["drift_ppm"],
                 double_talk=p["double_talk"], far_silent=list(FAR_GAP), noise_only=list(NOISE_ONLY),
                 path_change_s=(PATH_CHANGE + d / RATE) if p["path_change"] else None, converge_from_s=CONVERGE_FROM,
                 far_dbfs=FAR_DBFS, near_dbfs=p["near_dbfs"], echo_path_db=ECHO_PATH_DB,
                 mic_clipped=int(np.sum(np.abs(mic) >= 1)))
    if RATE == 16000 and VOICE == "recorded":
        facts["voice"] = "recorded"
    # Only the new kinds say these (the other scenes' scene.json stay as they were).
    if p["drive"] and p["curve"] != "tanh":
        facts["curve"] = p["curve"]
    if p["talkers"]:
        facts["talkers"] = p["talkers"]
    if p["moving"]:
        facts["moving_near"] = True
    return far16, mic16, dict(echo=echo.astype(np.float32), near=near.astype(np.float32), noise=noise.astype(np.float32)), facts


def write_wav(path, x16):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(x16.astype("<i2").tobytes())


def write_scene(d, far16, mic16, parts, facts):
    """A scene as a canceller and the bench read it: d/far.wav, d/mic.wav, d/parts.npz, d/scene.json."""
    os.makedirs(d, exist_ok=True)
    write_wav(os.path.join(d, "far.wav"), far16)
    write_wav(os.path.join(d, "mic.wav"), mic16)
    np.savez(os.path.join(d, "parts.npz"), **parts)
    with open(os.path.join(d, "scene.json"), "w") as f:
        json.dump(facts, f, indent=1)


def main():
    global RATE, N, VOICE
    args = sys.argv[1:]
    while args[:1] in (["--rate"], ["--voice"]):
        option, value = args[0], args[1] if len(args) > 1 else ""
        choices = RATES if option == "--rate" else VOICES
        if value not in map(str, choices):
            print(f"scenes.py: {option} takes one of {' '.join(map(str, choices))}", file=sys.stderr)
            sys.exit(64)
        if option == "--rate":
            RATE = int(value)
            N = int(SECONDS * RATE)
        else:
            VOICE = value
        args = args[2:]
    if len(args) < 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    out = args[0]
    scenes = scene_list()
    names = args[1:] or list(scenes)
    for name in names:
        if name not in scenes:
            print(f"scenes.py: no scene {name}; there are {' '.join(scenes)}", file=sys.stderr)
            sys.exit(64)
        write_scene(os.path.join(out, name), *build(name, scenes[name]))
        print(f"scenes.py: {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
