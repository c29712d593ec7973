#pragma once
// Rooted subgraphs as tensors, for subgraph GNNs (nested GNNs, ESAN, SUN, GNN-AK and later SSWL+,
// KP-GNN, I²-GNN): every node of every graph of a batch roots one subgraph, and every subgraph
// holds "copies" of nodes of its graph. Message passing runs between copies inside each subgraph;
// the index maps below pool copies into subgraphs, subgraphs into graphs, and copies of one node
// across the subgraphs that hold it.
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
};

/// Builds the subgraphs of graphs [begin, end) on `device`: one per node, of radius `radius` under
/// `policy`, from the graph module's ego balls. Throws InvalidArgument for a range outside the list.
/// Complexity O(N + Σ over roots of (ball + ball edges)) for ego_net, plus O(Σ n²) copies for
/// ego_edges; at most O(Σ n (n + m)).
SubgraphBatch make_subgraph_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                  SubgraphPolicy policy, std::uint32_t radius, torch::Device device);

/// The distance encoding of node-pair subgraph GNNs (SSWL+): for every ordered pair (u, v) of g, row
/// major (u · n + v), the class min(SPD(u, v), cap), with pairs in different components in class cap
/// (the cap class stands for "far", and unreachable is farther than any distance). Throws
/// InvalidArgument for a negative cap. Complexity O(n (n + m)).
std::vector<std::int64_t> pair_distance_classes(const Graph& g, int cap);

}  // namespace brec::nn
