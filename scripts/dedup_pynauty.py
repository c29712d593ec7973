#!/usr/bin/env python3
"""The Python baseline of `brec dedup`: isomorphism orbits of a TU dataset with one pynauty
canonical certificate per graph and a dict, written as JSON.

A plain, straightforward pipeline (what a user would write with pynauty, Debian python3-pynauty;
not a project dependency):
  1. read DS_graph_indicator.txt, DS_A.txt and (with --node-labels) DS_node_labels.txt;
     self-loops and repeated edge lines are dropped, as `brec dedup` does;
  2. build one pynauty.Graph per graph (with --node-labels: the vertex colouring lists the colour
     classes in label order; a label is the whole row of the labels file);
  3. pynauty.certificate per graph; the grouping key is (n, the sorted (label, count) list, the
     certificate), so that colourings with equal class sizes but different labels never merge;
  4. group graphs by key and write {"graphs": N, "orbits": K, "non_trivial_orbits": [[i, ...], ...]}
     (0-based indices, each orbit sorted, orbits ordered by first member) to --out.

Usage: scripts/dedup_pynauty.py DIR [--node-labels] [--out FILE]
Example: /usr/bin/python3 scripts/dedup_pynauty.py /data/tu/PROTEINS --out proteins_py.json
"""
import argparse
import json
import os
import sys

import pynauty


def read_tu(d, use_labels):
    names = [f[:-6] for f in os.listdir(d) if f.endswith("_A.txt")]
    if len(names) != 1:
        sys.exit("dedup_pynauty: %s must hold exactly one DS_A.txt" % d)
    prefix = os.path.join(d, names[0] + "_")
    with open(prefix + "graph_indicator.txt") as f:
        ind = [int(x) - 1 for x in f if x.strip()]
    ng = max(ind) + 1
    sizes = [0] * ng
    local = []
    for g in ind:
        local.append(sizes[g])
        sizes[g] += 1
    edges = [set() for _ in range(ng)]
    with open(prefix + "A.txt") as f:
        for line in f:
            if not line.strip():
                continue
            r, c = line.replace(",", " ").split()
            u, v = int(r) - 1, int(c) - 1
            if u == v:
                continue
            a, b = local[u], local[v]
            edges[ind[u]].add((a, b) if a < b else (b, a))
    labels = None
    if use_labels and os.path.exists(prefix + "node_labels.txt"):
        labels = [[None] * s for s in sizes]
        with open(prefix + "node_labels.txt") as f:
            rows = [tuple(int(x) for x in line.replace(",", " ").split()) for line in f if line.strip()]
        for v, row in enumerate(rows):
            labels[ind[v]][local[v]] = row
    return sizes, edges, labels


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--node-labels", action="store_true", help="node labels are vertex colours")
    ap.add_argument("--out", default="-", help="output JSON file (default: stdout)")
    args = ap.parse_args()
    sizes, edges, labels = read_tu(args.dir, args.node_labels)
    groups = {}
    for g, n in enumerate(sizes):
        adj = {v: [] for v in range(n)}
        for u, v in edges[g]:
            adj[u].append(v)
        colouring, label_key = [], ()
        if labels is not None:
            classes = {}
            for v, lab in enumerate(labels[g]):
                classes.setdefault(lab, set()).add(v)
            order = sorted(classes)
            colouring = [classes[lab] for lab in order]
            label_key = tuple((lab, len(classes[lab])) for lab in order)
        cert = pynauty.certificate(pynauty.Graph(n, adjacency_dict=adj, vertex_coloring=colouring))
        groups.setdefault((n, label_key, cert), []).append(g)
    orbits = sorted(groups.values(), key=lambda m: m[0])
    result = {"graphs": len(sizes), "orbits": len(orbits), "non_trivial_orbits": [m for m in orbits if len(m) > 1]}
    text = json.dumps(result) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
