"""One aupipe binary on one scene, quickly: the raw echo-only ERLE (phase inversion over the output with
comfort=off and the one for the microphone with its noise inverted, metrics.measure's "erle", without
compare.py's erle_c correction, which is the linear stage's and the same for any suppressor change) and
the near end's gain in double talk, on one line. No AECMOS, no CPU: for screening a change before a
run of bench/aec/aupipe_only.py. Usage, from the repository's root:
echo_near.py AUPIPE SCENE_DIR [aec ARGS...]   (e.g. over many with xargs -P2 -L1)"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics

if len(sys.argv) < 3:
    print(__doc__.strip().splitlines()[-1], file=sys.stderr)
    sys.exit(64)
binary, scene = sys.argv[1], sys.argv[2]
facts, parts = metrics.load_scene(scene)
outs = metrics.phase_inverted_outputs(binary, scene, parts, sys.argv[3:])
m = metrics.measure(facts, parts, *outs)
print(f"{os.path.basename(scene.rstrip('/')):28} {os.path.basename(binary):26} ERLE {m['erle']:.2f} near {m['near_gain']:.3f}")
