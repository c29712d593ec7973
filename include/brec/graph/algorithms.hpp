#pragma once
// Structural operations on Graph: relabelling, induced subgraphs, distances, ego-nets, components.

#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// Permutation of vertex ids: new id of old vertex i is perm[i].
using Permutation = std::vector<VertexId>;

/// Checks that perm is a permutation of 0..n-1; throws InvalidArgument otherwise.
void validate_permutation(const Permutation& perm, VertexId n);
/// The graph with vertex i renamed perm[i]; node and edge labels move with their vertices.
Graph permute(const Graph& g, const Permutation& perm);
Permutation inverse(const Permutation& perm);

/// Subgraph induced by `vertices` (kept in the given order: vertex vertices[i] becomes i).
Graph induced_subgraph(const Graph& g, const std::vector<VertexId>& vertices);

/// Unweighted distances from src; kUnreachable for other components. Throws InvalidArgument when
/// src >= n. Complexity O(n + m).
inline constexpr std::int32_t kUnreachable = -1;
std::vector<std::int32_t> bfs_distances(const Graph& g, VertexId src);
/// All-pairs distances, row-major n*n. Complexity O(n (n + m)).
std::vector<std::int32_t> all_pairs_distances(const Graph& g);

/// Vertices within distance k of v (v first, then by BFS order); InvalidArgument when v >= n.
/// Complexity O(size of the ego-net and its boundary edges) plus O(n) for the distance array.
std::vector<VertexId> ego_vertices(const Graph& g, VertexId v, std::uint32_t k);
/// The induced k-hop ego-net of v; the root becomes vertex 0.
Graph ego_net(const Graph& g, VertexId v, std::uint32_t k);

/// The ball of radius k around a root: its vertices as ego_vertices orders them (root first, then
/// by BFS order) and the distance of each to the root.
struct EgoBall {
    std::vector<VertexId> vertices;
    std::vector<std::int32_t> distances;  ///< distances[i] is the distance of vertices[i] to the root
};
/// The ball of radius k around v; InvalidArgument when v >= n. Complexity as ego_vertices.
EgoBall ego_ball(const Graph& g, VertexId v, std::uint32_t k);
/// The balls of radius k around every vertex, in root order 0..n-1 (rooted subgraphs in bulk), with
/// one distance array reused across roots. Complexity O(n + sum over roots of (ball + its boundary
/// edges)), at most O(n (n + m)).
std::vector<EgoBall> ego_balls(const Graph& g, std::uint32_t k);

/// Connected component index of every vertex (components numbered by smallest vertex).
std::vector<std::uint32_t> connected_components(const Graph& g, std::uint32_t* count = nullptr);
bool is_connected(const Graph& g);

/// The complement graph (labels of nodes kept, edge labels dropped).
Graph complement(const Graph& g);
/// Disjoint union: vertices of h are shifted by g.n(); node and edge labels are kept (a graph
/// without labels contributes label 0).
Graph disjoint_union(const Graph& g, const Graph& h);

}  // namespace brec
