#!/usr/bin/env python3
"""Benchmark (not run in CI): time and peak memory of `brec dedup` on one set of graphs stored in
each input format it reads, against the size of the same graphs in graph6, and optionally against
another brec binary (--baseline, e.g. a build of an earlier commit) on the same files.

The graphs: `brec generate --molecules N --seed 3` (a TU directory of molecule-like graphs, 10-40
vertices, node labels, 30 % renumbered copies), the same graphs converted to graph6, and the same
graphs as a BREC pair file (graphs 2k and 2k + 1 form pair k; categories basic, regular, extension,
cfi in turn). Made once in --work.

For each input (graph6; TU in topology and node-label mode; pairs) it runs `brec dedup` with
--jobs J, in memory and with --memory-budget B, and the baseline in memory; checks that every run
of one input finds the same number of orbits (exit 1 if not; the text report's "orbits, all" row);
and prints wall time, CPU time, peak RSS, "mem/g6" (peak RSS above that of a one-graph run, divided
by the size of the graph6 file) and baseline / brec of wall time and of peak RSS.

Usage: scripts/bench_dedup_memory.py [--brec PATH] [--baseline PATH] [--work DIR] [--molecules N]
       [--jobs J] [--budget MiB] [--repeat K]
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_shortg import orbit_count, run_measured  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def make_inputs(brec, work, n):
    os.makedirs(work, exist_ok=True)
    tu = os.path.join(work, "MOL%d" % n)
    g6 = os.path.join(work, "MOL%d.g6" % n)
    pairs = os.path.join(work, "MOL%d_pairs.tsv" % n)
    if not os.path.isdir(tu):
        subprocess.run([brec, "generate", "--molecules", str(n), "--seed", "3", "--out", tu, "-q"], check=True)
    if not os.path.exists(g6):
        subprocess.run([brec, "convert", tu, "--to", "graph6", "-o", g6, "-q"], check=True)
    if not os.path.exists(pairs):
        categories = ["basic", "regular", "extension", "cfi"]
        with open(g6) as src, open(pairs + ".tmp", "w") as out:
            out.write("# the graphs of %s, two by two\n" % os.path.basename(g6))
            records = [line.strip() for line in src if line.strip()]
            for k in range(len(records) // 2):
                out.write("%d\t%s\t%s\t%s\n" % (k, categories[k % 4], records[2 * k], records[2 * k + 1]))
        os.replace(pairs + ".tmp", pairs)
    return tu, g6, pairs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--brec", default=os.path.join(HERE, "..", "build", "bin", "brec"))
    ap.add_argument("--baseline", default="", help="another brec binary to run on the same files")
    ap.add_argument("--work", default="/tmp/brec_bench_dedup_memory")
    ap.add_argument("--molecules", type=int, default=1000000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=int, default=16, help="MiB for the --memory-budget runs")
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure (the best wall time)")
    args = ap.parse_args()
    tu, g6, pairs = make_inputs(args.brec, args.work, args.molecules)
    g6_mib = os.path.getsize(g6) / 2**20
    one = os.path.join(args.work, "one.g6")
    with open(g6) as src, open(one, "w") as out:
        out.write(src.readline())
    base_rss = run_measured([args.brec, "dedup", one, "--quiet"], args.work)[2]
    print("%d graphs; graph6 file %.1f MiB; brec's peak RSS for one graph %.1f MiB" %
          (args.molecules, g6_mib, base_rss))
    print("%-22s %-26s %8s %8s %9s %6s %8s %s" %
          ("input", "run", "wall s", "cpu s", "RSS MiB", "mem/g6", "orbits", "baseline/brec (wall; RSS)"))
    inputs = [("graph6", g6, []), ("TU", tu, []), ("TU, node labels", tu, ["--node-labels"]),
              ("pairs", pairs, [])]
    bad = 0
    for name, path, extra in inputs:
        runs = [("brec, in memory", args.brec, []),
                ("brec, budget %d MiB" % args.budget, args.brec, ["--memory-budget", str(args.budget)])]
        if args.baseline:
            runs.append(("baseline", args.baseline, []))
        rows = []
        for label, binary, flags in runs:
            best = None
            for _ in range(args.repeat):
                cmd = [binary, "dedup", path, "--quiet", "--jobs", str(args.jobs)] + extra + flags
                wall, cpu, rss, text = run_measured(cmd, args.work)
                if best is None or wall < best[0]:
                    best = (wall, cpu, max(rss, best[2]) if best else rss, orbit_count(text))
            rows.append((label, best))
        counts = {r[1][3] for r in rows}
        bad += len(counts) != 1
        first = rows[0][1]
        for label, (wall, cpu, rss, orbits) in rows:
            ratio = ""
            if label == "baseline":
                ratio = "%.2fx; %.1fx" % (wall / first[0], rss / first[2])
            print("%-22s %-26s %8.2f %8.2f %9.1f %6.2f %8d %s" %
                  (name, label, wall, cpu, rss, (rss - base_rss) / g6_mib, orbits, ratio))
    if bad:
        print("orbit counts differ between runs of one input", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
