// Nested GNN (NGNN): every node roots the subgraph induced by its r-hop ball; a GIN runs inside
// every subgraph, each subgraph is sum-pooled, and the subgraphs of a graph are summed. Also the
// network of DE+NGNN (de_ngnn.cpp), which adds the distance to the root as input.
//
// As the BREC study runs it (NestedGNN/test_BREC.py with node_label "no"): input a constant 1 on
// every copy; L GINConv layers with ε = 0 fixed, each MLP Linear-ReLU-Linear-ReLU (no BatchNorm
// between layers); sum over each subgraph, then over the subgraphs of a graph; Linear(h, h), ReLU,
// Linear(h, d), BatchNorm1d(d, affine off, momentum 1). The released model also defines an unused
// BatchNorm1d(h) without parameters, omitted here. Parameters as PyTorch's defaults, from the
// model's generator.
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), NestedGNN/test_BREC.py (NestedGIN).
//
// @inproceedings{zhang2021nested, title={Nested Graph Neural Networks}, author={Zhang, Muhan and
//   Li, Pan}, booktitle={NeurIPS}, year={2021}}

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"
#include "brec/nn/subgraphs.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/shared.hpp"

namespace brec::models {
namespace {

/// The subgraphs of a range and the input features of their copies, built once per range.
struct NestedBatch {
    nn::SubgraphBatch sub;
    torch::Tensor input;  ///< [C, 1] ones, or [C, r + 1] one-hot distance to the root
};

class NestedGin : public GraphEmbedder {
public:
    NestedGin(const ModelConfig& c, ModelRandom& random, bool distance_input)
        : output_norm_(c.output_norm), distance_input_(distance_input) {
        if (c.radius < 0) throw InvalidArgument("ngnn: the subgraph radius must be >= 0");
        radius_ = static_cast<std::uint32_t>(c.radius);
        const std::int64_t in = distance_input ? c.radius + 1 : 1;
        for (int i = 0; i < c.layers; ++i) {
            const std::string k = std::to_string(i);
            first_.push_back(
                register_module("conv" + k + "_0", nn::Linear(i == 0 ? in : c.hidden, c.hidden, random.init)));
            second_.push_back(register_module("conv" + k + "_1", nn::Linear(c.hidden, c.hidden, random.init)));
        }
        lin1_ = register_module("lin1", nn::Linear(c.hidden, c.hidden, random.init));
        lin2_ = register_module("lin2", nn::Linear(c.hidden, c.out_dim, random.init));
        out_norm_ = register_module("bn_out", nn::batch_norm(c.out_dim, /*affine=*/false, /*momentum=*/1.0));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const NestedBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            NestedBatch nb{nn::make_subgraph_batch(batches_.graphs(), s, e, nn::SubgraphPolicy::ego_net, radius_,
                                                   batches_.device()),
                           {}};
            const auto options = torch::TensorOptions().device(batches_.device());
            nb.input =
                distance_input_
                    ? torch::one_hot(nb.sub.copy_distance, static_cast<std::int64_t>(radius_) + 1).to(torch::kFloat)
                    : torch::ones({nb.sub.copies, 1}, options);
            return nb;
        });
        auto h = b.input;
        for (std::size_t l = 0; l < first_.size(); ++l) {
            const auto agg = h + nn::neighbour_sum(h, b.sub.copy_arcs);
            h = torch::relu(second_[l]->forward(torch::relu(first_[l]->forward(agg))));
        }
        const auto per_graph = nn::group_sum(nn::group_sum(h, b.sub.by_subgraph), b.sub.by_graph);
        const auto out = lin2_->forward(torch::relu(lin1_->forward(per_graph)));
        return output_norm_ ? out_norm_->forward(out) : out;
    }

private:
    bool output_norm_ = true;
    bool distance_input_ = false;
    std::uint32_t radius_ = 1;
    std::vector<nn::Linear> first_, second_;
    nn::Linear lin1_{nullptr}, lin2_{nullptr};
    torch::nn::BatchNorm1d out_norm_{nullptr};
    nn::RangeCache<NestedBatch> batches_;
};

}  // namespace

std::shared_ptr<GraphEmbedder> make_nested_gin(const ModelConfig& config, ModelRandom& random, bool distance_input) {
    return std::make_shared<NestedGin>(config, random, distance_input);
}

ModelEntry ngnn_model() {
    ModelSpec s;
    s.name = "ngnn";
    s.family = "nested GNN: GIN inside every node's r-hop induced subgraph, sum of subgraph sums";
    s.citation = "Zhang & Li, NeurIPS 2021";
    s.bound = kNodeSubgraphBound;
    s.bound_note = kNodeSubgraphBoundNote;
    s.tight_bound = "ngnn:1";
    s.tight_note = "NGNN-WL: 1-WL inside every 1-hop induced ball, pooled per root (Zhang & Li 2021)";
    // The BREC script leaves EPOCH at its argparse default, 30.
    s.defaults = Hyper()
                     .with_radius(1)
                     .with_layers(6)
                     .with_hidden(16)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-5)
                     .with_batch(32)
                     .with_epochs(30)
                     .with_loss_threshold(0.01);
    s.paper = {59, 48, 59, 0};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return make_nested_gin(c, r, false); }};
}

}  // namespace brec::models
