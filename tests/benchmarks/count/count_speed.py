#!/usr/bin/env python3
"""Times `brec count` against a Python re-creation of the original counting code (Campi et al.) on
the 5,000-graph SBM set, on one core, and one greedy attack step's worth of flips (109 edges + 109
non-edges sampled with probability proportional to (deg u + deg v)^2, as the original's greedy
attack does) evaluated incrementally and by full recounts. Prints tables and the ratios.

Not run in CI. Needs networkx, and for the flip part the count_flip_bench program:
    cmake -S . -B build -DBREC_BUILD_BENCHMARKS=ON && cmake --build build -j2 --target count_flip_bench
Usage: python3 tests/benchmarks/count/count_speed.py [--brec build/bin/brec] [--seed 0]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import original_counting as oc  # noqa: E402


def one_core():
    """Pins this process (and the children it starts) to one core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def time_brec_count(brec, graphs, out, repeats):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        run([brec, "count", graphs, "--tsv", "--jobs", "1", "--quiet", "--out", out])
        best = min(best, time.perf_counter() - t0)
    return best


def read_counts(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
    return rows


def sample_flips(graph, rng, per_kind=109):
    """Up to per_kind edges and per_kind non-edges, without replacement, with probability
    proportional to (deg u + deg v)^2 (uniform when all weights are 0)."""
    deg = dict(graph.degree())
    edges = sorted(tuple(sorted(e)) for e in graph.edges())
    nodes = sorted(graph.nodes)
    non_edges = [(u, v) for i, u in enumerate(nodes) for v in nodes[i + 1:] if not graph.has_edge(u, v)]
    chosen = []
    for pool in (edges, non_edges):
        weights = [(deg[u] + deg[v]) ** 2 for u, v in pool]
        if sum(weights) == 0:
            weights = [1] * len(pool)
        k = min(per_kind, sum(1 for w in weights if w > 0))
        # Weighted sampling without replacement (Efraimidis-Spirakis keys).
        keyed = sorted(((rng.random() ** (1.0 / w), i) for i, w in enumerate(weights) if w > 0), reverse=True)
        chosen.extend(pool[i] for _, i in keyed[:k])
    return chosen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--brec", default="build/bin/brec")
    ap.add_argument("--flip-bench", default="build/tests/benchmarks/count_flip_bench")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dir", default="", help="existing SBM dataset directory (default: generate one)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--flip-graphs", type=int, default=20, help="attack steps (one per graph) to time")
    ap.add_argument("--python-ego-pattern", default="4-Cycle", help="pattern of the original's ego-net update")
    args = ap.parse_args()
    one_core()
    tmp = tempfile.mkdtemp(prefix="brec_count_speed_")
    data = args.dir or os.path.join(tmp, "sbm")
    if not args.dir:
        run([args.brec, "count", "--generate", "sbm", "--seed", str(args.seed), "--jobs", "1", "--quiet", "--out", data])
    graphs_path = os.path.join(data, "graphs.g6")
    with open(graphs_path) as f:
        lines = [l for l in f if l.strip()]
    graphs = [oc.parse_graph6(l) for l in lines]
    print(f"SBM set: {len(graphs)} graphs, {sum(g.number_of_edges() for g in graphs) / len(graphs):.1f} mean edges")

    # 1. Counting the whole set, one core.
    out = os.path.join(tmp, "counts.tsv")
    t_brec = time_brec_count(args.brec, graphs_path, out, args.repeats)
    t0 = time.perf_counter()
    py = [oc.subgraph_counting_all(g) for g in graphs]
    t_py = time.perf_counter() - t0
    ours = read_counts(out)
    bad = sum(1 for p, o in zip(py, ours) if any(int(o[oc.BREC_NAME[k]]) != p[k] for k in oc.PATTERNS))
    print("\n| counting 5,000 SBM graphs (all 9 counts), 1 core | seconds | graphs/s |")
    print("|---|---:|---:|")
    print(f"| Python re-creation of the original | {t_py:.3f} | {len(graphs) / t_py:,.0f} |")
    print(f"| brec count (whole process: read, count, write TSV) | {t_brec:.3f} | {len(graphs) / t_brec:,.0f} |")
    print(f"speed-up: {t_py / t_brec:.0f}x; counts disagreeing: {bad} of {len(graphs)}")

    # 2. One greedy attack step per graph: 218 candidate flips.
    rng = random.Random(args.seed)
    steps = list(range(min(args.flip_graphs, len(graphs))))
    flips = [(gi, u, v) for gi in steps for u, v in sample_flips(graphs[gi], rng)]
    flips_path = os.path.join(tmp, "flips.txt")
    with open(flips_path, "w") as f:
        f.writelines(f"{gi} {u} {v}\n" for gi, u, v in flips)
    pattern = args.python_ego_pattern
    counts = {gi: oc.subgraph_counting(graphs[gi], pattern) for gi in steps}
    t0 = time.perf_counter()
    ego = [oc.flip_count_egonet(graphs[gi], counts[gi], u, v, pattern) for gi, u, v in flips]
    t_py_ego = time.perf_counter() - t0
    t0 = time.perf_counter()
    full = []
    for gi, u, v in flips:
        h = graphs[gi].copy()
        if h.has_edge(u, v):
            h.remove_edge(u, v)
        else:
            h.add_edge(u, v)
        full.append(oc.subgraph_counting(h, pattern))
    t_py_full = time.perf_counter() - t0
    ego_bad = sum(1 for a, b in zip(ego, full) if a != b)
    n_steps = len(steps)
    print(f"\n| one greedy step = {len(flips) / n_steps:.0f} candidate flips (mean of {n_steps} steps), 1 core | ms per step |")
    print("|---|---:|")
    print(f"| Python original, ego-net update, one pattern ({pattern}) | {1e3 * t_py_ego / n_steps:.2f} |")
    print(f"| Python original, full recount, one pattern ({pattern}) | {1e3 * t_py_full / n_steps:.2f} |")
    if os.path.exists(args.flip_bench):
        res = subprocess.run([args.flip_bench, graphs_path, flips_path, str(args.repeats)], check=True,
                             capture_output=True, text=True)
        b = json.loads(res.stdout)
        print(f"| brec incremental, all 9 totals (flip_total_delta) | {b['incremental_totals_ms_per_step']:.4f} |")
        print(f"| brec incremental, all 9 per graph + per node (flip_delta + apply) | {b['incremental_per_node_ms_per_step']:.4f} |")
        print(f"| brec full recount, all 9 totals (flip_edge + count_patterns, totals only) | {b['full_recount_totals_ms_per_step']:.4f} |")
        print(f"| brec full recount, all 9 per graph + per node (flip_edge + count_patterns) | {b['full_recount_ms_per_step']:.4f} |")
        print(f"brec incremental vs full recount: {b['speedup_totals']:.1f}x (totals vs totals), {b['speedup_per_node']:.1f}x (per node vs per node); "
              f"mismatches {b['mismatches']}; vs the original's ego-net update: "
              f"{t_py_ego / n_steps * 1e3 / b['incremental_totals_ms_per_step']:.0f}x")
    else:
        print(f"(build {args.flip_bench} for the brec rows: see this script's docstring)")
    print(f"original ego-net update disagreeing with a full recount: {ego_bad} of {len(flips)}")


if __name__ == "__main__":
    main()
