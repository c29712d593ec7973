#include "brec/nn/fused_gru.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdint>

#include "nn/simd.hpp"

namespace brec::nn {

namespace {

using W = simd::Width<8>;
using Vec = W::Vec;
using VecI = W::VecI;
constexpr int kLanes = W::kLanes;

/// e^x: x = k ln 2 + r with |r| <= ln 2 / 2 (ln 2 in two parts, so r is nearly exact), e^r by
/// Cephes' expf polynomial, times 2^k through the exponent bits (2^127 · 2 for k = 128). Below
/// −87.3 it gives 0 (no subnormal results), above ln(FLT_MAX) +inf; NaN stays NaN.
BREC_SIMD_INLINE Vec exp(Vec x) {
    const VecI under = x<W::splat(-87.3f), over = x> W::splat(88.72f);
    x = W::select(under | over, Vec{}, x);
    const Vec fk = x * W::splat(1.44269504088896341f) + W::splat(0.5f);
    VecI k = __builtin_convertvector(fk, VecI);
    k += __builtin_convertvector(k, Vec) > fk;  // truncation toward zero made floor (true is −1)
    const Vec kf = __builtin_convertvector(k, Vec);
    const Vec r = x - kf * W::splat(0.693359375f) - kf * W::splat(-2.12194440e-4f);
    Vec p = W::splat(1.9875691500e-4f);
    p = p * r + W::splat(1.3981999507e-3f);
    p = p * r + W::splat(8.3334519073e-3f);
    p = p * r + W::splat(4.1665795894e-2f);
    p = p * r + W::splat(1.6666665459e-1f);
    p = p * r + W::splat(5.0000001201e-1f);
    const Vec er = p * r * r + r + W::splat(1.0f);
    const VecI top = k > 127;
    const Vec e = er * reinterpret_cast<Vec>((k + top + 127) << 23);
    return W::select(under, Vec{}, W::select(over, W::splat(__builtin_inff()), W::select(top, e + e, e)));
}

/// σ(x) = 1 / (1 + e^−x), as LibTorch writes it.
BREC_SIMD_INLINE Vec sigmoid(Vec x) { return W::splat(1.0f) / (W::splat(1.0f) + exp(-x)); }

/// tanh x: for |x| < 0.625 x + x³ P(x²) (Cephes' tanhf coefficients), which keeps the relative
/// accuracy near 0; else sign(x) (1 − 2 / (e^2|x| + 1)).
BREC_SIMD_INLINE Vec tanh(Vec x) {
    const VecI negative = x < Vec{};
    const Vec a = W::select(negative, -x, x);
    const Vec far = W::splat(1.0f) - W::splat(2.0f) / (exp(a + a) + W::splat(1.0f));
    const Vec s = x * x;
    Vec p = W::splat(-5.70498872745e-3f);
    p = p * s + W::splat(2.06390887954e-2f);
    p = p * s + W::splat(-5.37397155531e-2f);
    p = p * s + W::splat(1.33314422036e-1f);
    p = p * s + W::splat(-3.33332819422e-1f);
    const Vec near = p * s * x + x;
    return W::select(a < W::splat(0.625f), near, W::select(negative, -far, far));
}

/// Rows [r0, r1): gi, gh [rows, 3H]; h [rows, H]; y [rows, H]; saved [rows, 4H] = r, z, n, gh_n, or
/// null where nothing will go back (no autograd graph).
BREC_SIMD_KERNEL void gates_forward(const float* gi, const float* gh, const float* h, float* y, float* saved,
                                    std::int64_t width, std::int64_t r0, std::int64_t r1) {
    const std::int64_t w = width;
    for (std::int64_t row = r0; row < r1; ++row) {
        const float *i = gi + row * 3 * w, *g = gh + row * 3 * w, *hr = h + row * w;
        float *out = y + row * w, *s = saved ? saved + row * 4 * w : nullptr;
        for (std::int64_t at = 0; at < w; at += kLanes) {
            const std::int64_t n = std::min<std::int64_t>(kLanes, w - at);
            const Vec r = sigmoid(W::load(i + at, n) + W::load(g + at, n));
            const Vec z = sigmoid(W::load(i + w + at, n) + W::load(g + w + at, n));
            const Vec ghn = W::load(g + 2 * w + at, n);
            const Vec c = tanh(W::load(i + 2 * w + at, n) + r * ghn);
            W::store(out + at, c + z * (W::load(hr + at, n) - c), n);
            if (!saved) continue;
            W::store(s + at, r, n);
            W::store(s + w + at, z, n);
            W::store(s + 2 * w + at, c, n);
            W::store(s + 3 * w + at, ghn, n);
        }
    }
}

/// Rows [r0, r1): from dL/dh' (gy) the gradients of gi, gh ([rows, 3H]) and h's direct one.
BREC_SIMD_KERNEL void gates_backward(const float* gy, const float* saved, const float* h, float* dgi, float* dgh,
                                     float* dh, std::int64_t width, std::int64_t r0, std::int64_t r1) {
    const std::int64_t w = width;
    const Vec one = W::splat(1.0f);
    for (std::int64_t row = r0; row < r1; ++row) {
        const float *s = saved + row * 4 * w, *hr = h + row * w, *gr = gy + row * w;
        float *di = dgi + row * 3 * w, *dg = dgh + row * 3 * w, *dhr = dh + row * w;
        for (std::int64_t at = 0; at < w; at += kLanes) {
            const std::int64_t n = std::min<std::int64_t>(kLanes, w - at);
            const Vec r = W::load(s + at, n), z = W::load(s + w + at, n), c = W::load(s + 2 * w + at, n);
            const Vec ghn = W::load(s + 3 * w + at, n), g = W::load(gr + at, n);
            W::store(dhr + at, g * z, n);
            const Vec dc = g * (one - z) * (one - c * c);
            const Vec dz = g * (W::load(hr + at, n) - c) * (one - z) * z;
            const Vec dr = dc * ghn * (one - r) * r;
            W::store(di + at, dr, n);
            W::store(dg + at, dr, n);
            W::store(di + w + at, dz, n);
            W::store(dg + w + at, dz, n);
            W::store(di + 2 * w + at, dc, n);
            W::store(dg + 2 * w + at, dc * r, n);
        }
    }
}

/// Rows per task of LibTorch's thread pool.
constexpr std::int64_t kGrain = 256;

/// h' from the gate products and h; `saved`, when given, [rows, 4H] for the backward pass.
torch::Tensor gates(const torch::Tensor& gi_in, const torch::Tensor& gh_in, const torch::Tensor& h, float* saved) {
    const auto gi = gi_in.contiguous(), gh = gh_in.contiguous();
    auto y = torch::empty_like(h);
    at::parallel_for(0, h.size(0), kGrain, [&](std::int64_t r0, std::int64_t r1) {
        gates_forward(gi.data_ptr<float>(), gh.data_ptr<float>(), h.data_ptr<float>(), y.data_ptr<float>(), saved,
                      h.size(1), r0, r1);
    });
    return y;
}

struct GruGates : torch::autograd::Function<GruGates> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& gi,
                                 const torch::Tensor& gh, const torch::Tensor& h_in) {
        const auto h = h_in.contiguous();
        auto saved = torch::empty({h.size(0), 4 * h.size(1)}, h.options());
        auto y = gates(gi, gh, h, saved.data_ptr<float>());
        ctx->save_for_backward({saved, h});
        return y;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto s = ctx->get_saved_variables();
        const auto& saved = s[0];
        const auto& h = s[1];
        const auto gy = grad[0].contiguous();
        const std::int64_t rows = h.size(0), width = h.size(1);
        auto dgi = torch::empty({rows, 3 * width}, h.options());
        auto dgh = torch::empty_like(dgi);
        auto dh = torch::empty_like(h);
        at::parallel_for(0, rows, kGrain, [&](std::int64_t r0, std::int64_t r1) {
            gates_backward(gy.data_ptr<float>(), saved.data_ptr<float>(), h.data_ptr<float>(), dgi.data_ptr<float>(),
                           dgh.data_ptr<float>(), dh.data_ptr<float>(), width, r0, r1);
        });
        return {dgi, dgh, dh};
    }
};

/// Whether the fused path applies. The biases need no shape check: addmm broadcasts them to
/// [rows, 3H] or throws, as torch::gru_cell's linear does, so the gates always see [rows, 3H].
bool fits(const torch::Tensor& input, const torch::Tensor& hidden, const torch::Tensor& w_ih, const torch::Tensor& w_hh,
          const torch::Tensor& b_ih, const torch::Tensor& b_hh) {
    const auto cpu_float = [](const torch::Tensor& t) {
        return t.defined() && t.device().is_cpu() && t.scalar_type() == torch::kFloat;
    };
    return cpu_float(input) && cpu_float(hidden) && cpu_float(w_ih) && cpu_float(w_hh) && cpu_float(b_ih) &&
           cpu_float(b_hh) && input.dim() == 2 && hidden.dim() == 2 && input.size(0) == hidden.size(0) &&
           w_ih.dim() == 2 && w_ih.size(0) == 3 * hidden.size(1) && w_hh.dim() == 2 &&
           w_hh.size(0) == 3 * hidden.size(1);
}

}  // namespace

torch::Tensor gru_cell(const torch::Tensor& input, const torch::Tensor& hidden, const torch::Tensor& w_ih,
                       const torch::Tensor& w_hh, const torch::Tensor& b_ih, const torch::Tensor& b_hh, bool fused) {
    if (!fused || !fits(input, hidden, w_ih, w_hh, b_ih, b_hh))
        return torch::gru_cell(input, hidden, w_ih, w_hh, b_ih, b_hh);
    // torch::gru_cell's own products (linear: addmm with the transposed weight), so the same bits.
    const auto gi = torch::addmm(b_ih, input, w_ih.t());
    const auto gh = torch::addmm(b_hh, hidden, w_hh.t());
    // Inference (or a graph that reaches none of the inputs): nothing to save for a backward pass.
    if (!torch::GradMode::is_enabled() || !(gi.requires_grad() || gh.requires_grad() || hidden.requires_grad()))
        return gates(gi, gh, hidden.contiguous(), nullptr);
    return GruGates::apply(gi, gh, hidden);
}

}  // namespace brec::nn
