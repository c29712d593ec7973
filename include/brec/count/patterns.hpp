#pragma once
// Exact counts of connected induced subgraphs on 3 and 4 vertices, per graph and per vertex.
//
// Enumeration visits each connected vertex set of size <= 4 exactly once (ESU: Wernicke 2006,
// extending sets only by neighbours with larger ids than the start vertex), then classifies it by
// edge count and degree sequence. The cost is O(number of connected 4-sets) = O(N d^3), the bound of
// Shervashidze et al. 2009, without their edge-based normalisation step.
//
// @inproceedings{shervashidze2009efficient, title={Efficient graphlet kernels for large graph
//   comparison}, author={Shervashidze, Nino and others}, booktitle={AISTATS}, year={2009}}
// @article{wernicke2006efficient, title={Efficient detection of network motifs},
//   author={Wernicke, Sebastian}, journal={IEEE/ACM TCBB}, year={2006}}

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
