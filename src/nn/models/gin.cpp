// GIN, the MPNN baseline: bounded by 1-WL, so it separates no BREC pair.
//
// @inproceedings{xu2019powerful, title={How Powerful are Graph Neural Networks?},
//   author={Xu, Keyulu and Hu, Weihua and Leskovec, Jure and Jegelka, Stefanie}, booktitle={ICLR}, year={2019}}

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

}  // namespace

ModelEntry gin_model() {
    ModelSpec s;
    s.name = "gin";
    s.family = "MPNN baseline: graph isomorphism network, sum aggregation";
    s.citation = "Xu et al., ICLR 2019";
    s.bound = "1wl";
    s.bound_note = "<= 1-WL (every BREC pair is 1-WL-equivalent)";
    s.defaults = {0, 4, 32, 1e-4, 1e-4, 32, 20, 0.2};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<Gin>(c, r); }};
}

}  // namespace brec::models
