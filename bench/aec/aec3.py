#!/usr/bin/env python3
"""bench/aec/aec3.py: WebRTC's AEC3, the anchor of the aec table, through PyPI's livekit wheel.

Usage: aec3.py FAR.wav < mic.wav > out.wav      (16 or 48 kHz mono s16 WAV in and out, one rate)

Runs in the venv that bench/aec/run makes (bench/out/venv: livekit, onnxruntime, librosa). The
configuration is the one the issue measured: AudioProcessingModule(echo_cancellation=True,
noise_suppression=True, high_pass_filter=True), 10 ms frames, each far-end frame through
process_reverse_stream before the microphone's frame of the same time goes through
process_stream; no stream delay is set (AEC3 finds the delay itself, as PipeWire runs it).

CPU: the frame loop runs twice over the same audio, once with that module and once with a
module whose every feature is off (the same frames, copies and calls into the wheel: the
wrapper's own cost); each loop's thread CPU time (time.thread_time: the wheel processes in
the calling thread, checked against process time in bench/README.md). The difference goes to
stderr as `cpu-net SECONDS`, which compare.py takes as this canceller's CPU in place of the
process's (whose Python start-up and imports would otherwise dominate).
"""
import sys
import time
import wave

import numpy as np
from livekit import rtc

RATES = (16000, 48000)   # the module takes 10 ms frames at 8, 16, 32 or 48 kHz; the bench's scenes are 16 or 48


def read(f):
    """(samples, rate) of a mono 16-bit WAV at one of RATES."""
    with wave.open(f, "rb") as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1 or w.getframerate() not in RATES:
            sys.exit(f"aec3.py: {getattr(f, 'name', f)}: want 16 or 48 kHz mono 16-bit WAV")
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2"), w.getframerate()


def loop(apm, far, mic, rate):
    """Both streams through apm in 10 ms frames (the far end padded or cut to the microphone's
    length); returns (output samples, thread CPU seconds of the loop)."""
    frame = rate // 100   # 10 ms: the only frame AEC3's module takes
    n = len(mic) // frame * frame
    far = np.concatenate([far, np.zeros(max(0, n - len(far)), dtype=np.int16)])[:n]
    out = np.zeros(len(mic), dtype=np.int16)
    t0 = time.thread_time()
    for i in range(0, n, frame):
        rev = rtc.AudioFrame(far[i:i + frame].tobytes(), rate, 1, frame)
        apm.process_reverse_stream(rev)
        cap = rtc.AudioFrame(mic[i:i + frame].tobytes(), rate, 1, frame)
        apm.process_stream(cap)
        out[i:i + frame] = np.frombuffer(cap.data, dtype=np.int16)
    return out, time.thread_time() - t0


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    far, far_rate = read(sys.argv[1])
    mic, rate = read(sys.stdin.buffer)
    if far_rate != rate:
        sys.exit(f"aec3.py: the far end is at {far_rate} Hz, the microphone at {rate}: give both at one rate")
    out, on = loop(rtc.AudioProcessingModule(echo_cancellation=True, noise_suppression=True, high_pass_filter=True), far, mic, rate)
    _, off = loop(rtc.AudioProcessingModule(), far, mic, rate)
    with wave.open(sys.stdout.buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(out.astype("<i2").tobytes())
    print(f"cpu-net {max(0.0, on - off):.6f} on {on:.6f} off {off:.6f}", file=sys.stderr)


if __name__ == "__main__":
    main()
