#pragma once
// Cai-Fürer-Immerman graphs in the variant used by BREC, and exact treewidth of small base graphs.
//
// For a base graph B (connected, minimum degree >= 2) and each vertex v with incident edges E(v):
// vertices a(v,e,0), a(v,e,1) for e in E(v) and m(v,S) for every even-size S ⊆ E(v); m(v,S) is
// joined to a(v,e,1) if e ∈ S and to a(v,e,0) otherwise. For each base edge e = uv, a(u,e,i) is
// joined to a(v,e,i); the twisted graph crosses one edge instead: a(u,e*,i) – a(v,e*,1-i).
// (k-1)-FWL (= k-WL) separates the pair iff tw(B) <= k-1 (Dawar & Richerby; Neuen 2023).
//
// @article{cai1992optimal, title={An optimal lower bound on the number of variables for graph
//   identification}, author={Cai, Jin-Yi and F{\"u}rer, Martin and Immerman, Neil},
//   journal={Combinatorica}, volume={12}, pages={389--410}, year={1992}}
// @article{bodlaender2012treewidth, title={On exact algorithms for treewidth}, author={Bodlaender,
//   Hans L. and others}, journal={ACM Trans. Algorithms}, volume={9}, number={1}, year={2012}}

#include <cstdint>

#include "brec/graph/graph.hpp"

namespace brec {

/// The CFI graph over `base` (untwisted, or with its first edge twisted). Throws InvalidArgument
/// when a base vertex has degree 0 or more than 20. Size: sum_v (2^(d(v)-1) + 2 d(v)) vertices.
Graph cfi_graph(const Graph& base, bool twisted);
/// Number of vertices cfi_graph(base, ·) will have (without building it).
std::uint64_t cfi_size(const Graph& base);
/// Exact treewidth by dynamic programming over vertex subsets (elimination orderings).
/// Complexity O(2^n n^2); n <= 20 (throws InvalidArgument above).
std::uint32_t treewidth(const Graph& g);

}  // namespace brec
