"""CPU per second of audio of aupipe's defaults on the 11 scenes of the 48 kHz set, at 16 kHz (bench/out/aec),
at 48 kHz (bench/out/aec48) and at 48 kHz with bands=off: one run per scene and configuration, interleaved so
that they share the machine's load (user + sys of the children). Usage: cpu_rates.py [REPEATS] from the
repository's root, with .build-bench/release/aupipe built."""
import resource, subprocess, sys
sys.path.insert(0, "bench/aec")
import compare
names = compare.scenes_in("bench/out/aec48")   # the 48 kHz set's names (NAMES48 in bench/aec/run)
A = ".build-bench/release/aupipe"
confs = [("16 kHz", "bench/out/aec", []), ("48 kHz bands=auto", "bench/out/aec48", []), ("48 kHz bands=off", "bench/out/aec48", ["bands=off"])]
tot = {c[0]: 0.0 for c in confs}
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN); return r.ru_utime + r.ru_stime
for rep in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1):
    for n in names:
        for label, root, extra in confs:
            t = cpu()
            with open(f"{root}/{n}/mic.wav", "rb") as i:
                subprocess.run([A, "aec", f"ref={root}/{n}/far.wav"] + extra, stdin=i, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            tot[label] += cpu() - t
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 1
for label, v in tot.items():
    print(f"{label}: {1000 * v / (42 * len(names) * reps):.1f} ms of CPU per second of audio")
