// δ-2-LGNN: a GNN over the ordered vertex pairs of a graph, passing messages along the local
// 2-tuple neighbourhoods of δ-2-LWL (Morris et al. 2020), without the "+" variant's extra
// global/local bookkeeping.
//
// As the BREC study runs it (SparseWL/neural_higher_order/BREC/test_BREC.py, NetGIN with dim 16,
// preprocessing.cpp's generate_local_sparse_am and get_node_labels without labels):
//   * nodes: all n² ordered pairs (v, w); input the one-hot [3] of the pair's isomorphism type,
//     numbered as the preprocessing numbers it (see TupleType);
//   * local neighbours: E1 joins (v, w) and (v', w) for every edge v–v', E2 joins (v, w) and
//     (v, w') for every edge w–w' (n · 2m arcs each);
//   * 6 layers: x1 = GIN_1(x) over E1 and x2 = GIN_2(x) over E2, each GIN with a trainable ε
//     (0 at start) and the MLP Linear-BN-ReLU-Linear-BN-ReLU, so the script's extra ReLU after each
//     GIN changes nothing and is left out; then x = MLP([x1, x2]), Linear(2h, h)-BN-ReLU-Linear-BN-
//     ReLU. BatchNorms with PyTorch's defaults, Linears with PyTorch's default initialisation;
//   * readout: Set2Set(h, 6 processing steps) over each graph's tuples, as PyTorch Geometric
//     computes it: an LSTM(2h → h) whose hidden state is the query, attention by a per-graph
//     softmax of ⟨x, q⟩, the weighted sum r, and q* = [q, r] fed back (starting from zeros); then
//     Linear(2h, h), ReLU, Linear(h, d). There is no output normalisation, so
//     ModelConfig::output_norm has no effect.
//
// On the CPU each GIN with its trainable ε is one fused kernel (nn/fused_gin.hpp; the first layer's
// 3 input columns padded with zeros to 16): the n² tuples make [n², 16] activations; so is every
// layer's combining MLP (32 in, 16 out: the same kernel without the GIN's sum), and Set2Set's
// attention readout over them (nn/softmax_readout.hpp). ModelConfig::kernel "torch" (as the cost
// estimate counts operators) keeps LibTorch's modules and operators.
//
// @inproceedings{morris2020sparse, title={Weisfeiler and Leman go sparse: Towards scalable
//   higher-order graph embeddings}, author={Morris, Christopher and Rattan, Gaurav and Mutzel,
//   Petra}, booktitle={NeurIPS}, year={2020}}

#include <cmath>

#include "brec/nn/batch.hpp"
#include "brec/nn/fused_gin.hpp"
#include "brec/nn/layers.hpp"
#include "brec/nn/softmax_readout.hpp"
#include "brec/nn/vertex_pairs.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/shared.hpp"

namespace brec::models {
namespace {

constexpr std::int64_t kTupleTypes = 3;
constexpr int kSet2SetSteps = 6;

/// The 2-tuple graphs of a range of graphs as one disjoint union.
struct TupleBatch {
    torch::Tensor input;    ///< [N, 3] float, one-hot tuple type
    nn::Adjacency first;    ///< E1 over the N tuples
    nn::Adjacency second;   ///< E2
    nn::Grouping by_graph;  ///< tuples to graphs
};

TupleBatch make_tuple_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                            torch::Device device) {
    std::vector<std::int64_t> type, src1, dst1, src2, dst2, graph_of;
    std::int64_t offset = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const nn::TupleGraph t = nn::tuple_graph(graphs[i]);
        type.insert(type.end(), t.type.begin(), t.type.end());
        for (std::size_t a = 0; a < t.first_src.size(); ++a) {
            src1.push_back(offset + t.first_src[a]);
            dst1.push_back(offset + t.first_dst[a]);
        }
        for (std::size_t a = 0; a < t.second_src.size(); ++a) {
            src2.push_back(offset + t.second_src[a]);
            dst2.push_back(offset + t.second_dst[a]);
        }
        graph_of.insert(graph_of.end(), t.type.size(), static_cast<std::int64_t>(i - begin));
        offset += static_cast<std::int64_t>(t.type.size());
    }
    const auto cpu = torch::TensorOptions().dtype(torch::kInt64);
    const auto vec = [&](std::vector<std::int64_t>& v) {
        return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, cpu).clone().to(device);
    };
    TupleBatch b;
    b.input = torch::one_hot(vec(type), kTupleTypes).to(torch::kFloat);
    b.first = nn::make_adjacency(vec(src1), vec(dst1), offset);
    b.second = nn::make_adjacency(vec(src2), vec(dst2), offset);
    b.by_graph = nn::make_grouping(vec(graph_of), static_cast<std::int64_t>(end - begin));
    return b;
}

/// Linear-BN-ReLU-Linear-BN-ReLU, the MLP of every GIN and of every layer's combination.
struct DoubleBnMlpImpl : torch::nn::Module {
    DoubleBnMlpImpl(std::int64_t in, std::int64_t width, torch::Generator& gen) {
        first = register_module("first", nn::Linear(in, width, gen));
        norm1 = register_module("norm1", nn::batch_norm(width));
        second = register_module("second", nn::Linear(width, width, gen));
        norm2 = register_module("norm2", nn::batch_norm(width));
    }
    /// The MLP on [a, b] (the two GINs' outputs side by side): with `fused`, one kernel on the CPU
    /// where the widths allow, which does not make the concatenation (nn::bn_mlp_layer); else
    /// torch::cat and the modules in this order.
    torch::Tensor forward(const torch::Tensor& a, const torch::Tensor& b, bool fused) {
        return nn::bn_mlp_layer(a, b, modules(), fused);
    }
    nn::GinBnModules modules() { return {first, norm1, second, norm2}; }
    nn::Linear first{nullptr}, second{nullptr};
    torch::nn::BatchNorm1d norm1{nullptr}, norm2{nullptr};
};
TORCH_MODULE(DoubleBnMlp);

/// GIN with a trainable ε: MLP((1 + ε) x + Σ over the local neighbours); with `fused`, one kernel
/// on the CPU where the widths allow (nn::gin_bn_layer), else LibTorch's modules.
struct TupleGinImpl : torch::nn::Module {
    TupleGinImpl(std::int64_t in, std::int64_t width, torch::Generator& gen, bool fused) : fused(fused) {
        mlp = register_module("mlp", DoubleBnMlp(in, width, gen));
        eps = register_parameter("eps", torch::zeros({1}));
    }
    torch::Tensor forward(const torch::Tensor& x, const nn::Adjacency& adj) {
        return nn::gin_bn_layer(x, adj, mlp->modules(), fused, {}, eps, /*pad_input=*/true);
    }
    DoubleBnMlp mlp{nullptr};
    torch::Tensor eps;
    bool fused;
};
TORCH_MODULE(TupleGin);

/// PyTorch Geometric's Set2Set: `steps` rounds of an LSTM query and a softmax attention readout.
struct Set2SetImpl : torch::nn::Module {
    Set2SetImpl(std::int64_t width, int steps, torch::Generator& gen, bool fused)
        : width(width), steps(steps), fused(fused) {
        // torch.nn.LSTM(2h, h): every weight and bias ~ U(±1/√h), gates ordered (i, f, g, o).
        w_ih = register_parameter("weight_ih", torch::empty({4 * width, 2 * width}));
        w_hh = register_parameter("weight_hh", torch::empty({4 * width, width}));
        b_ih = register_parameter("bias_ih", torch::empty({4 * width}));
        b_hh = register_parameter("bias_hh", torch::empty({4 * width}));
        const double bound = 1.0 / std::sqrt(static_cast<double>(width));
        for (auto* p : {&w_ih, &w_hh, &b_ih, &b_hh}) nn::uniform_init(*p, bound, gen);
    }

    /// x [N, h], grouped into graphs → [graphs, 2h].
    torch::Tensor forward(const torch::Tensor& x, const nn::Grouping& g) {
        auto hx = torch::zeros({g.groups, width}, x.options());
        auto cx = torch::zeros({g.groups, width}, x.options());
        auto q_star = torch::zeros({g.groups, 2 * width}, x.options());
        for (int s = 0; s < steps; ++s) {
            std::tie(hx, cx) = torch::lstm_cell(q_star, {hx, cx}, w_ih, w_hh, b_ih, b_hh);
            q_star = torch::cat({hx, nn::softmax_readout(x, hx, g, fused)}, 1);
        }
        return q_star;
    }

    std::int64_t width;
    int steps;
    bool fused;  ///< the attention readout as one CPU kernel (nn/softmax_readout.hpp)
    torch::Tensor w_ih, w_hh, b_ih, b_hh;
};
TORCH_MODULE(Set2Set);

class Lgnn2 : public GraphEmbedder {
public:
    Lgnn2(const ModelConfig& c, ModelRandom& random) : fused_(c.kernel != "torch") {
        auto& gen = random.init;
        std::int64_t in = kTupleTypes;
        for (int l = 0; l < c.layers; ++l) {
            const std::string k = std::to_string(l);
            first_.push_back(register_module("conv" + k + "_1", TupleGin(in, c.hidden, gen, fused_)));
            second_.push_back(register_module("conv" + k + "_2", TupleGin(in, c.hidden, gen, fused_)));
            combine_.push_back(register_module("mlp" + k, DoubleBnMlp(2 * c.hidden, c.hidden, gen)));
            in = c.hidden;
        }
        set2set_ = register_module("set2set", Set2Set(c.hidden, kSet2SetSteps, gen, fused_));
        fc1_ = register_module("fc1", nn::Linear(2 * c.hidden, c.hidden, gen));
        fc4_ = register_module("fc4", nn::Linear(c.hidden, c.out_dim, gen));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const TupleBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_tuple_batch(batches_.graphs(), s, e, batches_.device());
        });
        auto x = b.input;
        for (std::size_t l = 0; l < first_.size(); ++l) {
            // In this order: autograd sums x's two gradients in the order their operators were made.
            const auto x1 = first_[l]->forward(x, b.first);
            const auto x2 = second_[l]->forward(x, b.second);
            x = combine_[l]->forward(x1, x2, fused_);
        }
        return fc4_->forward(torch::relu(fc1_->forward(set2set_->forward(x, b.by_graph))));
    }

private:
    std::vector<TupleGin> first_, second_;
    std::vector<DoubleBnMlp> combine_;
    bool fused_;
    Set2Set set2set_{nullptr};
    nn::Linear fc1_{nullptr}, fc4_{nullptr};
    nn::RangeCache<TupleBatch> batches_;
};

}  // namespace

ModelEntry lgnn2_model() {
    ModelSpec s;
    s.name = "lgnn2";
    s.family = "delta-2-LGNN: GIN over ordered vertex pairs with local 2-tuple neighbourhoods (delta-2-LWL)";
    s.citation = "Morris et al., NeurIPS 2020";
    // Each δ-2-LWL update of (v, w) reads the multisets {c(v', w) : v'–v} and {c(v, w') : w'–w};
    // both are parts of the 2-FWL update's multiset {(c(u, w), c(v, u)) : u}, picked out by the edge
    // type the colours c(v, u) and c(u, w) carry. So 2-FWL (= 3-WL) refines δ-2-LWL: an upper bound.
    s.bound = "2fwl";
    s.bound_note = "<= 3-WL (2-FWL): delta-2-LWL without +, whose local updates 2-FWL refines (Morris et al. 2020)";
    s.tight_bound = "d2lwl";
    s.tight_note =
        "delta-2-LWL: local neighbours only, as the model has no +; the study names delta-2-LWL+ (d2lwl+) (Morris et "
        "al. 2020)";
    s.defaults = Hyper()
                     .with_radius(0)
                     .with_layers(6)
                     .with_hidden(16)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-4)
                     .with_batch(16)
                     .with_epochs(20)
                     .with_loss_threshold(0.2);
    // The study ran the 270 3-WL-distinguishable pairs (its brec_v3_3wl file).
    s.paper_subset = kBrec3WlSubset;
    s.paper = {60, 50, 100, 6};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<Lgnn2>(c, r); }};
}

}  // namespace brec::models
