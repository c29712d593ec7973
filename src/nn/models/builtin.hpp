#pragma once
// The built-in models (private to nn). Adding a model: write src/nn/models/NAME.cpp defining
// `ModelEntry NAME_model()` in brec::models, and add one line X(NAME) to BREC_BUILTIN_MODELS.

#include "brec/nn/registry.hpp"
#include "brec/nn/subgraphs.hpp"

// clang-format off
#define BREC_BUILTIN_MODELS(X) \
    X(gin)                     \
    X(ppgn)                    \
    X(ngnn)                    \
    X(de_ngnn)                 \
    X(ds_gnn)                  \
    X(dss_gnn)                 \
    X(sun)                     \
    X(gnn_ak)                  \
    X(kp_gnn)                  \
    X(i2_gnn)                  \
    X(lgnn2)                   \
    X(graphormer)              \
    X(kc_setgnn)               \
    X(gsn)                     \
    X(dropgnn)                 \
    X(sswl_p)                  \
    X(osan)
// clang-format on

namespace brec::models {

#define BREC_DECLARE_MODEL(name) ModelEntry name##_model();
BREC_BUILTIN_MODELS(BREC_DECLARE_MODEL)
#undef BREC_DECLARE_MODEL

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

/// I²-GNN's subgraph radius (ModelConfig::radius): InvalidArgument when negative or beyond the
/// range its label embeddings cover (22).
std::uint32_t i2_gnn_radius(const ModelConfig& config);
/// I²-GNN's four labels of every copy [C, 4] (int64, on the batch's device) of subgraphs built with
/// the ego_net_per_neighbour policy of radius `radius` (i2_gnn.cpp documents them, the released
/// code's quirk included). InvalidArgument for subgraphs of another policy.
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
