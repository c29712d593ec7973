// PPGN, a 2-FWL (= 3-WL) simulation, as the BREC reference runs it.
//
// @inproceedings{maron2019provably, title={Provably Powerful Graph Networks}, author={Maron, Haggai
//   and Ben-Hamu, Heli and Serviansky, Hadar and Lipman, Yaron}, booktitle={NeurIPS}, year={2019}}

#include <algorithm>
#include <limits>

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"
#include "nn/kernels.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

/// PPGN block on channel-major activations x [C, B, n, n]: two pointwise MLPs (depth 1, ReLU),
/// fused into one product, multiplied channel-wise as n×n matrices; skip connection
/// conv(cat(x, product)) computed as two products into one output (no concatenated copy).
struct RegularBlockImpl : torch::nn::Module {
    RegularBlockImpl(int in, int out, torch::Generator& gen) : out_(out) {
        mlp1 = register_module("mlp1", nn::Linear(in, out, gen, nn::Init::xavier_normal));
        mlp2 = register_module("mlp2", nn::Linear(in, out, gen, nn::Init::xavier_normal));
        skip = register_module("skip", nn::Linear(in + out, out, gen, nn::Init::xavier_normal));
    }
    torch::Tensor forward(const torch::Tensor& x, bool blas) {
        const auto c = x.size(0), b = x.size(1), n = x.size(2);
        const auto x2 = x.reshape({c, b * n * n});
        const auto w = torch::cat({mlp1->weight, mlp2->weight}, 0);
        const auto bias = torch::cat({mlp1->bias, mlp2->bias}, 0);
        const auto mult = nn_kernels::mlp_product(w, bias, x2, n, blas);
        const auto y = nn_kernels::pointwise(skip->weight, skip->bias, x2, mult.view({out_, b * n * n}), blas);
        return y.view({out_, b, n, n});
    }
    std::int64_t out_;
    nn::Linear mlp1{nullptr}, mlp2{nullptr}, skip{nullptr};
};
TORCH_MODULE(RegularBlock);

/// One input channel A + I (BREC graphs have no node labels); L blocks of width h; BatchNorm2d
/// (affine off, momentum 1) after each block; per-block diag/off-diag max pooling → Linear(2h, d),
/// summed; BatchNorm1d (same settings) on the output. Activations are kept channel-major
/// ([C, B, n, n]); BatchNorm2d over [B, C, n, n] equals BatchNorm1d over the [1, C, B·n²] view.
class Ppgn : public GraphEmbedder {
public:
    Ppgn(const ModelConfig& c, ModelRandom& random, bool blas) : output_norm_(c.output_norm), blas_(blas) {
        int last = 1;
        for (int i = 0; i < c.layers; ++i) {
            blocks_.push_back(register_module("block" + std::to_string(i), RegularBlock(last, c.hidden, random.init)));
            last = c.hidden;
        }
        for (int i = 0; i < c.layers; ++i)
            heads_.push_back(register_module(
                "fc" + std::to_string(i), nn::Linear(2 * c.hidden, c.out_dim, random.init, nn::Init::xavier_normal)));
        for (int i = 0; i < c.layers; ++i)
            norms_.push_back(register_module("bn" + std::to_string(i), nn::batch_norm(c.hidden, false, 1.0)));
        out_norm_ = register_module("bn_out", nn::batch_norm(c.out_dim, false, 1.0));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override {
        if (graphs.empty()) throw InvalidArgument("ppgn: no graphs");
        const VertexId n = graphs[0].n();
        for (const auto& g : graphs)
            if (g.n() != n)
                throw Unsupported("ppgn batches dense matrices: all graphs of a pair must have the same size");
        auto stack = torch::zeros({1, static_cast<long>(graphs.size()), n, n});
        auto acc = stack.accessor<float, 4>();
        for (std::size_t i = 0; i < graphs.size(); ++i)
            for (VertexId v = 0; v < n; ++v) {
                acc[0][i][v][v] = 1.0f;  // A + I
                for (VertexId w : graphs[i].neighbors(v)) acc[0][i][v][w] = 1.0f;
            }
        input_ = stack.to(device);
    }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        auto x = input_.slice(1, static_cast<long>(begin), static_cast<long>(end)).contiguous();
        torch::Tensor scores;
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            const auto y = blocks_[i]->forward(x, blas_);
            x = norms_[i]->forward(y.view({1, y.size(0), -1})).view(y.sizes());
            auto s = heads_[i]->forward(nn_kernels::diag_offdiag_max(x, blas_));
            scores = scores.defined() ? scores + s : s;
        }
        return output_norm_ ? out_norm_->forward(scores) : scores;
    }

private:
    bool output_norm_ = true;
    bool blas_ = false;
    std::vector<RegularBlock> blocks_;
    std::vector<nn::Linear> heads_;
    std::vector<torch::nn::BatchNorm1d> norms_;
    torch::nn::BatchNorm1d out_norm_{nullptr};
    torch::Tensor input_;
};

/// A counting-PPGN block on channel-major x [C, B, n, n]: two MLPs of `depth` 1x1 convolutions,
/// each followed by ReLU, multiplied channel-wise as n×n matrices; skip connection conv(cat(x,
/// product)) without activation. Entries outside a graph (padding, `mask` [1, B·n²] defined) are
/// set to 0 after every convolution, so a graph's output does not depend on its batch.
struct CountingBlockImpl : torch::nn::Module {
    CountingBlockImpl(int in, int out, int depth, torch::Generator& gen) : out_(out) {
        for (int i = 0; i < depth; ++i) {
            mlp1.push_back(register_module("mlp1_" + std::to_string(i),
                                           nn::Linear(i ? out : in, out, gen, nn::Init::xavier_uniform)));
            mlp2.push_back(register_module("mlp2_" + std::to_string(i),
                                           nn::Linear(i ? out : in, out, gen, nn::Init::xavier_uniform)));
        }
        skip = register_module("skip", nn::Linear(in + out, out, gen, nn::Init::xavier_uniform));
    }
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask, bool blas) {
        const auto c = x.size(0), b = x.size(1), n = x.size(2);
        // Every convolution is one product on the [C, B·n²] view, the mask a row broadcast over it.
        const auto masked = [&](const torch::Tensor& y) { return mask.defined() ? y * mask : y; };
        const auto branch = [&](const std::vector<nn::Linear>& mlp) {
            auto h = x.reshape({c, b * n * n});
            for (const auto& conv : mlp)
                h = torch::relu(masked(nn_kernels::pointwise(conv->weight, conv->bias, h, {}, blas)));
            return h.view({out_ * b, n, n});
        };
        const auto product = nn_kernels::batched_matmul(branch(mlp1), branch(mlp2));
        const auto y = nn_kernels::pointwise(skip->weight, skip->bias, x.reshape({c, b * n * n}),
                                             product.view({out_, b * n * n}), blas);
        return masked(y).view({out_, b, n, n});
    }
    std::int64_t out_;
    std::vector<nn::Linear> mlp1, mlp2;
    nn::Linear skip{nullptr};
};
TORCH_MODULE(CountingBlock);

/// A batch of the counting PPGN: channel-major input [2, B, n, n] (I and A, n the largest graph of
/// the batch) and the mask [1, B·n²] of the entries inside each graph (undefined when all have n
/// nodes).
struct DenseBatch {
    torch::Tensor input, mask;
};

DenseBatch make_dense_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                            torch::Device device) {
    VertexId n = 0, smallest = std::numeric_limits<VertexId>::max();
    for (std::size_t i = begin; i < end; ++i) {
        n = std::max(n, graphs[i].n());
        smallest = std::min(smallest, graphs[i].n());
    }
    const auto count = static_cast<long>(end - begin);
    auto input = torch::zeros({2, count, n, n});
    auto in = input.accessor<float, 4>();
    auto mask = torch::zeros({1, count, n, n});
    auto m = mask.accessor<float, 4>();
    for (std::size_t i = begin; i < end; ++i) {
        const auto k = static_cast<long>(i - begin);
        const Graph& g = graphs[i];
        for (VertexId v = 0; v < g.n(); ++v) {
            in[0][k][v][v] = 1.0f;
            for (VertexId w : g.neighbors(v)) in[1][k][v][w] = 1.0f;
            for (VertexId w = 0; w < g.n(); ++w) m[0][k][v][w] = 1.0f;
        }
    }
    if (smallest == n) return {input.to(device), torch::Tensor()};
    return {input.to(device), mask.view({1, -1}).to(device)};
}

/// The counting PPGN of Campi et al. (2023), what Head::regression builds. Input: the constant node
/// feature on the diagonal (I) and the adjacency A as two channels; L blocks (MLP depth 2):
/// 2 → h, h → h, ..., h → out with out = max(1, h / 2); no normalisation; the blocks' outputs
/// concatenated, then diag / off-diag sum pooling (the sum of each channel's diagonal and of the
/// rest) → [B, 2 (h (L − 1) + out)]; regression head final_mlp = Linear(·, out) → ReLU →
/// Linear(out, 1) with PyTorch's default initialisation.
class CountingPpgn : public GraphEmbedder {
public:
    static constexpr int kMlpDepth = 2;

    CountingPpgn(const ModelConfig& c, ModelRandom& random, bool blas) : blas_(blas) {
        if (c.layers < 2) throw InvalidArgument("ppgn regressor: needs at least 2 blocks (a first and a last)");
        const int out = std::max(1, c.hidden / 2);
        int last = 2, concatenated = 0;
        for (int i = 0; i < c.layers; ++i) {
            const int width = i + 1 == c.layers ? out : c.hidden;
            blocks_.push_back(
                register_module("block" + std::to_string(i), CountingBlock(last, width, kMlpDepth, random.init)));
            last = width;
            concatenated += width;
        }
        final_mlp_ = register_module("final_mlp", nn::ReluMlp(2 * concatenated, out, 1, random.init));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const DenseBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_dense_batch(batches_.graphs(), s, e, batches_.device());
        });
        auto x = b.input;
        std::vector<torch::Tensor> outputs;
        for (auto& block : blocks_) {
            x = block->forward(x, b.mask, blas_);
            outputs.push_back(x);
        }
        const auto all = torch::cat(outputs, 0);                                  // [C, B, n, n]
        const auto diagonal = all.diagonal(0, 2, 3).sum(-1);                      // [C, B]
        const auto off_diagonal = all.sum({2, 3}) - diagonal;                     // [C, B]
        return final_mlp_->forward(torch::cat({diagonal, off_diagonal}, 0).t());  // [B, 2C]
    }

    std::vector<std::string> regression_head() const override { return {"final_mlp"}; }

private:
    bool blas_ = false;
    std::vector<CountingBlock> blocks_;
    nn::ReluMlp final_mlp_{nullptr};
    nn::RangeCache<DenseBatch> batches_;
};

/// Whether PPGN uses its BLAS kernels for `config.kernel`.
bool use_blas(const ModelConfig& c) {
    if (c.kernel == "blas") {
        if (!nn_kernels::blas_available())
            throw Unsupported("PPGN's BLAS kernels: no BLAS sgemm_ found in this process");
        return true;
    }
    if (c.kernel == "auto") return nn_kernels::blas_available();
    if (c.kernel != "torch") throw InvalidArgument("unknown PPGN kernel '" + c.kernel + "' (use auto, blas or torch)");
    return false;
}

}  // namespace

ModelEntry ppgn_model() {
    ModelSpec s;
    s.name = "ppgn";
    s.family = "2-FWL simulation: blocks of two 1x1-conv MLPs multiplied as matrices";
    s.citation = "Maron et al., NeurIPS 2019";
    s.bound = "2fwl";
    s.bound_note = "= 3-WL (2-FWL)";
    s.tight_bound = "2fwl";
    s.tight_note = "2-FWL (= 3-WL) (Maron et al. 2019)";
    s.defaults = Hyper()
                     .with_radius(0)
                     .with_layers(5)
                     .with_hidden(32)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-4)
                     .with_batch(32)
                     .with_epochs(20)
                     .with_loss_threshold(0.2);
    s.paper = {60, 50, 100, 23};
    s.counting.regressor = true;
    s.counting.default_loss = "lc";
    s.counting.paper_triangle_l1 = 0.014;
    return {s, [](const ModelConfig& c, ModelRandom& r) -> std::shared_ptr<GraphEmbedder> {
                if (c.head == Head::regression) return std::make_shared<CountingPpgn>(c, r, use_blas(c));
                return std::make_shared<Ppgn>(c, r, use_blas(c));
            }};
}

}  // namespace brec::models
