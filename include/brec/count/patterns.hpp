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
// Besides the 8 induced patterns the counter reports the non-induced 3-star (a vertex with any 3
// of its neighbours, whatever the edges among them): sum over v of C(deg v, 3) in the graph, and
// per vertex the stars containing it, as centre (C(deg v, 3)) or as a leaf (sum over neighbours w
// of C(deg w - 1, 2)). The counting experiments of Campi et al. use it as a ninth target.
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
    path2 = 0,            ///< 3 vertices, 2 edges (P3)
    triangle = 1,         ///< K3
    path3 = 2,            ///< 4 vertices, P4
    star3 = 3,            ///< K1,3
    cycle4 = 4,           ///< C4
    tailed_triangle = 5,  ///< triangle with a pendant edge (paw)
    diamond = 6,          ///< K4 minus an edge (chordal 4-cycle)
    clique4 = 7,          ///< K4
    /// Not induced: a centre with 3 of its neighbours (K1,3 as a subgraph, edges among the
    /// leaves allowed). Occurrences are (centre, leaf set) choices, not vertex sets.
    star3_noninduced = 8,
};
/// The connected induced patterns, path2 .. clique4 (the columns of the WL baselines).
inline constexpr int kNumPatterns = 8;
inline constexpr int kNumPatterns3 = 2;  ///< path2, triangle
/// Every count the counter reports: the induced patterns plus the non-induced 3-star.
inline constexpr int kNumCounts = 9;

/// One count per pattern (index = static_cast<int>(Pattern)).
using CountArray = std::array<std::uint64_t, kNumCounts>;

const char* pattern_name(Pattern p);
/// Parses a pattern name ("triangle", "4-cycle", ...; also "diamond", "paw", "3-star-not-induced");
/// throws InvalidArgument naming the known patterns.
Pattern parse_pattern(const std::string& name);
/// All patterns in index order (the default column order of every table).
std::vector<Pattern> all_patterns();
/// Vertices of the pattern (3 or 4).
int pattern_size(Pattern p);
/// Diameter of the pattern: 1 (triangle, 4-clique), 3 (3-path), else 2. A flip of {u,v} can only
/// change occurrences that contain both u and v, and such an occurrence lies within distance
/// diameter of u in the graph that has the edge.
int pattern_diameter(Pattern p);
/// Whether occurrences are induced subgraphs (all but star3_noninduced).
bool is_induced(Pattern p);

struct PatternCounts {
    /// Occurrences of each pattern in the whole graph.
    CountArray total{};
    /// per_node[v][p]: occurrences of pattern p that contain vertex v.
    std::vector<CountArray> per_node;
};

/// Counts connected induced 3-vertex patterns (max_size = 3) or 3- and 4-vertex patterns and the
/// non-induced 3-star (max_size = 4); the counts of larger patterns stay 0 with max_size = 3. With
/// per_node = false only the totals are computed (per_node stays empty), about twice as fast.
/// Complexity: O(N d^(max_size-1)).
PatternCounts count_patterns(const Graph& g, int max_size = 4, bool per_node = true);

/// Occurrences of one induced pattern as vertex sets: count() sets of size() vertices each, every
/// set sorted ascending, the sets in lexicographic order.
struct InstanceList {
    int size = 0;
    std::vector<VertexId> vertices;  ///< count() * size entries
    std::size_t count() const { return size ? vertices.size() / static_cast<std::size_t>(size) : 0; }
    /// The i-th set.
    Span<const VertexId> operator[](std::size_t i) const {
        return {vertices.data() + i * static_cast<std::size_t>(size), static_cast<std::size_t>(size)};
    }
    bool operator==(const InstanceList& o) const { return size == o.size && vertices == o.vertices; }
    bool operator!=(const InstanceList& o) const { return !(*this == o); }
};

/// Lists every occurrence of an induced pattern (each vertex set once). Each connected set is
/// reached from its smallest edge only, so nothing is found twice. Throws InvalidArgument for
/// star3_noninduced, whose occurrences are not determined by their vertex sets.
/// Complexity: O(N d^(k-1)) plus sorting the output, k = pattern_size(p).
InstanceList list_instances(const Graph& g, Pattern p);

/// The edge orbits of the connected induced patterns on 3 and 4 vertices: the classes of a
/// pattern's edges under its vertex automorphisms (an edge's orbit is the unordered pair of its end
/// points' vertex orbits). 12 in all, in pattern order.
enum class EdgeOrbit : int {
    path2 = 0,                 ///< either edge of the 2-path
    triangle = 1,              ///< any edge of the triangle
    path3_end = 2,             ///< an end edge of the 3-path
    path3_middle = 3,          ///< the middle edge of the 3-path
    star3 = 4,                 ///< any edge of the 3-star
    cycle4 = 5,                ///< any edge of the 4-cycle
    tailed_triangle_far = 6,   ///< the triangle edge away from the pendant (between the degree-2 vertices)
    tailed_triangle_near = 7,  ///< a triangle edge at the degree-3 vertex
    tailed_triangle_tail = 8,  ///< the pendant edge
    diamond_chord = 9,         ///< the chord (between the two degree-3 vertices)
    diamond_rim = 10,          ///< a rim edge of the diamond
    clique4 = 11,              ///< any edge of the 4-clique
};
inline constexpr int kNumEdgeOrbits = 12;
const char* edge_orbit_name(EdgeOrbit o);
/// The pattern an edge orbit belongs to.
Pattern edge_orbit_pattern(EdgeOrbit o);

/// Per-edge structural identifiers in the sense of GSN's edge-based ("local") counts:
/// counts[e][o] = the number of connected induced 3- and 4-vertex subgraphs that contain edge e
/// (of g.edges(), in that order) in the role of edge orbit o.
struct EdgeOrbitCounts {
    std::vector<Edge> edges;  ///< g.edges(): (u, v), u < v, increasing
    std::vector<std::array<std::uint32_t, kNumEdgeOrbits>> counts;
};

/// Counts the edge orbits by the edge-anchored enumeration: every connected 3- and 4-set once
/// (from its smallest edge), each of its edges classified by the degrees of its end points inside
/// the set. Complexity O(N d^3 log d).
EdgeOrbitCounts count_edge_orbits(const Graph& g);

/// Reference implementation by brute force over all vertex subsets (O(n^4)); for tests. The
/// non-induced 3-star is counted from its definition (every vertex and every 3 of its neighbours).
PatternCounts count_patterns_brute_force(const Graph& g, int max_size = 4);

}  // namespace brec
