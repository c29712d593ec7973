#include "nn/kernels.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <limits>
#include <vector>

#include <ATen/Parallel.h>

#include "brec/core/error.hpp"

namespace brec::nn_kernels {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

/// Fortran BLAS sgemm (column-major), as every BLAS exports it.
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*,
                         const float*, const int*, const float*, const int*, const float*, float*,
                         const int*);
using SetThreadsFn = void (*)(int);

SgemmFn resolve_sgemm() {
    auto* f = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
    if (f == nullptr) return nullptr;
    // The kernels parallelise over independent products; a BLAS that threads every small call
    // itself spins its own pool against ours (measured 4-5x slower at n = 198 under load).
    if (auto* set = reinterpret_cast<SetThreadsFn>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        set(1);
    return f;
}

SgemmFn sgemm() {
    static const SgemmFn f = resolve_sgemm();
    return f;
}

/// Row-major C[m×n] = alpha · op(A)[m×k] · op(B)[k×n] + beta · C, via column-major sgemm on the
/// transposed problem (Cᵀ = op(B)ᵀ op(A)ᵀ).
void gemm_rm(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda,
             const float* b, int ldb, float beta, float* c, int ldc) {
    const char cta = ta ? 'T' : 'N', ctb = tb ? 'T' : 'N';
    sgemm()(&ctb, &cta, &n, &m, &k, &alpha, b, &ldb, a, &lda, &beta, c, &ldc);
}

/// Columns per chunk of the pointwise products: fixed, so sums do not depend on threads.
constexpr std::int64_t kChunk = 4096;

int as_int(std::int64_t v) {
    if (v > std::numeric_limits<int>::max()) throw ResourceLimit("PPGN tensor dimension exceeds the BLAS int range");
    return static_cast<int>(v);
}

/// Custom autograd function for the (possibly two-input) pointwise layer.
struct PointwiseFn : torch::autograd::Function<PointwiseFn> {
    static Tensor forward(AutogradContext* ctx, Tensor w, Tensor bias, Tensor x1, Tensor x2) {
        const std::int64_t out = w.size(0), ld = w.size(1), c1 = x1.size(0), p = x1.size(1);
        const std::int64_t c2 = x2.size(0);  // 0: one input
        auto y = torch::empty({out, p}, x1.options());
        const float *pw = w.data_ptr<float>(), *pb = bias.data_ptr<float>(), *px1 = x1.data_ptr<float>();
        const float* px2 = c2 ? x2.data_ptr<float>() : nullptr;
        float* py = y.data_ptr<float>();
        const std::int64_t chunks = (p + kChunk - 1) / kChunk;
        at::parallel_for(0, chunks, 1, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t k = lo; k < hi; ++k) {
                const std::int64_t c0 = k * kChunk, len = std::min(kChunk, p - c0);
                for (std::int64_t o = 0; o < out; ++o) std::fill_n(py + o * p + c0, len, pb[o]);
                gemm_rm(false, false, as_int(out), as_int(len), as_int(c1), 1.0f, pw, as_int(ld), px1 + c0,
                        as_int(p), 1.0f, py + c0, as_int(p));
                if (c2)
                    gemm_rm(false, false, as_int(out), as_int(len), as_int(c2), 1.0f, pw + c1, as_int(ld),
                            px2 + c0, as_int(p), 1.0f, py + c0, as_int(p));
            }
        });
        ctx->save_for_backward({w, x1, x2});
        return y;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &w = saved[0], &x1 = saved[1], &x2 = saved[2];
        const Tensor gy = grads[0].contiguous();
        const std::int64_t out = w.size(0), ld = w.size(1), c1 = x1.size(0), p = x1.size(1);
        const std::int64_t c2 = x2.size(0);
        const std::int64_t chunks = (p + kChunk - 1) / kChunk;
        const float *pw = w.data_ptr<float>(), *pg = gy.data_ptr<float>(), *px1 = x1.data_ptr<float>();
        const float* px2 = c2 ? x2.data_ptr<float>() : nullptr;
        const bool need_x1 = ctx->needs_input_grad(2), need_x2 = c2 && ctx->needs_input_grad(3);
        Tensor gx1, gx2;
        if (need_x1) gx1 = torch::empty_like(x1);
        if (need_x2) gx2 = torch::empty_like(x2);
        // Per-chunk partial weight gradients and bias sums, reduced below in a fixed order.
        std::vector<float> part_w(static_cast<std::size_t>(chunks * out * ld));
        std::vector<double> part_b(static_cast<std::size_t>(chunks * out));
        at::parallel_for(0, chunks, 1, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t k = lo; k < hi; ++k) {
                const std::int64_t c0 = k * kChunk, len = std::min(kChunk, p - c0);
                float* pwk = part_w.data() + k * out * ld;
                gemm_rm(false, true, as_int(out), as_int(c1), as_int(len), 1.0f, pg + c0, as_int(p), px1 + c0,
                        as_int(p), 0.0f, pwk, as_int(ld));
                if (c2)
                    gemm_rm(false, true, as_int(out), as_int(c2), as_int(len), 1.0f, pg + c0, as_int(p), px2 + c0,
                            as_int(p), 0.0f, pwk + c1, as_int(ld));
                for (std::int64_t o = 0; o < out; ++o) {
                    double s = 0.0;
                    for (std::int64_t j = 0; j < len; ++j) s += pg[o * p + c0 + j];
                    part_b[static_cast<std::size_t>(k * out + o)] = s;
                }
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
        float* pgw = gw.data_ptr<float>();
        float* pgb = gb.data_ptr<float>();
        for (std::int64_t k = 0; k < chunks; ++k) {
            const float* src = part_w.data() + k * out * ld;
            for (std::int64_t i = 0; i < out * ld; ++i) pgw[i] += src[i];
        }
        for (std::int64_t o = 0; o < out; ++o) {
            double s = 0.0;
            for (std::int64_t k = 0; k < chunks; ++k) s += part_b[static_cast<std::size_t>(k * out + o)];
            pgb[o] = static_cast<float>(s);
        }
        return {gw, gb, gx1, gx2};
    }
};

/// Custom autograd function for the per-matrix product of two [M, n, n] stacks.
struct BatchedMatmulFn : torch::autograd::Function<BatchedMatmulFn> {
    /// c[i] = op(a[i]) · op(b[i]).
    static void run(bool ta, bool tb, const Tensor& a, const Tensor& b, Tensor& c) {
        const std::int64_t m = a.size(0), n = a.size(1), s = n * n;
        const float *pa = a.data_ptr<float>(), *pb = b.data_ptr<float>();
        float* pc = c.data_ptr<float>();
        const int ni = as_int(n);
        at::parallel_for(0, m, 1, [&](std::int64_t lo, std::int64_t hi) {
            for (std::int64_t i = lo; i < hi; ++i)
                gemm_rm(ta, tb, ni, ni, ni, 1.0f, pa + i * s, ni, pb + i * s, ni, 0.0f, pc + i * s, ni);
        });
    }

    static Tensor forward(AutogradContext* ctx, Tensor a, Tensor b) {
        auto c = torch::empty_like(a);
        run(false, false, a, b, c);
        ctx->save_for_backward({a, b});
        return c;
    }

    static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
        const auto saved = ctx->get_saved_variables();
        const Tensor gc = grads[0].contiguous();
        Tensor ga, gb;
        if (ctx->needs_input_grad(0)) {
            ga = torch::empty_like(saved[0]);
            run(false, true, gc, saved[1], ga);  // dA = dC · Bᵀ
        }
        if (ctx->needs_input_grad(1)) {
            gb = torch::empty_like(saved[1]);
            run(true, false, saved[0], gc, gb);  // dB = Aᵀ · dC
        }
        return {ga, gb};
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

Tensor batched_matmul(const Tensor& a, const Tensor& b, bool use_blas) {
    if (blas_ok(a, use_blas)) return BatchedMatmulFn::apply(a.contiguous(), b.contiguous());
    return torch::bmm(a, b);
}

}  // namespace brec::nn_kernels
