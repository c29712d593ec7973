#pragma once
// The K-hop view of a graph that KP-GNN passes messages over: every ordered pair of vertices at
// shortest-path distance 1..K, with its distance as the hop channel, and, per vertex and hop, the
// "peripheral subgraph" (the subgraph induced by the vertices at distance exactly k) summarised by
// two counts vectors. Plain C++ over the graph's CSR, shared by the model (src/nn/models/kp_gnn.cpp
// turns it into tensors) and its tight-bound WL test (KP-WL, src/wl).
//
// Distances come from breadth-first search. The released KP-GNN code derives them from powers of
// the adjacency matrix cast to int32, whose walk counts overflow on dense graphs; only "count > 0"
// is used there, which BFS answers exactly.
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), KP-GNN/data_utils.py (adj_K_order and
// the peripheral attributes) with KP-GNN/test_BREC.py.
//
// @inproceedings{feng2022kpgnn, title={How Powerful are K-hop Message Passing Graph Neural
//   Networks}, author={Feng, Jiarui and Chen, Yixin and Li, Fuhai and Sarkar, Anindya and Zhang,
//   Muhan}, booktitle={NeurIPS}, year={2022}}

#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// What the released code caps every peripheral count at, and how deep it measures distances
/// inside a peripheral subgraph.
inline constexpr std::int32_t kPeripheralCountCap = 1000;
inline constexpr std::int32_t kPeripheralHops = 4;

struct KHopGraph {
    std::int32_t n = 0;
    std::int32_t hops = 0;  ///< K
    /// Every ordered pair (src[i], dst[i]) at distance 1..K, hop[i] = distance − 1; sorted by
    /// (dst, src).
    std::vector<std::int64_t> src, dst, hop;
    /// Row v·K + (k − 1): the directed edges (twice the edges) of the peripheral subgraph of v at
    /// hop k, capped at kPeripheralCountCap.
    std::vector<std::int64_t> peripheral_edges;
    /// Row v·K + (k − 1), kPeripheralHops + 1 columns, row-major: [c0, c1, .., c4] where c_d is the
    /// number of ordered vertex pairs at distance d inside the peripheral subgraph (distances
    /// measured in that subgraph), and c0 = Σ over its vertices a, over d = 1..4, of the entries
    /// (2 per directed edge, as the released code sums its adjacency of 2s) of the edges among the
    /// vertices at distance d from a. Each capped at kPeripheralCountCap.
    /// A peripheral subgraph with fewer than two vertices or without edges has all zeros, in both
    /// this and peripheral_edges.
    std::vector<std::int64_t> configuration;
};

/// The K-hop view of `g` (hops = K >= 1; InvalidArgument otherwise). Complexity O(n (n + m)) for
/// the distances, plus per vertex and hop a bounded-depth BFS inside the peripheral subgraph from
/// each of its vertices: O(Σ |S| (|S| + edges of S)).
KHopGraph khop_graph(const Graph& g, std::int32_t hops);

}  // namespace brec
