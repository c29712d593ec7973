#!/usr/bin/env python3
"""A small re-creation, for speed comparisons only, of the way the BREC authors test pairs with
k-FWL: every graph is refined ON ITS OWN with Python dicts, colours are Python hashes of the string
form of tuples, and the pair counts as distinguished when the two graph hashes differ.

Written from that idea (no code copied). Not used by brec and never run in CI; it needs Debian's
python3-networkx. Example:

    python3 tests/benchmarks/reference/fwl_reference.py --k 2 --pairs 0-259
"""
import argparse
import itertools
import json
import sys
import time
from collections import Counter

import networkx as nx


def parse_ids(text):
    ids = set()
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            ids.update(range(int(lo), int(hi) + 1))
        elif part:
            ids.add(int(part))
    return ids


def read_pairs(path, wanted, categories):
    pairs = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            pid, cat, a, b = line.split()
            if wanted is not None and int(pid) not in wanted:
                continue
            if categories and cat not in categories:
                continue
            pairs.append((int(pid), cat, nx.from_graph6_bytes(a.encode()), nx.from_graph6_bytes(b.encode())))
    return pairs


def fwl_hash(graph, k):
    """Refines k-tuples of one graph until its partition is stable; returns (graph hash, rounds)."""
    nodes = list(graph.nodes)
    n = len(nodes)
    tuples = list(itertools.product(range(n), repeat=k))
    where = {t: i for i, t in enumerate(tuples)}
    edges = {(nodes.index(u), nodes.index(v)) for u, v in graph.edges}
    edges |= {(v, u) for u, v in edges}

    def atomic_type(t):
        return str(tuple((t[i] == t[j], (t[i], t[j]) in edges) for i in range(k) for j in range(i + 1, k)))

    colour = [hash(atomic_type(t)) for t in tuples]
    classes = len(set(colour))
    rounds = 0
    while True:
        new_colour = []
        for idx, t in enumerate(tuples):
            items = []
            for w in range(n):
                vec = tuple(colour[where[t[:i] + (w,) + t[i + 1:]]] for i in range(k))
                items.append(hash(str(vec)))
            items.sort()
            new_colour.append(hash(str((colour[idx], items))))
        rounds += 1
        discrete = {}
        for c in new_colour:
            discrete.setdefault(c, len(discrete))
        colour = new_colour
        if len(discrete) == classes:
            break
        classes = len(discrete)
    return hash(str(sorted(Counter(colour).items()))), rounds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="datasets/brec/brec_v3_pairs.tsv", help="pair file (TSV)")
    ap.add_argument("--k", type=int, default=2, help="folklore level k (default 2)")
    ap.add_argument("--pairs", default=None, help="pair ids, e.g. 0-59,260 (default: all)")
    ap.add_argument("--category", default="", help="comma-separated fine categories (default: all)")
    ap.add_argument("--json", action="store_true", help="one JSON line per pair, then a summary line")
    args = ap.parse_args()
    wanted = parse_ids(args.pairs) if args.pairs else None
    cats = set(c for c in args.category.split(",") if c)
    pairs = read_pairs(args.dataset, wanted, cats)
    start = time.perf_counter()
    distinguished = 0
    for pid, cat, a, b in pairs:
        t0 = time.perf_counter()
        ha, ra = fwl_hash(a, args.k)
        hb, rb = fwl_hash(b, args.k)
        d = ha != hb
        distinguished += d
        if args.json:
            print(json.dumps({"id": pid, "category": cat, "distinguished": d, "rounds": max(ra, rb),
                              "seconds": time.perf_counter() - t0}), flush=True)
    seconds = time.perf_counter() - start
    summary = {"command": "fwl_reference", "k": args.k, "pairs": len(pairs),
               "distinguished": distinguished, "seconds": seconds}
    print(json.dumps(summary) if args.json else
          f"{args.k}-FWL reference: {distinguished}/{len(pairs)} distinguished in {seconds:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
