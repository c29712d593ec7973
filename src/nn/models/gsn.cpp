// GSN-e: message passing whose first layer sees, on every edge, the edge's structural identifier:
// the counts of the edge orbits of all connected induced 3- and 4-vertex subgraphs containing it
// (nn/structural_ids.hpp; the counts come from count/patterns.hpp).
//
// As the BREC study runs it (GSN/test_BREC_search.py: GSN_sparse, --id_type all_simple_graphs
// --induced True --k 4 --id_scope local --msg_kind general --num_layers 4 --d_out 64; with the
// script's defaults d_msg = d_h = 64, 2-layer MLPs with BatchNorm, ReLU, sum aggregation, no
// degree features, no injected ids, dropout 0):
//   * input x = 1 on every vertex (one column, no encoder);
//   * layer 1: m_v = Σ_{u ∈ N(v)} MLP_msg([x_v, x_u, id_uv]), x'_v = MLP_up([x_v, m_v]);
//     layers 2..L: the same without the identifier, MLP_msg([x_v, x_u]); every MLP is
//     Linear(in, h) → BatchNorm1d(h) → ReLU → Linear(h, h), PyTorch's default initialisation;
//   * after each layer BatchNorm1d(h) (PyTorch's defaults) and ReLU;
//   * readout: Σ over l = 0..L of Linear_l(sum-pool of x after layer l) (Linear_0 on the input
//     column), mapping to d; no output normalisation.
// The identifier is one-hot per orbit column; the released code one-hot encodes over the values a
// column takes in its whole dataset, brec over a fixed vocabulary (structural_ids.hpp says how
// the two differ).
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), GSN/test_BREC.py, GSN/test_BREC_search.py and
// GSN/utils_encoding.py (one_hot_unique).
//
// @article{bouritsas2022improving, title={Improving Graph Neural Network Expressivity via Subgraph
//   Isomorphism Counting}, author={Bouritsas, Giorgos and Frasca, Fabrizio and Zafeiriou, Stefanos
//   and Bronstein, Michael M.}, journal={IEEE TPAMI}, year={2022}}

#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"
#include "brec/nn/structural_ids.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

/// Graphs [begin, end) as one batch with the one-hot identifier of every arc.
struct GsnBatch {
    torch::Tensor src, dst;  ///< [E] int64
    torch::Tensor ids;       ///< [E, gsn_id_width()] float, one-hot per orbit column
    nn::Grouping by_graph;
    std::int64_t nodes = 0;
};

GsnBatch make_gsn_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end, torch::Device device) {
    std::vector<std::int64_t> src, dst, slots, graph_of;
    std::int64_t offset = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const nn::GsnArcs a = nn::gsn_arcs(graphs[i]);
        for (std::size_t k = 0; k < a.src.size(); ++k) {
            src.push_back(offset + a.src[k]);
            dst.push_back(offset + a.dst[k]);
        }
        slots.insert(slots.end(), a.slots.begin(), a.slots.end());
        graph_of.insert(graph_of.end(), graphs[i].n(), static_cast<std::int64_t>(i - begin));
        offset += graphs[i].n();
    }
    const auto cpu = torch::TensorOptions().dtype(torch::kInt64);
    const auto vec = [&](std::vector<std::int64_t>& v) {
        return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, cpu).clone();
    };
    GsnBatch b;
    b.nodes = offset;
    const auto arcs = static_cast<std::int64_t>(src.size());
    auto ids = torch::zeros({arcs, nn::gsn_id_width()});
    if (arcs > 0) ids.scatter_(1, vec(slots).view({arcs, kNumEdgeOrbits}), 1.0);
    b.src = vec(src).to(device);
    b.dst = vec(dst).to(device);
    b.ids = ids.to(device);
    b.by_graph = nn::make_grouping(vec(graph_of).to(device), static_cast<std::int64_t>(end - begin));
    return b;
}

class Gsn : public GraphEmbedder {
public:
    Gsn(const ModelConfig& c, ModelRandom& random) {
        auto& gen = random.init;
        const std::int64_t h = c.hidden;
        std::int64_t in = 1;
        for (int l = 0; l < c.layers; ++l) {
            const std::string k = std::to_string(l);
            const std::int64_t msg_in = 2 * in + (l == 0 ? nn::gsn_id_width() : 0);
            msg_.push_back(register_module("msg" + k, nn::BnMlp(msg_in, h, h, gen)));
            update_.push_back(register_module("update" + k, nn::BnMlp(in + h, h, h, gen)));
            norms_.push_back(register_module("bn" + k, nn::batch_norm(h)));
            in = h;
        }
        for (int l = 0; l <= c.layers; ++l)
            heads_.push_back(
                register_module("readout" + std::to_string(l), nn::Linear(l == 0 ? 1 : h, c.out_dim, gen)));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const GsnBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_gsn_batch(batches_.graphs(), s, e, batches_.device());
        });
        auto x = torch::ones({b.nodes, 1}, torch::TensorOptions().device(batches_.device()));
        auto out = heads_[0]->forward(nn::group_sum(x, b.by_graph));
        for (std::size_t l = 0; l < msg_.size(); ++l) {
            std::vector<torch::Tensor> parts{nn::gather_rows(x, b.dst), nn::gather_rows(x, b.src)};
            if (l == 0) parts.push_back(b.ids);
            const auto m = nn::scatter_sum(msg_[l]->forward(torch::cat(parts, 1)), b.dst, b.nodes);
            x = torch::relu(norms_[l]->forward(update_[l]->forward(torch::cat({x, m}, 1))));
            out = out + heads_[l + 1]->forward(nn::group_sum(x, b.by_graph));
        }
        return out;
    }

private:
    std::vector<nn::BnMlp> msg_, update_;
    std::vector<torch::nn::BatchNorm1d> norms_;
    std::vector<nn::Linear> heads_;
    nn::RangeCache<GsnBatch> batches_;
};

}  // namespace

ModelEntry gsn_model() {
    ModelSpec s;
    s.name = "gsn";
    s.family = "GSN-e: MPNN with per-edge counts of the edge orbits of all 3- and 4-vertex graphs";
    s.citation = "Bouritsas et al., TPAMI 2022";
    // Substructure counts take GSN past 1-WL and, on some graphs, past 3-WL (Bouritsas et al.
    // 2022); no WL level is known to bound it.
    s.bound = "";
    s.bound_note =
        "beyond 1-WL, on some strongly regular graphs beyond 3-WL; no WL bound known (Bouritsas et al. 2022)";
    s.tight_bound = "gsn-e:4";
    s.tight_note =
        "1-WL with the edge-orbit counts of the connected induced 3- and 4-vertex patterns on edges (GSN-e, Bouritsas "
        "et al. 2022)";
    s.defaults = Hyper()
                     .with_radius(0)
                     .with_layers(4)
                     .with_hidden(64)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-5)
                     .with_batch(16)
                     .with_epochs(20)
                     .with_loss_threshold(0.1);
    s.paper_subset = "0-59,60-159,160-259";
    s.paper = {60, 99, 95, 0};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<Gsn>(c, r); }};
}

}  // namespace brec::models
