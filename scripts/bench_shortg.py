#!/usr/bin/env python3
"""Benchmark (not run in CI): `brec dedup` against nauty's own isomorph remover, `shortg` (Debian:
nauty-shortg: canonical labelling, then GNU sort), as whole processes on the same graph6 files.

Inputs (made once in --work, deterministic):
  * molecules: `brec generate --molecules N --seed 3`, converted to graph6 (10-40 vertices, 30 %
    renumbered copies);
  * geng9: the first --geng-classes graphs on 9 vertices (nauty-geng 9) plus --geng-copies randomly
    relabeled copies of them (nauty-ranlabg), shuffled: every class needs a canonical form;
  * adversarial: both graphs of every CFI and strongly regular BREC pair, --adv-copies relabeled
    copies each: graphs where refinement cannot split vertices and canonical labelling dominates;
  * scale (--scale N,N,...): molecule-like files of N graphs, made of blocks of 10^6 generated with
    seeds 11, 12, ... (each block 10^6 distinct draws), run in memory and as a stream with
    --memory-budget (--budget MiB) to show time and peak memory growing with N.

For each input it runs `nauty-shortg -q IN OUT` and `brec dedup IN --format graph6 --jobs J` for
J in --jobs (the text report; its "orbits, all" row gives the class count), checks that the class
counts are equal (exit 1 if not), and prints wall time, CPU time (user + sys), peak RSS, the ratio
shortg / brec of wall time (> 1: brec faster) and, for brec, its peak RSS above that of a one-graph
run (the process's constant part) divided by the size of the graph6 file ("mem/g6").
Each figure is the best of --repeat runs (peak RSS the largest).

Usage: scripts/bench_shortg.py [--brec PATH] [--work DIR] [--molecules N] [--geng-classes N]
       [--geng-copies N] [--adv-copies N] [--jobs 1,2] [--repeat K] [--inputs molecules,geng9,adversarial]
       [--scale N,N] [--budget MiB]
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


GNU_TIME = "/usr/bin/time"


def run_measured(cmd, work):
    """(wall s, cpu s, peak RSS MiB, stdout text) of one process. CPU (user + sys) comes from wait4
    (microseconds), peak RSS from GNU time (Debian package time) when installed: a child of this
    Python process would report at least this process's own peak RSS (Linux keeps the high-water
    mark of the forked image across exec), which hides a few-MiB tool such as shortg."""
    stats = os.path.join(work, "time.txt")
    wrapped = [GNU_TIME, "-f", "%M", "-o", stats] + cmd if os.path.exists(GNU_TIME) else cmd
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(wrapped, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed (%d): %s\n%s" % (os.waitstatus_to_exitcode(status), " ".join(cmd), errors[-2000:]))
    peak_kib = usage.ru_maxrss  # without GNU time: at least this Python process's peak
    if wrapped is not cmd:
        peak_kib = int(open(stats).read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, peak_kib / 1024.0, text


def make_inputs(args, brec):
    os.makedirs(args.work, exist_ok=True)
    files = {}
    if "molecules" in args.inputs:
        path = os.path.join(args.work, "molecules_%d.g6" % args.molecules)
        if not os.path.exists(path):
            tu = os.path.join(args.work, "mol_%d" % args.molecules)
            shutil.rmtree(tu, ignore_errors=True)
            subprocess.run([brec, "generate", "--molecules", str(args.molecules), "--seed", "3", "--out", tu, "-q"],
                           check=True)
            subprocess.run([brec, "convert", tu, "--to", "graph6", "-o", path], check=True,
                           stdout=subprocess.DEVNULL)
            shutil.rmtree(tu)
        files["molecules"] = path
    if "geng9" in args.inputs:
        path = os.path.join(args.work, "geng9_%d_%d.g6" % (args.geng_classes, args.geng_copies))
        if not os.path.exists(path):
            geng = subprocess.run(["nauty-geng", "-q", "9"], check=True, capture_output=True, text=True).stdout
            classes = geng.split()[: args.geng_classes]
            rng = random.Random(9)
            picks = [rng.choice(classes) for _ in range(args.geng_copies)]
            copies = subprocess.run(["nauty-ranlabg", "-q", "-S9"], input="\n".join(picks) + "\n", check=True,
                                    capture_output=True, text=True).stdout.split()
            lines = classes + copies
            rng.shuffle(lines)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
        files["geng9"] = path
    if "adversarial" in args.inputs:
        path = os.path.join(args.work, "adversarial_%d.g6" % args.adv_copies)
        if not os.path.exists(path):
            pairs = os.path.join(HERE, "..", "datasets", "brec", "brec_v3_pairs.tsv")
            graphs = []
            for line in open(pairs):
                cols = line.rstrip("\n").split("\t")
                if len(cols) == 4 and cols[1] in ("cfi", "strongly_regular"):
                    graphs += cols[2:4]
            copies = subprocess.run(["nauty-ranlabg", "-q", "-S5", "-m%d" % args.adv_copies],
                                    input="\n".join(graphs) + "\n", check=True, capture_output=True,
                                    text=True).stdout.split()
            lines = graphs + copies
            random.Random(5).shuffle(lines)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
        files["adversarial"] = path
    for n in [int(x) for x in args.scale.split(",") if x]:
        path = os.path.join(args.work, "molecules_scale_%d.g6" % n)
        if not os.path.exists(path):
            blocks = []
            for b in range((n + 999999) // 1000000):
                block = os.path.join(args.work, "molecules_1m_seed%d.g6" % (11 + b))
                if not os.path.exists(block):
                    tu = os.path.join(args.work, "mol_block")
                    shutil.rmtree(tu, ignore_errors=True)
                    subprocess.run([brec, "generate", "--molecules", "1000000", "--seed", str(11 + b), "--out", tu,
                                    "-q"], check=True)
                    subprocess.run([brec, "convert", tu, "--to", "graph6", "-o", block], check=True,
                                   stdout=subprocess.DEVNULL)
                    shutil.rmtree(tu)
                blocks.append(block)
            with open(path + ".tmp", "w") as out:
                left = n
                for block in blocks:
                    with open(block) as f:
                        for line in f:
                            if left == 0:
                                break
                            out.write(line)
                            left -= 1
            os.replace(path + ".tmp", path)
        files["scale_%d" % n] = path
    return files


def orbit_count(text):
    """The class count of brec dedup's text report (its "orbits, all" row)."""
    for line in text.splitlines():
        if line.startswith("orbits, all"):
            return int(line.split()[-1])
    sys.exit("no 'orbits, all' row in brec's report:\n" + text[:2000])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--brec", default=os.path.join(HERE, "..", os.environ.get("BREC_BUILD_DIR", "build"), "bin", "brec"))
    p.add_argument("--work", default="/tmp/brec_bench_shortg")
    p.add_argument("--molecules", type=int, default=200000)
    p.add_argument("--geng-classes", type=int, default=200000)
    p.add_argument("--geng-copies", type=int, default=300000)
    p.add_argument("--adv-copies", type=int, default=20)
    p.add_argument("--jobs", default="1,2")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--inputs", default="molecules,geng9,adversarial")
    p.add_argument("--scale", default="", help="molecule-like files of these sizes (e.g. 1000000,10000000)")
    p.add_argument("--budget", type=int, default=256, help="--memory-budget (MiB) of the streaming runs")
    args = p.parse_args()
    if not shutil.which("nauty-shortg"):
        sys.exit("nauty-shortg not found (Debian package nauty)")
    files = make_inputs(args, args.brec)
    ok = True
    one = os.path.join(args.work, "one.g6")
    with open(one, "w") as f:
        f.write("Bw\n")
    base_rss = run_measured([args.brec, "dedup", one, "--quiet"], args.work)[2]
    print("brec's peak RSS for one graph: %.1f MiB" % base_rss)
    print("%-18s %9s %-22s %8s %8s %9s %6s %8s %s" % ("input", "graphs", "tool", "wall s", "cpu s", "RSS MiB", "mem/g6",
                                                     "classes", "shortg/brec wall"))
    for name, path in files.items():
        graphs = sum(1 for _ in open(path))
        out = os.path.join(args.work, name + ".shortg.g6")
        rows = {}

        def best(label, cmd, count):
            runs = []
            for _ in range(args.repeat):
                wall, cpu, rss, text = run_measured(cmd, args.work)
                runs.append((wall, cpu, rss, count(text)))
            rows[label] = (min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs), runs[0][3])

        best("nauty-shortg", ["nauty-shortg", "-q", path, out], lambda _: sum(1 for _ in open(out)))
        for j in args.jobs.split(","):
            best("brec --jobs " + j, [args.brec, "dedup", path, "--format", "graph6", "--jobs", j, "--quiet"],
                 orbit_count)
            if name.startswith("scale_"):
                best("brec --jobs %s stream" % j, [args.brec, "dedup", path, "--format", "graph6", "--jobs", j,
                                                    "--memory-budget", str(args.budget), "--quiet"], orbit_count)
        ref = rows["nauty-shortg"]
        size_mib = os.path.getsize(path) / 2**20
        for label, (wall, cpu, rss, classes) in rows.items():
            ratio = "" if label == "nauty-shortg" else "%.2fx" % (ref[0] / wall)
            mem = "" if label == "nauty-shortg" else "%.2f" % ((rss - base_rss) / size_mib)
            print("%-18s %9d %-22s %8.2f %8.2f %9.1f %6s %8d %s" % (name, graphs, label, wall, cpu, rss, mem, classes,
                                                                   ratio))
            sys.stdout.flush()
            if classes != ref[3]:
                ok = False
                print("  class counts differ: %s %d, nauty-shortg %d" % (label, classes, ref[3]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
