#pragma once
// Learned edge-deletion subgraphs (OSAN): per-arc scores choose, in each of C columns, the one
// undirected edge of every graph to delete; training backpropagates through that discrete choice
// with I-MLE (implicit maximum-likelihood estimation, perturb-and-MAP).
//
// @inproceedings{niepert2021imle, title={Implicit MLE: Backpropagating Through Discrete Exponential
//   Family Distributions}, author={Niepert, Mathias and Minervini, Pasquale and Franceschi, Luca},
//   booktitle={NeurIPS}, year={2021}}

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "brec/nn/batch.hpp"

namespace brec::nn {

/// The undirected edges of a SparseBatch, for choices made per undirected edge on per-arc scores.
/// Edges are numbered graph by graph, inside a graph in increasing (u, v), u < v, order.
struct UndirectedEdges {
    std::int64_t graphs = 0;
    std::int64_t edges = 0;
    torch::Tensor edge_of_arc;           ///< [A] int64 on the CPU: the undirected edge of each arc
    std::vector<std::int64_t> edge_ptr;  ///< [graphs + 1]: graph g's edges are [edge_ptr[g], edge_ptr[g + 1])
    torch::Tensor arc_graph;             ///< [A] int64 on the batch's device: the graph of each arc
    torch::Tensor arcs_per_graph;        ///< [graphs] float on the batch's device: 2 m of each graph
};

/// The undirected edges of `b` (whose arcs come in pairs u → v, v → u). Complexity O(A log A).
UndirectedEdges undirected_edges(const SparseBatch& b);

/// The edge-deletion choice of OSAN's released code (GraphPKU/BREC @966b5ed, branch Release,
/// OSAN/subgraph/undirected_edge_selection.py), on per-arc scores [A, C]: in every column and
/// every graph with edges, the undirected edge whose score (the sum of its two arcs' scores, added in
/// double, so that equal sums are exact ties) is lowest is deleted and all others kept (top m − 1 of
/// m). Among tied lowest scores the edge deleted is the last in the order above, the
/// lexicographically largest (u, v): the released heap pops equal scores in increasing (u, v) order.
/// Returns the keep mask [A, C] (1 kept, 0 for both arcs of a deleted edge) as float on the scores'
/// device. Not differentiable. Complexity O(A · C).
torch::Tensor keep_all_but_lowest_edge(const torch::Tensor& scores, const UndirectedEdges& edges);

/// keep_all_but_lowest_edge(logits + noise) as an autograd function with I-MLE's gradient
/// (one sample, target distribution α = 1, β; noise and target-noise temperatures 1): given the
/// loss gradient dy [A, C] with respect to the returned mask, the gradient with respect to the
/// logits is
///     mask(logits + noise) − mask(logits − β · dy + noise),
/// the same noise in both. `noise` (e.g. Gumbel(0, 1)) gets no gradient. Complexity O(A · C) per
/// forward and per backward.
torch::Tensor imle_keep_all_but_lowest_edge(const torch::Tensor& logits, const torch::Tensor& noise,
                                            const UndirectedEdges& edges, double beta);

/// Gumbel(0, 1) noise of `shape` from `gen`, as torch.distributions.Gumbel draws it:
/// −log(−log u), u uniform on [tiny, 1 − ε] of float32.
torch::Tensor gumbel_noise(at::IntArrayRef shape, const torch::TensorOptions& options, torch::Generator& gen);

/// OSAN's auxiliary loss on a keep mask [A, C]: for every graph with arcs, the KL divergence from
/// the uniform distribution over its arcs to softmax over its arcs of how many columns keep each
/// arc, divided by the graph's arc count (KLDivLoss with "batchmean"), summed over graphs. It pushes
/// the columns to delete different edges. Complexity O(A · C).
torch::Tensor uniform_edge_use_loss(const torch::Tensor& mask, const UndirectedEdges& edges);

}  // namespace brec::nn
