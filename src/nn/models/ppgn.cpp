// PPGN, a 2-FWL (= 3-WL) simulation, as the BREC reference runs it.
//
// @inproceedings{maron2019provably, title={Provably Powerful Graph Networks}, author={Maron, Haggai
//   and Ben-Hamu, Heli and Serviansky, Hadar and Lipman, Yaron}, booktitle={NeurIPS}, year={2019}}

#include "brec/core/error.hpp"
#include "brec/nn/layers.hpp"
#include "nn/kernels.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

/// A 1x1 convolution's parameters (the shapes of Conv2d(in, out, 1), weight stored as [out, in]),
/// Xavier-normal with zero bias as the reference initialises every layer; applied to channel-major
/// activations [C, B·n²] by nn_kernels::pointwise.
struct PointwiseImpl : torch::nn::Module {
    PointwiseImpl(int in, int out, torch::Generator& gen) {
        weight = register_parameter("weight", torch::empty({out, in}));
        bias = register_parameter("bias", torch::zeros({out}));
        nn::normal_init(weight, std::sqrt(2.0 / (in + out)), gen);
    }
    torch::Tensor weight, bias;
};
TORCH_MODULE(Pointwise);

/// PPGN block on channel-major activations x [C, B, n, n]: two pointwise MLPs (depth 1, ReLU),
/// fused into one product, multiplied channel-wise as n×n matrices; skip connection
/// conv(cat(x, product)) computed as two products into one output (no concatenated copy).
struct RegularBlockImpl : torch::nn::Module {
    RegularBlockImpl(int in, int out, torch::Generator& gen) : out_(out) {
        mlp1 = register_module("mlp1", Pointwise(in, out, gen));
        mlp2 = register_module("mlp2", Pointwise(in, out, gen));
        skip = register_module("skip", Pointwise(in + out, out, gen));
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
    Pointwise mlp1{nullptr}, mlp2{nullptr}, skip{nullptr};
};
TORCH_MODULE(RegularBlock);

/// One input channel A + I (BREC graphs have no node labels); L blocks of width h; BatchNorm2d
/// (affine off, momentum 1) after each block; per-block diag/off-diag max pooling → Linear(2h, d),
/// summed; BatchNorm1d (same settings) on the output. Activations are kept channel-major
/// ([C, B, n, n]); BatchNorm2d over [B, C, n, n] equals BatchNorm1d over the [1, C, B·n²] view.
class Ppgn : public GraphEmbedder {
public:
    Ppgn(const ModelConfig& c, ModelRandom& random) : output_norm_(c.output_norm) {
        if (c.kernel == "blas") {
            if (!nn_kernels::blas_available())
                throw Unsupported("PPGN's BLAS kernels: no BLAS sgemm_ found in this process");
            blas_ = true;
        } else if (c.kernel == "auto") {
            blas_ = nn_kernels::blas_available();
        } else if (c.kernel != "torch") {
            throw InvalidArgument("unknown PPGN kernel '" + c.kernel + "' (use auto, blas or torch)");
        }
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

}  // namespace

ModelEntry ppgn_model() {
    ModelSpec s;
    s.name = "ppgn";
    s.family = "2-FWL simulation: blocks of two 1x1-conv MLPs multiplied as matrices";
    s.citation = "Maron et al., NeurIPS 2019";
    s.bound = "2fwl";
    s.bound_note = "= 3-WL (2-FWL)";
    s.defaults = {0, 5, 32, 1e-4, 1e-4, 32, 20, 0.2};
    s.paper = {60, 50, 100, 23};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<Ppgn>(c, r); }};
}

}  // namespace brec::models
