"""Scenes whose near talker starts in the call's first seconds, made apart into a scratch directory
(bench/aec/run makes them into bench/out/aec-early: its set `early`, scene.json's "set"). Every
scene of bench/aec and bench/aec-apart starts its double talk at 6 s or later (most at 12 s), so a
change that acts only in the first seconds of a call (the far end's echo model, the suppressor's
first adaptation) is not guarded by them; these are the guard. Usage, from the repository's root:
bench/out/venv/bin/python bench/aec/early_talkers.py OUT_DIR [NAME...]
then echo_near.py or aupipe_only.py on OUT_DIR's scenes."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenes

BASE = scenes.scene_list()["room-rt04-d80"]
QUIET = scenes.NEAR_DBFS - 10
CASES = {
    "e-babble5-dt4": ("noise", dict(rt60=0.4, delay_ms=80, noise="babble", snr_db=5.0, double_talk=[(4.0, 10.0)])),
    "e-quietnear-babble10-dt4": ("quietnear", dict(rt60=0.5, delay_ms=100, noise="babble", snr_db=10.0, near_dbfs=QUIET,
                                                   double_talk=[(4.0, 10.0)])),
    "e-babble15-rt08-d300-dt5": ("babble15", dict(rt60=0.8, delay_ms=300, noise="babble", snr_db=15.0, double_talk=[(5.0, 11.0)])),
    "e-babble6-rooms8-dt7": ("babble-rooms", dict(rt60=0.8, delay_ms=200, noise="babble-rooms", talkers=6, snr_db=8.0,
                                                  double_talk=[(7.0, 11.0)])),
    "e-quietnear-pink10-dt4": ("quietnear", dict(rt60=0.6, delay_ms=150, noise="pink", snr_db=10.0, near_dbfs=QUIET,
                                                 double_talk=[(4.0, 10.0)])),
    "e-room-rt08-d300-dt2": ("room-far", dict(rt60=0.8, delay_ms=300, double_talk=[(2.0, 8.0)])),
}

if len(sys.argv) < 2:
    print(__doc__.strip().splitlines()[-2], file=sys.stderr)
    sys.exit(64)
which = sys.argv[2:]
for i, (name, (kind, p)) in enumerate(CASES.items()):
    if which and name not in which:
        continue
    far16, mic16, parts, facts = scenes.build(name, dict(BASE, kind=kind, seed=701 + i, **p))
    facts["set"] = "early"
    scenes.write_scene(os.path.join(sys.argv[1], name), far16, mic16, parts, facts)
    print(name, file=sys.stderr)
