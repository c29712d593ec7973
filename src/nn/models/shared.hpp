#pragma once
// What several built-in models share (private to nn): the bound of node-based subgraph GNNs, the
// BREC study's pair subset of its heavy models, the nested GIN of NGNN and DE+NGNN, and the ego-net
// subgraphs of ESAN's and SUN's policies.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "brec/nn/model.hpp"
#include "brec/nn/subgraphs.hpp"

namespace brec::models {

/// Node-based subgraph GNNs (NGNN, DS/DSS-GNN, SUN, GNN-AK) are bounded by 2-FWL = 3-WL
/// (Frasca et al., "Understanding and Extending Subgraph GNNs by Rethinking Their Symmetries",
/// NeurIPS 2022): the bound and its note of their registry rows.
inline constexpr const char* kNodeSubgraphBound = "2fwl";
inline constexpr const char* kNodeSubgraphBoundNote =
    "<= 3-WL (2-FWL), as node-based subgraph GNNs (Frasca et al. 2022)";
/// The 270 pairs the BREC study runs its 3-WL-bounded heavy models on: Basic, the simple regular
/// pairs, Extension and the first 60 CFI pairs.
inline constexpr const char* kBrec3WlSubset = "0-59,60-109,160-259,260-319";

/// The nested GIN of ngnn.cpp, shared with de_ngnn.cpp: a constant input, or the one-hot distance
/// to the root when `distance_input`.
std::shared_ptr<GraphEmbedder> make_nested_gin(const ModelConfig& config, ModelRandom& random, bool distance_input);

/// A model's subgraph radius (ModelConfig::radius) as an ego-ball radius; InvalidArgument naming
/// `model` when negative.
std::uint32_t ego_radius(const ModelConfig& config, const std::string& model);

/// The subgraphs of ESAN's and SUN's "ego_nets_plus" policy for a range of graphs, with the input
/// of every copy, [is root, is not root, 1], computed once per range (defined in ds_gnn.cpp, used
/// by the DS-GNN, DSS-GNN and SUN files).
struct EgoEdgesBatch {
    nn::SubgraphBatch sub;
    torch::Tensor input;  ///< [C, 3]
};
EgoEdgesBatch make_ego_edges_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                   std::uint32_t radius, torch::Device device);

}  // namespace brec::models
