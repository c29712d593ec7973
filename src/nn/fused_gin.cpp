#include "brec/nn/fused_gin.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "nn/fused_passes.hpp"

namespace brec::nn {

namespace {

using namespace fused;  // the passes this layer is built from

/// The output's mean that a layer also makes: over `runs` > 0 equal blocks of rows, else per group
/// of `groups` where given; neither when runs is 0 and groups null.
struct MeanOf {
    std::int64_t runs = 0;
    const Grouping* groups = nullptr;
    bool asked() const { return runs > 0 || groups; }
    const Grouping* by_group() const { return runs > 0 ? nullptr : groups; }
};

/// y's mean as `m` asks for it, with LibTorch's mean over runs and group_mean per group (undefined
/// when none is asked for). The fused function and the modules' path both take it here.
torch::Tensor mean_of(const torch::Tensor& y, const MeanOf& m) {
    if (m.runs > 0) return y.view({m.runs, y.size(0) / m.runs, y.size(1)}).mean(0);
    if (m.groups) return group_mean(y, *m.groups);
    return {};
}

/// Everything one call needs, by widths Ci (x) and C (the MLP's).
struct Layer {
    torch::Tensor x;
    torch::Tensor x2;           ///< x's second half of columns where x comes as two (no GIN sum); else undefined
    torch::Tensor ptr, col;     ///< the CSR arcs; undefined when the layer has no GIN sum
    torch::Tensor extra;        ///< added before the last ReLU; undefined when there is none
    torch::Tensor extra_index;  ///< defined: row r adds extra's row extra_index[r] (int64, [rows])
    torch::Tensor eps;          ///< the GIN's trainable ε, [1]; undefined when ε is 0 fixed
    torch::Tensor edge;         ///< GINE's edge feature, [Ci]: the sum reads relu(x_u + edge); else undefined
    bool residual = false;      ///< y = x + relu(...) (x as wide as y, a GIN sum, no mean)
    torch::Tensor w1, b1, g1, be1, w2, b2, g2, be2;  ///< b1, b2: zeros for a Linear without bias
    torch::Tensor rm1, rv1, rm2, rv2;
    double momentum1 = 0.1, eps1 = 1e-5, momentum2 = 0.1, eps2 = 1e-5;
    bool training = true;
    MeanOf mean;  ///< the output's mean made too, if any
};

struct Forward {
    torch::Tensor y, s, h1, h2;
    NormValues n1, n2;
};

// The scale of a node's own row in the GIN's sum: 1 + ε, or 1 when ε is not trained.
float one_plus_eps(const Layer& l) { return l.eps.defined() ? 1.0f + l.eps.item<float>() : 1.0f; }

// The MLP's input width: x's, or its two halves' together.
std::int64_t input_width(const Layer& l) { return l.x.size(1) + (l.x2.defined() ? l.x2.size(1) : 0); }

// The term added before the last ReLU, as the kernels read it.
Extra extra_of(const Layer& l) {
    if (!l.extra.defined()) return {};
    return {l.extra.data_ptr<float>(), l.extra_index.defined() ? l.extra_index.data_ptr<std::int64_t>() : nullptr};
}

// Whether the GIN's sum (1 + ε) x + Σ differs from x: without arcs and with ε = 0 it is x itself.
bool has_sum(const Layer& l) { return l.ptr.defined() || l.eps.defined(); }

template <int Ci, int C>
Forward fused_forward(const Layer& l) {
    const std::int64_t rows = l.x.size(0), blocks = (rows + kBlock - 1) / kBlock;
    Forward f;
    f.s = has_sum(l) ? torch::empty_like(l.x) : l.x;
    f.h1 = torch::empty({rows, C}, l.x.options());
    f.h2 = torch::empty_like(f.h1);
    f.y = torch::empty_like(f.h1);
    const auto w1t = l.w1.t().contiguous(), w2t = l.w2.t().contiguous();
    const auto* ptr = l.ptr.defined() ? l.ptr.data_ptr<std::int64_t>() : nullptr;
    const auto* col = l.col.defined() ? l.col.data_ptr<std::int64_t>() : nullptr;
    std::vector<double> moments(static_cast<std::size_t>(blocks * 2 * C));
    const auto statistics = [&](const torch::Tensor& rm, const torch::Tensor& rv, const torch::Tensor& weight,
                                const torch::Tensor& bias, double momentum, double eps) {
        return batch_norm_values(l.training ? &moments : nullptr, rows, C, rm, rv, weight, bias, momentum, eps);
    };
    double* m = l.training ? moments.data() : nullptr;
    const float scale_x = one_plus_eps(l);  // read once: item() per block took 4% of δ-2-LGNN's step
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            first_pass<decltype(w), Ci, C>(
                ptr, col, l.x.data_ptr<float>(), l.x2.defined() ? l.x2.data_ptr<float>() : nullptr,
                l.edge.defined() ? l.edge.data_ptr<float>() : nullptr, scale_x, w1t.data_ptr<float>(),
                l.b1.data_ptr<float>(), has_sum(l) ? f.s.data_ptr<float>() : nullptr, f.h1.data_ptr<float>(), r0, n,
                m ? m + b * 2 * C : nullptr);
        });
    });
    f.n1 = statistics(l.rm1, l.rv1, l.g1, l.be1, l.momentum1, l.eps1);
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            second_pass<decltype(w), C>(f.h1.data_ptr<float>(), f.n1.mean.data(), f.n1.scale.data(), f.n1.shift.data(),
                                        w2t.data_ptr<float>(), l.b2.data_ptr<float>(), f.h2.data_ptr<float>(), r0, n,
                                        m ? m + b * 2 * C : nullptr);
        });
    });
    f.n2 = statistics(l.rm2, l.rv2, l.g2, l.be2, l.momentum2, l.eps2);
    for_blocks(rows, [&](std::int64_t, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            third_pass<decltype(w), C>(f.h2.data_ptr<float>(), f.n2.mean.data(), f.n2.scale.data(), f.n2.shift.data(),
                                       extra_of(l), l.residual ? l.x.data_ptr<float>() : nullptr, f.y.data_ptr<float>(),
                                       r0, n);
        });
    });
    return f;
}

struct Grads {
    torch::Tensor x, x2, w1, b1, g1, be1, w2, b2, g2, be2, extra, eps, edge;
};

template <int Ci, int C>
Grads fused_backward(const Layer& l, const Forward& f, const Upstream& gy, bool need_x) {
    const std::int64_t rows = l.x.size(0), blocks = (rows + kBlock - 1) / kBlock;
    const auto* ptr = l.ptr.defined() ? l.ptr.data_ptr<std::int64_t>() : nullptr;
    const auto* col = l.col.defined() ? l.col.data_ptr<std::int64_t>() : nullptr;
    const float* h1 = f.h1.data_ptr<float>();
    const float* h2 = f.h2.data_ptr<float>();
    std::vector<double> norm_blocks(static_cast<std::size_t>(blocks * 2 * C));
    std::vector<double> weight_blocks(static_cast<std::size_t>(blocks * (C * std::max(Ci, C) + C)));
    Grads g;
    const Extra extra = extra_of(l);
    if (extra) g.extra = torch::empty_like(f.h1);
    float* gz2 = extra ? g.extra.data_ptr<float>() : nullptr;

    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            relu_norm_sums<decltype(w), C>(h2, gy, f.n2.mean.data(), f.n2.invstd.data(), f.n2.scale.data(),
                                           f.n2.shift.data(), extra, gz2, r0, n, norm_blocks.data() + b * 2 * C);
        });
    });
    auto sums = sum_blocks(norm_blocks, rows, 2 * C);
    g.be2 = float_tensor(sums, 0, C);
    g.g2 = float_tensor(sums, C, C);
    const NormGrad d2 = norm_grad(sums, f.n2, rows, C);

    auto buffer = torch::empty_like(f.h1);
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            middle_back_pass<decltype(w), C>(gy, h2, h1, f.n2, d2, f.n1, l.w2.data_ptr<float>(), extra,
                                             buffer.data_ptr<float>(), r0, n, weight_blocks.data() + b * (C * C + C),
                                             norm_blocks.data() + b * 2 * C);
        });
    });
    auto weights = sum_blocks(weight_blocks, rows, C * C + C);
    g.w2 = float_tensor(weights, 0, C * C).view({C, C});
    g.b2 = float_tensor(weights, C * C, C);
    sums = sum_blocks(norm_blocks, rows, 2 * C);
    g.be1 = float_tensor(sums, 0, C);
    g.g1 = float_tensor(sums, C, C);
    const NormGrad d1 = norm_grad(sums, f.n1, rows, C);

    // gs = gh1 W1: over gz1 where the widths agree; as x's two halves' gradients where x came so.
    const bool halves = l.x2.defined();
    const auto gs = halves || Ci != C ? torch::empty_like(l.x) : buffer;
    const auto gs2 = halves ? torch::empty_like(l.x2) : torch::Tensor();
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            first_back_pass<decltype(w), Ci, C>(h1, f.s.data_ptr<float>(), halves ? l.x2.data_ptr<float>() : nullptr,
                                                f.n1, d1, l.w1.data_ptr<float>(), buffer.data_ptr<float>(),
                                                gs.data_ptr<float>(), halves ? gs2.data_ptr<float>() : nullptr, r0, n,
                                                weight_blocks.data() + b * (C * Ci + C));
        });
    });
    weights = sum_blocks(weight_blocks, rows, C * Ci + C);
    g.w1 = float_tensor(weights, 0, C * Ci).view({C, Ci});
    g.b1 = float_tensor(weights, C * Ci, C);

    // The gradient of the term's rows where each row is read by the rows that index it.
    if (l.extra_index.defined()) g.extra = gather_rows_backward(g.extra, l.extra_index, l.extra.size(0));
    if (!has_sum(l)) {  // x's gradient is gs itself
        g.x = gs;
        g.x2 = gs2;
        return g;
    }
    // Where x needs no gradient (a first layer's input), the last pass only sums ε's and reads no arcs.
    const bool x_grad = need_x || l.edge.defined();
    if (!x_grad && !l.eps.defined()) return g;
    if (x_grad) g.x = torch::empty_like(l.x);
    std::vector<double> eps_blocks(l.eps.defined() ? static_cast<std::size_t>(blocks) : 0);
    std::vector<double> edge_blocks(l.edge.defined() ? static_cast<std::size_t>(blocks * Ci) : 0);
    const float scale_x = one_plus_eps(l);
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            last_back_pass<decltype(w), Ci>(
                x_grad ? ptr : nullptr, col, gs.data_ptr<float>(), l.x.data_ptr<float>(),
                l.edge.defined() ? l.edge.data_ptr<float>() : nullptr, l.residual ? gy.gy : nullptr, scale_x,
                x_grad ? g.x.data_ptr<float>() : nullptr, r0, n, eps_blocks.empty() ? nullptr : eps_blocks.data() + b,
                edge_blocks.empty() ? nullptr : edge_blocks.data() + b * Ci);
        });
    });
    if (l.eps.defined()) g.eps = float_tensor(sum_blocks(eps_blocks, rows, 1), 0, 1).view(l.eps.sizes());
    if (l.edge.defined()) g.edge = float_tensor(sum_blocks(edge_blocks, rows, Ci), 0, Ci);
    return g;
}

/// fn(Ci, C) for the pairs of widths the kernels are built for: x's width Ci = C or 2C (a
/// concatenation of two layers' outputs), C = 16, 32, 48 or 64, Ci ≤ 64 (checked by the predicate).
template <typename Fn>
auto by_widths(std::int64_t ci, std::int64_t c, Fn&& fn) {
    using I16 = std::integral_constant<int, 16>;
    using I32 = std::integral_constant<int, 32>;
    using I64 = std::integral_constant<int, 64>;
    if (ci == 2 * c) return c == 16 ? fn(I32{}, I16{}) : fn(I64{}, I32{});
    return by_width(c, [&](auto w) { return fn(w, w); });
}

struct FusedGin : torch::autograd::Function<FusedGin> {
    // The tensors that get gradients are arguments (so autograd tracks them); the rest ride in ctx.
    // No extra term (no ε, no second half x2) comes as an empty tensor: LibTorch 1.13's apply()
    // rejects an undefined input; so does a Linear without bias, whose bias the kernels read as
    // zeros. The outputs: y, and its mean as l.mean asks for it (empty when none is).
    static torch::autograd::tensor_list forward(
        torch::autograd::AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& x2, const torch::Tensor& w1,
        const torch::Tensor& b1, const torch::Tensor& g1, const torch::Tensor& be1, const torch::Tensor& w2,
        const torch::Tensor& b2, const torch::Tensor& g2, const torch::Tensor& be2, const torch::Tensor& extra,
        const torch::Tensor& eps, const torch::Tensor& edge, const Layer& rest) {
        Layer l = rest;
        l.x = x.contiguous();
        if (x2.numel() > 0) l.x2 = x2.contiguous();
        if (extra.numel() > 0) l.extra = extra.contiguous();
        if (eps.numel() > 0) l.eps = eps.detach();
        if (edge.numel() > 0) l.edge = edge.detach().reshape({-1}).contiguous();
        const auto bias_or_zeros = [](const torch::Tensor& b, const torch::Tensor& w) {
            return b.numel() > 0 ? b.contiguous() : torch::zeros({w.size(0)}, w.options());
        };
        l.w1 = w1.contiguous();
        l.b1 = bias_or_zeros(b1, w1);
        l.g1 = g1.contiguous();
        l.be1 = be1.contiguous();
        l.w2 = w2.contiguous();
        l.b2 = bias_or_zeros(b2, w2);
        l.g2 = g2.contiguous();
        l.be2 = be2.contiguous();
        Forward f = by_widths(input_width(l), l.w1.size(0), [&](auto ci, auto c) {
            return fused_forward<decltype(ci)::value, decltype(c)::value>(l);
        });
        const Grouping* groups = l.mean.by_group();
        const torch::Tensor group_index = groups ? groups->index : torch::Tensor();
        const torch::Tensor inverse_count = groups ? groups->inverse_count : torch::Tensor();
        ctx->save_for_backward({l.x, l.w1, l.g1, l.w2, l.g2, f.s, f.h1, f.h2, l.ptr, l.col, l.extra, l.eps, l.x2,
                                l.extra_index, group_index, inverse_count, l.edge});
        save_norm(ctx, "1", f.n1);
        save_norm(ctx, "2", f.n2);
        ctx->saved_data["runs"] = l.mean.runs;
        ctx->saved_data["bias1"] = b1.numel() > 0;
        ctx->saved_data["bias2"] = b2.numel() > 0;
        ctx->saved_data["edge_sizes"] = edge.sizes();
        ctx->saved_data["residual"] = l.residual;
        // An output without a gradient (the mean where none is read, y where only its mean is) gets
        // an undefined one, not zeros.
        ctx->set_materialize_grads(false);
        return {f.y, l.mean.asked() ? mean_of(f.y, l.mean) : torch::empty({0}, f.y.options())};
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto saved = ctx->get_saved_variables();
        Layer l;
        l.x = saved[0];
        l.w1 = saved[1];
        l.g1 = saved[2];
        l.w2 = saved[3];
        l.g2 = saved[4];
        l.ptr = saved[8];
        l.col = saved[9];
        l.extra = saved[10];
        l.eps = saved[11];
        l.x2 = saved[12];
        l.extra_index = saved[13];
        l.edge = saved[16];
        l.residual = ctx->saved_data["residual"].toBool();
        Forward f;
        f.s = saved[5];
        f.h1 = saved[6];
        f.h2 = saved[7];
        f.n1 = load_norm(ctx, "1");
        f.n2 = load_norm(ctx, "2");
        // y's gradient and its mean's, either undefined where none came.
        const auto runs = ctx->saved_data["runs"].toInt();
        const auto& group_index = saved[14];
        auto gy = grad[0].defined() ? grad[0].contiguous() : torch::Tensor();
        // q as the backward of the mean makes it: over runs LibTorch's mean, a float division
        // (correctly rounded); per group group_mean's product by 1 / count.
        torch::Tensor q;
        if (grad[1].defined() && runs > 0) q = grad[1].contiguous() / static_cast<double>(runs);
        if (grad[1].defined() && group_index.defined()) q = (grad[1] * saved[15]).contiguous();
        if (!gy.defined() && !q.defined()) gy = torch::zeros({l.x.size(0), l.w1.size(0)}, l.x.options());
        const Upstream up{gy.defined() ? gy.data_ptr<float>() : nullptr, q.defined() ? q.data_ptr<float>() : nullptr,
                          q.defined() ? q.size(0) : 0,
                          q.defined() && group_index.defined() ? group_index.data_ptr<std::int64_t>() : nullptr};
        const Grads g = by_widths(input_width(l), l.w1.size(0), [&](auto ci, auto c) {
            return fused_backward<decltype(ci)::value, decltype(c)::value>(l, f, up, ctx->needs_input_grad(0));
        });
        // No gradient for a bias that is not there; edge's in the shape it came in.
        const auto b1 = ctx->saved_data["bias1"].toBool() ? g.b1 : torch::Tensor();
        const auto b2 = ctx->saved_data["bias2"].toBool() ? g.b2 : torch::Tensor();
        const auto edge = g.edge.defined() ? g.edge.view(ctx->saved_data["edge_sizes"].toIntVector()) : torch::Tensor();
        return {g.x, g.x2, g.w1, b1, g.g1, g.be1, g.w2, b2, g.g2, g.be2, g.extra, g.eps, edge, torch::Tensor()};
    }
};

}  // namespace

namespace {

/// gin_bn_layer_fused for an input of x's rows, type and device and `ci` columns (the first weight's),
/// which the kernel reads `padded` wide where x gets zero columns (0: as they are).
bool fits(const torch::Tensor& x, std::int64_t ci, const GinBnModules& m, const torch::Tensor& eps,
          std::int64_t padded) {
    const auto& w1 = m.first->weight;
    const auto c = w1.dim() == 2 ? w1.size(0) : 0;
    const auto shape = [](const torch::Tensor& w, std::int64_t out, std::int64_t in) {
        return w.dim() == 2 && w.size(0) == out && w.size(1) == in;
    };
    const auto k = padded ? padded : ci;  // the width the kernel reads
    const bool widths = (c == 16 || c == 32 || c == 48 || c == 64) && (k == c || (k == 2 * c && k <= 64)) &&
                        shape(w1, c, ci) && shape(m.second->weight, c, c);
    const auto affine = [](const torch::nn::BatchNorm1d& bn) {
        const auto& o = bn->options;
        return o.affine() && o.track_running_stats() && o.momentum().has_value();
    };
    const bool training = m.norm2->is_training();
    const bool eps_fits =
        !eps.defined() || (eps.numel() == 1 && eps.device().is_cpu() && eps.scalar_type() == torch::kFloat);
    return x.device().is_cpu() && x.scalar_type() == torch::kFloat && widths && x.dim() == 2 && x.size(0) > 1 &&
           affine(m.norm1) && affine(m.norm2) && m.norm1->is_training() == training && eps_fits &&
           (training || !torch::GradMode::is_enabled());
}

/// The MLP's width where pad_input pads x (a GIN's whole x, narrower than the MLP); else 0.
std::int64_t padded_width(const torch::Tensor& x, const GinBnModules& m, bool pad_input) {
    const std::int64_t c = m.first->weight.dim() == 2 ? m.first->weight.size(0) : 0;
    return pad_input && x.dim() == 2 && x.size(1) >= 1 && x.size(1) < c ? c : 0;
}

}  // namespace

bool gin_bn_layer_fused(const torch::Tensor& x, const GinBnModules& m, const torch::Tensor& eps, bool pad_input) {
    return fits(x, x.dim() == 2 ? x.size(1) : 0, m, eps, padded_width(x, m, pad_input));
}

// Only the BatchNorms read the training flag, and the modules' predicate checks that they agree.
bool gin_bn_layer_fused(const torch::Tensor& x, BnMlp& mlp, torch::nn::BatchNorm1d& norm) {
    return gin_bn_layer_fused(x, GinBnModules{mlp->first, mlp->norm, mlp->second, norm});
}

namespace {

/// gin_bn_layer over `adj`, or without the GIN's sum where `adj` is null; then x may come as two
/// halves of columns, x and x2 (undefined: x is whole). With `edge`, GINE's messages
/// relu(x_u + edge) are summed instead of x_u; with `residual`, the output is x + the layer's.
/// It returns the output and the mean `mean` asks for (undefined if none).
torch::autograd::tensor_list layer(const torch::Tensor& x, const torch::Tensor& x2, const Adjacency* adj,
                                   const GinBnModules& m, bool fused, const std::function<torch::Tensor()>& extra,
                                   const torch::Tensor& eps, const torch::Tensor& extra_index = {},
                                   const MeanOf& mean = {}, const torch::Tensor& edge = {}, bool residual = false,
                                   bool pad_input = false) {
    // The term as the modules add it: extra()'s rows, or with extra_index those rows gathered.
    const auto term_of = [&](const torch::Tensor& e) {
        return extra_index.defined() ? gather_rows(e, extra_index) : e;
    };
    const auto with_mean = [&](const torch::Tensor& y) -> torch::autograd::tensor_list {
        return {y, mean_of(y, mean)};
    };
    const auto modules = [&](const torch::Tensor& term) {
        torch::Tensor s = x2.defined() ? torch::cat({x, x2}, 1) : x;
        if (adj) {
            // What the neighbours send: x itself, or GINE's messages relu(x + edge).
            const auto messages = [&] { return edge.defined() ? torch::relu(x + edge) : x; };
            s = eps.defined() ? (1 + eps) * x + neighbour_sum(messages(), *adj) : x + neighbour_sum(messages(), *adj);
        }
        const auto z = m.norm2->forward(m.second->forward(torch::relu(m.norm1->forward(m.first->forward(s)))));
        const auto y = torch::relu(term.defined() ? z + term : extra ? z + term_of(extra()) : z);
        return residual ? x + y : y;
    };
    const bool halves_fit =
        !x2.defined() || (x2.dim() == 2 && x.dim() == 2 && x2.size(0) == x.size(0) && x2.size(1) == x.size(1) &&
                          x2.device() == x.device() && x2.scalar_type() == x.scalar_type());
    const std::int64_t ci = x.dim() == 2 ? x.size(1) + (x2.defined() ? x2.size(1) : 0) : 0;
    const bool edge_fits = !edge.defined() || (adj && !x2.defined() && edge.numel() == ci && edge.device().is_cpu() &&
                                               edge.scalar_type() == torch::kFloat);
    const bool residual_fits = !residual || (adj && !x2.defined() && !mean.asked() && ci == m.first->weight.size(0));
    // With pad_input, a narrower x (a first layer's features) and the first weight get zero columns up
    // to the MLP's width; the products by those zeros add exact zeros.
    const std::int64_t c = adj && !x2.defined() && !edge.defined() && !residual ? padded_width(x, m, pad_input) : 0;
    if (!fused || !halves_fit || !edge_fits || !residual_fits || !fits(x, ci, m, eps, c)) return with_mean(modules({}));
    const torch::Tensor xp = c ? torch::constant_pad_nd(x, {0, c - ci}) : x;
    const torch::Tensor w1 = c ? torch::constant_pad_nd(m.first->weight, {0, c - ci}) : m.first->weight;
    const torch::Tensor e = extra ? extra() : torch::Tensor();
    const std::vector<std::int64_t> out{x.size(0), m.first->weight.size(0)};
    if (e.defined() && extra_index.defined()) {
        const auto& i = extra_index;
        const bool index_fits = i.dim() == 1 && i.size(0) == x.size(0) && i.scalar_type() == torch::kLong &&
                                i.device() == x.device() && e.dim() == 2 && e.size(0) > 0 && e.size(1) == out[1] &&
                                e.device() == x.device() && e.scalar_type() == x.scalar_type() &&
                                i.min().item<std::int64_t>() >= 0 && i.max().item<std::int64_t>() < e.size(0);
        if (!index_fits) return with_mean(modules(term_of(e)));
    } else if (e.defined() && (e.sizes() != out || e.device() != x.device() || e.scalar_type() != x.scalar_type())) {
        return with_mean(modules(e));
    }
    if (adj && x.size(0) != adj->rows)
        throw InvalidArgument("gin_bn_layer: " + std::to_string(x.size(0)) + " rows for an adjacency of " +
                              std::to_string(adj->rows));
    Layer l;
    if (adj) {
        l.ptr = adj->row_ptr;
        l.col = adj->col;
    }
    l.rm1 = m.norm1->running_mean;
    l.rv1 = m.norm1->running_var;
    l.rm2 = m.norm2->running_mean;
    l.rv2 = m.norm2->running_var;
    l.momentum1 = *m.norm1->options.momentum();
    l.eps1 = m.norm1->options.eps();
    l.momentum2 = *m.norm2->options.momentum();
    l.eps2 = m.norm2->options.eps();
    l.training = m.norm2->is_training();
    l.mean = mean;
    l.residual = residual;
    if (e.defined() && extra_index.defined()) l.extra_index = extra_index.contiguous();
    if (l.training) {
        torch::NoGradGuard no_grad;
        m.norm1->num_batches_tracked += 1;
        m.norm2->num_batches_tracked += 1;
    }
    const auto none = torch::empty({0}, x.options());
    const auto or_none = [&](const torch::Tensor& t) { return t.defined() ? t : none; };
    auto outputs = FusedGin::apply(xp, or_none(x2), w1, or_none(m.first->bias), m.norm1->weight, m.norm1->bias,
                                   m.second->weight, or_none(m.second->bias), m.norm2->weight, m.norm2->bias,
                                   or_none(e), or_none(eps), or_none(edge), l);
    if (!mean.asked()) outputs[1] = torch::Tensor();
    return outputs;
}

}  // namespace

torch::Tensor gin_bn_layer(const torch::Tensor& x, const Adjacency& adj, const GinBnModules& m, bool fused,
                           const std::function<torch::Tensor()>& extra, const torch::Tensor& eps, bool pad_input) {
    return layer(x, {}, &adj, m, fused, extra, eps, {}, {}, {}, false, pad_input)[0];
}

torch::Tensor gine_bn_layer(const torch::Tensor& x, const Adjacency& adj, const GinBnModules& m,
                            const torch::Tensor& edge, const torch::Tensor& eps, bool residual, bool fused) {
    return layer(x, {}, &adj, m, fused, {}, eps, {}, {}, edge, residual)[0];
}

torch::Tensor bn_mlp_layer(const torch::Tensor& x, const GinBnModules& m, bool fused) {
    return layer(x, {}, nullptr, m, fused, {}, {})[0];
}

torch::Tensor bn_mlp_layer(const torch::Tensor& a, const torch::Tensor& b, const GinBnModules& m, bool fused) {
    return layer(a, b, nullptr, m, fused, {}, {})[0];
}

torch::Tensor gin_bn_layer(const torch::Tensor& x, const Adjacency& adj, BnMlp& mlp, torch::nn::BatchNorm1d& norm,
                           bool fused, const std::function<torch::Tensor()>& extra, const torch::Tensor& extra_index) {
    return layer(x, {}, &adj, GinBnModules{mlp->first, mlp->norm, mlp->second, norm}, fused, extra, {}, extra_index)[0];
}

std::pair<torch::Tensor, torch::Tensor> gin_bn_layer_and_mean(const torch::Tensor& x, const Adjacency& adj, BnMlp& mlp,
                                                              torch::nn::BatchNorm1d& norm, std::int64_t runs,
                                                              bool fused) {
    if (runs <= 0 || x.dim() != 2 || x.size(0) % runs != 0)
        throw InvalidArgument("gin_bn_layer_and_mean: " + std::to_string(x.dim() == 2 ? x.size(0) : 0) +
                              " rows are not " + std::to_string(runs) + " equal blocks");
    const auto out =
        layer(x, {}, &adj, GinBnModules{mlp->first, mlp->norm, mlp->second, norm}, fused, {}, {}, {}, MeanOf{runs});
    return {out[0], out[1]};
}

std::pair<torch::Tensor, torch::Tensor> gin_bn_layer_and_group_mean(const torch::Tensor& x, const Adjacency& adj,
                                                                    BnMlp& mlp, torch::nn::BatchNorm1d& norm,
                                                                    const Grouping& groups, bool fused,
                                                                    const std::function<torch::Tensor()>& extra,
                                                                    const torch::Tensor& extra_index) {
    const auto out = layer(x, {}, &adj, GinBnModules{mlp->first, mlp->norm, mlp->second, norm}, fused, extra, {},
                           extra_index, MeanOf{0, &groups});
    return {out[0], out[1]};
}

}  // namespace brec::nn
