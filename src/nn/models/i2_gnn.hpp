#pragma once
// I²-GNN's internals that its tests and memory estimate use (private to nn; i2_gnn.cpp documents
// the model).

#include <cstdint>
#include <vector>

#include "brec/nn/model.hpp"
#include "brec/nn/subgraphs.hpp"

namespace brec::models {

/// I²-GNN's subgraph radius (ModelConfig::radius): InvalidArgument when negative or beyond the
/// range its label embeddings cover (22).
std::uint32_t i2_gnn_radius(const ModelConfig& config);
/// I²-GNN's four labels of every copy [C, 4] (int64, on the batch's device) of subgraphs built with
/// the ego_net_per_neighbour policy of radius `radius` (i2_gnn.cpp documents them, the released
/// code's quirk included: GraphPKU/BREC @966b5ed, I2GNN/utils.py). InvalidArgument for subgraphs of
/// another policy.
torch::Tensor i2_gnn_labels(const nn::SubgraphBatch& subgraphs, std::uint32_t radius);
/// The bytes of the tensors I²-GNN prepares for `graphs` as one batch (labels, arcs between copies,
/// the three poolings), from the counts of copies C, marks M, arcs A, nodes N and graphs B only (no
/// tensor is built): 56 C + 24 A + 28 M + 28 N + 12 B + 32. Cut into several batches, each batch
/// beyond the first adds 32 bytes of CSR pointers. The activations of training (several tensors of
/// C × hidden floats per layer) come on top and are not counted.
std::uint64_t i2_gnn_estimate_bytes(const std::vector<Graph>& graphs, const ModelConfig& config);
/// I²-GNN's estimate for `brec eval --max-memory` (ModelEntry::estimate_bytes): the prepared tensors
/// of i2_gnn_estimate_bytes plus the activations of one training step (about 11 rows of `hidden`
/// floats per copy-node and layer, one per arc) and the parameters with their Adam state.
std::uint64_t i2_gnn_training_bytes(const std::vector<Graph>& graphs, const ModelConfig& config);
/// The bytes of the same tensors built for real (what the estimate is tested against).
std::uint64_t i2_gnn_batch_bytes(const std::vector<Graph>& graphs, const ModelConfig& config);

}  // namespace brec::models
