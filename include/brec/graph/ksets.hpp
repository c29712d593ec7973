#pragma once
// The vertex sets KC-SetGNN embeds for k = 3, c = 2 with stacking: every set of 1, 2 or 3 vertices
// whose induced subgraph has at most 2 connected components, and the inclusions between sets of
// consecutive sizes (the bipartite "super-graph" its layers pass messages over). Plain C++ over the
// graph; the model (src/nn/models/kc_setgnn.cpp) turns it into tensors.
//
// Sets of 1 and 2 vertices always have at most 2 components, so all n vertices and all n(n−1)/2
// pairs are sets; a triple qualifies unless it is independent (3 components). Every set of size
// s + 1 is linked to each of its s + 1 subsets of size s (all of which are sets), which is what the
// released code's set extension produces for these k and c (GraphPKU/BREC @966b5ed, branch Release,
// KCSetGNN/core/transform.py, extend_to_kplus1).
//
// @inproceedings{zhao2022practical, title={A Practical, Progressively-Expressive GNN},
//   author={Zhao, Lingxiao and H{\"a}rtel, Louis and Shah, Neil and Akoglu, Leman},
//   booktitle={NeurIPS}, year={2022}}

#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// The sets of one graph with n vertices. Vertex v is the 1-set number v.
struct KSets {
    std::int64_t n = 0;
    /// All pairs u < v in lexicographic order: pair p is {pair_vertices[2p], pair_vertices[2p + 1]};
    /// pair_index(n, u, v) gives its number.
    std::vector<std::int64_t> pair_vertices;
    /// Components of each pair's induced subgraph: 1 (an edge) or 2.
    std::vector<std::uint8_t> pair_components;
    /// The triples a < b < c with at most 2 components, in lexicographic order: triple t is
    /// {triple_vertices[3t], [3t + 1], [3t + 2]}.
    std::vector<std::int64_t> triple_vertices;
    /// Triple t's 2-subsets as pair numbers: {a, b}, {a, c}, {b, c} at [3t], [3t + 1], [3t + 2].
    std::vector<std::int64_t> triple_pairs;
    /// Components of each triple's induced subgraph: 1 (two or three edges) or 2 (one edge).
    std::vector<std::uint8_t> triple_components;

    std::int64_t pairs() const { return static_cast<std::int64_t>(pair_components.size()); }
    std::int64_t triples() const { return static_cast<std::int64_t>(triple_components.size()); }
};

/// The number of pair {u, v} (u < v < n) in lexicographic order.
inline std::int64_t pair_index(std::int64_t n, std::int64_t u, std::int64_t v) {
    return u * (2 * n - u - 1) / 2 + (v - u - 1);
}

/// The sets of `g`. For each pair u < v the qualifying third vertices c > v are all of them when
/// {u, v} is an edge, otherwise the later neighbours of u or v (merged from the sorted neighbour
/// lists). Complexity O(n² + n·m + T) for T triples (T <= min(C(n, 3), m·n)).
KSets k_sets(const Graph& g);

}  // namespace brec
