// GIN, the MPNN baseline: bounded by 1-WL, so it separates no BREC pair.
//
// @inproceedings{xu2019powerful, title={How Powerful are Graph Neural Networks?},
//   author={Xu, Keyulu and Hu, Weihua and Leskovec, Jure and Jegelka, Stefanie}, booktitle={ICLR}, year={2019}}

#include <algorithm>

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

/// h' = MLP((1 + ε) h + Σ neighbours), MLP = Linear-BN-ReLU-Linear-ReLU, constant input feature;
/// readout = sum pooling of every layer (the input included), concatenated → Linear → d, then
/// BatchNorm1d (affine off, momentum 1) as PPGN's head. Weights Xavier-normal, biases zero.
class Gin : public GraphEmbedder {
public:
    Gin(const ModelConfig& c, ModelRandom& random) : output_norm_(c.output_norm) {
        int last = 1;
        for (int i = 0; i < c.layers; ++i) {
            const std::string k = std::to_string(i);
            first_.push_back(
                register_module("mlp" + k + "_0", nn::Linear(last, c.hidden, random.init, nn::Init::xavier_normal)));
            norms_.push_back(register_module("mlp" + k + "_bn", nn::batch_norm(c.hidden)));
            second_.push_back(register_module("mlp" + k + "_1",
                                              nn::Linear(c.hidden, c.hidden, random.init, nn::Init::xavier_normal)));
            eps_.push_back(register_parameter("eps" + k, torch::zeros({1})));
            last = c.hidden;
        }
        head_ = register_module("head",
                                nn::Linear(1 + c.layers * c.hidden, c.out_dim, random.init, nn::Init::xavier_normal));
        out_norm_ = register_module("bn_out", nn::batch_norm(c.out_dim, /*affine=*/false, /*momentum=*/1.0));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const nn::SparseBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return nn::make_sparse_batch(batches_.graphs(), s, e, batches_.device());
        });
        auto h = torch::ones({b.nodes, 1}, torch::TensorOptions().device(batches_.device()));
        std::vector<torch::Tensor> pooled{nn::scatter_sum(h, b.graph_of, b.graphs)};
        for (std::size_t l = 0; l < first_.size(); ++l) {
            const auto agg = nn::scatter_sum(h.index_select(0, b.src), b.dst, b.nodes);
            auto x = torch::relu(norms_[l]->forward(first_[l]->forward((1 + eps_[l]) * h + agg)));
            h = torch::relu(second_[l]->forward(x));
            pooled.push_back(nn::scatter_sum(h, b.graph_of, b.graphs));
        }
        const auto out = head_->forward(torch::cat(pooled, 1));
        return output_norm_ ? out_norm_->forward(out) : out;
    }

private:
    bool output_norm_ = true;
    std::vector<nn::Linear> first_, second_;
    std::vector<torch::nn::BatchNorm1d> norms_;
    std::vector<torch::Tensor> eps_;
    nn::Linear head_{nullptr};
    torch::nn::BatchNorm1d out_norm_{nullptr};
    nn::RangeCache<nn::SparseBatch> batches_;
};

/// The counting GIN of Campi et al. (2023), what Head::regression builds: L GIN layers
/// h' = MLP((1 + ε) h + Σ neighbours), ε trainable from 0, MLP = Linear(in, 2w) → ReLU → Linear(2w, w_l)
/// → ReLU with w = hidden and w_l = hidden for every layer but the last, out = max(1, hidden / 2)
/// for the last; no normalisation; constant input feature; the layers' outputs (not the input)
/// concatenated and sum pooled; regression head final_mlp = Linear(w (L − 1) + out, out) → ReLU →
/// Linear(out, 1). PyTorch's default initialisation throughout.
class CountingGin : public GraphEmbedder {
public:
    CountingGin(const ModelConfig& c, ModelRandom& random) {
        if (c.layers < 2) throw InvalidArgument("gin regressor: needs at least 2 layers (a first and a last)");
        const int out = std::max(1, c.hidden / 2);
        int last = 1, concatenated = 0;
        for (int i = 0; i < c.layers; ++i) {
            const std::string k = std::to_string(i);
            const int width = i + 1 == c.layers ? out : c.hidden;
            first_.push_back(register_module("conv" + k + "_0", nn::Linear(last, 2 * c.hidden, random.init)));
            second_.push_back(register_module("conv" + k + "_1", nn::Linear(2 * c.hidden, width, random.init)));
            eps_.push_back(register_parameter("eps" + k, torch::zeros({1})));
            last = width;
            concatenated += width;
        }
        final_mlp_ = register_module("final_mlp", nn::ReluMlp(concatenated, out, 1, random.init));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const nn::SparseBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return nn::make_sparse_batch(batches_.graphs(), s, e, batches_.device());
        });
        auto h = torch::ones({b.nodes, 1}, torch::TensorOptions().device(batches_.device()));
        std::vector<torch::Tensor> layers;
        for (std::size_t l = 0; l < first_.size(); ++l) {
            const auto agg = nn::scatter_sum(h.index_select(0, b.src), b.dst, b.nodes);
            h = torch::relu(second_[l]->forward(torch::relu(first_[l]->forward((1 + eps_[l]) * h + agg))));
            layers.push_back(h);
        }
        const auto pooled = nn::scatter_sum(torch::cat(layers, 1), b.graph_of, b.graphs);
        return final_mlp_->forward(pooled);
    }

    std::vector<std::string> regression_head() const override { return {"final_mlp"}; }

private:
    std::vector<nn::Linear> first_, second_;
    std::vector<torch::Tensor> eps_;
    nn::ReluMlp final_mlp_{nullptr};
    nn::RangeCache<nn::SparseBatch> batches_;
};

}  // namespace

ModelEntry gin_model() {
    ModelSpec s;
    s.name = "gin";
    s.family = "MPNN baseline: graph isomorphism network, sum aggregation";
    s.citation = "Xu et al., ICLR 2019";
    s.bound = "1wl";
    s.bound_note = "<= 1-WL (every BREC pair is 1-WL-equivalent)";
    s.tight_bound = "1wl";
    s.tight_note = "1-WL: message passing with injective sum aggregation (Xu et al. 2019)";
    s.defaults = Hyper()
                     .with_radius(0)
                     .with_layers(4)
                     .with_hidden(32)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-4)
                     .with_batch(32)
                     .with_epochs(20)
                     .with_loss_threshold(0.2);
    s.counting.regressor = true;
    s.counting.paper_triangle_l1 = 2.6;
    return {s, [](const ModelConfig& c, ModelRandom& r) -> std::shared_ptr<GraphEmbedder> {
                if (c.head == Head::regression) return std::make_shared<CountingGin>(c, r);
                return std::make_shared<Gin>(c, r);
            }};
}

}  // namespace brec::models
