#!/usr/bin/env python3
"""Time the WHOLE `brec dedup` command against the WHOLE Python pipeline (scripts/dedup_pynauty.py:
pynauty certificate per graph), both from start to exit on one core (--jobs 1), with peak memory
(GNU time, or the child's rusage without it), on TU datasets and on generated molecule-like datasets of growing size
(`brec generate --molecules N`), and check that both find the same orbits (exit 1 if not).

Each measurement is the best of --repeat runs (wall seconds and CPU = user + sys seconds, each the
smallest; peak RSS the largest).
Python runs only up to --py-max graphs. --before PATH adds another brec binary (e.g. a build of an
older commit) timed the same way, for before/after tables.

Usage: scripts/bench_dedup_scale.py [--brec PATH] [--before PATH] [--tu DIR ...] [--sizes N,N,...]
       [--py-max N] [--repeat K] [--work DIR] [--keep] [--modes topology,node-labels] [--seed S]
Example: scripts/bench_dedup_scale.py --tu /data/tu/PROTEINS --tu /data/tu/IMDB-BINARY --sizes 1000,10000
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


GNU_TIME = "/usr/bin/time"


def timed(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (wall s, cpu s, peak MiB). CPU (user + sys) comes from
    the child's rusage (wait4, microseconds; through GNU time it includes GNU time's own few ms),
    peak RSS from GNU time (Debian package time) when installed: a child of this Python process
    reports at least this process's own peak RSS (Linux keeps the high-water mark of the forked image
    across exec), so without GNU time small peaks read high."""
    stats = out_path + ".time"
    wrapped = [GNU_TIME, "-f", "%M", "-o", stats] + cmd if os.path.exists(GNU_TIME) else cmd
    with open(out_path, "w") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=out, stderr=subprocess.PIPE)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("bench_dedup_scale: %s failed (exit %d):\n%s" % (" ".join(cmd), proc.returncode,
                                                                  err.decode(errors="replace")[-2000:]))
    peak_kib = usage.ru_maxrss
    if wrapped is not cmd:
        peak_kib = int(open(stats).read().split()[-1])
        os.remove(stats)
    return wall, usage.ru_utime + usage.ru_stime, peak_kib / 1024.0


def best(cmd, out_path, repeat):
    """The fastest wall time and the smallest CPU time of `repeat` runs, and the largest peak RSS."""
    runs = [timed(cmd, out_path) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def brec_orbits(path):
    lines = [ln for ln in open(path).read().splitlines() if ln.strip()]
    j = json.loads(lines[-1])
    return j["graphs"], {tuple(int(x) for x in m) for m in j["non_trivial_orbits"]}


def py_orbits(path):
    j = json.load(open(path))
    return j["graphs"], {tuple(m) for m in j["non_trivial_orbits"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--brec", default=os.path.join(os.environ.get("BREC_BUILD_DIR", "build"), "bin", "brec"))
    ap.add_argument("--before", default="", help="another brec binary to time the same way")
    ap.add_argument("--python", default="/usr/bin/python3", help="a Python that imports pynauty")
    ap.add_argument("--tu", action="append", default=[], help="a TU dataset directory (repeatable)")
    ap.add_argument("--sizes", default="1000,10000,100000,1000000", help="generated molecule datasets ('' = none)")
    ap.add_argument("--py-max", type=int, default=100000, help="largest generated size the Python pipeline runs on")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement below 100,000 graphs (the best)")
    ap.add_argument("--modes", default="topology,node-labels")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="", help="where generated datasets go (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the generated datasets")
    args = ap.parse_args()
    for b in [args.brec] + ([args.before] if args.before else []):
        if not os.access(b, os.X_OK):
            sys.exit("bench_dedup_scale: %s is not an executable; build first or pass --brec" % b)
    if subprocess.run([args.python, "-c", "import pynauty"], capture_output=True).returncode != 0:
        sys.exit("bench_dedup_scale: %s cannot import pynauty (Debian: apt-get install python3-pynauty)" % args.python)
    work = args.work or tempfile.mkdtemp(prefix="brec_bench_dedup_scale_")
    os.makedirs(work, exist_ok=True)
    sets = [(os.path.basename(d.rstrip("/")), d, None) for d in args.tu]
    for n in [int(x) for x in args.sizes.split(",") if x]:
        d = os.path.join(work, "MOL%d" % n)
        if not os.path.exists(d):
            subprocess.run([args.brec, "generate", "--molecules", str(n), "--seed", str(args.seed), "--out", d,
                            "--jobs", "2", "--quiet"], check=True, stdout=subprocess.DEVNULL)
        sets.append(("MOL%d" % n, d, n))
    modes = args.modes.split(",")
    header = ["dataset", "mode", "N", "orbits>1", "brec s", "brec cpu", "brec MiB"]
    if args.before:
        header += ["before s", "before cpu", "before MiB", "before/brec cpu"]
    header += ["python s", "python cpu", "python MiB", "python/brec wall", "python/brec cpu", "same"]
    rows, ok = [], True
    for name, d, n in sets:
        has_labels = any(f.endswith("_node_labels.txt") for f in os.listdir(d))
        for mode in modes:
            if mode == "node-labels" and not has_labels:
                continue
            repeat = args.repeat if (n or 0) < 100000 else 1
            flag = ["--node-labels"] if mode == "node-labels" else []
            out = os.path.join(work, "out_%s_%s" % (name, mode))
            cmd = ["dedup", d, "--json", "--quiet", "--jobs", "1"] + flag
            b = best([args.brec] + cmd, out + ".brec.json", repeat)
            graphs, orbits = brec_orbits(out + ".brec.json")
            row = [name, mode, graphs, len(orbits), "%.3f" % b[0], "%.3f" % b[1], "%.0f" % b[2]]
            same = True
            if args.before:
                bb = best([args.before] + cmd, out + ".before.json", repeat)
                same = same and brec_orbits(out + ".before.json") == (graphs, orbits)
                row += ["%.3f" % bb[0], "%.3f" % bb[1], "%.0f" % bb[2], "%.1fx" % (bb[1] / max(b[1], 1e-9))]
            if n is None or n <= args.py_max:
                p = best([args.python, os.path.join(HERE, "dedup_pynauty.py"), d, "--out", out + ".py.json"] + flag,
                         os.devnull, repeat)
                same = same and py_orbits(out + ".py.json") == (graphs, orbits)
                row += ["%.3f" % p[0], "%.3f" % p[1], "%.0f" % p[2], "%.1fx" % (p[0] / max(b[0], 1e-9)),
                        "%.1fx" % (p[1] / max(b[1], 1e-9))]
            else:
                row += ["-", "-", "-", "-", "-"]
            row.append("yes" if same else "NO")
            ok = ok and same
            rows.append(row)
            print("  done %s (%s)" % (name, mode), file=sys.stderr, flush=True)
    widths = [max(len(str(r[c])) for r in rows + [header]) for c in range(len(header))]
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(x).rjust(w) for x, w in zip(r, widths)) + " |")
    print("\n(whole commands from start to exit, one core each: brec dedup DIR --json --quiet --jobs 1 > FILE; "
          "%s scripts/dedup_pynauty.py DIR --out FILE; s = wall seconds, cpu = user + sys seconds, each the "
          "best of %d runs below 100,000 graphs (1 run above); MiB = peak RSS; same = equal non-trivial orbits; "
          "on a loaded machine the cpu ratio is the steadier one)" % (args.python, args.repeat))
    if not args.work and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    if not ok:
        print("bench_dedup_scale: the pipelines found DIFFERENT orbits", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
