#!/usr/bin/env python3
"""Benchmark `brec dedup` (one canonical certificate per graph + hash map) against the pairwise
approach (an isomorphism test on every pair of graphs with equal node and edge counts), on the
same datasets, and check that both find the same orbits.

Pairwise baselines:
  * `brec dedup --method pairwise` (C++, nauty via our wrapper, are_isomorphic on all pairs that
    share (n, m), union-find) -- always run;
  * pynauty (Debian python3-pynauty; not a project dependency) -- run when importable, with the
    same bucketing; in --node-labels mode pairs must also share the multiset of node labels and
    the colour classes are passed in label order.

Datasets (synthetic, deterministic; no real TU dataset can be downloaded here -- pass --tu DIR to
add your own):
  * geng7: every graph on 7 vertices (nauty-geng 7: 1,044), each repeated 1-4 times with random
    node relabelling, a few self-loops and duplicate edge lines injected, node labels (a template per
    graph, moved with the relabelling), and a target label (has a triangle) flipped with probability
    0.1 on duplicates, so mixed-label orbits exist;
  * geng8c: a random 3,000 of the connected graphs on 8 vertices, each repeated 1-3 times;
  * big: 60 random sparse graphs with 1,500-3,000 vertices, each repeated 1-2 times (huge graphs).

Usage: scripts/bench_dedup.py [--brec PATH] [--jobs J] [--work DIR] [--tu DIR ...] [--no-pynauty]
Example: BREC_BUILD_DIR=build scripts/bench_dedup.py --jobs 2
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time


def parse_graph6(s):
    s = s.strip()
    data = [ord(c) - 63 for c in s]
    if data[0] < 63:
        n, pos = data[0], 1
    else:
        n, pos = (data[1] << 12) | (data[2] << 6) | data[3], 4
    bits = []
    for x in data[pos:]:
        for k in range(5, -1, -1):
            bits.append((x >> k) & 1)
    edges, b = [], 0
    for j in range(1, n):
        for i in range(j):
            if bits[b]:
                edges.append((i, j))
            b += 1
    return n, edges


def geng(args):
    out = subprocess.run(["nauty-geng", "-q"] + args, check=True, capture_output=True, text=True).stdout
    return [parse_graph6(line) for line in out.splitlines() if line.strip()]


def write_tu(dirname, name, graphs, with_quirks, rng):
    """graphs: list of (n, edges, node_labels or None, target). Writes both directions."""
    os.makedirs(dirname, exist_ok=True)
    a, ind, nl, gl = [], [], [], []
    off = 0
    for gi, (n, edges, labels, y) in enumerate(graphs):
        for v in range(n):
            ind.append(gi + 1)
            if labels is not None:
                nl.append(labels[v])
        lines = []
        for u, v in edges:
            lines.append((off + u + 1, off + v + 1))
            lines.append((off + v + 1, off + u + 1))
        if with_quirks and n > 0 and rng.random() < 0.05:
            v = rng.randrange(n)
            lines.append((off + v + 1, off + v + 1))  # self-loop
        if with_quirks and lines and rng.random() < 0.05:
            lines.append(rng.choice(lines))  # duplicate line
        a.extend(lines)
        gl.append(y)
        off += n
    with open(os.path.join(dirname, name + "_A.txt"), "w") as f:
        f.writelines("%d, %d\n" % e for e in a)
    with open(os.path.join(dirname, name + "_graph_indicator.txt"), "w") as f:
        f.writelines("%d\n" % x for x in ind)
    with open(os.path.join(dirname, name + "_graph_labels.txt"), "w") as f:
        f.writelines("%d\n" % x for x in gl)
    if nl:
        with open(os.path.join(dirname, name + "_node_labels.txt"), "w") as f:
            f.writelines("%d\n" % x for x in nl)


def relabel(n, edges, labels, rng):
    p = list(range(n))
    rng.shuffle(p)
    e = [(p[u], p[v]) for u, v in edges]
    rng.shuffle(e)
    lab = None
    if labels is not None:
        lab = [0] * n
        for v in range(n):
            lab[p[v]] = labels[v]
    return n, e, lab


def has_triangle(n, edges):
    adj = [set() for _ in range(n)]
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    return any(adj[u] & adj[v] for u, v in edges)


def make_datasets(work, rng):
    out = {}
    base = geng(["7"])
    graphs = []
    for n, edges in base:
        labels = [rng.randrange(3) for _ in range(n)]
        y = int(has_triangle(n, edges))
        for k in range(rng.choice([1, 1, 2, 3, 4])):
            yy = y if k == 0 or rng.random() > 0.1 else 1 - y
            gn, ge, gl = relabel(n, edges, labels, rng)
            graphs.append((gn, ge, gl, yy))
    rng.shuffle(graphs)
    write_tu(os.path.join(work, "GENG7"), "GENG7", graphs, True, rng)
    out["geng7"] = os.path.join(work, "GENG7")

    base = geng(["-c", "8"])
    base = rng.sample(base, 3000)
    graphs = []
    for n, edges in base:
        y = int(has_triangle(n, edges))
        for _ in range(rng.choice([1, 1, 2, 3])):
            gn, ge, _ = relabel(n, edges, None, rng)
            graphs.append((gn, ge, None, y))
    rng.shuffle(graphs)
    write_tu(os.path.join(work, "GENG8C"), "GENG8C", graphs, False, rng)
    out["geng8c"] = os.path.join(work, "GENG8C")

    graphs = []
    for i in range(60):
        n = rng.randrange(1500, 3001)
        m = int(1.5 * n)
        es = set()
        while len(es) < m:
            u, v = rng.randrange(n), rng.randrange(n)
            if u != v:
                es.add((min(u, v), max(u, v)))
        edges = sorted(es)
        for _ in range(rng.choice([1, 2])):
            gn, ge, _ = relabel(n, edges, None, rng)
            graphs.append((gn, ge, None, i % 2))
    write_tu(os.path.join(work, "BIG"), "BIG", graphs, False, rng)
    out["big"] = os.path.join(work, "BIG")
    return out


def read_tu_simple(d):
    """Minimal TU reader for the pynauty baseline (drops loops and repeated edges)."""
    name = [f[:-6] for f in os.listdir(d) if f.endswith("_A.txt")][0]
    ind = [int(x) for x in open(os.path.join(d, name + "_graph_indicator.txt")) if x.strip()]
    ng = max(ind)
    sizes = [0] * ng
    local = []
    for g in ind:
        local.append(sizes[g - 1])
        sizes[g - 1] += 1
    nl_path = os.path.join(d, name + "_node_labels.txt")
    node_labels = [int(x.split(",")[0]) for x in open(nl_path) if x.strip()] if os.path.exists(nl_path) else None
    edges = [set() for _ in range(ng)]
    for line in open(os.path.join(d, name + "_A.txt")):
        if not line.strip():
            continue
        r, c = (int(x) for x in line.replace(",", " ").split())
        if r == c:
            continue
        g = ind[r - 1] - 1
        u, v = local[r - 1], local[c - 1]
        edges[g].add((min(u, v), max(u, v)))
    labels = None
    if node_labels is not None:
        labels = [[0] * s for s in sizes]
        for v, g in enumerate(ind):
            labels[g - 1][local[v]] = node_labels[v]
    return sizes, edges, labels


def pynauty_orbits(d, use_labels):
    import pynauty
    t0 = time.perf_counter()
    sizes, edges, labels = read_tu_simple(d)
    t_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    graphs = []
    for g in range(len(sizes)):
        adj = {v: [] for v in range(sizes[g])}
        for u, v in edges[g]:
            adj[u].append(v)
        col = []
        key_labels = ()
        if use_labels and labels is not None:
            classes = {}
            for v, l in enumerate(labels[g]):
                classes.setdefault(l, set()).add(v)
            col = [classes[l] for l in sorted(classes)]
            key_labels = tuple(sorted(labels[g]))
        graphs.append((pynauty.Graph(sizes[g], adjacency_dict=adj, vertex_coloring=col),
                       (sizes[g], len(edges[g]), key_labels)))
    buckets = {}
    for i, (_, key) in enumerate(graphs):
        buckets.setdefault(key, []).append(i)
    parent = list(range(len(graphs)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    tests = 0
    for idx in buckets.values():
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                tests += 1
                if pynauty.isomorphic(graphs[idx[a]][0], graphs[idx[b]][0]):
                    ra, rb = find(idx[a]), find(idx[b])
                    if ra != rb:
                        parent[max(ra, rb)] = min(ra, rb)
    groups = {}
    for i in range(len(graphs)):
        groups.setdefault(find(i), []).append(i)
    return ({tuple(m) for m in groups.values() if len(m) > 1}, time.perf_counter() - t0, t_load, tests)


def run_brec(brec, path, jobs, extra):
    cmd = [brec, "dedup", path, "--json", "--quiet", "--jobs", str(jobs)] + extra
    t0 = time.perf_counter()
    res = subprocess.run(cmd, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    j = json.loads(res.stdout.strip().splitlines()[-1])
    orbits = {tuple(int(x) for x in m) for m in j["non_trivial_orbits"]}
    return j, orbits, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--brec", default=os.path.join(os.environ.get("BREC_BUILD_DIR", "build"), "bin", "brec"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", default="", help="where to write the synthetic datasets (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the synthetic datasets")
    ap.add_argument("--tu", action="append", default=[], help="also benchmark this TU directory")
    ap.add_argument("--only", default="", help="comma-separated subset of geng7,geng8c,big")
    ap.add_argument("--no-pynauty", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not os.path.exists(args.brec):
        sys.exit("bench_dedup: %s not found; build first or pass --brec" % args.brec)
    have_pynauty = False
    if not args.no_pynauty:
        try:
            import pynauty  # noqa: F401
            have_pynauty = True
        except ImportError:
            print("pynauty not importable by %s: only the C++ pairwise baseline runs" % sys.executable)
    work = args.work or tempfile.mkdtemp(prefix="brec_bench_dedup_")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    sets = make_datasets(work, rng)
    print("synthetic datasets written to %s in %.1fs" % (work, time.perf_counter() - t0))
    if args.only:
        sets = {k: v for k, v in sets.items() if k in args.only.split(",")}
    for i, d in enumerate(args.tu):
        sets["tu%d:%s" % (i, os.path.basename(d.rstrip("/")))] = d
    ok = True
    rows = []
    for name, d in sets.items():
        for mode in (["topology", "node-labels"] if name == "geng7" else ["topology"]):
            extra = ["--node-labels"] if mode == "node-labels" else []
            j, cert_orbits, cert_wall = run_brec(args.brec, d, args.jobs, extra)
            jp, pair_orbits, pair_wall = run_brec(args.brec, d, args.jobs, extra + ["--method", "pairwise"])
            same = cert_orbits == pair_orbits
            row = [name, mode, j["graphs"], j["orbits"]["total_including_trivial"], j["orbits"]["non_trivial"],
                   "%.2f" % j["I_pct"], "%.4f" % j["IP_pct"],
                   "-" if j["mismatched_pct"] is None else "%.2f" % j["mismatched_pct"],
                   "%.3f" % j["seconds_orbits"], "%.3f" % jp["seconds_orbits"], jp["comparisons"],
                   "%.1fx" % (jp["seconds_orbits"] / max(j["seconds_orbits"], 1e-9)), "yes" if same else "NO"]
            if have_pynauty:
                py_orbits, py_s, _, py_tests = pynauty_orbits(d, mode == "node-labels")
                py_same = py_orbits == cert_orbits
                row += ["%.3f" % py_s, "%.1fx" % (py_s / max(j["seconds_orbits"], 1e-9)), "yes" if py_same else "NO"]
                same = same and py_same
            ok = ok and same
            rows.append(row)
            print("  done %s (%s)" % (name, mode), flush=True)
    header = ["dataset", "mode", "N", "orbits", "non-triv", "I%", "IP%", "mism%", "brec s", "pairwise s",
              "pair tests", "ratio", "same"]
    if have_pynauty:
        header += ["pynauty s", "ratio", "same"]
    widths = [max(len(str(r[c])) for r in rows + [header]) for c in range(len(header))]
    print()
    print("  ".join(str(h).rjust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(str(x).rjust(w) for x, w in zip(r, widths)))
    print("\n(times: orbit computation only, --jobs %d for brec and its C++ pairwise baseline; pynauty is "
          "single-threaded Python; ratio = baseline time / brec time)" % args.jobs)
    if not args.work and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    if not ok:
        print("bench_dedup: the approaches found DIFFERENT orbits", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
