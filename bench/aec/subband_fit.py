"""What a per-bin RLS fit of the microphone on the far end could cancel in the first seconds after
an echo-path change, next to the linear canceller's output: a screen for the "subband fit" idea
(bench/README.md, "A per-bin fit for the first 0.5 s after a path change"), not a processor.
Usage, from the repository's root:
subband_fit.py AUPIPE SCENE_DIR... [--taps L] [--forget LAMBDA]
For each scene (a pathchange scene of bench/aec/scenes.py or scenes_apart.py): C = the output of
`aec ref=far.wav residual=0 preprocess=0` (the linear stage, shadow and take-over included); D, the
microphone; X, the far end at the scene's true delay less one hop. On the suppressor's STFT (20 ms
hop, 40 ms sqrt-Hann window, 1024 points at 16 kHz), per bin a complex RLS filter of L taps over X's
last L windows (exponential forgetting LAMBDA) fitted to D from 3 s before the change, its a priori
error E. Prints per 0.5 s after the change D's power over: C's, C with E put in the bins where E's
smoothed power is 6 dB under C's (as ShadowEvidence passes a shadow's), and E's alone (dB)."""
import json, os, subprocess, sys, tempfile
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics

def screen(binary, scene, taps, forget):
    facts = json.load(open(os.path.join(scene, 'scene.json')))
    rate, hop = facts['rate'], facts['rate'] // 50
    far, mic = metrics.read_wav(os.path.join(scene, 'far.wav')), metrics.read_wav(os.path.join(scene, 'mic.wav'))
    with tempfile.NamedTemporaryFile(suffix='.wav') as out:
        with open(os.path.join(scene, 'mic.wav'), 'rb') as inp:
            subprocess.run([binary, 'aec', 'ref=' + os.path.join(scene, 'far.wav'), 'residual=0', 'preprocess=0'],
                           stdin=inp, stdout=out, check=True)
        c = metrics.read_wav(out.name)
    delay = int(facts['delay_ms'] * rate / 1000) - hop
    x = np.concatenate([np.zeros(max(delay, 0)), far])[:len(mic)]
    D, X, C = (metrics.stft(v, hop, 1024) for v in (mic, x, c))
    bins, change = D.shape[1], int(facts['path_change_s'] * rate / hop)
    w = np.zeros((bins, taps), complex)
    P = np.tile(np.eye(taps, dtype=complex) * 100, (bins, 1, 1))
    sc, se, rows = np.zeros(bins), np.zeros(bins), []
    for t in range(change - 150, change + 125):
        u = np.stack([X[t - j] for j in range(taps)], 1)
        e = D[t] - np.einsum('kl,kl->k', w.conj(), u)
        pu = np.einsum('kij,kj->ki', P, u)
        g = pu / (forget + np.einsum('ki,ki->k', u.conj(), pu).real)[:, None]
        w += g * e.conj()[:, None]
        P = (P - np.einsum('ki,kj->kij', g, np.einsum('ki,kij->kj', u.conj(), P))) / forget
        sc, se = 0.5 * sc + 0.5 * abs(C[t]) ** 2, 0.5 * se + 0.5 * abs(e) ** 2
        if t >= change:
            taken = np.where(4 * se < sc, abs(e) ** 2, abs(C[t]) ** 2)
            rows.append((np.sum(abs(D[t]) ** 2), np.sum(abs(C[t]) ** 2), np.sum(taken), np.sum(abs(e) ** 2)))
    r = np.array(rows)
    db = lambda i, j, a: 10 * np.log10(r[a:a + 25, 0].sum() / max(r[a:a + 25, j].sum(), 1e-20))
    print(os.path.basename(scene.rstrip('/')), ' '.join('%5.1f|%5.1f|%5.1f' % (db(0, 1, a), db(0, 2, a), db(0, 3, a)) for a in range(0, 125, 25)))

if __name__ == '__main__':
    args, taps, forget = sys.argv[1:], 5, 0.95
    if '--taps' in args: i = args.index('--taps'); taps = int(args[i + 1]); del args[i:i + 2]
    if '--forget' in args: i = args.index('--forget'); forget = float(args[i + 1]); del args[i:i + 2]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[4], file=sys.stderr); sys.exit(64)
    print('scene, per 0.5 s after the change: D/C | D/(C, E where 6 dB quieter) | D/E (dB)')
    for scene in args[1:]:
        screen(args[0], scene, taps, forget)
