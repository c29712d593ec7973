#pragma once
// Pattern counts after flipping one vertex pair {u,v} (adding the edge if absent, deleting it if
// present), without a full recount.
//
// Flipping {u,v} changes the induced subgraph of a vertex set S only when S contains both u and v,
// so only those sets can gain or lose an occurrence. Every such set that is connected with the
// edge is {u,v} plus a third vertex w adjacent to u or v, plus possibly a fourth vertex x adjacent
// to u, v or w: exactly the sets that the edge-anchored count enumerates from the edge {u,v}. They
// lie in the ego-net of u of radius pattern-diameter taken in the graph that has the edge, which
// is why recounting that ego-net before and after the flip (C(G~) = C(G) + C(G~_S) - C(G_S), the
// update of Campi et al.) is exact; enumerating the sets through {u,v} directly gives the same
// difference without recounting the unchanged occurrences of the ego-net. Each set is classified
// with and without the edge and contributes +1/-1 to its patterns and to each of its members.
// The non-induced 3-star changes by the stars that use the edge {u,v}: C(d_u, 2) + C(d_v, 2),
// with d_u, d_v the degrees without that edge. Complexity: O(d^2) per flip (d the maximum degree),
// against O(N d^3) for a recount.
//
// @inproceedings{campi2023robustness, title={Expressivity of Graph Neural Networks Through the
//   Lens of Adversarial Robustness}, author={Campi, Francesco and Gosch, Lukas and Wollschl{\"a}ger,
//   Tom and Scholten, Yan and G{\"u}nnemann, Stephan}, booktitle={ICML Workshop on New Frontiers in
//   Adversarial Machine Learning}, year={2023}}

#include <array>
#include <cstdint>
#include <vector>

#include "brec/count/patterns.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// Signed change of every count after a flip.
struct CountDelta {
    std::array<std::int64_t, kNumCounts> total{};
    /// The vertices whose counts change, ascending, with their changes (parallel vectors).
    std::vector<VertexId> vertices;
    std::vector<std::array<std::int64_t, kNumCounts>> per_node;
    /// Whether the flip added the edge (false: deleted it).
    bool added = false;
};

/// Scratch memory of flip_delta and friends, reusable across calls on graphs of any size. Not
/// shared between threads.
class FlipWorkspace {
public:
    FlipWorkspace() = default;

private:
    friend struct FlipAccess;
    std::vector<std::uint8_t> mark_;
    std::vector<VertexId> third_;
    std::vector<std::array<std::int64_t, kNumCounts>> acc_;
    std::vector<std::uint8_t> touched_;
    std::vector<VertexId> touched_list_;
};

/// The change of every count (per graph and per vertex) when {u,v} is flipped in g.
/// Throws InvalidArgument when u == v or a vertex is out of range. Complexity O(d^2).
CountDelta flip_delta(const Graph& g, VertexId u, VertexId v, FlipWorkspace& ws);
CountDelta flip_delta(const Graph& g, VertexId u, VertexId v);

/// Only the per-graph change of every count (no per-vertex bookkeeping; the fast path of an
/// attack that scores many candidate flips). Complexity O(d^2).
std::array<std::int64_t, kNumCounts> flip_total_delta(const Graph& g, VertexId u, VertexId v, FlipWorkspace& ws);

/// Adds a delta to counts (counts of the graph before the flip become those after it). Throws
/// InvalidArgument when the delta names a vertex out of range or would make a count negative.
void apply_delta(PatternCounts& counts, const CountDelta& delta);

/// g with the pair {u,v} flipped (node labels kept; edge labels are not supported). Throws
/// InvalidArgument for u == v, an out-of-range vertex or a graph with edge labels. Complexity O(N + M).
Graph flip_edge(const Graph& g, VertexId u, VertexId v);

/// The occurrences of an induced pattern that a flip destroys and creates: the instances
/// containing both u and v before and after it (both lists sorted as list_instances does).
struct FlipInstances {
    InstanceList destroyed;
    InstanceList created;
};
/// Throws InvalidArgument for star3_noninduced (see list_instances) and for bad vertices.
FlipInstances flip_instances(const Graph& g, VertexId u, VertexId v, Pattern p, FlipWorkspace& ws);

/// Whether a flip is allowed in the restricted perturbation spaces of the attacks.
struct FlipAdmissibility {
    std::int64_t delta = 0;         ///< change of the pattern's count
    bool count_preserving = false;  ///< the count is unchanged (delta == 0)
    /// The set of occurrences is unchanged: no occurrence contains both u and v, before or after
    /// the flip (for star3_noninduced: no star uses the edge {u,v}). Any occurrence that does is
    /// destroyed by the flip, since it changes the set's edge count, so this is exactly "the
    /// occurrences of the pattern are the same in G and G~" (and implies count_preserving).
    bool subgraph_preserving = false;
};
FlipAdmissibility flip_admissibility(const Graph& g, VertexId u, VertexId v, Pattern p, FlipWorkspace& ws);

}  // namespace brec
