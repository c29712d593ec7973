#include "brec/nn/softmax_readout.hpp"

#include <ATen/Parallel.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace brec::nn {

namespace {

/// The weights' denominator gets this added, as PyG's softmax does (an all-underflow group reads 0).
constexpr float kTiny = 1e-16f;

float dot(const float* a, const float* b, std::int64_t width) {
    float s = 0;
    for (std::int64_t h = 0; h < width; ++h) s += a[h] * b[h];
    return s;
}

/// One group's rows (`rows`, `count` of them): writes a_i into `weights` and r into `out`.
void group_forward(const float* x, const float* q, const std::int64_t* rows, std::int64_t count, std::int64_t width,
                   float* weights, float* out, std::vector<double>& acc) {
    float shift = -std::numeric_limits<float>::infinity();
    for (std::int64_t k = 0; k < count; ++k) {
        const float e = dot(x + rows[k] * width, q, width);
        weights[rows[k]] = e;
        if (e > shift) shift = e;
    }
    // The denominator in float, in row order, as LibTorch's index_add_ sums it: its rounding then
    // depends on the order of the rows (a relabeling's), as in the released code. Exact sums here
    // make every relabeling of a small graph embed to the same bits, the covariance of the
    // reference protocol exactly 0 and its pseudo-inverse 0: no pair separated.
    float sum = 0;
    for (std::int64_t k = 0; k < count; ++k) {
        const float ex = std::exp(weights[rows[k]] - shift);
        weights[rows[k]] = ex;
        sum += ex;
    }
    const float denominator = sum + kTiny;
    acc.assign(static_cast<std::size_t>(width), 0.0);
    for (std::int64_t k = 0; k < count; ++k) {
        const float a = weights[rows[k]] / denominator;
        weights[rows[k]] = a;
        const float* xi = x + rows[k] * width;
        for (std::int64_t h = 0; h < width; ++h) acc[h] += static_cast<double>(a) * xi[h];
    }
    for (std::int64_t h = 0; h < width; ++h) out[h] = static_cast<float>(acc[h]);
}

/// One group's gradients: with d_i = ⟨x_i, dr⟩ and c = Σ a_i d_i, de_i = a_i (d_i − c) (the
/// softmax's Jacobian, exact with the 10⁻¹⁶ too), dx_i = a_i dr + de_i q, dq = Σ de_i x_i. `d` and
/// `acc` are the calling thread's buffers.
void group_backward(const float* x, const float* q, const float* weights, const float* dr, const std::int64_t* rows,
                    std::int64_t count, std::int64_t width, float* dx, float* dq, std::vector<float>& d,
                    std::vector<double>& acc) {
    d.resize(static_cast<std::size_t>(count));
    double c = 0;
    for (std::int64_t k = 0; k < count; ++k) {
        d[k] = dot(x + rows[k] * width, dr, width);
        c += static_cast<double>(weights[rows[k]]) * d[k];
    }
    const auto cf = static_cast<float>(c);
    acc.assign(static_cast<std::size_t>(width), 0.0);
    for (std::int64_t k = 0; k < count; ++k) {
        const float* xi = x + rows[k] * width;
        float* dxi = dx + rows[k] * width;
        const float a = weights[rows[k]];
        const float de = a * (d[k] - cf);
        for (std::int64_t h = 0; h < width; ++h) {
            dxi[h] = a * dr[h] + de * q[h];
            acc[h] += static_cast<double>(de) * xi[h];
        }
    }
    for (std::int64_t h = 0; h < width; ++h) dq[h] = static_cast<float>(acc[h]);
}

struct SoftmaxReadout : torch::autograd::Function<SoftmaxReadout> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x_in,
                                 const torch::Tensor& q_in, const torch::Tensor& ptr, const torch::Tensor& members) {
        const auto x = x_in.contiguous(), q = q_in.contiguous();
        const std::int64_t groups = q.size(0), width = q.size(1);
        auto weights = torch::empty({x.size(0)}, x.options());
        auto r = torch::empty({groups, width}, x.options());
        const auto* p = ptr.data_ptr<std::int64_t>();
        const auto* m = members.data_ptr<std::int64_t>();
        at::parallel_for(0, groups, 1, [&](std::int64_t g0, std::int64_t g1) {
            std::vector<double> acc;
            for (std::int64_t g = g0; g < g1; ++g)
                group_forward(x.data_ptr<float>(), q.data_ptr<float>() + g * width, m + p[g], p[g + 1] - p[g], width,
                              weights.data_ptr<float>(), r.data_ptr<float>() + g * width, acc);
        });
        ctx->save_for_backward({x, q, weights, ptr, members});
        return r;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto s = ctx->get_saved_variables();
        const auto &x = s[0], &q = s[1], &weights = s[2], &ptr = s[3], &members = s[4];
        const auto dr = grad[0].contiguous();
        const std::int64_t groups = q.size(0), width = q.size(1);
        // Rows of no group get no gradient.
        auto dx = torch::zeros_like(x);
        auto dq = torch::empty_like(q);
        const auto* p = ptr.data_ptr<std::int64_t>();
        const auto* m = members.data_ptr<std::int64_t>();
        at::parallel_for(0, groups, 1, [&](std::int64_t g0, std::int64_t g1) {
            std::vector<float> d;
            std::vector<double> acc;
            for (std::int64_t g = g0; g < g1; ++g)
                group_backward(x.data_ptr<float>(), q.data_ptr<float>() + g * width, weights.data_ptr<float>(),
                               dr.data_ptr<float>() + g * width, m + p[g], p[g + 1] - p[g], width, dx.data_ptr<float>(),
                               dq.data_ptr<float>() + g * width, d, acc);
        });
        return {dx, dq, torch::Tensor(), torch::Tensor()};
    }
};

bool fits(const torch::Tensor& x, const torch::Tensor& query, const Grouping& g) {
    const auto cpu_float = [](const torch::Tensor& t) {
        return t.device().is_cpu() && t.scalar_type() == torch::kFloat;
    };
    return cpu_float(x) && cpu_float(query) && x.dim() == 2 && query.dim() == 2 && query.size(0) == g.groups &&
           query.size(1) == x.size(1) && g.ptr.defined() && g.members.numel() == x.size(0);
}

}  // namespace

torch::Tensor softmax_readout(const torch::Tensor& x, const torch::Tensor& query, const Grouping& g, bool fused) {
    if (fused && fits(x, query, g)) return SoftmaxReadout::apply(x, query, g.ptr, g.members);
    const auto e = (x * gather_rows(query, g.index)).sum(1, /*keepdim=*/true);
    // The group's maximum is a constant shift, as PyG's softmax detaches it.
    const auto shift = scatter_max(e.detach(), g.index, g.groups).index_select(0, g.index);
    const auto ex = (e - shift).exp();
    const auto a = ex / gather_rows(scatter_sum(ex, g.index, g.groups) + 1e-16, g.index);
    return group_sum(a * x, g);
}

}  // namespace brec::nn
