"""Echo scenes made apart from the bench's own set (issue 26: the defaults are judged "on independent
scenes as well as the bench's"): scenes.py's generator (scenes.build, its talkers, rooms, noises and
loudspeakers) with rooms, delays, noise levels, drives, drifts and seeds that no scene of scenes.py
has, at 16 kHz, each written as scenes.py writes its scenes; scene.json also says "set": "apart", so
that compare.py writes their figures to bench/out/aec-anchor-apart.json. No default of aec was tuned
on them: read their figures beside the bench's, as a check that a change holds on scenes it never saw.
Usage, from the repository's root: scenes_apart.py OUTDIR [NAME...]"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenes

# name: (kind, parameters over scenes.scene_list()'s defaults). The seeds start at 401 (the bench's
# scenes use 1-42, speakers_apart.py 101-105). Ranges as the independent set: RT60 0.17-0.97 s,
# delays 0-250 ms, pink noise and babble at 5-40 dB SNR, drift 100-1000 ppm.
CASES = {
    "a-room-rt05-d40-pink30": ("room-near", dict(rt60=0.5, delay_ms=40, snr_db=30.0)),
    "a-room-rt017-d0": ("room-near", dict(rt60=0.17, delay_ms=0)),
    "a-room-rt08-d60": ("room-near", dict(rt60=0.8, delay_ms=60, snr_db=35.0)),
    "a-room-rt097-d250": ("room-far", dict(rt60=0.97, delay_ms=250)),
    "a-room-rt03-d200": ("room-far", dict(rt60=0.3, delay_ms=200, snr_db=40.0)),
    "a-sat-tanh-d150": ("sat", dict(rt60=0.5, delay_ms=150, drive=2.5)),
    "a-sat-clip-d120": ("sat", dict(rt60=0.4, delay_ms=120, drive=2.5, curve="clip")),
    "a-sat-speaker-d100": ("sat", dict(rt60=0.5, delay_ms=100, drive=2.5, curve="speaker")),
    "a-babble15-rt05-d100": ("babble15", dict(rt60=0.5, delay_ms=100, noise="babble", snr_db=15.0)),
    "a-babble10-rooms5-d60": ("babble-rooms", dict(rt60=0.5, delay_ms=60, noise="babble-rooms", talkers=5, snr_db=10.0)),
    "a-pink10-rt06-d150": ("noise", dict(rt60=0.6, delay_ms=150, snr_db=10.0)),
    "a-babble25-rt03-d30": ("noise", dict(rt60=0.3, delay_ms=30, noise="babble", snr_db=25.0)),
    "a-drift+300-rt05": ("drift", dict(rt60=0.5, delay_ms=70, drift_ppm=300.0)),
    "a-drift-750-rt07-d150": ("drift", dict(rt60=0.7, delay_ms=150, drift_ppm=-750.0, snr_db=30.0)),
    "a-drift+1000-moving-d60": ("drift", dict(rt60=0.35, delay_ms=60, drift_ppm=1000.0, moving=True)),
    "a-pathchange-rt05-d60": ("pathchange", dict(rt60=0.5, delay_ms=60, path_change=True)),
    "a-pathchange-rt09-d250": ("pathchange", dict(rt60=0.9, delay_ms=250, path_change=True, snr_db=30.0)),
    "a-dt-rt07-d150": ("dt", dict(rt60=0.7, delay_ms=150, double_talk=[(6.0, 18.0), (26.0, 38.0)])),
    "a-quietnear-rt05-d60-pink25": ("quietnear", dict(rt60=0.5, delay_ms=60, snr_db=25.0, near_dbfs=scenes.NEAR_DBFS - 12)),
    "a-pink5-drift+600": ("drift", dict(rt60=0.4, delay_ms=90, snr_db=5.0, drift_ppm=600.0)),
}


def main():
    if len(sys.argv) < 2 or any(n not in CASES for n in sys.argv[2:]):
        print(__doc__.strip().splitlines()[-1] + "; NAME one of " + " ".join(CASES), file=sys.stderr)
        sys.exit(64)
    out, names = sys.argv[1], sys.argv[2:] or list(CASES)
    base = scenes.scene_list()["room-rt04-d80"]
    for i, name in enumerate(CASES):
        if name not in names:
            continue
        kind, p = CASES[name]
        far16, mic16, parts, facts = scenes.build(name, dict(base, kind=kind, seed=401 + i, **p))
        facts["set"] = "apart"
        scenes.write_scene(os.path.join(out, name), far16, mic16, parts, facts)
        print(f"scenes_apart.py: {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
