"""Small loudspeakers made apart from the bench's set (issue 26, aecham: bench/README.md, "The small
loudspeaker's resonance"): scenes.py's sat-speaker scene with the cone's resonance, drive, room, delay
and seed of each case below (scenes.loudspeaker() with SPEAKER_RESONANCE_HZ / _Q set for it), at
16 kHz, each written as scenes.py writes its scenes (scene.json also says "resonance": [Hz, Q]).
The bench's own scenes are untouched. Usage, from the repository's root:
speakers_apart.py OUTDIR [NAME...]"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenes

CASES = {  # name: (resonance Hz, Q, drive, RT60 s, delay ms, seed)
    "spk200q1": (200.0, 1.0, 3.0, 0.4, 100, 101),
    "spk800q4": (800.0, 4.0, 3.0, 0.5, 150, 102),
    "spk400q2-drive2": (400.0, 2.0, 2.0, 0.4, 90, 103),
    "spk600q2-drive4": (600.0, 2.0, 4.0, 0.3, 60, 104),
    "spk250q4-d300": (250.0, 4.0, 3.0, 0.7, 300, 105),
}


def main():
    if len(sys.argv) < 2 or any(n not in CASES for n in sys.argv[2:]):
        print(__doc__.strip().splitlines()[-1] + "; NAME one of " + " ".join(CASES), file=sys.stderr)
        sys.exit(64)
    out, names = sys.argv[1], sys.argv[2:] or list(CASES)
    base = scenes.scene_list()["sat-speaker-d80"]
    for name in names:
        hz, q, drive, rt60, delay, seed = CASES[name]
        scenes.SPEAKER_RESONANCE_HZ, scenes.SPEAKER_RESONANCE_Q = hz, q
        far16, mic16, parts, facts = scenes.build(name, dict(base, drive=drive, rt60=rt60, delay_ms=delay, seed=seed))
        facts["resonance"] = [hz, q]
        scenes.write_scene(os.path.join(out, name), far16, mic16, parts, facts)
        print(f"speakers_apart.py: {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
