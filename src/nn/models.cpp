#include "brec/nn/models.hpp"

#include <cmath>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "brec/core/error.hpp"
#include "nn/kernels.hpp"

namespace brec {
namespace {

/// Xavier-normal weights and zero biases, as the BREC reference initialises every layer.
void init_xavier(torch::Tensor& weight, torch::Tensor& bias, int fan_in, int fan_out) {
    torch::NoGradGuard guard;
    weight.normal_(0.0, std::sqrt(2.0 / (fan_in + fan_out)));
    if (bias.defined()) bias.zero_();
}

/// A 1x1 convolution's parameters (same shapes and initialisation as Conv2d(in, out, 1), weight
/// stored as [out, in]); applied to channel-major activations [C, B·n²] by nn_kernels::pointwise.
struct PointwiseImpl : torch::nn::Module {
    PointwiseImpl(int in, int out) {
        weight = register_parameter("weight", torch::empty({out, in}));
        bias = register_parameter("bias", torch::empty({out}));
        init_xavier(weight, bias, in, out);
    }
    torch::Tensor weight, bias;
};
TORCH_MODULE(Pointwise);

struct DenseImpl : torch::nn::Module {
    DenseImpl(int in, int out) {
        linear = register_module("linear", torch::nn::Linear(in, out));
        init_xavier(linear->weight, linear->bias, in, out);
    }
    torch::Tensor forward(const torch::Tensor& x) { return linear->forward(x); }
    torch::nn::Linear linear{nullptr};
};
TORCH_MODULE(Dense);

/// PPGN block on channel-major activations x [C, B, n, n]: two pointwise MLPs (depth 1, ReLU),
/// fused into one product, multiplied channel-wise as n×n matrices; skip connection
/// conv(cat(x, product)) computed as two products into one output (no concatenated copy).
struct RegularBlockImpl : torch::nn::Module {
    RegularBlockImpl(int in, int out) : out_(out) {
        mlp1 = register_module("mlp1", Pointwise(in, out));
        mlp2 = register_module("mlp2", Pointwise(in, out));
        skip = register_module("skip", Pointwise(in + out, out));
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

/// PPGN (Maron et al. 2019) as in the BREC reference: one input channel A + I; L blocks of width h;
/// BatchNorm2d (affine off, momentum 1) after each block; per-block pooling -> Linear(2h, d),
/// summed; BatchNorm1d (same settings) on the output. Activations are kept channel-major
/// ([C, B, n, n]); BatchNorm2d over [B, C, n, n] equals BatchNorm1d over the [1, C, B·n²] view.
class Ppgn : public GraphEmbedderImpl {
public:
    explicit Ppgn(const EmbedderOptions& opt) : output_norm_(opt.output_norm) {
        if (opt.kernel == "blas") {
            if (!nn_kernels::blas_available()) throw Unsupported("--kernel blas: no BLAS sgemm_ found in this process");
            blas_ = true;
        } else if (opt.kernel == "auto") {
            blas_ = nn_kernels::blas_available();
        } else if (opt.kernel != "torch") {
            throw InvalidArgument("unknown PPGN kernel '" + opt.kernel + "' (use auto, blas or torch)");
        }
        int last = 1;
        for (int i = 0; i < opt.layers; ++i) {
            blocks_.push_back(register_module("block" + std::to_string(i), RegularBlock(last, opt.hidden)));
            last = opt.hidden;
        }
        for (int i = 0; i < opt.layers; ++i)
            heads_.push_back(register_module("fc" + std::to_string(i), Dense(2 * opt.hidden, opt.out_dim)));
        for (int i = 0; i < opt.layers; ++i)
            norms_.push_back(register_module(
                "bn" + std::to_string(i),
                torch::nn::BatchNorm1d(torch::nn::BatchNorm1dOptions(opt.hidden).affine(false).momentum(1.0))));
        out_norm_ = register_module("bn_out", torch::nn::BatchNorm1d(
                                                  torch::nn::BatchNorm1dOptions(opt.out_dim).affine(false).momentum(1.0)));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override {
        if (graphs.empty()) throw InvalidArgument("ppgn: no graphs");
        const VertexId n = graphs[0].n();
        for (const auto& g : graphs)
            if (g.n() != n) throw Unsupported("ppgn batches dense matrices: all graphs of a pair must have the same size");
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
    std::vector<Dense> heads_;
    std::vector<torch::nn::BatchNorm1d> norms_;
    torch::nn::BatchNorm1d out_norm_{nullptr};
    torch::Tensor input_;
};

/// GIN (Xu et al. 2019): h' = MLP((1 + eps) h + sum of neighbours), MLP = Linear-BN-ReLU-Linear-ReLU,
/// constant input feature; readout = sum pooling of every layer, concatenated -> Linear -> d, then
/// BatchNorm1d (affine off, momentum 1) as PPGN's head. Bounded by 1-WL.
class Gin : public GraphEmbedderImpl {
public:
    explicit Gin(const EmbedderOptions& opt) : output_norm_(opt.output_norm) {
        int last = 1;
        for (int i = 0; i < opt.layers; ++i) {
            auto seq = torch::nn::Sequential(
                torch::nn::Linear(last, opt.hidden), torch::nn::BatchNorm1d(opt.hidden), torch::nn::ReLU(),
                torch::nn::Linear(opt.hidden, opt.hidden), torch::nn::ReLU());
            mlps_.push_back(register_module("mlp" + std::to_string(i), seq));
            eps_.push_back(register_parameter("eps" + std::to_string(i), torch::zeros({1})));
            last = opt.hidden;
        }
        for (auto& p : named_parameters()) {
            if (p.key().find("weight") != std::string::npos && p.value().dim() == 2) {
                torch::NoGradGuard g;
                const auto fan_out = p.value().size(0), fan_in = p.value().size(1);
                p.value().normal_(0.0, std::sqrt(2.0 / static_cast<double>(fan_in + fan_out)));
            } else if (p.key().find("bias") != std::string::npos) {
                torch::NoGradGuard g;
                p.value().zero_();
            }
        }
        head_ = register_module("head", Dense(1 + opt.layers * opt.hidden, opt.out_dim));
        out_norm_ = register_module("bn_out", torch::nn::BatchNorm1d(
                                                  torch::nn::BatchNorm1dOptions(opt.out_dim).affine(false).momentum(1.0)));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override {
        device_ = device;
        graphs_ = graphs;
        offsets_.assign(1, 0);
        for (const auto& g : graphs) offsets_.push_back(offsets_.back() + g.n());
    }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        // Block-diagonal batch of graphs [begin, end).
        std::vector<std::int64_t> src, dst, owner;
        const std::int64_t base = offsets_[begin];
        for (std::size_t i = begin; i < end; ++i) {
            const Graph& g = graphs_[i];
            const std::int64_t off = offsets_[i] - base;
            for (VertexId v = 0; v < g.n(); ++v) {
                owner.push_back(static_cast<std::int64_t>(i - begin));
                for (VertexId w : g.neighbors(v)) {
                    src.push_back(off + w);
                    dst.push_back(off + v);
                }
            }
        }
        const auto opts = torch::TensorOptions().dtype(torch::kLong);
        const auto s = torch::tensor(src, opts).to(device_), d = torch::tensor(dst, opts).to(device_);
        const auto batch = torch::tensor(owner, opts).to(device_);
        const long nodes = static_cast<long>(owner.size()), graphs = static_cast<long>(end - begin);
        auto h = torch::ones({nodes, 1}, torch::TensorOptions().device(device_));
        std::vector<torch::Tensor> pooled{torch::zeros({graphs, 1}, h.options()).index_add_(0, batch, h)};
        for (std::size_t l = 0; l < mlps_.size(); ++l) {
            auto agg = torch::zeros_like(h).index_add_(0, d, h.index_select(0, s));
            h = mlps_[l]->forward((1 + eps_[l]) * h + agg);
            pooled.push_back(torch::zeros({graphs, h.size(1)}, h.options()).index_add_(0, batch, h));
        }
        const auto out = head_->forward(torch::cat(pooled, 1));
        return output_norm_ ? out_norm_->forward(out) : out;
    }

private:
    bool output_norm_ = true;
    std::vector<torch::nn::Sequential> mlps_;
    std::vector<torch::Tensor> eps_;
    Dense head_{nullptr};
    torch::nn::BatchNorm1d out_norm_{nullptr};
    std::vector<Graph> graphs_;
    std::vector<std::int64_t> offsets_;
    torch::Device device_ = torch::kCPU;
};

}  // namespace

const std::vector<ModelSpec>& model_specs() {
    // name, family, r, L, h, lr, wd, b, E, t, implemented
    static const std::vector<ModelSpec> kSpecs = {
        {"gin", "MPNN baseline (1-WL bound)", 0, 4, 32, 1e-4, 1e-4, 32, 20, 0.2, true},
        {"ppgn", "2-FWL simulation (Maron et al. 2019)", 0, 5, 32, 1e-4, 1e-4, 32, 20, 0.2, true},
        {"ngnn", "nested GNN", 1, 6, 16, 1e-4, 1e-5, 32, 20, 0.01, false},
        {"de_ngnn", "NGNN + distance encoding", 8, 6, 128, 1e-4, 1e-5, 32, 30, 0.01, false},
        {"ds_gnn", "ESAN DS", 6, 10, 32, 1e-4, 1e-5, 32, 30, 0.0, false},
        {"dss_gnn", "ESAN DSS", 6, 9, 32, 1e-4, 1e-4, 32, 20, 0.01, false},
        {"sun", "Subgraph Union Network", 6, 9, 32, 1e-4, 1e-4, 32, 20, 0.01, false},
        {"sswl_p", "SSWL+", 8, 8, 64, 1e-5, 1e-5, 8, 20, 0.1, false},
        {"gnn_ak", "GNN-AK", 6, 4, 32, 1e-4, 1e-4, 32, 10, 0.1, false},
        {"kp_gnn", "KP-GNN", 8, 8, 32, 1e-4, 1e-4, 32, 20, 0.3, false},
        {"i2_gnn", "I2-GNN", 8, 5, 32, 1e-5, 1e-4, 16, 20, 0.2, false},
        {"lgnn2", "delta-2-LGNN", 0, 6, 16, 1e-4, 1e-4, 16, 20, 0.2, false},
        {"kc_setgnn", "KC-SetGNN", 0, 4, 64, 1e-4, 1e-4, 16, 15, 0.3, false},
        {"gsn", "GSN", 0, 4, 64, 1e-4, 1e-5, 16, 20, 0.1, false},
        {"dropgnn", "DropGNN", 0, 10, 16, 1e-3, 1e-5, 16, 100, 0.0, false},
        {"osan", "OSAN", 0, 8, 64, 1e-3, 1e-5, 16, 40, 0.0, false},
        {"graphormer", "Graphormer", 0, 12, 80, 2e-5, 0.0, 16, 100, 0.0, false},
    };
    return kSpecs;
}

const ModelSpec& find_model_spec(const std::string& name) {
    for (const auto& s : model_specs())
        if (s.name == name) {
            if (!s.implemented)
                throw InvalidArgument("model '" + name + "' is in the BREC table but not implemented in this build (available: gin, ppgn)");
            return s;
        }
    throw InvalidArgument("unknown model '" + name + "' (available: gin, ppgn; see brec eval --list-models)");
}

std::shared_ptr<GraphEmbedderImpl> make_embedder(const std::string& name, const EmbedderOptions& opt) {
    find_model_spec(name);
    if (opt.layers < 1 || opt.hidden < 1 || opt.out_dim < 1) throw InvalidArgument("model sizes must be positive");
    if (name == "ppgn") return std::make_shared<Ppgn>(opt);
    return std::make_shared<Gin>(opt);
}

void tune_cpu_allocator() {
#if defined(__GLIBC__)
    // 32 MiB is the largest mmap threshold glibc accepts (HEAP_MAX_SIZE / 2 on 64-bit); setting it
    // also stops the dynamic threshold from drifting. The trim threshold keeps freed memory at
    // the top of the heap for the next step instead of returning it with brk/madvise.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

torch::Device parse_device(const std::string& text) {
    if (text == "auto") return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
    if (text == "cpu") return torch::kCPU;
    if (text.rfind("cuda", 0) == 0) {
        if (!torch::cuda::is_available()) throw Unsupported("--device " + text + ": CUDA is not available in this build or machine");
        int index = 0;
        if (text.size() > 4) {
            if (text[4] != ':') throw InvalidArgument("bad device '" + text + "' (use auto, cpu, cuda or cuda:N)");
            index = std::stoi(text.substr(5));
        }
        if (index < 0 || index >= static_cast<int>(torch::cuda::device_count()))
            throw InvalidArgument("--device " + text + ": no such CUDA device");
        return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
    }
    throw InvalidArgument("bad device '" + text + "' (use auto, cpu, cuda or cuda:N)");
}

}  // namespace brec
