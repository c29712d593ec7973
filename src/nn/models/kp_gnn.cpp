// KP-GNN: K-hop message passing over shortest-path hops, with the peripheral subgraph of every
// vertex and hop (the vertices at distance exactly k) summarised and added to the messages.
//
// As the BREC study runs it (KP-GNN/test_BREC_search.py: KPGIN, --kernel spd, --K 8,
// --wo_path_encoding, 8 layers, hidden 32, JK last, no residual, no virtual node, dropout 0):
//   * input: the same learned row (Embedding(2, h) of the constant 1) on every vertex;
//   * each layer splits h into K hop channels of h/K values. Channel k of v receives Σ (x_u[k] +
//     e_k) over the u at distance k + 1 (e_1 one learned row, e_k for k >= 2 one shared learned
//     row: with path encoding off every hop-k edge has the same type), plus the peripheral term,
//     plus x_v[k] (GIN's (1 + ε) x with ε = 0 fixed); then per channel an MLP h/K → h/K → h/K with
//     ReLU after each Linear (weights [K, h/K, h/K], kaiming-uniform as torch.nn.init draws them for
//     3-D tensors); the channels are combined with softmax-normalised geometric weights
//     α(1 − α)^k, α = sigmoid of a learned per-value parameter (zero at start); then Linear(h/K, h)
//     and BatchNorm (affine off, momentum 1), no activation;
//   * peripheral term, the same in every layer, per vertex and hop: sigmoid(w_e) · Linear(2h/K →
//     h/K)([Emb(type), Emb(count)] of the peripheral subgraph's directed edge count; the type is
//     always 0 for unlabelled edges) + sigmoid(w_c) · Linear(5h/K → h/K)(five embeddings of the
//     configuration counts; see khop.hpp). The embeddings (1001 rows per count) have no padding
//     row (the released encoder's padding flag is 0, which disables it), w_e, w_c ~ N(0, 1);
//   * readout: Linear(h, h), ReLU, sum over each graph's vertices, Linear(h, d), BatchNorm1d(d,
//     affine off, momentum 1).
// The released layer also holds a hop-k "path" embedding of one padding row, always zero with path
// encoding off; it is omitted here (it has no effect and no gradient).
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), KP-GNN/test_BREC.py, KP-GNN/test_BREC_search.py,
// KP-GNN/models/GNNs.py, KP-GNN/layers/KPGIN.py and KP-GNN/layers/feature_encoder.py.
//
// @inproceedings{feng2022kpgnn, title={How Powerful are K-hop Message Passing Graph Neural
//   Networks}, author={Feng, Jiarui and Chen, Yixin and Li, Fuhai and Sarkar, Anindya and Zhang,
//   Muhan}, booktitle={NeurIPS}, year={2022}}

#include <cmath>

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/graph/khop.hpp"
#include "brec/nn/layers.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

constexpr std::int64_t kConfigWidth = kPeripheralHops + 1;
constexpr std::int64_t kCountRows = kPeripheralCountCap + 1;

/// The K-hop views of a range of graphs as one batch: rows v·K + k are (vertex, hop channel).
struct KHopBatch {
    nn::Adjacency arcs;           ///< over the N·K rows: (u, k) → (v, k) for u at distance k + 1 of v
    torch::Tensor arcs_per_row;   ///< [N·K, 1] float: arcs into each row (how often e_k is added)
    torch::Tensor edge_count;     ///< [N·K] int64
    torch::Tensor configuration;  ///< [N·K, 5] int64
    nn::Grouping by_graph;        ///< vertices to graphs
    std::int64_t nodes = 0;
};

KHopBatch make_khop_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end, std::int32_t hops,
                          torch::Device device) {
    std::vector<std::int64_t> src, dst, edges, config, graph_of;
    std::int64_t offset = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const KHopGraph k = khop_graph(graphs[i], hops);
        for (std::size_t a = 0; a < k.src.size(); ++a) {
            src.push_back((offset + k.src[a]) * hops + k.hop[a]);
            dst.push_back((offset + k.dst[a]) * hops + k.hop[a]);
        }
        edges.insert(edges.end(), k.peripheral_edges.begin(), k.peripheral_edges.end());
        config.insert(config.end(), k.configuration.begin(), k.configuration.end());
        graph_of.insert(graph_of.end(), static_cast<std::size_t>(k.n), static_cast<std::int64_t>(i - begin));
        offset += k.n;
    }
    const auto cpu = torch::TensorOptions().dtype(torch::kInt64);
    const auto vec = [&](std::vector<std::int64_t>& v) {
        return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, cpu).clone();
    };
    KHopBatch b;
    b.nodes = offset;
    const std::int64_t rows = offset * hops;
    const auto dst_t = vec(dst);
    b.arcs = nn::make_adjacency(vec(src).to(device), dst_t.to(device), rows);
    b.arcs_per_row = torch::bincount(dst_t, {}, rows).to(torch::kFloat).unsqueeze(1).to(device);
    b.edge_count = vec(edges).to(device);
    b.configuration = vec(config).view({rows, kConfigWidth}).to(device);
    b.by_graph = nn::make_grouping(vec(graph_of).to(device), static_cast<std::int64_t>(end - begin));
    return b;
}

/// One KP-GIN layer (see the file comment).
struct KpLayerImpl : torch::nn::Module {
    KpLayerImpl(std::int64_t hops, std::int64_t width, torch::Generator& gen) : hops(hops), dk(width / hops) {
        // torch.nn.init on a [K, in, out] tensor: fan_in = in · out; kaiming_uniform (gain √2)
        // bound √2 · √(3 / fan_in), biases U(±1 / √fan_in).
        const double fan = static_cast<double>(dk * dk);
        w1 = register_parameter("hop_proj1", torch::empty({hops, dk, dk}));
        w2 = register_parameter("hop_proj2", torch::empty({hops, dk, dk}));
        b1 = register_parameter("hop_bias1", torch::empty({hops, dk}));
        b2 = register_parameter("hop_bias2", torch::empty({hops, dk}));
        hop1_edge = register_module("hop1_edge_emb", nn::Embedding(3, dk, gen));
        // With one hop the released layer has no hop-k edges and no combination: its MLP output,
        // already of width h, is the layer's output.
        if (hops > 1) {
            hopk_edge = register_module("hopk_edge_emb", nn::Embedding(3, dk, gen));
            alphas = register_parameter("combine_alphas", torch::zeros({dk}));
            proj = register_module("combine_proj", nn::Linear(dk, width, gen));
        }
        nn::uniform_init(w1, std::sqrt(6.0 / fan), gen);
        nn::uniform_init(w2, std::sqrt(6.0 / fan), gen);
        nn::uniform_init(b1, 1.0 / std::sqrt(fan), gen);
        nn::uniform_init(b2, 1.0 / std::sqrt(fan), gen);
        torch::NoGradGuard no_grad;
        hop1_edge->weight[0].zero_();  // padding rows, never indexed (index 2 marks an edge)
        if (hops > 1) hopk_edge->weight[0].zero_();
    }

    /// x [N, h] → [N, h]; peripheral [N·K, h/K].
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& peripheral, const KHopBatch& b) {
        const std::int64_t n = x.size(0);
        const auto rows = x.reshape({n * hops, dk});
        // e_1 for channel 0, the shared hop-k row for the others, once per arriving arc.
        const auto edge_rows =
            hops == 1 ? hop1_edge->weight[2].unsqueeze(0)
                      : torch::cat({hop1_edge->weight[2].unsqueeze(0), hopk_edge->weight[2].expand({hops - 1, dk})});
        auto h = nn::neighbour_sum(rows, b.arcs) + b.arcs_per_row * edge_rows.repeat({n, 1}) + peripheral + rows;
        h = h.view({n, hops, dk}).permute({1, 0, 2});  // [K, N, dk]
        h = torch::relu(torch::bmm(h, w1) + b1.unsqueeze(1));
        h = torch::relu(torch::bmm(h, w2) + b2.unsqueeze(1));
        if (hops == 1) return h.squeeze(0);
        const auto alpha = torch::sigmoid(alphas);
        const auto k = torch::arange(hops, alphas.options()).unsqueeze(1);       // [K, 1]
        const auto theta = torch::softmax(alpha * torch::pow(1 - alpha, k), 0);  // [K, dk]
        return proj->forward((h * theta.unsqueeze(1)).sum(0));
    }

    std::int64_t hops, dk;
    torch::Tensor w1, w2, b1, b2, alphas;
    nn::Embedding hop1_edge{nullptr}, hopk_edge{nullptr};
    nn::Linear proj{nullptr};
};
TORCH_MODULE(KpLayer);

class KpGnn : public GraphEmbedder {
public:
    KpGnn(const ModelConfig& c, ModelRandom& random) : output_norm_(c.output_norm), hops_(c.radius) {
        if (c.radius < 1) throw InvalidArgument("kp_gnn: the hop count K (--radius) must be >= 1");
        if (c.hidden % c.radius != 0)
            throw InvalidArgument("kp_gnn: the hidden width (" + std::to_string(c.hidden) +
                                  ") must be a multiple of the hop count K (" + std::to_string(c.radius) + ")");
        const std::int64_t dk = c.hidden / c.radius;
        auto& gen = random.init;
        input_ = register_module("init_emb", nn::Embedding(2, c.hidden, gen));
        edge_type_ = register_module("peripheral_edge_type", nn::Embedding(3, dk, gen));
        edge_count_ = register_module("peripheral_edge_count", nn::Embedding(kCountRows, dk, gen));
        edge_proj_ = register_module("peripheral_edge_proj", nn::Linear(2 * dk, dk, gen));
        for (std::int64_t i = 0; i < kConfigWidth; ++i)
            config_.push_back(
                register_module("peripheral_configuration" + std::to_string(i), nn::Embedding(kCountRows, dk, gen)));
        config_proj_ = register_module("peripheral_configuration_proj", nn::Linear(kConfigWidth * dk, dk, gen));
        edge_weight_ = register_parameter("pew", torch::empty({1}));
        config_weight_ = register_parameter("pcw", torch::empty({1}));
        nn::normal_init(edge_weight_, 1.0, gen);
        nn::normal_init(config_weight_, 1.0, gen);
        for (int l = 0; l < c.layers; ++l) {
            layers_.push_back(register_module("conv" + std::to_string(l), KpLayer(hops_, c.hidden, gen)));
            norms_.push_back(register_module("norm" + std::to_string(l), nn::batch_norm(c.hidden, false, 1.0)));
        }
        output_proj_ = register_module("output_proj", nn::Linear(c.hidden, c.hidden, gen));
        classifier_ = register_module("classifier", nn::Linear(c.hidden, c.out_dim, gen));
        out_norm_ = register_module("bn_out", nn::batch_norm(c.out_dim, false, 1.0));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const KHopBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_khop_batch(batches_.graphs(), s, e, hops_, batches_.device());
        });
        // Peripheral edges: type 0 (the only type) and the count.
        const auto type = edge_type_->weight[0].expand({b.edge_count.size(0), -1});
        const auto edge_term = edge_proj_->forward(torch::cat({type, edge_count_->forward(b.edge_count)}, 1));
        std::vector<torch::Tensor> columns;
        for (std::int64_t i = 0; i < kConfigWidth; ++i)
            columns.push_back(config_[i]->forward(b.configuration.select(1, i)));
        const auto config_term = config_proj_->forward(torch::cat(columns, 1));
        const auto peripheral = torch::sigmoid(edge_weight_) * edge_term + torch::sigmoid(config_weight_) * config_term;

        auto x = input_->weight[1].expand({b.nodes, -1});
        for (std::size_t l = 0; l < layers_.size(); ++l) x = norms_[l]->forward(layers_[l]->forward(x, peripheral, b));
        const auto pooled = nn::group_sum(torch::relu(output_proj_->forward(x)), b.by_graph);
        const auto out = classifier_->forward(pooled);
        return output_norm_ ? out_norm_->forward(out) : out;
    }

private:
    bool output_norm_ = true;
    std::int32_t hops_ = 1;
    nn::Embedding input_{nullptr}, edge_type_{nullptr}, edge_count_{nullptr};
    std::vector<nn::Embedding> config_;
    nn::Linear edge_proj_{nullptr}, config_proj_{nullptr}, output_proj_{nullptr}, classifier_{nullptr};
    torch::Tensor edge_weight_, config_weight_;
    std::vector<KpLayer> layers_;
    std::vector<torch::nn::BatchNorm1d> norms_;
    torch::nn::BatchNorm1d out_norm_{nullptr};
    nn::RangeCache<KHopBatch> batches_;
};

}  // namespace

ModelEntry kp_gnn_model() {
    ModelSpec s;
    s.name = "kp_gnn";
    s.family = "KP-GNN: K-hop message passing over shortest-path hops with peripheral subgraph counts";
    s.citation = "Feng et al., NeurIPS 2022";
    // K-hop message passing alone is bounded by 3-WL; the peripheral subgraphs take KP-GNN past it
    // on some strongly regular graphs (Feng et al. 2022), and no WL level is known to bound it.
    s.bound = "";
    s.bound_note = "beyond 3-WL on some strongly regular graphs; no WL bound known (Feng et al. 2022)";
    s.tight_bound = "kp:8";
    s.tight_note =
        "KP-WL with K = 8: message passing per shortest-path hop plus the peripheral counts (defined from the model; "
        "Feng et al. 2022 name no test)";
    s.defaults = Hyper()
                     .with_radius(8)
                     .with_layers(8)
                     .with_hidden(32)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-4)
                     .with_batch(32)
                     .with_epochs(20)
                     .with_loss_threshold(0.3);
    s.paper = {60, 106, 98, 11};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<KpGnn>(c, r); }};
}

}  // namespace brec::models
