"""The far end's talk spurts between pauses of at least a tail's length: what a pass over one spurt
(bench/README.md, "Extra adaptation passes of a young canceller") could replay. Usage, from the
repository's root:
far_spurts.py FAR.wav... [--floor DBFS] [--pause SECONDS]
Per file: the spurts (runs of 20 ms frames over the floor, -50 dBFS by default: ERLEMeter's
activity level) that follow a pause of at least PAUSE (0.4 s, the default tail) and end in one,
their count, median length and how many fit 0.6 s and 1.6 s."""
import sys, wave
import numpy as np

def spurts(path, floor_dbfs, pause_s):
    with wave.open(path) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), '<i2').astype(float) / 32768
    n = rate // 50
    frames = len(x) // n
    active = (x[:frames * n].reshape(frames, n) ** 2).mean(1) > 10 ** (floor_dbfs / 10)
    pause, found, run, start, bracketed = int(round(pause_s / 0.02)), [], 0, None, False
    for i, a in enumerate(active):
        if a:
            if start is None:
                start, bracketed = i, run >= pause
            run = 0
        else:
            run += 1
            if run == pause and start is not None:
                if bracketed:
                    found.append((i - pause + 1 - start) * 0.02)
                start = None
    return np.array(found)

if __name__ == '__main__':
    args, floor, pause = sys.argv[1:], -50.0, 0.4
    if '--floor' in args: i = args.index('--floor'); floor = float(args[i + 1]); del args[i:i + 2]
    if '--pause' in args: i = args.index('--pause'); pause = float(args[i + 1]); del args[i:i + 2]
    if not args:
        print(__doc__.strip().splitlines()[3], file=sys.stderr); sys.exit(64)
    for path in args:
        s = spurts(path, floor, pause)
        median = np.median(s) if len(s) else 0.0
        print(f'{path}: {len(s)} spurts, median {median:.2f} s, {(s <= 0.6).sum()} within 0.6 s, {(s <= 1.6).sum()} within 1.6 s')
