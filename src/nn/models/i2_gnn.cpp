// I²-GNN: subgraph message passing with two marked nodes, the root v and one of its neighbours u.
//
// As the BREC study runs it (I2GNN/test_BREC_no4v_60cfi.py via test_BREC_search.py: --h 8
// --node_label spd --layers 5, hidden 32 fixed in the model, pre-transform create_subgraphs2 with
// center_idx, model I2GNN of count_models.py with subgraph pooling 'mean'):
//   * subgraphs: for every root v its h-hop ego-net (the induced ball of radius h), copied once per
//     neighbour u of v; a root without neighbours (in its ego-net: all of them when h >= 1, none when
//     h = 0) keeps one copy;
//   * labels: four integers per copy of a node w, [d_v + 1, q_v, d_u + h + 4, q_u + h + 3] at the
//     BREC setting h = 8 [d_v + 1, q_v, d_u + 12, q_u + 11], with d_v, d_u the distances of w to v
//     and to u inside the ego-net. The second column of each pair is a quirk of the released
//     labelling (utils.py, k_hop_subgraph and find_all_spd with "spd" = "spd2"): its breadth-first
//     search appends d + 1 to a node's label list once for every neighbour it is reached from in the
//     previous layer (the visited set is updated only after the whole layer), and keeps the first
//     two entries. So q = d + 1 when w has at least two neighbours one step closer to the source (v,
//     or u within the ego-net) and 0 otherwise (always 0 for the source itself and for a node with
//     one such neighbour). The offset h + 3 is added to both u columns, zeros included; the single
//     copy of a root without neighbours gets the root's pair twice, [1, 0, 1, 0], without offset;
//   * layer l = 1..L: z = Σ of the four label columns through the layer's own Embedding(50, 32);
//     x = z in layer 1, else Linear(64 → 32)([x, z]); then GatedGraphConv(32, one step): m = Σ over
//     the copy's neighbours of x_j W (W [32, 32] ~ U(±1/√32)), x = GRUCell(m, x); then
//     BatchNorm1d(32) (PyTorch's defaults). No other activation;
//   * pooling: sum over each (v, u) copy, MLP Linear(32, 32)-ReLU-Linear(32, 32); sum over the copies
//     of one root, the same MLP shape with its own weights; sum over the roots of a graph;
//   * head: Linear(32, 16), ELU, BatchNorm1d(16, affine off, momentum 0.99 in PyTorch's convention:
//     the running statistics are 1% old value, 99% last batch), Linear(16, 16).
// The released model also builds a Linear(64, 32) for layer 1 that its forward never uses (no
// gradient, no effect); it is omitted here, so the count of parameters is 2,080 lower.
//
// Released code of the BREC variant: GraphPKU/BREC @966b5ed (branch Release), I2GNN/test_BREC_no4v_60cfi.py,
// I2GNN/test_BREC_search.py, I2GNN/count_models.py (I2GNN) and I2GNN/utils.py (the labels).
//
// On the CPU each GRU cell's gates are one fused kernel (nn/fused_gru.hpp): the same products,
// gates within float rounding of torch::gru_cell. ModelConfig::kernel "torch" takes
// torch::gru_cell itself.
//
// Head::regression builds the counting I²-GNN of Campi et al. (2023) instead (CountingI2Gnn below):
// the same subgraphs and pooling with simpler labels, no normalisation and a three-Linear head.
//
// @inproceedings{huang2023boosting, title={Boosting the Cycle Counting Power of Graph Neural
//   Networks with I$^2$-GNNs}, author={Huang, Yinan and Peng, Xingang and Ma, Jianzhu and Zhang,
//   Muhan}, booktitle={ICLR}, year={2023}}

#include <algorithm>
#include <cmath>

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/fused_gru.hpp"
#include "brec/nn/layers.hpp"
#include "brec/nn/subgraphs.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/shared.hpp"
#include "nn/models/i2_gnn.hpp"

namespace brec::models {
namespace {

/// Rows of each layer's label embedding (the released Embedding(50, 32)).
constexpr std::int64_t kLabelRows = 50;
/// Width of the head's hidden Linear (16 in the released model, independent of the hidden width).
constexpr std::int64_t kHeadWidth = 16;
/// The largest radius whose labels fit the embedding: the last column reaches 2h + 5 <= 49.
constexpr int kMaxRadius = (kLabelRows - 1 - 5) / 2;

/// What the model keeps of a range's subgraphs (the rest of the SubgraphBatch is dropped).
struct I2Batch {
    torch::Tensor labels;  ///< [C, 4] int64
    nn::Adjacency arcs;    ///< between copies, inside each (v, u) copy of an ego-net
    nn::Grouping by_mark, marks_by_root, by_graph;
};

/// q of the released labels for one source: d + 1 for copies with at least two arcs from copies one
/// step closer to the source, else 0.
torch::Tensor second_column(const torch::Tensor& distance, const nn::Adjacency& arcs) {
    const auto closer = (distance.index_select(0, arcs.src) == distance.index_select(0, arcs.dst) - 1).to(torch::kLong);
    const auto parents = torch::zeros_like(distance).index_add_(0, arcs.dst, closer);
    return torch::where(parents >= 2, distance + 1, torch::zeros_like(distance));
}

/// Which labels a batch carries: the BREC study's four distance columns, or the single mark of the
/// counting variant (Campi et al.'s "hop" labelling: 1 for the root v, 2 for the marked neighbour u,
/// 0 for every other node).
enum class I2Labels { distances, marks };

I2Batch make_i2_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end, std::uint32_t radius,
                      torch::Device device, I2Labels labels = I2Labels::distances) {
    nn::SubgraphBatch s =
        nn::make_subgraph_batch(graphs, begin, end, nn::SubgraphPolicy::ego_net_per_neighbour, radius, device);
    I2Batch b;
    if (labels == I2Labels::distances) {
        b.labels = i2_gnn_labels(s, radius);
    } else {
        const auto zero = torch::zeros_like(s.copy_distance);
        b.labels = torch::where(s.copy_distance == 0, zero + 1, torch::where(s.copy_mark_distance == 0, zero + 2, zero))
                       .unsqueeze(1)
                       .contiguous();
    }
    b.arcs = std::move(s.copy_arcs);
    b.by_mark = std::move(s.by_mark);
    b.marks_by_root = std::move(s.marks_by_subgraph);
    b.by_graph = std::move(s.by_graph);
    return b;
}

/// GatedGraphConv with one step: m = Σ_neighbours x_j W, then x = GRUCell(m, x); with `fused`, the
/// GRU's gates as one CPU kernel (nn/fused_gru.hpp).
struct GatedConvImpl : torch::nn::Module {
    GatedConvImpl(std::int64_t width, torch::Generator& gen, bool fused) : fused(fused) {
        const double bound = 1.0 / std::sqrt(static_cast<double>(width));
        weight = register_parameter("weight", torch::empty({width, width}));
        w_ih = register_parameter("rnn_weight_ih", torch::empty({3 * width, width}));
        w_hh = register_parameter("rnn_weight_hh", torch::empty({3 * width, width}));
        b_ih = register_parameter("rnn_bias_ih", torch::empty({3 * width}));
        b_hh = register_parameter("rnn_bias_hh", torch::empty({3 * width}));
        for (auto* t : {&weight, &w_ih, &w_hh, &b_ih, &b_hh}) nn::uniform_init(*t, bound, gen);
    }
    torch::Tensor forward(const torch::Tensor& x, const nn::Adjacency& arcs) {
        const auto m = nn::neighbour_sum(torch::matmul(x, weight), arcs);
        return nn::gru_cell(m, x, w_ih, w_hh, b_ih, b_hh, fused);
    }
    torch::Tensor weight, w_ih, w_hh, b_ih, b_hh;
    bool fused;
};
TORCH_MODULE(GatedConv);

/// The layers both variants share, registered on their model under the released names: per layer
/// l an Embedding of the labels (summed over label columns), x = z in layer 1, else
/// Linear(2h → h)([x, z]), then GatedGraphConv and, when `normalise`, BatchNorm1d(h); then the
/// hierarchical sum pooling (per (v, u) copy, MLP; per root, MLP; per graph).
struct I2Layers {
    I2Layers(torch::nn::Module& owner, const ModelConfig& c, std::int64_t label_rows, bool normalise,
             torch::Generator& gen) {
        for (int l = 0; l < c.layers; ++l) {
            const std::string i = std::to_string(l);
            convs.push_back(owner.register_module("conv" + i, GatedConv(c.hidden, gen, c.kernel != "torch")));
            embeddings.push_back(owner.register_module("z_embedding" + i, nn::Embedding(label_rows, c.hidden, gen)));
            transforms.push_back(
                l == 0 ? nn::Linear(nullptr)
                       : owner.register_module("transform_before_conv" + i, nn::Linear(2 * c.hidden, c.hidden, gen)));
            if (normalise) norms.push_back(owner.register_module("norm" + i, nn::batch_norm(c.hidden)));
        }
        edge_pool = owner.register_module("edge_pooling_nn", nn::ReluMlp(c.hidden, c.hidden, c.hidden, gen));
        node_pool = owner.register_module("node_pooling_nn", nn::ReluMlp(c.hidden, c.hidden, c.hidden, gen));
    }

    /// The pooled features of every graph of `b`, [B, h].
    torch::Tensor forward(const I2Batch& b) {
        torch::Tensor x;
        for (std::size_t l = 0; l < convs.size(); ++l) {
            const auto z = embeddings[l]->forward_sum(b.labels);  // [C, h], the label columns' rows summed
            x = l == 0 ? z : transforms[l]->forward(torch::cat({x, z}, 1));
            x = convs[l]->forward(x, b.arcs);
            // The next layer's cat hands back a column slice: contiguous, the BatchNorm's backward
            // is about ten times faster (within float rounding of the strided one).
            if (!norms.empty()) x = nn::contiguous_grad(norms[l]->forward(x));
        }
        const auto pooled = edge_pool->forward(nn::group_sum(x, b.by_mark));
        return nn::group_sum(node_pool->forward(nn::group_sum(pooled, b.marks_by_root)), b.by_graph);
    }

    std::vector<GatedConv> convs;
    std::vector<nn::Embedding> embeddings;
    std::vector<nn::Linear> transforms;
    std::vector<torch::nn::BatchNorm1d> norms;
    nn::ReluMlp edge_pool{nullptr}, node_pool{nullptr};
};

class I2Gnn : public GraphEmbedder {
public:
    I2Gnn(const ModelConfig& c, ModelRandom& random)
        : output_norm_(c.output_norm), radius_(i2_gnn_radius(c)), layers_(*this, c, kLabelRows, true, random.init) {
        fc1_ = register_module("fc1", nn::Linear(c.hidden, kHeadWidth, random.init));
        fc3_ = register_module("fc3", nn::Linear(kHeadWidth, c.out_dim, random.init));
        bn1_ = register_module("bn1", nn::batch_norm(kHeadWidth, false, 0.99));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const I2Batch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_i2_batch(batches_.graphs(), s, e, radius_, batches_.device());
        });
        auto out = torch::elu(fc1_->forward(layers_.forward(b)));
        if (output_norm_) out = bn1_->forward(out);
        return fc3_->forward(out);
    }

private:
    bool output_norm_ = true;
    std::uint32_t radius_ = 0;
    I2Layers layers_;
    nn::Linear fc1_{nullptr}, fc3_{nullptr};
    torch::nn::BatchNorm1d bn1_{nullptr};
    nn::RangeCache<I2Batch> batches_;
};

/// The counting I²-GNN of Campi et al. (2023), what Head::regression builds: the same subgraphs,
/// one label per copy (root 1, marked neighbour 2, others 0) through each layer's Embedding(100, w);
/// the same layers without normalisation and the same pooling; regression head fc1 Linear(w, 32) →
/// ELU → fc2 Linear(32, 16) → ELU → fc3 Linear(16, 1). w = hidden (the released model: 64).
class CountingI2Gnn : public GraphEmbedder {
public:
    static constexpr std::int64_t kLabels = 100;

    CountingI2Gnn(const ModelConfig& c, ModelRandom& random)
        : radius_(i2_gnn_radius(c)), layers_(*this, c, kLabels, false, random.init) {
        fc1_ = register_module("fc1", nn::Linear(c.hidden, 32, random.init));
        fc2_ = register_module("fc2", nn::Linear(32, 16, random.init));
        fc3_ = register_module("fc3", nn::Linear(16, 1, random.init));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const I2Batch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_i2_batch(batches_.graphs(), s, e, radius_, batches_.device(), I2Labels::marks);
        });
        return fc3_->forward(torch::elu(fc2_->forward(torch::elu(fc1_->forward(layers_.forward(b))))));
    }

    std::vector<std::string> regression_head() const override { return {"fc1", "fc2", "fc3"}; }

private:
    std::uint32_t radius_ = 0;
    I2Layers layers_;
    nn::Linear fc1_{nullptr}, fc2_{nullptr}, fc3_{nullptr};
    nn::RangeCache<I2Batch> batches_;
};

}  // namespace

std::uint32_t i2_gnn_radius(const ModelConfig& config) {
    const std::uint32_t r = ego_radius(config, "i2_gnn");
    if (r > static_cast<std::uint32_t>(kMaxRadius))
        throw InvalidArgument("i2_gnn: the subgraph radius (--radius " + std::to_string(r) + ") must be at most " +
                              std::to_string(kMaxRadius) + ": its distance labels must fit the Embedding(" +
                              std::to_string(kLabelRows) + ") of every layer");
    return r;
}

torch::Tensor i2_gnn_labels(const nn::SubgraphBatch& s, std::uint32_t radius) {
    if (s.marks == 0 && s.copies > 0)
        throw InvalidArgument("i2_gnn_labels: the subgraphs are not of the ego_net_per_neighbour policy");
    const auto& dv = s.copy_distance;
    const auto& du = s.copy_mark_distance;
    const std::int64_t offset = static_cast<std::int64_t>(radius) + 3;
    const auto unmarked = du < 0;
    const auto qv = second_column(dv, s.copy_arcs);
    const auto qu = second_column(du, s.copy_arcs);
    // The unmarked copy of a root without neighbours repeats the root's pair [1, 0].
    const auto c2 = torch::where(unmarked, dv + 1, du + 1 + offset);
    const auto c3 = torch::where(unmarked, qv, qu + offset);
    return torch::stack({dv + 1, qv, c2, c3}, 1).contiguous();
}

namespace {

/// The bytes of the prepared tensors of `graphs` graphs with the subgraph counts `c`.
std::uint64_t prepared_bytes(const nn::MarkedSubgraphCounts& c, std::size_t graphs) {
    const auto C = static_cast<std::uint64_t>(c.copies), A = static_cast<std::uint64_t>(c.arcs),
               M = static_cast<std::uint64_t>(c.marks), N = static_cast<std::uint64_t>(c.nodes),
               B = static_cast<std::uint64_t>(graphs);
    constexpr std::uint64_t kIndex = sizeof(std::int64_t), kFloat = sizeof(float);
    // A Grouping of R rows into G groups: index and members [R], ptr [G + 1], inverse_count [G].
    const auto grouping = [&](std::uint64_t rows, std::uint64_t groups) {
        return 2 * kIndex * rows + kIndex * (groups + 1) + kFloat * groups;
    };
    const std::uint64_t labels = 4 * kIndex * C;
    const std::uint64_t arcs = 3 * kIndex * A + kIndex * (C + 1);  // src, dst, col [A]; row_ptr [C + 1]
    return labels + arcs + grouping(C, M) + grouping(M, N) + grouping(N, B);
}

}  // namespace

std::uint64_t i2_gnn_estimate_bytes(const std::vector<Graph>& graphs, const ModelConfig& config) {
    return prepared_bytes(nn::count_marked_subgraphs(graphs, 0, graphs.size(), i2_gnn_radius(config)), graphs.size());
}

std::uint64_t i2_gnn_training_bytes(const std::vector<Graph>& graphs, const ModelConfig& config) {
    const nn::MarkedSubgraphCounts c = nn::count_marked_subgraphs(graphs, 0, graphs.size(), i2_gnn_radius(config));
    const auto h = static_cast<std::uint64_t>(std::max(config.hidden, 1));
    const auto layers = static_cast<std::uint64_t>(std::max(config.layers, 1));
    const auto C = static_cast<std::uint64_t>(c.copies), A = static_cast<std::uint64_t>(c.arcs),
               M = static_cast<std::uint64_t>(c.marks), N = static_cast<std::uint64_t>(c.nodes);
    constexpr std::uint64_t kFloat = sizeof(float);
    // Rows of h floats per copy-node and layer kept for the backward pass or alive at the peak: the
    // concatenation (2) and its Linear, the message product, the GRU cell's gate products and
    // gates, the BatchNorm's input and output; 11 rows matched LibTorch's measured peak within 10 %
    // (the test), plus one row per arc (the gathered messages) and a few per mark and node.
    constexpr std::uint64_t kRowsPerLayer = 11;
    const std::uint64_t activations = kFloat * h * (kRowsPerLayer * layers * C + A + 8 * (M + N));
    // Parameters with their gradients and Adam's two moments: 16 bytes each (about 60k at h = 32).
    const std::uint64_t per_layer = 4 * 50 * h + 2 * h * h + 6 * h * h + 6 * h + 4 * h;
    const std::uint64_t parameters = layers * per_layer + 4 * (h * h + h) + 16 * h + 16 * 16 + 16;
    return prepared_bytes(c, graphs.size()) + activations + 16 * parameters;
}

std::uint64_t i2_gnn_batch_bytes(const std::vector<Graph>& graphs, const ModelConfig& config) {
    const I2Batch b = make_i2_batch(graphs, 0, graphs.size(), i2_gnn_radius(config), torch::kCPU);
    std::vector<const void*> seen;
    std::uint64_t bytes = 0;
    const auto add = [&](const torch::Tensor& t) {
        if (!t.defined()) return;
        const void* storage = t.storage().data();
        if (std::find(seen.begin(), seen.end(), storage) != seen.end()) return;
        seen.push_back(storage);
        bytes += t.storage().nbytes();
    };
    add(b.labels);
    for (const auto* t : {&b.arcs.src, &b.arcs.dst, &b.arcs.row_ptr, &b.arcs.col}) add(*t);
    for (const auto* g : {&b.by_mark, &b.marks_by_root, &b.by_graph})
        for (const auto* t : {&g->index, &g->ptr, &g->members, &g->inverse_count}) add(*t);
    return bytes;
}

ModelEntry i2_gnn_model() {
    ModelSpec s;
    s.name = "i2_gnn";
    s.family = "I²-GNN: subgraph GNN with the root and one neighbour marked (h-hop ego-net per edge)";
    s.citation = "Huang et al., ICLR 2023";
    // Marking a root and a neighbour counts cycles up to length 6 and separates some strongly
    // regular graphs that 3-WL cannot (Huang et al. 2023; the BREC study's Regular column), so 3-WL
    // does not bound it; no WL level is proven to bound this exact architecture.
    s.bound = "";
    s.bound_note =
        "beyond 3-WL (counts 4- to 6-cycles, separates some strongly regular graphs); no WL bound known "
        "(Huang et al. 2023)";
    s.tight_bound = "i2:8";
    s.tight_note =
        "I2-WL: 1-WL on 8-hop ego-nets with the root and one neighbour marked, pooled per neighbour, then per root "
        "(Huang et al. 2023)";
    s.defaults = Hyper()
                     .with_radius(8)
                     .with_layers(5)
                     .with_hidden(32)
                     .with_lr(1e-5)
                     .with_weight_decay(1e-4)
                     .with_batch(16)
                     .with_epochs(20)
                     .with_loss_threshold(0.2);
    // All pairs but the 4-vertex-condition pairs (360-379) and the last 40 CFI pairs (320-359), whose
    // subgraphs outgrew the study's GPU memory.
    s.paper_subset = "0-319,380-399";
    s.paper = {60, 100, 100, 21};
    s.counting.regressor = true;
    s.counting.radius_is_pattern_diameter = true;  // Campi et al.'s setting
    s.counting.paper_triangle_l1 = 0.0069;
    return {s,
            [](const ModelConfig& c, ModelRandom& r) -> std::shared_ptr<GraphEmbedder> {
                if (c.head == Head::regression) return std::make_shared<CountingI2Gnn>(c, r);
                return std::make_shared<I2Gnn>(c, r);
            },
            i2_gnn_training_bytes};
}

}  // namespace brec::models
