#pragma once
// Rooted subgraphs as tensors, for subgraph GNNs (nested GNNs, ESAN, SUN, GNN-AK and later SSWL+,
// KP-GNN, I²-GNN): every node of every graph of a batch roots one subgraph, and every subgraph
// holds "copies" of nodes of its graph. Message passing runs between copies inside each subgraph;
// the index maps below pool copies into subgraphs, subgraphs into graphs, and copies of one node
// across the subgraphs that hold it. Under the ego_net_per_neighbour policy a subgraph is itself
// several "marked" copies of one ego-net, one per neighbour of the root, with one more level of
// pooling (copies into marks, marks into subgraphs).
//
// Numbering, for graphs [begin, end) of a list:
// * nodes: consecutive graph by graph, as in SparseBatch (node v of the i-th graph of the range is
//   offset_i + v);
// * subgraphs: subgraph s is rooted at node s, so there are as many subgraphs as nodes, in the same
//   order (a per-node value is also a per-subgraph value);
// * copies: consecutive subgraph by subgraph; inside a subgraph, the order of the policy (below).

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "brec/graph/graph.hpp"
#include "brec/nn/batch.hpp"

namespace brec::nn {

/// Which subgraph each node roots.
enum class SubgraphPolicy {
    /// The subgraph induced by the ball of radius r around the root: copies of the nodes within
    /// distance r, root first, then in BFS order (nested GNNs, GNN-AK).
    ego_net,
    /// All n nodes of the graph, but only the edges with both ends in the ball of radius r: copies
    /// of every node in node order, nodes outside the ball isolated (ESAN's and SUN's
    /// "ego_nets_plus"; the root marks are the copies at distance 0).
    ego_edges,
    /// The ego-net of ego_net copied once per neighbour u of the root v, the copy "marked" at u
    /// (I²-GNN's (v, u) subgraphs); a root without neighbours in its ego-net (every root at radius 0)
    /// keeps one unmarked copy. A subgraph's
    /// copies come mark by mark (the root's neighbours in adjacency order), each mark in ego_net order
    /// and with the ego-net's edges.
    ego_net_per_neighbour,
};

/// The rooted subgraphs of a batch of graphs as index tensors (int64, on one device).
struct SubgraphBatch {
    std::int64_t graphs = 0;
    std::int64_t nodes = 0;      ///< N: nodes of the original graphs
    std::int64_t subgraphs = 0;  ///< S = N: subgraph s is rooted at node s
    std::int64_t copies = 0;     ///< C: nodes of all subgraphs together

    /// Graph of each node [N].
    torch::Tensor node_graph;
    /// The edges of the original graphs, each as two arcs (ESAN's and SUN's cross-subgraph layers).
    Adjacency arcs;

    /// Copy → original node [C] (batch node numbering): pools the copies of a node across the
    /// subgraphs that hold it (ESAN's cross-subgraph mean, GNN-AK's context) and lifts per-node values
    /// to copies (x[copy_node]).
    torch::Tensor copy_node;
    /// Copy → subgraph [C]: pools copies into their subgraph.
    torch::Tensor copy_subgraph;
    /// Distance of each copy to its subgraph's root [C]: 0 for the root, −1 for copies outside the
    /// ball (only the ego_edges policy keeps those).
    torch::Tensor copy_distance;
    /// Subgraph → its root's copy [S]; as subgraph v is rooted at node v, also node v → the copy of v
    /// in its own subgraph (x_vv of SUN, GNN-AK's centroid).
    torch::Tensor root_copy;
    /// Subgraph → graph [S] (the same values as node_graph, since subgraph s is rooted at node s).
    torch::Tensor subgraph_graph;
    /// Arcs between copies: both directions of every edge of every subgraph (messages never leave a
    /// subgraph).
    Adjacency copy_arcs;

    /// The sums and means of the maps above (order-independent on the CPU, see group_sum): copies
    /// by subgraph (index copy_subgraph), copies by original node (index copy_node), and nodes, or
    /// equally subgraphs, by graph (index node_graph).
    Grouping by_subgraph, by_node, by_graph;

    /// ego_net_per_neighbour only (marks = 0 and the tensors undefined under the other policies): the
    /// marks, i.e. the copies of the ego-nets, numbered consecutively subgraph by subgraph.
    std::int64_t marks = 0;
    /// Copy → its mark [C].
    torch::Tensor copy_mark;
    /// Distance of each copy to its mark's neighbour u inside the ego-net [C] (0 for u itself); −1
    /// in the unmarked copy of a root without neighbours. It equals the distance in the whole graph:
    /// a path from u that leaves the ball of radius r around v has length >= r + 1 >= 1 + d(v, w).
    torch::Tensor copy_mark_distance;
    /// Mark → its subgraph [M] (the root v of the pair (v, u)).
    torch::Tensor mark_subgraph;
    /// Copies by mark (index copy_mark) and marks by subgraph (index mark_subgraph).
    Grouping by_mark, marks_by_subgraph;
};

/// The size of the ego_net_per_neighbour subgraphs of graphs [begin, end) without building them:
/// copies C, marks M and arcs (both directions of every edge of every mark). Per root v with ball
/// B_v: max(deg v, 1) marks (1 at radius 0) of |B_v| copies and 2·|E(B_v)| arcs each. Complexity as the ego balls.
struct MarkedSubgraphCounts {
    std::int64_t nodes = 0, copies = 0, marks = 0, arcs = 0;
};
MarkedSubgraphCounts count_marked_subgraphs(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                            std::uint32_t radius);

/// Builds the subgraphs of graphs [begin, end) on `device`: one per node, of radius `radius` under
/// `policy`, from the graph module's ego balls. Throws InvalidArgument for a range outside the list.
/// Complexity O(N + Σ over roots of (ball + ball edges)) for ego_net, plus O(Σ n²) copies for
/// ego_edges; at most O(Σ n (n + m)); for ego_net_per_neighbour O(Σ over roots v of deg v · (ball of
/// radius r + 1 around a neighbour + ball edges)), at most O(Σ m n (n + m)) (the output's size).
SubgraphBatch make_subgraph_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                  SubgraphPolicy policy, std::uint32_t radius, torch::Device device);

/// The distance encoding of node-pair subgraph GNNs (SSWL+): for every ordered pair (u, v) of g, row
/// major (u · n + v), the class min(SPD(u, v), cap), with pairs in different components in class cap
/// (the cap class stands for "far", and unreachable is farther than any distance). Throws
/// InvalidArgument for a negative cap. Complexity O(n (n + m)).
std::vector<std::int64_t> pair_distance_classes(const Graph& g, int cap);

}  // namespace brec::nn
