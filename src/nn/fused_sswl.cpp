#include "brec/nn/fused_sswl.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "nn/fused_passes.hpp"

namespace brec::nn {

namespace {

using namespace fused;  // the passes this layer is built from

constexpr int kBranches = 3;  // uL, vL, vv
// The vv branch, whose messages are the root copies x_vv themselves; the local aggregations' are
// relu(x_w).
constexpr int kRoot = kBranches - 1;

/// One branch: its messages' arcs (CSR by receiver), its ε and its MLP's tensors.
struct Branch {
    torch::Tensor ptr, col;
    torch::Tensor eps, w1, b1, g1, be1, w2, b2, rm1, rv1;
    double momentum1 = 0.1, eps1 = 1e-5;
};

struct Layer {
    torch::Tensor x;
    std::array<Branch, kBranches> branch;
    torch::Tensor back_ptr, back_col;  ///< root_readers' CSR: the vv branch's arcs reversed
    torch::Tensor g, be, rm, rv;       ///< the closing BatchNorm
    double momentum = 0.1, eps = 1e-5;
    bool training = true;
    // No term before the last ReLU, and no rows for relu_norm_sums to write its gradient to: read
    // from here (the passes are not inlined into the caller that makes the Layer) rather than
    // written as constants at the calls, where GCC 12 fails on relu_norm_sums' masks with an
    // internal compiler error.
    Extra none;
    float* no_rows = nullptr;
};

struct Forward {
    torch::Tensor y, h2;                         ///< the output; the branches' sum (norm's input)
    std::array<torch::Tensor, kBranches> s, h1;  ///< each branch's MLP input and first Linear's output
    std::array<NormValues, kBranches> n1;
    NormValues n2;
};

/// Each branch's 1 + ε, read once per call (item() per block of rows would cost a few percent).
std::array<float, kBranches> one_plus_eps(const Layer& l) {
    std::array<float, kBranches> s{};
    for (int b = 0; b < kBranches; ++b) s[b] = 1.0f + l.branch[b].eps.item<float>();
    return s;
}

/// h2 = Σ_b (relu(bn1_b(h1_b)) W2_bᵀ + b2_b) for the rows [r0, r0 + n), the branches added in
/// order (each term as second_pass makes it); with `moments`, the block's moments of h2.
template <typename W, int C>
BREC_SIMD_INLINE void branch_sum_pass(const std::array<const float*, kBranches>& h1,
                                      const std::array<const NormValues*, kBranches>& n1,
                                      const std::array<const float*, kBranches>& w2t,
                                      const std::array<const float*, kBranches>& b2, float* h2, std::int64_t r0,
                                      std::int64_t n, double* moments) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    Lanes<W, C> w[kBranches][C], bias[kBranches], mean[kBranches], scale[kBranches], shift[kBranches];
    for (int b = 0; b < kBranches; ++b) {
        for (int i = 0; i < C; ++i) w[b][i] = Lanes<W, C>(w2t[b] + i * C);
        bias[b] = Lanes<W, C>(b2[b]);
        mean[b] = Lanes<W, C>(n1[b]->mean.data());
        scale[b] = Lanes<W, C>(n1[b]->scale.data());
        shift[b] = Lanes<W, C>(n1[b]->shift.data());
    }
    by_row_groups<W, C>(r0, n, [&](std::int64_t r, auto count) BREC_SIMD_INLINE_LAMBDA {
        constexpr int R = decltype(count)::value;
        Vec sum[R][V];
        for (int b = 0; b < kBranches; ++b) {
            float a[R][C];
            for (int q = 0; q < R; ++q)
                for (int j = 0; j < V; ++j)
                    W::store(a[q] + kLanes * j,
                             relu((W::load(h1[b] + (r + q) * C + kLanes * j) - mean[b].v[j]) * scale[b].v[j] +
                                  shift[b].v[j]));
            const float* in[R];
            for (int q = 0; q < R; ++q) in[q] = a[q];
            Vec h[R][V];
            products<W, C, C, R>(in, w[b], bias[b], h);
            for (int q = 0; q < R; ++q)
                for (int j = 0; j < V; ++j) sum[q][j] = b == 0 ? h[q][j] : sum[q][j] + h[q][j];
        }
        for (int q = 0; q < R; ++q)
            for (int j = 0; j < V; ++j) W::store(h2 + (r + q) * C + kLanes * j, sum[q][j]);
    });
    if (moments) block_moments<W, C>(h2 + r0 * C, n, moments);
}

template <int C>
__attribute__((noinline)) Forward fused_forward(const Layer& l) {
    const std::int64_t rows = l.x.size(0), blocks = (rows + kBlock - 1) / kBlock;
    Forward f;
    for (int b = 0; b < kBranches; ++b) {
        f.s[b] = torch::empty_like(l.x);
        f.h1[b] = torch::empty_like(l.x);
    }
    f.h2 = torch::empty_like(l.x);
    f.y = torch::empty_like(l.x);
    const std::vector<float> zeros(C, 0.0f);  // relu(x + 0): the messages relu(x_w) as the GINE path reads them
    std::array<torch::Tensor, kBranches> w1t, w2t;
    std::array<std::vector<double>, kBranches> moments;
    for (int b = 0; b < kBranches; ++b) {
        w1t[b] = l.branch[b].w1.t().contiguous();
        w2t[b] = l.branch[b].w2.t().contiguous();
        moments[b].resize(static_cast<std::size_t>(blocks * 2 * C));
    }
    const std::array<float, kBranches> scale_x = one_plus_eps(l);
    for_blocks(rows, [&](std::int64_t blk, std::int64_t r0, std::int64_t n) {
        for (int b = 0; b < kBranches; ++b) {
            const Branch& br = l.branch[b];
            simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
                first_pass<decltype(w), C, C>(br.ptr.data_ptr<std::int64_t>(), br.col.data_ptr<std::int64_t>(),
                                              l.x.data_ptr<float>(), nullptr, b != kRoot ? zeros.data() : nullptr,
                                              scale_x[b], w1t[b].data_ptr<float>(), br.b1.data_ptr<float>(),
                                              f.s[b].data_ptr<float>(), f.h1[b].data_ptr<float>(), r0, n,
                                              l.training ? moments[b].data() + blk * 2 * C : nullptr);
            });
        }
    });
    for (int b = 0; b < kBranches; ++b) {
        const Branch& br = l.branch[b];
        f.n1[b] = batch_norm_values(l.training ? &moments[b] : nullptr, rows, C, br.rm1, br.rv1, br.g1, br.be1,
                                    br.momentum1, br.eps1);
    }
    const std::array<const float*, kBranches> h1{f.h1[0].data_ptr<float>(), f.h1[1].data_ptr<float>(),
                                                 f.h1[2].data_ptr<float>()};
    const std::array<const NormValues*, kBranches> n1{&f.n1[0], &f.n1[1], &f.n1[2]};
    const std::array<const float*, kBranches> w2{w2t[0].data_ptr<float>(), w2t[1].data_ptr<float>(),
                                                 w2t[2].data_ptr<float>()};
    const std::array<const float*, kBranches> b2{l.branch[0].b2.data_ptr<float>(), l.branch[1].b2.data_ptr<float>(),
                                                 l.branch[2].b2.data_ptr<float>()};
    for_blocks(rows, [&](std::int64_t blk, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            branch_sum_pass<decltype(w), C>(h1, n1, w2, b2, f.h2.data_ptr<float>(), r0, n,
                                            l.training ? moments[0].data() + blk * 2 * C : nullptr);
        });
    });
    f.n2 = batch_norm_values(l.training ? &moments[0] : nullptr, rows, C, l.rm, l.rv, l.g, l.be, l.momentum, l.eps);
    for_blocks(rows, [&](std::int64_t, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            third_pass<decltype(w), C>(f.h2.data_ptr<float>(), f.n2.mean.data(), f.n2.scale.data(), f.n2.shift.data(),
                                       l.none, nullptr, f.y.data_ptr<float>(), r0, n);
        });
    });
    return f;
}

/// Each branch's gradients (ε, W1, b1, γ1, β1, W2, b2), then x's and the closing BatchNorm's.
struct Grads {
    std::array<torch::Tensor, kBranches> eps, w1, b1, g1, be1, w2, b2;
    torch::Tensor x, g, be;
};

template <int C>
__attribute__((noinline)) Grads fused_backward(const Layer& l, const Forward& f, const Upstream& gy) {
    const std::int64_t rows = l.x.size(0), blocks = (rows + kBlock - 1) / kBlock;
    const float* h2 = f.h2.data_ptr<float>();
    Grads g;
    std::vector<double> norm_blocks(static_cast<std::size_t>(blocks * 2 * C));
    for_blocks(rows, [&](std::int64_t blk, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            relu_norm_sums<decltype(w), C>(h2, gy, f.n2.mean.data(), f.n2.invstd.data(), f.n2.scale.data(),
                                           f.n2.shift.data(), l.none, l.no_rows, r0, n,
                                           norm_blocks.data() + blk * 2 * C);
        });
    });
    const auto sums = sum_blocks(norm_blocks, rows, 2 * C);
    g.be = float_tensor(sums, 0, C);
    g.g = float_tensor(sums, C, C);
    const NormGrad d2 = norm_grad(sums, f.n2, rows, C);

    // Per branch: back through its second Linear and first BatchNorm (gz1 into `buffer`), then
    // through its first Linear (gs = gh1 W1 over gz1 in place).
    std::array<torch::Tensor, kBranches> buffer;
    std::array<std::vector<double>, kBranches> weight_blocks, branch_norm_blocks;
    for (int b = 0; b < kBranches; ++b) {
        buffer[b] = torch::empty_like(l.x);
        weight_blocks[b].resize(static_cast<std::size_t>(blocks * (C * C + C)));
        branch_norm_blocks[b].resize(static_cast<std::size_t>(blocks * 2 * C));
    }
    for_blocks(rows, [&](std::int64_t blk, std::int64_t r0, std::int64_t n) {
        for (int b = 0; b < kBranches; ++b)
            simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
                middle_back_pass<decltype(w), C>(gy, h2, f.h1[b].data_ptr<float>(), f.n2, d2, f.n1[b],
                                                 l.branch[b].w2.data_ptr<float>(), l.none, buffer[b].data_ptr<float>(),
                                                 r0, n, weight_blocks[b].data() + blk * (C * C + C),
                                                 branch_norm_blocks[b].data() + blk * 2 * C);
            });
    });
    std::array<NormGrad, kBranches> d1;
    for (int b = 0; b < kBranches; ++b) {
        const auto weights = sum_blocks(weight_blocks[b], rows, C * C + C);
        g.w2[b] = float_tensor(weights, 0, C * C).view({C, C});
        g.b2[b] = float_tensor(weights, C * C, C);
        const auto s1 = sum_blocks(branch_norm_blocks[b], rows, 2 * C);
        g.be1[b] = float_tensor(s1, 0, C);
        g.g1[b] = float_tensor(s1, C, C);
        d1[b] = norm_grad(s1, f.n1[b], rows, C);
    }
    for_blocks(rows, [&](std::int64_t blk, std::int64_t r0, std::int64_t n) {
        for (int b = 0; b < kBranches; ++b) {
            float* gs = buffer[b].data_ptr<float>();
            simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
                first_back_pass<decltype(w), C, C>(f.h1[b].data_ptr<float>(), f.s[b].data_ptr<float>(), nullptr,
                                                   f.n1[b], d1[b], l.branch[b].w1.data_ptr<float>(), gs, gs, nullptr,
                                                   r0, n, weight_blocks[b].data() + blk * (C * C + C));
            });
        }
    });
    for (int b = 0; b < kBranches; ++b) {
        const auto weights = sum_blocks(weight_blocks[b], rows, C * C + C);
        g.w1[b] = float_tensor(weights, 0, C * C).view({C, C});
        g.b1[b] = float_tensor(weights, C * C, C);
    }

    // gx = Σ_b (1 + ε_b) gs_b + the messages' backward: the local aggregations' arcs are symmetric,
    // so their backward sums over the same CSR (where x > 0, the ReLU of the messages); the root
    // copies' over the reversed arcs. Each branch adds its part to what the branches before it wrote.
    g.x = torch::empty_like(l.x);
    const std::vector<float> zeros(C, 0.0f);
    std::array<std::vector<double>, kBranches> eps_blocks;
    for (auto& e : eps_blocks) e.resize(static_cast<std::size_t>(blocks));
    std::vector<double> unused_edge_sums(static_cast<std::size_t>(blocks * C));
    const std::array<float, kBranches> scale_x = one_plus_eps(l);
    for_blocks(rows, [&](std::int64_t blk, std::int64_t r0, std::int64_t n) {
        for (int b = 0; b < kBranches; ++b) {
            const Branch& br = l.branch[b];
            const auto* ptr = (b == kRoot ? l.back_ptr : br.ptr).data_ptr<std::int64_t>();
            const auto* col = (b == kRoot ? l.back_col : br.col).data_ptr<std::int64_t>();
            float* gx = g.x.data_ptr<float>();
            simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
                last_back_pass<decltype(w), C>(ptr, col, buffer[b].data_ptr<float>(), l.x.data_ptr<float>(),
                                               b != kRoot ? zeros.data() : nullptr, b == 0 ? nullptr : gx, scale_x[b],
                                               gx, r0, n, eps_blocks[b].data() + blk,
                                               unused_edge_sums.data() + blk * C);
            });
        }
    });
    for (int b = 0; b < kBranches; ++b)
        g.eps[b] = float_tensor(sum_blocks(eps_blocks[b], rows, 1), 0, 1).view(l.branch[b].eps.sizes());
    return g;
}

// The tensors of one branch that get gradients, in the order of the fused function's inputs.
constexpr int kPerBranch = 7;  // ε, W1, b1, γ1, β1, W2, b2

struct FusedSswl : torch::autograd::Function<FusedSswl> {
    // x, then kPerBranch tensors per branch, then the closing BatchNorm's γ and β: all tracked by
    // autograd. The index structures and running statistics ride in `rest`.
    static torch::autograd::tensor_list forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                                at::TensorList params, const Layer& rest) {
        Layer l = rest;
        l.x = x.contiguous();
        for (int b = 0; b < kBranches; ++b) {
            Branch& br = l.branch[b];
            const auto* p = params.data() + b * kPerBranch;
            br.eps = p[0].detach();
            br.w1 = p[1].contiguous();
            br.b1 = p[2].contiguous();
            br.g1 = p[3].contiguous();
            br.be1 = p[4].contiguous();
            br.w2 = p[5].contiguous();
            br.b2 = p[6].contiguous();
        }
        l.g = params[kBranches * kPerBranch].contiguous();
        l.be = params[kBranches * kPerBranch + 1].contiguous();
        const std::int64_t c = l.x.size(1);
        Forward f = by_width(c, [&](auto w) { return fused_forward<decltype(w)::value>(l); });
        std::vector<torch::Tensor> saved{l.x, f.h2, l.back_ptr, l.back_col};
        for (int b = 0; b < kBranches; ++b) {
            const Branch& br = l.branch[b];
            for (const auto& t : {br.ptr, br.col, br.eps, br.w1, br.w2, f.s[b], f.h1[b]}) saved.push_back(t);
            save_norm(ctx, "1" + std::to_string(b), f.n1[b]);
        }
        ctx->save_for_backward(saved);
        save_norm(ctx, "2", f.n2);
        return {f.y};
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto saved = ctx->get_saved_variables();
        Layer l;
        Forward f;
        l.x = saved[0];
        f.h2 = saved[1];
        l.back_ptr = saved[2];
        l.back_col = saved[3];
        for (int b = 0; b < kBranches; ++b) {
            Branch& br = l.branch[b];
            const auto* s = saved.data() + 4 + b * 7;
            br.ptr = s[0];
            br.col = s[1];
            br.eps = s[2];
            br.w1 = s[3];
            br.w2 = s[4];
            f.s[b] = s[5];
            f.h1[b] = s[6];
            f.n1[b] = load_norm(ctx, "1" + std::to_string(b));
        }
        f.n2 = load_norm(ctx, "2");
        const auto gy = grad[0].defined() ? grad[0].contiguous() : torch::zeros_like(l.x);
        const Upstream up{gy.data_ptr<float>()};
        const Grads g = by_width(l.x.size(1), [&](auto w) { return fused_backward<decltype(w)::value>(l, f, up); });
        torch::autograd::tensor_list out{g.x};
        for (int b = 0; b < kBranches; ++b)
            for (const auto& t : {g.eps[b], g.w1[b], g.b1[b], g.g1[b], g.be1[b], g.w2[b], g.b2[b]}) out.push_back(t);
        out.push_back(g.g);
        out.push_back(g.be);
        out.emplace_back();  // rest
        return out;
    }
};

bool affine(const torch::nn::BatchNorm1d& bn) {
    const auto& o = bn->options;
    return o.affine() && o.track_running_stats() && o.momentum().has_value();
}

/// The modules' path: the operators in the order of the formula.
torch::Tensor modules_layer(const torch::Tensor& x, const SswlArcs& arcs, const SswlModules& m) {
    const auto messages = torch::relu(x);
    const auto within = m.within->forward((1 + m.eps_within) * x + neighbour_sum(messages, arcs.within));
    const auto across = m.across->forward((1 + m.eps_across) * x + neighbour_sum(messages, arcs.across));
    const auto root = m.root->forward((1 + m.eps_root) * x + gather_rows(x, arcs.root_arcs.src));
    return torch::relu(m.norm->forward(within + across + root));
}

}  // namespace

bool sswl_layer_fused(const torch::Tensor& x, const SswlModules& m) {
    if (!x.device().is_cpu() || x.scalar_type() != torch::kFloat || x.dim() != 2 || x.size(0) < 2) return false;
    const std::int64_t c = x.size(1);
    if (c != 16 && c != 32 && c != 48 && c != 64) return false;
    const auto square = [&](const Linear& lin) {
        const auto& w = lin->weight;
        return w.dim() == 2 && w.size(0) == c && w.size(1) == c && lin->bias.defined() && lin->bias.numel() == c;
    };
    const auto eps_fits = [](const torch::Tensor& e) {
        return e.defined() && e.numel() == 1 && e.device().is_cpu() && e.scalar_type() == torch::kFloat;
    };
    const bool training = m.norm->is_training();
    for (BnMlp* mlp : {&m.within, &m.across, &m.root})
        if (!square((*mlp)->first) || !square((*mlp)->second) || !affine((*mlp)->norm) ||
            (*mlp)->norm->is_training() != training)
            return false;
    return affine(m.norm) && eps_fits(m.eps_within) && eps_fits(m.eps_across) && eps_fits(m.eps_root) &&
           (training || !torch::GradMode::is_enabled());
}

torch::Tensor sswl_layer(const torch::Tensor& x, const SswlArcs& arcs, const SswlModules& m, bool fused) {
    if (!fused || !sswl_layer_fused(x, m)) return modules_layer(x, arcs, m);
    const std::int64_t rows = x.size(0);
    for (const Adjacency* adj : {&arcs.within, &arcs.across, &arcs.root_arcs, &arcs.root_readers})
        if (adj->rows != rows)
            throw InvalidArgument("sswl_layer: " + std::to_string(rows) + " rows for arcs over " +
                                  std::to_string(adj->rows));
    Layer l;
    const Adjacency* const adjacency[kBranches] = {&arcs.within, &arcs.across, &arcs.root_arcs};
    BnMlp* const mlps[kBranches] = {&m.within, &m.across, &m.root};
    std::vector<torch::Tensor> params;
    const torch::Tensor* const eps[kBranches] = {&m.eps_within, &m.eps_across, &m.eps_root};
    for (int b = 0; b < kBranches; ++b) {
        Branch& br = l.branch[b];
        const BnMlp& mlp = *mlps[b];
        br.ptr = adjacency[b]->row_ptr;
        br.col = adjacency[b]->col;
        br.rm1 = mlp->norm->running_mean;
        br.rv1 = mlp->norm->running_var;
        br.momentum1 = *mlp->norm->options.momentum();
        br.eps1 = mlp->norm->options.eps();
        for (const auto& t : {*eps[b], mlp->first->weight, mlp->first->bias, mlp->norm->weight, mlp->norm->bias,
                              mlp->second->weight, mlp->second->bias})
            params.push_back(t);
    }
    params.push_back(m.norm->weight);
    params.push_back(m.norm->bias);
    l.back_ptr = arcs.root_readers.row_ptr;
    l.back_col = arcs.root_readers.col;
    l.rm = m.norm->running_mean;
    l.rv = m.norm->running_var;
    l.momentum = *m.norm->options.momentum();
    l.eps = m.norm->options.eps();
    l.training = m.norm->is_training();
    if (l.training) {
        torch::NoGradGuard no_grad;
        for (BnMlp* mlp : mlps) (*mlp)->norm->num_batches_tracked += 1;
        m.norm->num_batches_tracked += 1;
    }
    return FusedSswl::apply(x, at::TensorList(params), l)[0];
}

}  // namespace brec::nn
