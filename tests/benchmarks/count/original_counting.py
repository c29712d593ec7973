"""A faithful Python re-creation of the subgraph counting of Campi et al. (for benchmarks only).

It follows the structure of the original code (networkx graphs, Python sets of neighbours,
edge-anchored enumeration with set algebra and integer normalisation; the all-pattern counter used
to label the datasets and the per-pattern counter plus ego-net update used by the attacks), so that
timings compare brec with what the original pipeline does. Never shipped, not run in CI.

@inproceedings{campi2023robustness, title={Expressivity of Graph Neural Networks Through the Lens of
  Adversarial Robustness}, author={Campi, Francesco and Gosch, Lukas and Wollschl{\"a}ger, Tom and
  Scholten, Yan and G{\"u}nnemann, Stephan}, booktitle={ICML Workshop on New Frontiers in
  Adversarial Machine Learning}, year={2023}}
"""
from math import comb

import networkx as nx

# Names of the original and the normalisation of its edge-anchored detections.
PATTERNS = ["Triangle", "2-Path", "4-Clique", "Chordal cycle", "Tailed triangle", "3-Star", "4-Cycle",
            "3-Path", "3-Star not ind."]
DETECTIONS = {"Triangle": 3, "2-Path": 2, "4-Clique": 12, "Chordal cycle": 10, "Tailed triangle": 7,
              "3-Star": 6, "4-Cycle": 8, "3-Path": 4}
DIAMETER = {"Triangle": 1, "2-Path": 2, "4-Clique": 1, "Chordal cycle": 2, "Tailed triangle": 2,
            "3-Star": 2, "4-Cycle": 2, "3-Path": 3, "3-Star not ind.": 2}
# brec's names of the same counts.
BREC_NAME = {"Triangle": "triangle", "2-Path": "2-path", "4-Clique": "4-clique",
             "Chordal cycle": "chordal-cycle", "Tailed triangle": "tailed-triangle", "3-Star": "3-star",
             "4-Cycle": "4-cycle", "3-Path": "3-path", "3-Star not ind.": "3-star-noninduced"}


_CASE1 = {"4-Clique", "Chordal cycle", "Tailed triangle"}  # need a third vertex in the triangle
_CASE23 = {"Chordal cycle", "4-Cycle", "Tailed triangle", "3-Star", "3-Path"}  # third vertex on one side


def _detect_all(nodes, nb, v1, v2, c):
    """Adds every detection of edge (v1, v2) to c: the original's all-pattern loop body."""
    n1, n2 = nb[v1], nb[v2]
    c["Triangle"] += len(n1 & n2)
    c["2-Path"] += len(n1 - (n2 | {v2})) + len(n2 - (n1 | {v1}))
    for v3 in n1 & n2:
        n3 = nb[v3]
        c["4-Clique"] += len(n1 & n2 & n3)
        c["Chordal cycle"] += len((nodes - (n1 | {v1})) & n2 & n3)
        c["Chordal cycle"] += len((nodes - (n2 | {v2})) & n1 & n3)
        c["Chordal cycle"] += len((nodes - (n3 | {v3})) & n1 & n2)
        c["Tailed triangle"] += len(n1 & (nodes - (n2 | n3 | {v2, v3})))
        c["Tailed triangle"] += len(n2 & (nodes - (n1 | n3 | {v1, v3})))
        c["Tailed triangle"] += len(n3 & (nodes - (n1 | n2 | {v1, v2})))
    for a, b, na, nbb in ((v1, v2, n1, n2), (v2, v1, n2, n1)):
        # Third vertex adjacent to a only (the original's cases 2 and 3).
        for v3 in na - (nbb | {b}):
            n3 = nb[v3]
            c["Chordal cycle"] += len(na & nbb & n3)
            c["4-Cycle"] += len((nodes - (na | {a})) & nbb & n3)
            c["Tailed triangle"] += len((nodes - (nbb | {b})) & na & n3)
            c["Tailed triangle"] += len((nodes - (n3 | {v3})) & na & nbb)
            c["3-Star"] += len(na & (nodes - (nbb | n3 | {b, v3})))
            c["3-Path"] += len(nbb & (nodes - (na | n3 | {a, v3})))
            c["3-Path"] += len(n3 & (nodes - (na | nbb | {a, b})))


def _detect_one(nodes, nb, v1, v2, p):
    """The detections of one pattern p from edge (v1, v2), visiting only the cases p needs (the
    original has one such function per pattern)."""
    n1, n2 = nb[v1], nb[v2]
    if p == "Triangle":
        return len(n1 & n2)
    if p == "2-Path":
        return len(n1 - (n2 | {v2})) + len(n2 - (n1 | {v1}))
    c = 0
    if p in _CASE1:
        for v3 in n1 & n2:
            n3 = nb[v3]
            if p == "4-Clique":
                c += len(n1 & n2 & n3)
            elif p == "Chordal cycle":
                c += len((nodes - (n1 | {v1})) & n2 & n3) + len((nodes - (n2 | {v2})) & n1 & n3) + \
                    len((nodes - (n3 | {v3})) & n1 & n2)
            else:
                c += len(n1 & (nodes - (n2 | n3 | {v2, v3}))) + len(n2 & (nodes - (n1 | n3 | {v1, v3}))) + \
                    len(n3 & (nodes - (n1 | n2 | {v1, v2})))
    if p in _CASE23:
        for a, b, na, nbb in ((v1, v2, n1, n2), (v2, v1, n2, n1)):
            for v3 in na - (nbb | {b}):
                n3 = nb[v3]
                if p == "Chordal cycle":
                    c += len(na & nbb & n3)
                elif p == "4-Cycle":
                    c += len((nodes - (na | {a})) & nbb & n3)
                elif p == "Tailed triangle":
                    c += len((nodes - (nbb | {b})) & na & n3) + len((nodes - (n3 | {v3})) & na & nbb)
                elif p == "3-Star":
                    c += len(na & (nodes - (nbb | n3 | {b, v3})))
                else:
                    c += len(nbb & (nodes - (na | n3 | {a, v3}))) + len(n3 & (nodes - (na | nbb | {a, b})))
    return c


def subgraph_counting_all(graph: nx.Graph) -> dict:
    """All 9 counts of a graph, as the original's dataset labelling computes them."""
    nodes = set(graph.nodes)
    nb = {v: set(graph.neighbors(v)) for v in nodes}
    c = {p: 0 for p in PATTERNS}
    for v1 in nodes:
        c["3-Star not ind."] += comb(len(nb[v1]), 3)
        for v2 in filter(lambda v: v > v1, nb[v1]):
            _detect_all(nodes, nb, v1, v2, c)
    for p, f in DETECTIONS.items():
        c[p] = int(c[p] / f)
    return c


def subgraph_counting(graph: nx.Graph, pattern: str) -> int:
    """One pattern's count, as the original's attacks compute it (per-pattern counter)."""
    nodes = set(graph.nodes)
    nb = {v: set(graph.neighbors(v)) for v in nodes}
    if pattern == "3-Star not ind.":
        return sum(comb(len(nb[v]), 3) for v in nodes)
    c = 0
    for v1 in nodes:
        for v2 in filter(lambda v: v > v1, nb[v1]):
            c += _detect_one(nodes, nb, v1, v2, pattern)
    return int(c / DETECTIONS[pattern])


def egonet(graph: nx.Graph, root, depth: int) -> list:
    """Vertices within `depth` of root (the original's breadth-first ego-net)."""
    ego, frontier, seen = [root], [root], {root}
    for _ in range(depth):
        nxt = []
        for node in frontier:
            for x in graph.neighbors(node):
                if x not in seen:
                    seen.add(x)
                    nxt.append(x)
        if not nxt:
            break
        ego.extend(nxt)
        frontier = nxt
    return ego


def flip_count_egonet(graph: nx.Graph, count: int, u, v, pattern: str) -> int:
    """The original's update of one pattern's count after flipping {u, v}: recount the ego-net of u
    of radius diameter (in the graph that has the edge) before and after."""
    perturbed = graph.copy()
    if graph.has_edge(u, v):
        perturbed.remove_edge(u, v)
        ego = egonet(graph, u, DIAMETER[pattern])
    else:
        perturbed.add_edge(u, v)
        ego = egonet(perturbed, u, DIAMETER[pattern])
    before = subgraph_counting(graph.subgraph(ego), pattern)
    after = subgraph_counting(perturbed.subgraph(ego), pattern)
    return count + after - before


def parse_graph6(line: str) -> nx.Graph:
    """graph6 (n < 63 or the 4-byte size form) to a networkx graph."""
    data = [ord(ch) - 63 for ch in line.strip()]
    if data[0] == 63:
        n = (data[1] << 12) | (data[2] << 6) | data[3]
        data = data[4:]
    else:
        n = data[0]
        data = data[1:]
    bits = []
    for d in data:
        bits.extend((d >> (5 - k)) & 1 for k in range(6))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    k = 0
    for j in range(1, n):
        for i in range(j):
            if bits[k]:
                g.add_edge(i, j)
            k += 1
    return g
