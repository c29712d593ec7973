#pragma once
// Exact counts of connected induced subgraphs on 3 and 4 vertices, per graph and per vertex.
//
// Algorithm in the style of Shervashidze et al. 2009: iterate over the edges {u,v}; every vertex w
// adjacent to u or v gives a connected 3-set {u,v,w}, classified by w's adjacency to u and v; every
// vertex x adjacent to u, v or w gives a connected 4-set {u,v,w,x}, classified by the adjacency of
// x to u, v, w. A connected set of pattern p is detected a fixed number f(p) of times (once per
// edge e of the set and per order of the remaining vertices that keeps the prefix connected):
// f = 3 (triangle), 2 (2-path), 12 (4-clique), 10 (diamond), 8 (4-cycle), 7 (tailed triangle),
// 6 (3-star), 4 (3-path). Every detection adds one to each member vertex, so dividing by f(p)
// normalises the per-graph and the per-vertex counts alike. Adjacency tests use per-edge marker
// bits, not binary searches. Cost O(m d^2) = O(N d^3) for 4-sets, O(m d) for 3-sets.
//
// @inproceedings{shervashidze2009efficient, title={Efficient graphlet kernels for large graph
//   comparison}, author={Shervashidze, Nino and others}, booktitle={AISTATS}, year={2009}}

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// Connected induced patterns on 3 and 4 vertices.
enum class Pattern : int {
    path2 = 0,          ///< 3 vertices, 2 edges (P3)
    triangle = 1,       ///< K3
    path3 = 2,          ///< 4 vertices, P4
    star3 = 3,          ///< K1,3
    cycle4 = 4,         ///< C4
    tailed_triangle = 5,///< triangle with a pendant edge (paw)
    diamond = 6,        ///< K4 minus an edge (chordal 4-cycle)
    clique4 = 7,        ///< K4
};
inline constexpr int kNumPatterns = 8;
inline constexpr int kNumPatterns3 = 2;  ///< path2, triangle

const char* pattern_name(Pattern p);
/// Parses a pattern name ("triangle", "4-cycle", ...); throws InvalidArgument.
Pattern parse_pattern(const std::string& name);

struct PatternCounts {
    /// Occurrences of each pattern in the whole graph.
    std::array<std::uint64_t, kNumPatterns> total{};
    /// per_node[v][p]: occurrences of pattern p that contain vertex v.
    std::vector<std::array<std::uint64_t, kNumPatterns>> per_node;
};

/// Counts connected induced 3-vertex patterns (max_size = 3) or 3- and 4-vertex patterns
/// (max_size = 4). Complexity: O(N d^(max_size-1)).
PatternCounts count_patterns(const Graph& g, int max_size = 4);

/// Reference implementation by brute force over all vertex subsets (O(n^4)); for tests.
PatternCounts count_patterns_brute_force(const Graph& g, int max_size = 4);

}  // namespace brec
