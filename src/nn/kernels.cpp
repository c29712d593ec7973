#include "nn/kernels.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <limits>
#include <vector>

#include <ATen/Parallel.h>

#include "brec/core/error.hpp"
#include "brec/nn/device.hpp"

namespace brec::nn_kernels {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

/// Fortran BLAS sgemm (column-major), as every BLAS exports it.
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                         const int*, const float*, const int*, const float*, float*, const int*);

SgemmFn resolve_sgemm() {
    auto* f = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
    if (f == nullptr) return nullptr;
    // The kernels parallelise over independent products; a BLAS that threads every small call
    // itself spins its own pool against ours (measured 4-5x slower at n = 198 under load).
    set_blas_threads(1);
    return f;
}

SgemmFn sgemm() {
    static const SgemmFn f = resolve_sgemm();
    return f;
}

/// Row-major C[m×n] = alpha · op(A)[m×k] · op(B)[k×n] + beta · C, via column-major sgemm on the
/// transposed problem (Cᵀ = op(B)ᵀ op(A)ᵀ).
void gemm_rm(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
             float beta, float* c, int ldc) {
    const char cta = ta ? 'T' : 'N', ctb = tb ? 'T' : 'N';
    sgemm()(&ctb, &cta, &n, &m, &k, &alpha, b, &ldb, a, &lda, &beta, c, &ldc);
}

/// Columns per chunk of the pointwise products: fixed, so sums do not depend on threads.
constexpr std::int64_t kChunk = 4096;

int as_int(std::int64_t v) {
    if (v > std::numeric_limits<int>::max()) throw ResourceLimit("tensor dimension exceeds the BLAS int range");
    return static_cast<int>(v);
}

/// Sum of len floats in 8 interleaved float lanes (vectorised; a chunk is at most kChunk long, so
/// the float partial sums lose nothing that matters), combined in double in a fixed order.
double chunk_sum(const float* x, std::int64_t len) {
    float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::int64_t j = 0;
    for (; j + 8 <= len; j += 8)
        for (int l = 0; l < 8; ++l) lanes[l] += x[j + l];
    double s = 0.0;
    for (float v : lanes) s += v;
    for (; j < len; ++j) s += x[j];
    return s;
}

/// y[out, P] = w[:, :c1] · x1[c1, P] + w[:, c1:] · x2[c2, P] + bias, optionally followed by ReLU,
/// in fixed column chunks (x2 = nullptr when c2 = 0; w has leading dimension c1 + c2).
void pointwise_forward(const Tensor& w, const Tensor& bias, const Tensor& x1, const Tensor& x2, bool relu, Tensor& y) {
    const std::int64_t out = w.size(0), ld = w.size(1), c1 = x1.size(0), p = x1.size(1);
    const std::int64_t c2 = x2.defined() ? x2.size(0) : 0;
    const float *pw = w.data_ptr<float>(), *pb = bias.data_ptr<float>(), *px1 = x1.data_ptr<float>();
    const float* px2 = c2 ? x2.data_ptr<float>() : nullptr;
    float* py = y.data_ptr<float>();
    const std::int64_t chunks = (p + kChunk - 1) / kChunk;
    at::parallel_for(0, chunks, 1, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t k = lo; k < hi; ++k) {
            const std::int64_t c0 = k * kChunk, len = std::min(kChunk, p - c0);
            for (std::int64_t o = 0; o < out; ++o) std::fill_n(py + o * p + c0, len, pb[o]);
            gemm_rm(false, false, as_int(out), as_int(len), as_int(c1), 1.0f, pw, as_int(ld), px1 + c0, as_int(p), 1.0f,
                    py + c0, as_int(p));
            if (c2)
                gemm_rm(false, false, as_int(out), as_int(len), as_int(c2), 1.0f, pw + c1, as_int(ld), px2 + c0,
                        as_int(p), 1.0f, py + c0, as_int(p));
            if (relu)
                for (std::int64_t o = 0; o < out; ++o) {
                    float* row = py + o * p + c0;
                    for (std::int64_t j = 0; j < len; ++j) row[j] = std::max(row[j], 0.0f);
                }
        }
    });
}

/// gw = Σ_k part_w[k] (parts of `size` floats) and gb[o] = Σ_k part_b[k·out + o], summed over the
/// parts in the order k = 0, 1, ..., so that the result does not depend on how the parts were
/// spread over threads. An empty part vector leaves its gradient alone.
void sum_parts(const std::vector<float>& part_w, const std::vector<double>& part_b, std::int64_t parts,
               std::int64_t size, std::int64_t out, float* pgw, float* pgb) {
    if (!part_w.empty())
        for (std::int64_t k = 0; k < parts; ++k) {
            const float* src = part_w.data() + k * size;
            for (std::int64_t i = 0; i < size; ++i) pgw[i] += src[i];
        }
    if (!part_b.empty())
        for (std::int64_t o = 0; o < out; ++o) {
            double sum = 0.0;
            for (std::int64_t k = 0; k < parts; ++k) sum += part_b[static_cast<std::size_t>(k * out + o)];
            pgb[o] = static_cast<float>(sum);
        }
}

/// Gradients of pointwise_forward (before any ReLU) for the output gradient gy [out, P]:
/// gw = gy · [x1; x2]ᵀ, gb = row sums of gy, gx1 = w[:, :c1]ᵀ · gy, gx2 = w[:, c1:]ᵀ · gy (each only
/// when wanted). Per-chunk partial sums are reduced in a fixed order: the result does not depend
/// on the number of threads.
tensor_list pointwise_backward(const Tensor& w, const Tensor& x1, const Tensor& x2, const Tensor& gy, bool need_x1,
                               bool need_x2) {
    const std::int64_t out = w.size(0), ld = w.size(1), c1 = x1.size(0), p = x1.size(1);
    const std::int64_t c2 = x2.defined() ? x2.size(0) : 0;
    need_x2 = need_x2 && c2;
    const std::int64_t chunks = (p + kChunk - 1) / kChunk;
    const float *pw = w.data_ptr<float>(), *pg = gy.data_ptr<float>(), *px1 = x1.data_ptr<float>();
    const float* px2 = c2 ? x2.data_ptr<float>() : nullptr;
    Tensor gx1, gx2;
    if (need_x1) gx1 = torch::empty_like(x1);
    if (need_x2) gx2 = torch::empty_like(x2);
    std::vector<float> part_w(static_cast<std::size_t>(chunks * out * ld));
    std::vector<double> part_b(static_cast<std::size_t>(chunks * out));
    at::parallel_for(0, chunks, 1, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t k = lo; k < hi; ++k) {
            const std::int64_t c0 = k * kChunk, len = std::min(kChunk, p - c0);
            float* pwk = part_w.data() + k * out * ld;
            gemm_rm(false, true, as_int(out), as_int(c1), as_int(len), 1.0f, pg + c0, as_int(p), px1 + c0, as_int(p),
                    0.0f, pwk, as_int(ld));
            if (c2)
                gemm_rm(false, true, as_int(out), as_int(c2), as_int(len), 1.0f, pg + c0, as_int(p), px2 + c0,
                        as_int(p), 0.0f, pwk + c1, as_int(ld));
            for (std::int64_t o = 0; o < out; ++o)
                part_b[static_cast<std::size_t>(k * out + o)] = chunk_sum(pg + o * p + c0, len);
            if (need_x1)
                gemm_rm(true, false, as_int(c1), as_int(len), as_int(out), 1.0f, pw, as_int(ld), pg + c0, as_int(p),
                        0.0f, gx1.data_ptr<float>() + c0, as_int(p));
            if (need_x2)
                gemm_rm(true, false, as_int(c2), as_int(len), as_int(out), 1.0f, pw + c1, as_int(ld), pg + c0,
                        as_int(p), 0.0f, gx2.data_ptr<float>() + c0, as_int(p));
        }
    });
    auto gw = torch::zeros_like(w);
    auto gb = torch::zeros({out}, w.options());
    sum_parts(part_w, part_b, chunks, out * ld, out, gw.data_ptr<float>(), gb.data_ptr<float>());
    return {gw, gb, gx1, gx2};
}

/// c[i] = op(a[i]) · op(b[i]) for i < count, op(a[i]) [m×k] and op(b[i]) [k×n]: stacks of
/// contiguous row-major matrices (a[i] stored [m×k], or [k×m] when ta; b[i] stored [k×n], or [n×k]
/// when tb; c[i] [m×n]), one single-threaded sgemm per matrix, in parallel over i. Each c[i] comes
/// from one call, so the result does not depend on the number of threads. m, n, k >= 1.
void matmul_stack(bool ta, bool tb, std::int64_t count, std::int64_t m, std::int64_t n, std::int64_t k, const float* pa,
                  const float* pb, float* pc) {
    const std::int64_t sa = m * k, sb = k * n, sc = m * n;
    const int mi = as_int(m), ni = as_int(n), ki = as_int(k);
    const int lda = ta ? mi : ki, ldb = tb ? ki : ni;
    // Tiny products (n = 10: 2,000 flops) in chunks of at least ~64k flops, so that threads are
    // not woken for a few microseconds of work each.
    const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t{1} << 15) / std::max<std::int64_t>(1, sc * k));
    at::parallel_for(0, count, grain, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t i = lo; i < hi; ++i)
            gemm_rm(ta, tb, mi, ni, ki, 1.0f, pa + i * sa, lda, pb + i * sb, ldb, 0.0f, pc + i * sc, ni);
    });
}

/// g[i] = 0 where h[i] <= 0 (the ReLU's gradient); branch-free so that it vectorises.
void relu_mask(const float* __restrict h, float* __restrict g, std::int64_t len) {
    for (std::int64_t i = 0; i < len; ++i) g[i] = h[i] > 0.0f ? g[i] : 0.0f;
}

/// Custom autograd function for the (possibly two-input) pointwise layer.
struct PointwiseFn : torch::autograd::Function<PointwiseFn> {
    static Tensor forward(AutogradContext* ctx, Tensor w, Tensor bias, Tensor x1, Tensor x2) {
        auto y = torch::empty({w.size(0), x1.size(1)}, x1.options());
        pointwise_forward(w, bias, x1, x2.size(0) ? x2 : Tensor(), false, y);
        ctx->save_for_backward({w, x1, x2});
        return y;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const Tensor& x2 = saved[2];
        return pointwise_backward(saved[0], saved[1], x2.size(0) ? x2 : Tensor(), grads[0].contiguous(),
                                  ctx->needs_input_grad(2), ctx->needs_input_grad(3));
    }
};

/// PPGN's product branch as one autograd function: h = relu(w · x + bias) with w = [2·out, C]
/// (the two MLP branches fused), seen as two stacks of M = out·B matrices n×n, and
/// c[i] = h[i] · h[M + i]. One node instead of relu, two selects and a matmul: the selects' backward
/// alone allocated and zeroed two full-size gradients per block (a third of a training step at
/// n = 63); here the gradient of h is written in place and masked by the ReLU.
struct MlpProductFn : torch::autograd::Function<MlpProductFn> {
    static Tensor forward(AutogradContext* ctx, Tensor w, Tensor bias, Tensor x, int64_t n) {
        const std::int64_t m = w.size(0) / 2 * (x.size(1) / (n * n));
        auto h = torch::empty({w.size(0), x.size(1)}, x.options());
        pointwise_forward(w, bias, x, Tensor(), true, h);
        auto c = torch::empty({m, n, n}, x.options());
        const float* ph = h.data_ptr<float>();
        matmul_stack(false, false, m, n, n, n, ph, ph + m * n * n, c.data_ptr<float>());
        ctx->save_for_backward({w, x, h});
        ctx->saved_data["n"] = n;
        return c;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &w = saved[0], &x = saved[1], &h = saved[2];
        const std::int64_t n = ctx->saved_data["n"].toInt();
        const Tensor gc = grads[0].contiguous();
        const std::int64_t m = gc.size(0), s = n * n;
        auto gh = torch::empty_like(h);
        const float *ph = h.data_ptr<float>(), *pgc = gc.data_ptr<float>();
        float* pgh = gh.data_ptr<float>();
        matmul_stack(false, true, m, n, n, n, pgc, ph + m * s, pgh);  // dH1 = dC · H2ᵀ
        matmul_stack(true, false, m, n, n, n, ph, pgc, pgh + m * s);  // dH2 = H1ᵀ · dC
        at::parallel_for(0, h.numel(), 1 << 16,
                         [&](std::int64_t lo, std::int64_t hi) { relu_mask(ph + lo, pgh + lo, hi - lo); });
        auto g = pointwise_backward(w, x, Tensor(), gh, ctx->needs_input_grad(2), false);
        return {g[0], g[1], g[2], Tensor()};
    }
};

/// PPGN's pooling as one autograd function: for x [C, B, n, n] (n > 1), out [B, 2C] holds the
/// maximum of every diagonal (columns 0..C-1) and of every off-diagonal part (columns C..2C-1).
/// Ties go to the first entry in row-major order, as torch.max does. Backward writes the
/// gradient straight to the argmax entries: torch's diagonal/narrow/max chain allocated and
/// zeroed a full-size gradient per view (a sixth of a training step at n = 63).
struct DiagOffdiagMaxFn : torch::autograd::Function<DiagOffdiagMaxFn> {
    static Tensor forward(AutogradContext* ctx, Tensor x) {
        const std::int64_t c = x.size(0), b = x.size(1), n = x.size(2), s = n * n;
        auto out = torch::empty({b, 2 * c}, x.options());
        auto arg = torch::empty({c, b, 2}, x.options().dtype(torch::kLong));
        const float* px = x.data_ptr<float>();
        float* po = out.data_ptr<float>();
        std::int64_t* pa = arg.data_ptr<std::int64_t>();
        at::parallel_for(0, c * b, 16, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t cb = lo; cb < hi; ++cb) {
                const float* m = px + cb * s;
                std::int64_t best_d = 0, best_o = 1;
                for (std::int64_t i = 1; i < n; ++i)
                    if (m[i * n + i] > m[best_d]) best_d = i * n + i;
                for (std::int64_t i = 0; i < n; ++i)
                    for (std::int64_t j = 0; j < n; ++j)
                        if (i != j && m[i * n + j] > m[best_o]) best_o = i * n + j;
                const std::int64_t ci = cb / b, bi = cb % b;
                po[bi * 2 * c + ci] = m[best_d];
                po[bi * 2 * c + c + ci] = m[best_o];
                pa[2 * cb] = best_d;
                pa[2 * cb + 1] = best_o;
            }
        });
        ctx->save_for_backward({arg});
        ctx->saved_data["sizes"] = x.sizes();
        return out;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const Tensor arg = ctx->get_saved_variables()[0];
        const auto sizes = ctx->saved_data["sizes"].toIntVector();
        const Tensor g = grads[0].contiguous();
        const std::int64_t c = sizes[0], b = sizes[1], s = sizes[2] * sizes[3];
        auto gx = torch::zeros(sizes, g.options());
        const float* pg = g.data_ptr<float>();
        const std::int64_t* pa = arg.data_ptr<std::int64_t>();
        float* pgx = gx.data_ptr<float>();
        at::parallel_for(0, c * b, 64, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t cb = lo; cb < hi; ++cb) {
                const std::int64_t ci = cb / b, bi = cb % b;
                pgx[cb * s + pa[2 * cb]] += pg[bi * 2 * c + ci];
                pgx[cb * s + pa[2 * cb + 1]] += pg[bi * 2 * c + c + ci];
            }
        });
        return {gx};
    }
};

/// c = a · b for a [..., n, k], b [..., k, m] with equal batch dimensions, both contiguous: one
/// product per batch entry. Backward: grad_a = g · bᵀ, grad_b = aᵀ · g, batched the same way.
struct BatchedMatmulFn : torch::autograd::Function<BatchedMatmulFn> {
    static Tensor forward(AutogradContext* ctx, Tensor a, Tensor b) {
        const std::int64_t n = a.size(-2), k = a.size(-1), m = b.size(-1), count = a.numel() / (n * k);
        auto sizes = a.sizes().vec();
        sizes.back() = m;
        auto c = torch::empty(sizes, a.options());
        matmul_stack(false, false, count, n, m, k, a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>());
        ctx->save_for_backward({a, b});
        return c;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &a = saved[0], &b = saved[1];
        const Tensor g = grads[0].contiguous();
        const std::int64_t n = a.size(-2), k = a.size(-1), m = b.size(-1), count = a.numel() / (n * k);
        Tensor ga, gb;
        if (ctx->needs_input_grad(0)) {
            ga = torch::empty_like(a);
            matmul_stack(false, true, count, n, k, m, g.data_ptr<float>(), b.data_ptr<float>(), ga.data_ptr<float>());
        }
        if (ctx->needs_input_grad(1)) {
            gb = torch::empty_like(b);
            matmul_stack(true, false, count, k, m, n, a.data_ptr<float>(), g.data_ptr<float>(), gb.data_ptr<float>());
        }
        return {ga, gb};
    }
};

/// A 1x1 convolution (stride 1, no padding, one group) of x [B, C, H, W] with w [O, C] and bias [O]
/// (or [0]: none), both contiguous: per image y[b] = w · x[b] + bias, x[b] seen as [C, H·W], one
/// single-threaded sgemm per image, in parallel over the images. Backward: gx[b] = wᵀ · gy[b], and
/// gw = Σ_b gy[b] · x[b]ᵀ, gbias = Σ_b row sums of gy[b], summed over b in a fixed order.
struct Conv1x1Fn : torch::autograd::Function<Conv1x1Fn> {
    static Tensor forward(AutogradContext* ctx, Tensor x, Tensor w, Tensor bias) {
        const std::int64_t b = x.size(0), c = x.size(1), p = x.size(2) * x.size(3), o = w.size(0);
        auto y = torch::empty({b, o, x.size(2), x.size(3)}, x.options());
        const float *px = x.data_ptr<float>(), *pw = w.data_ptr<float>();
        const float* pb = bias.numel() ? bias.data_ptr<float>() : nullptr;
        float* py = y.data_ptr<float>();
        at::parallel_for(0, b, 1, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t i = lo; i < hi; ++i) {
                float* yi = py + i * o * p;
                if (pb != nullptr)
                    for (std::int64_t r = 0; r < o; ++r) std::fill_n(yi + r * p, p, pb[r]);
                gemm_rm(false, false, as_int(o), as_int(p), as_int(c), 1.0f, pw, as_int(c), px + i * c * p, as_int(p),
                        pb != nullptr ? 1.0f : 0.0f, yi, as_int(p));
            }
        });
        ctx->save_for_backward({x, w});
        ctx->saved_data["bias"] = pb != nullptr;
        return y;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &x = saved[0], &w = saved[1];
        const bool has_bias = ctx->saved_data["bias"].toBool();
        const Tensor gy = grads[0].contiguous();
        const std::int64_t b = x.size(0), c = x.size(1), p = x.size(2) * x.size(3), o = w.size(0);
        const float *px = x.data_ptr<float>(), *pw = w.data_ptr<float>(), *pg = gy.data_ptr<float>();
        const bool need_x = ctx->needs_input_grad(0), need_w = ctx->needs_input_grad(1);
        const bool need_b = has_bias && ctx->needs_input_grad(2);
        Tensor gx;
        if (need_x) gx = torch::empty_like(x);
        std::vector<float> part_w(static_cast<std::size_t>(need_w ? b * o * c : 0));
        std::vector<double> part_b(static_cast<std::size_t>(need_b ? b * o : 0));
        at::parallel_for(0, b, 1, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t i = lo; i < hi; ++i) {
                const float *gi = pg + i * o * p, *xi = px + i * c * p;
                if (need_x)
                    gemm_rm(true, false, as_int(c), as_int(p), as_int(o), 1.0f, pw, as_int(c), gi, as_int(p), 0.0f,
                            gx.data_ptr<float>() + i * c * p, as_int(p));
                if (need_w)
                    gemm_rm(false, true, as_int(o), as_int(c), as_int(p), 1.0f, gi, as_int(p), xi, as_int(p), 0.0f,
                            part_w.data() + i * o * c, as_int(c));
                if (need_b)
                    for (std::int64_t r = 0; r < o; ++r) {
                        double sum = 0.0;
                        for (std::int64_t c0 = 0; c0 < p; c0 += kChunk)
                            sum += chunk_sum(gi + r * p + c0, std::min(kChunk, p - c0));
                        part_b[static_cast<std::size_t>(i * o + r)] = sum;
                    }
            }
        });
        Tensor gw, gb;
        if (need_w) gw = torch::zeros_like(w);
        if (need_b) gb = torch::empty({o}, x.options());
        sum_parts(part_w, part_b, b, o * c, o, need_w ? gw.data_ptr<float>() : nullptr,
                  need_b ? gb.data_ptr<float>() : nullptr);
        return {gx, gw, gb};
    }
};

bool blas_ok(const Tensor& t, bool use_blas) {
    return use_blas && t.device().is_cpu() && t.scalar_type() == torch::kFloat && blas_available();
}

}  // namespace

bool blas_available() { return sgemm() != nullptr; }

Tensor pointwise(const Tensor& w, const Tensor& bias, const Tensor& x1, const Tensor& x2, bool use_blas) {
    if (blas_ok(x1, use_blas)) {
        // Autograd functions take defined tensors only: a [0, P] stand-in means "no second input".
        const auto second = x2.defined() ? x2.contiguous() : torch::empty({0, x1.size(1)}, x1.options());
        return PointwiseFn::apply(w, bias, x1.contiguous(), second);
    }
    const std::int64_t c1 = x1.size(0);
    auto y = torch::addmm(bias.unsqueeze(1), w.narrow(1, 0, c1), x1);
    if (x2.defined()) y = torch::addmm(y, w.narrow(1, c1, x2.size(0)), x2);
    return y;
}

Tensor diag_offdiag_max(const Tensor& x, bool use_blas) {
    const auto c = x.size(0), b = x.size(1), n = x.size(2);
    if (n > 1 && blas_ok(x, use_blas)) return DiagOffdiagMaxFn::apply(x.contiguous());
    const auto max_diag = std::get<0>(torch::max(torch::diagonal(x, 0, -2, -1), 2));  // [C, B]
    torch::Tensor max_off;
    if (n > 1) {
        // The n² − 1 entries after the first, seen as (n − 1) rows of n + 1, end each row with a
        // diagonal entry: dropping the last column leaves exactly the off-diagonal entries.
        const auto off = x.reshape({c, b, n * n}).narrow(2, 1, n * n - 1).view({c, b, n - 1, n + 1}).narrow(3, 0, n);
        max_off = std::get<0>(torch::max(std::get<0>(torch::max(off, 3)), 2));
    } else {
        // One vertex: the reference's masked maximum is x − |max + max(−x)| (global).
        const auto val = torch::abs(torch::max(max_diag) + torch::max(-x));
        max_off = max_diag - val;
    }
    return torch::cat({max_diag.t(), max_off.t()}, 1);
}

Tensor mlp_product(const Tensor& w, const Tensor& bias, const Tensor& x, std::int64_t n, bool use_blas) {
    if (blas_ok(x, use_blas)) return MlpProductFn::apply(w.contiguous(), bias.contiguous(), x.contiguous(), n);
    const auto h = torch::relu(torch::addmm(bias.unsqueeze(1), w, x));
    const std::int64_t m = w.size(0) / 2 * (x.size(1) / (n * n));
    const auto stack = h.view({2, m, n, n});
    return torch::bmm(stack[0], stack[1]);
}

bool batched_matmul_applies(const Tensor& a, const Tensor& b) {
    if (!a.defined() || !b.defined() || a.dim() < 3 || a.dim() != b.dim()) return false;
    for (const auto& t : {a, b})
        if (t.layout() != torch::kStrided || t.is_neg() || t.is_conj() || !blas_ok(t, true)) return false;
    const std::int64_t d = a.dim();
    if (!a.sizes().slice(0, d - 2).equals(b.sizes().slice(0, d - 2)) || a.size(d - 1) != b.size(d - 2)) return false;
    // Empty operands (and k = 0, which BLAS rejects as a leading dimension): torch's matmul.
    return a.numel() > 0 && b.numel() > 0;
}

Tensor batched_matmul(const Tensor& a, const Tensor& b) {
    if (!batched_matmul_applies(a, b)) return torch::matmul(a, b);
    return BatchedMatmulFn::apply(a.contiguous(), b.contiguous());
}

bool conv2d_1x1_applies(const Tensor& x, const Tensor& w, const c10::optional<Tensor>& bias, c10::IntArrayRef stride,
                        c10::IntArrayRef padding, std::int64_t groups) {
    if (!x.defined() || !w.defined() || x.dim() != 4 || w.dim() != 4 || groups != 1) return false;
    if (w.size(2) != 1 || w.size(3) != 1 || w.size(1) != x.size(1)) return false;
    const auto all = [](c10::IntArrayRef v, std::int64_t value) {
        return (v.size() == 1 || v.size() == 2) && std::all_of(v.begin(), v.end(), [&](auto e) { return e == value; });
    };
    if (!all(stride, 1) || !all(padding, 0)) return false;  // a 1x1 kernel ignores dilation
    std::vector<Tensor> tensors{x, w};
    if (bias.has_value() && bias->defined()) {
        if (bias->dim() != 1 || bias->size(0) != w.size(0)) return false;
        tensors.push_back(*bias);
    }
    for (const auto& t : tensors)
        if (t.layout() != torch::kStrided || t.is_neg() || !blas_ok(t, true)) return false;
    return x.numel() > 0 && w.numel() > 0;
}

Tensor conv2d(const Tensor& x, const Tensor& w, const c10::optional<Tensor>& bias, c10::IntArrayRef stride,
              c10::IntArrayRef padding, c10::IntArrayRef dilation, std::int64_t groups) {
    if (!conv2d_1x1_applies(x, w, bias, stride, padding, groups))
        return torch::conv2d(x, w, bias, stride, padding, dilation, groups);
    const bool has_bias = bias.has_value() && bias->defined();
    return Conv1x1Fn::apply(x.contiguous(), w.contiguous().view({w.size(0), w.size(1)}),
                            has_bias ? bias->contiguous() : torch::empty({0}, x.options()));
}

}  // namespace brec::nn_kernels
