#!/usr/bin/python3
"""Writes the .npy fixtures of tests/io/npy_test.cpp with NumPy itself (an independent writer).

Run with Debian's python3-numpy: /usr/bin/python3 tests/data/npy/make_fixtures.py
The graph6 strings are the first official BREC pairs (datasets/brec/brec_v3_pairs.tsv).
"""
import os
import random

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TSV = os.path.join(HERE, "..", "..", "..", "datasets", "brec", "brec_v3_pairs.tsv")


def official_pairs():
    pairs = []
    with open(TSV) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            pairs.append((int(cols[0]), cols[1], cols[2], cols[3]))
    return pairs


def graph6_to_edges(s):
    data = [ord(c) - 63 for c in s]
    n = data[0]
    assert n < 63
    bits = []
    for x in data[1:]:
        bits.extend((x >> (5 - i)) & 1 for i in range(6))
    edges, k = [], 0
    for j in range(1, n):
        for i in range(j):
            if bits[k]:
                edges.append((i, j))
            k += 1
    return n, edges


def edges_to_graph6(n, edges):
    adj = set((min(u, v), max(u, v)) for u, v in edges)
    bits = [1 if (i, j) in adj else 0 for j in range(1, n) for i in range(j)]
    while len(bits) % 6:
        bits.append(0)
    out = chr(n + 63)
    for k in range(0, len(bits), 6):
        x = 0
        for b in bits[k:k + 6]:
            x = (x << 1) | b
        out += chr(x + 63)
    return out


def relabel(s, rng):
    n, edges = graph6_to_edges(s)
    p = list(range(n))
    rng.shuffle(p)
    return edges_to_graph6(n, [(p[u], p[v]) for u, v in edges])


def save(name, arr, version=None):
    path = os.path.join(HERE, name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=version)


def main():
    pairs = official_pairs()[:3]  # three basic pairs, n = 10
    flat = [g for p in pairs for g in (p[2], p[3])]
    # basic.npy / str.npy / 4vtx.npy style: 1-D unicode array of consecutive pairs.
    save("pairs_flat_U_v1.npy", np.array(flat), version=(1, 0))
    # regular.npy / cfi.npy style: (N, 2) bytes.
    save("pairs_rows_S_v1.npy", np.array([[p[2].encode(), p[3].encode()] for p in pairs]),
         version=(1, 0))
    # The same with format versions 2.0 and 3.0, big-endian UTF-32 and Fortran order.
    save("pairs_rows_U_v2.npy", np.array([[p[2], p[3]] for p in pairs]), version=(2, 0))
    save("pairs_flat_S_v3.npy", np.array([g.encode() for g in flat]), version=(3, 0))
    save("pairs_flat_bigendian_U.npy", np.array(flat).astype(">U9"), version=(1, 0))
    save("pairs_rows_fortran_U.npy", np.asfortranarray(np.array([[p[2], p[3]] for p in pairs])),
         version=(1, 0))
    # brec_v3.npy layout (BREC customize/dataset_v3.py) with 3 pairs and R = 4 relabelings:
    # 3 "traintest" blocks of 2R graphs (G_1, H_1, G_2, H_2, ..., the first two being the
    # originals), then 3 "reliability" blocks of 2R relabelings of G or H (the first the original).
    rng = random.Random(2022)
    R = 4
    out = []
    for p in pairs:
        gs = [p[2]] + [relabel(p[2], rng) for _ in range(R - 1)]
        hs = [p[3]] + [relabel(p[3], rng) for _ in range(R - 1)]
        for g, h in zip(gs, hs):
            out.extend([g, h])
    for k, p in enumerate(pairs):
        base = p[2 + (k % 2)]
        out.extend([base] + [relabel(base, rng) for _ in range(2 * R - 1)])
    save("relabelled_R4.npy", np.array([g.encode() for g in out]), version=(1, 0))
    # Object arrays are pickles: the reader must refuse them with advice.
    save("objects.npy", np.array([flat[0], flat[1]], dtype=object), version=(1, 0))
    # A float array: not strings.
    save("floats.npy", np.arange(6, dtype=np.float64).reshape(3, 2), version=(1, 0))


if __name__ == "__main__":
    main()
