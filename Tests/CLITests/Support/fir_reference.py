#!/usr/bin/env python3
"""fir against numpy's direct convolution: writes a random, decaying impulse response of L taps
and a noise stream (float32 WAV, 48 kHz), runs `$AUPIPE --block B fir h.wav`, and prints the
error energy over the reference's energy in dB, per channel: `error_db=-131.2 -130.9`.
Usage: fir_reference.py TAPS FRAMES BLOCK IR_CHANNELS STREAM_CHANNELS (in a scratch directory)."""
import os, struct, subprocess, sys
import numpy as np

def wav(path, x, rate=48000):
    x = np.ascontiguousarray(x, dtype='<f4')
    n, c = x.shape
    data = x.tobytes()
    fmt = struct.pack('<IHHIIHH', 16, 3, c, rate, rate * c * 4, c * 4, 32)
    with open(path, 'wb') as f:
        f.write(b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVEfmt ' + fmt + b'data' + struct.pack('<I', len(data)) + data)

taps, frames, block, ir_channels, channels = map(int, sys.argv[1:6])
rng = np.random.default_rng(taps * 7 + block)
h = (rng.standard_normal((taps, ir_channels)) * np.exp(-np.arange(taps) / (taps / 4 + 1))[:, None]).astype(np.float32)
x = (rng.standard_normal((frames, channels)) * 0.1).astype(np.float32)
wav('h.wav', h)
wav('x.wav', x)
out = subprocess.run([os.environ['AUPIPE'], '-i', 'x.wav', '--block', '%df' % block, '-t', 'raw', 'fir', 'h.wav'],
                     capture_output=True, check=True).stdout
y = np.frombuffer(out, dtype='<f4').reshape(-1, channels).astype(np.float64)
assert y.shape[0] == frames, 'fir wrote %d frames for %d' % (y.shape[0], frames)
errors = []
for c in range(channels):
    ref = np.convolve(x[:, c].astype(np.float64), h[:, c if ir_channels > 1 else 0].astype(np.float64))[:frames]
    errors.append(10 * np.log10(np.sum((y[:, c] - ref) ** 2) / np.sum(ref ** 2)))
print('error_db=' + ' '.join('%.1f' % e for e in errors))
