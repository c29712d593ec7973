#pragma once
// The passes of nn's fused CPU layers (private to nn): a GIN's sum, a BatchNorm MLP's products,
// BatchNorm statistics and their backward, over rows of 16-64 floats held in registers. Each pass
// works on one block of kBlock rows; every sum over rows is taken per block in row order and the
// blocks' sums are combined in block order, so no result depends on the thread count. The layers
// built from them: nn/fused_gin.cpp (GIN layers) and nn/fused_sswl.cpp (SSWL+ layers). A file that
// includes this compiles with -ffp-contract=fast (see nn/simd.hpp).

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "nn/simd.hpp"

namespace brec::nn::fused {

// Rows per block. Every sum over rows is taken per block, in row order, and the blocks' sums are
// combined in block order: the bits do not depend on how threads split the blocks.
inline constexpr std::int64_t kBlock = 256;

/// A BatchNorm's per-channel values as the passes use them: z = (h − mean) · scale + shift, with
/// scale = γ / σ; invstd = 1 / σ.
struct NormValues {
    std::vector<float> mean, invstd, scale, shift;
};

inline NormValues norm_values(const std::vector<double>& mean, const std::vector<double>& var, double eps,
                              const torch::Tensor& weight, const torch::Tensor& bias) {
    const auto c = static_cast<std::int64_t>(mean.size());
    const auto w = weight.accessor<float, 1>();
    const auto b = bias.accessor<float, 1>();
    NormValues n;
    for (std::int64_t i = 0; i < c; ++i) {
        const double invstd = 1.0 / std::sqrt(var[i] + eps);
        n.mean.push_back(static_cast<float>(mean[i]));
        n.invstd.push_back(static_cast<float>(invstd));
        n.scale.push_back(static_cast<float>(invstd * w[i]));
        n.shift.push_back(b[i]);
    }
    return n;
}

// Rows are C = 16, 32, 48 or 64 floats: C / kLanes vectors of W = simd::Width<kLanes> (16 floats
// in the x86-64-v4 kernels, 8 in the others; see simd::dispatch). The kernels broadcast one value
// of a row against the rows of a weight matrix (the products), or work value by value
// (normalisation, ReLU, masks).

/// max(v, 0) as torch::relu: a NaN stays NaN (a diverged training stays diverged). The gradient
/// masks below pass where the ReLU's input is > 0, as LibTorch's threshold_backward: not at NaN.
template <typename Vec>
BREC_SIMD_INLINE Vec relu(Vec v) {
    return v < Vec{} ? Vec{} : v;
}

/// A [C] vector of constants (or the rows of a [C, C] matrix) held as C / kLanes Vecs each.
template <typename W, int C>
struct Lanes {
    using Vec = typename W::Vec;
    static constexpr int kLanes = W::kLanes;
    static constexpr int V = C / kLanes;
    Vec v[V];
    Lanes() = default;
    explicit Lanes(const float* p) {
        for (int j = 0; j < V; ++j) v[j] = W::load(p + kLanes * j);
    }
};

/// The V vectors at `v` as V · kLanes doubles at `out`, lane by lane: a block's per-channel sums
/// as the combining in double reads them.
template <typename W, int V>
BREC_SIMD_INLINE void to_doubles(const typename W::Vec (&v)[V], double* out) {
    for (int j = 0; j < V; ++j)
        for (int k = 0; k < W::kLanes; ++k) out[W::kLanes * j + k] = v[j][k];
}

/// Per block: the mean and the sum of squared deviations from it of each channel of the block's
/// rows (re-read while they are still in cache).
template <typename W, int C>
BREC_SIMD_INLINE void block_moments(const float* rows, std::int64_t n, double* out) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    Vec sum[V] = {}, m2[V] = {};
    for (std::int64_t r = 0; r < n; ++r)
        for (int j = 0; j < V; ++j) sum[j] += W::load(rows + r * C + kLanes * j);
    Vec mean[V];
    for (int j = 0; j < V; ++j) mean[j] = sum[j] / static_cast<float>(n);
    for (std::int64_t r = 0; r < n; ++r)
        for (int j = 0; j < V; ++j) {
            const Vec d = W::load(rows + r * C + kLanes * j) - mean[j];
            m2[j] += d * d;
        }
    to_doubles<W>(mean, out);
    to_doubles<W>(m2, out + C);
}

/// acc = Σ_{k in [first, last)} x[col[k]] in CSR order, summed from zero (as neighbour_sum); with
/// `edge`, Σ relu(x[col[k]] + edge) (GINE's messages with one edge feature for every arc).
template <typename W, int C>
BREC_SIMD_INLINE void gather_sum(const std::int64_t* first, const std::int64_t* last, const float* x,
                                 typename W::Vec* acc, const Lanes<W, C>* edge = nullptr) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    for (int j = 0; j < V; ++j) acc[j] = Vec{};
    if (edge) {
        for (const std::int64_t* k = first; k != last; ++k) {
            const float* xu = x + *k * C;
            for (int j = 0; j < V; ++j) acc[j] += relu(W::load(xu + kLanes * j) + edge->v[j]);
        }
        return;
    }
    for (const std::int64_t* k = first; k != last; ++k) {
        const float* xu = x + *k * C;
        for (int j = 0; j < V; ++j) acc[j] += W::load(xu + kLanes * j);
    }
}

/// out[q] = bias + Σ_i in[q][i] · w[i] for R rows q (w: the Ci rows of Wᵀ as Lanes of C). Each
/// row's sum runs over i in order; R rows at once put R times the independent sums in flight for
/// the FMA units' latency, without changing a row's bits.
template <typename W, int Ci, int C, int R>
BREC_SIMD_INLINE void products(const float* const* in, const Lanes<W, C>* w, const Lanes<W, C>& bias,
                               typename W::Vec (*out)[C / W::kLanes]) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    for (int q = 0; q < R; ++q)
        for (int j = 0; j < V; ++j) out[q][j] = bias.v[j];
    for (int i = 0; i < Ci; ++i) {
        Vec b[R];
        for (int q = 0; q < R; ++q) b[q] = W::splat(in[q][i]);
        for (int q = 0; q < R; ++q)
            for (int j = 0; j < V; ++j) out[q][j] += b[q] * w[i].v[j];
    }
}

/// Back through a Linear (W [C, Ci] as C Lanes of Ci) for R rows q, from the gradient gh[q] at its
/// output and its input in[q]: dW[o] += gh[q][o] · in[q], in row order, and gin[q] += gh[q] W.
template <typename W, int Ci, int C, int R>
BREC_SIMD_INLINE void linear_back(const float (*gh)[C], const typename W::Vec (*in)[Ci / W::kLanes],
                                  const Lanes<W, Ci>* w, typename W::Vec (*dw)[Ci / W::kLanes],
                                  typename W::Vec (*gin)[Ci / W::kLanes]) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    for (int o = 0; o < C; ++o)
        for (int q = 0; q < R; ++q) {
            const Vec b = W::splat(gh[q][o]);
            for (int j = 0; j < Ci / kLanes; ++j) {
                dw[o][j] += b * in[q][j];
                gin[q][j] += b * w[o].v[j];
            }
        }
}

/// Rows per step of a pass over rows of C with 8-float vectors: enough independent sums for the FMA
/// units' latency (two units, four cycles: eight vector sums in flight), few enough for AVX2's 16
/// vector registers, of which C / 8 hold a row: 4 rows of 16, 2 of 32, 1 of 48 or 64. With 16-float
/// vectors a row takes half the registers and AVX-512 has 32: twice the rows.
template <int C>
constexpr int kRowsAtOnce = C == 16   ? 4
                            : C == 32 ? 2
                                      : 1;

/// rows(r, R) for the rows [r0, r0 + n) in groups of R (R as an integral_constant): kRowsAtOnce<C>
/// for W's vectors; then rows(r, 1) for the rest. The group size never changes a row's arithmetic,
/// nor the order of a sum over rows.
template <typename W, int C, typename Rows>
BREC_SIMD_INLINE void by_row_groups(std::int64_t r0, std::int64_t n, Rows&& rows) {
    constexpr int R = kRowsAtOnce<C> * W::kLanes / 8;
    std::int64_t r = r0;
    for (; r + R <= r0 + n; r += R) rows(r, std::integral_constant<int, R>{});
    for (; r < r0 + n; ++r) rows(r, std::integral_constant<int, 1>{});
}

/// Row r of an input of Ci columns: row r of `a`, or, where `b` is given, row r of `a` and of `b`
/// (Ci / 2 columns each) side by side in `buf`: their concatenation, never made as a tensor.
template <int Ci>
BREC_SIMD_INLINE const float* input_row(const float* a, const float* b, std::int64_t r, float* buf) {
    if (!b) return a + r * Ci;
    constexpr int H = Ci / 2;  // any width: a copy (16 or 32 where the kernels are built)
    std::copy_n(a + r * H, H, buf);
    std::copy_n(b + r * H, H, buf + H);
    return buf;
}

/// The blocks' moments combined in block order (Chan et al.'s pairwise update): the mean and the
/// biased variance of every channel over all rows.
inline void combine_moments(const std::vector<double>& blocks, std::int64_t rows, int c, std::vector<double>& mean,
                            std::vector<double>& var) {
    mean.assign(c, 0.0);
    std::vector<double> m2(c, 0.0);
    double count = 0.0;
    for (std::int64_t b = 0; b * kBlock < rows; ++b) {
        const double n = static_cast<double>(std::min(kBlock, rows - b * kBlock));
        const double* block = blocks.data() + b * 2 * c;
        for (int i = 0; i < c; ++i) {
            const double delta = block[i] - mean[i];
            mean[i] += delta * n / (count + n);
            m2[i] += block[c + i] + delta * delta * count * n / (count + n);
        }
        count += n;
    }
    var.resize(c);
    for (int i = 0; i < c; ++i) var[i] = m2[i] / count;
}

/// Runs body(block, first row, row count) for every block, split over LibTorch's threads.
template <typename Body>
void for_blocks(std::int64_t rows, Body&& body) {
    const std::int64_t blocks = (rows + kBlock - 1) / kBlock;
    at::parallel_for(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t b = lo; b < hi; ++b) body(b, b * kBlock, std::min(kBlock, rows - b * kBlock));
    });
}

/// s = (1 + ε) x + Σ_{u ∈ N(v)} x_u (rows of Ci; with `edge`, Σ relu(x_u + edge)) and
/// h1 = s W1ᵀ + b1 (w1t = W1ᵀ, [Ci, C]); with `moments`, the block's moments of h1. With ε = 0,
/// (1 + ε) x + Σ is x + Σ bit for bit (a product by 1 is exact). Without arcs (`ptr` null) and
/// with ε = 0, s is x itself and is not written; x may then come as two halves, x and x2 (see
/// input_row).
template <typename W, int Ci, int C>
BREC_SIMD_INLINE void first_pass(const std::int64_t* ptr, const std::int64_t* col, const float* x, const float* x2,
                                 const float* edge, float one_plus_eps, const float* w1t, const float* b1, float* s,
                                 float* h1, std::int64_t r0, std::int64_t n, double* moments) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes, Vi = Ci / kLanes;
    const Vec scale_x = W::splat(one_plus_eps);
    Lanes<W, C> w[Ci];
    for (int i = 0; i < Ci; ++i) w[i] = Lanes<W, C>(w1t + i * C);
    const Lanes<W, C> bias(b1);
    Lanes<W, Ci> edge_lanes{};
    if (edge) edge_lanes = Lanes<W, Ci>(edge);
    const auto rows = [&](std::int64_t r, auto count) BREC_SIMD_INLINE_LAMBDA {
        constexpr int R = decltype(count)::value;
        float buf[R][Ci];
        const float* in[R];
        for (int q = 0; q < R; ++q) {
            if (!s) {
                in[q] = input_row<Ci>(x, x2, r + q, buf[q]);
                continue;
            }
            Vec acc[Vi] = {};
            if (ptr) gather_sum<W, Ci>(col + ptr[r + q], col + ptr[r + q + 1], x, acc, edge ? &edge_lanes : nullptr);
            for (int j = 0; j < Vi; ++j) {
                const Vec v = W::load(x + (r + q) * Ci + kLanes * j) * scale_x + acc[j];
                W::store(buf[q] + kLanes * j, v);
                W::store(s + (r + q) * Ci + kLanes * j, v);
            }
            in[q] = buf[q];
        }
        Vec h[R][V];
        products<W, Ci, C, R>(in, w, bias, h);
        for (int q = 0; q < R; ++q)
            for (int j = 0; j < V; ++j) W::store(h1 + (r + q) * C + kLanes * j, h[q][j]);
    };
    by_row_groups<W, C>(r0, n, rows);
    if (moments) block_moments<W, C>(h1 + r0 * C, n, moments);
}

/// Rows r .. r + R − 1 of second_pass.
template <typename W, int C, int R>
BREC_SIMD_INLINE void second_rows(const float* h1, const Lanes<W, C>& mean, const Lanes<W, C>& scale,
                                  const Lanes<W, C>& shift, const Lanes<W, C>* w, const Lanes<W, C>& bias, float* h2,
                                  std::int64_t r) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    float a[R][C];
    Vec h[R][V];
    for (int q = 0; q < R; ++q)
        for (int j = 0; j < V; ++j)
            W::store(a[q] + kLanes * j,
                     relu((W::load(h1 + (r + q) * C + kLanes * j) - mean.v[j]) * scale.v[j] + shift.v[j]));
    const float* in[R];
    for (int q = 0; q < R; ++q) in[q] = a[q];
    products<W, C, C, R>(in, w, bias, h);
    for (int q = 0; q < R; ++q)
        for (int j = 0; j < V; ++j) W::store(h2 + (r + q) * C + kLanes * j, h[q][j]);
}

/// h2 = relu(bn1(h1)) W2ᵀ + b2; with `moments`, the block's moments of h2.
template <typename W, int C>
BREC_SIMD_INLINE void second_pass(const float* h1, const float* mean1, const float* scale1, const float* shift1,
                                  const float* w2t, const float* b2, float* h2, std::int64_t r0, std::int64_t n,
                                  double* moments) {
    Lanes<W, C> w[C];
    for (int i = 0; i < C; ++i) w[i] = Lanes<W, C>(w2t + i * C);
    const Lanes<W, C> bias(b2), mean(mean1), scale(scale1), shift(shift1);
    by_row_groups<W, C>(r0, n, [&](std::int64_t r, auto count) BREC_SIMD_INLINE_LAMBDA {
        second_rows<W, C, decltype(count)::value>(h1, mean, scale, shift, w, bias, h2, r);
    });
    if (moments) block_moments<W, C>(h2 + r0 * C, n, moments);
}

/// The term added before the last ReLU: none (rows null), row r of `rows`, or, with `index`, row
/// index[r] of them (DSS-GNN's cross-subgraph term, one row per node read by all its copies).
struct Extra {
    const float* rows = nullptr;
    const std::int64_t* index = nullptr;
    explicit operator bool() const { return rows != nullptr; }
    template <int C>
    BREC_SIMD_INLINE const float* row(std::int64_t r) const {
        return rows + (index ? index[r] : r) * C;
    }
};

/// bn2(h2) at row r, plus extra's row where there is one: what the last ReLU takes.
template <typename W, int C>
BREC_SIMD_INLINE typename W::Vec pre_relu(const float* h2, const Lanes<W, C>& mean, const Lanes<W, C>& scale,
                                          const Lanes<W, C>& shift, const Extra& extra, std::int64_t r, int j) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    const Vec z = (W::load(h2 + r * C + kLanes * j) - mean.v[j]) * scale.v[j] + shift.v[j];
    return extra ? z + W::load(extra.row<C>(r) + kLanes * j) : z;
}

/// y = relu(bn2(h2) + extra) (extra may be null), plus the layer's input x where `residual` is it.
template <typename W, int C>
BREC_SIMD_INLINE void third_pass(const float* h2, const float* mean2, const float* scale2, const float* shift2,
                                 const Extra& extra, const float* residual, float* y, std::int64_t r0, std::int64_t n) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    const Lanes<W, C> mean(mean2), scale(scale2), shift(shift2);
    for (std::int64_t r = r0; r < r0 + n; ++r)
        for (int j = 0; j < V; ++j) {
            const Vec v = relu(pre_relu<W, C>(h2, mean, scale, shift, extra, r, j));
            W::store(y + r * C + kLanes * j, residual ? W::load(residual + r * C + kLanes * j) + v : v);
        }
}

/// The gradient at the layer's output: gy, plus, where the output's mean over runs has a gradient,
/// q = that gradient / runs ([nodes, C]) in every run's block of rows, or, where its mean per group
/// has one, row index[r] of q = that gradient · 1 / count; either may be absent. Its
/// row is summed in registers where a pass reads it, the float addition autograd's sum of the two
/// gradients makes, so the same bits without the two [rows, C] tensors LibTorch's mean backward
/// and that sum would write.
struct Upstream {
    const float* gy = nullptr;
    const float* q = nullptr;
    std::int64_t nodes = 0;               ///< rows per run, q's rows (the mean over runs)
    const std::int64_t* index = nullptr;  ///< each row's group, q's row (the mean per group)
};

template <typename W, int C>
BREC_SIMD_INLINE typename W::Vec upstream_at(const Upstream& u, std::int64_t r, int j) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    if (!u.q) return W::load(u.gy + r * C + kLanes * j);
    const Vec q = W::load(u.q + (u.index ? u.index[r] : r % u.nodes) * C + kLanes * j);
    return u.gy ? W::load(u.gy + r * C + kLanes * j) + q : q;
}

/// The gradient at z = bn(h) + extra before a ReLU, given the gradient g after it: g where z > 0,
/// else 0; written to `gz_out` where given (it is extra's gradient). Per block, Σ of it and Σ of it
/// times x̂ = (h − mean) · invstd (BatchNorm's two reductions).
template <typename W, int C>
BREC_SIMD_INLINE void relu_norm_sums(const float* h, const Upstream& g, const float* mean, const float* invstd,
                                     const float* scale, const float* shift, const Extra& extra, float* gz_out,
                                     std::int64_t r0, std::int64_t n, double* sums) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    const Lanes<W, C> m(mean), is(invstd), sc(scale), sh(shift);
    Vec sg[V] = {}, sgx[V] = {};
    for (std::int64_t r = r0; r < r0 + n; ++r)
        for (int j = 0; j < V; ++j) {
            const Vec d = W::load(h + r * C + kLanes * j) - m.v[j];
            const Vec gz = pre_relu<W, C>(h, m, sc, sh, extra, r, j) > Vec{} ? upstream_at<W, C>(g, r, j) : Vec{};
            if (gz_out) W::store(gz_out + r * C + kLanes * j, gz);
            sg[j] += gz;
            sgx[j] += gz * (d * is.v[j]);
        }
    to_doubles<W>(sg, sums);
    to_doubles<W>(sgx, sums + C);
}

/// BatchNorm's backward through training statistics: gh = γ·invstd·(gz − mean(gz) − x̂·mean(gz·x̂)),
/// with k = γ·invstd, mg = mean(gz), mgx = mean(gz·x̂).
struct NormGrad {
    std::vector<float> k, mg, mgx;
};

/// Per block: dW += ghᵀ in and db += gh over the block's rows, written as doubles (dW [C, Ci], then
/// db [C]).
template <typename W, int Ci, int C>
BREC_SIMD_INLINE void write_weight_sums(const typename W::Vec (*dw)[Ci / W::kLanes],
                                        const typename W::Vec (&db)[C / W::kLanes], double* out) {
    for (int o = 0; o < C; ++o) to_doubles<W>(dw[o], out + o * Ci);
    to_doubles<W>(db, out + C * Ci);
}

/// The next pass back through a Linear: from gh2 (BatchNorm 2's backward of gy through the ReLU,
/// whose input is bn2's output plus `extra` where given),
/// dW2 += gh2ᵀ a1 and db2 += gh2 per block, ga1 = gh2 W2, and gz1 = ga1 where bn1's output is
/// positive, written to `gz1`; per block also the two reductions of gz1 for bn1's backward.
template <typename W, int C>
BREC_SIMD_INLINE void middle_back_pass(const Upstream& gy, const float* h2, const float* h1, const NormValues& n2,
                                       const NormGrad& d2, const NormValues& n1, const float* w2, const Extra& extra,
                                       float* gz1, std::int64_t r0, std::int64_t n, double* weight_sums,
                                       double* norm_sums) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    Lanes<W, C> w[C];
    for (int o = 0; o < C; ++o) w[o] = Lanes<W, C>(w2 + o * C);
    const Lanes<W, C> m2(n2.mean.data()), is2(n2.invstd.data()), sc2(n2.scale.data()), sh2(n2.shift.data());
    const Lanes<W, C> k2(d2.k.data()), mg2(d2.mg.data()), mgx2(d2.mgx.data());
    const Lanes<W, C> m1(n1.mean.data()), is1(n1.invstd.data()), sc1(n1.scale.data()), sh1(n1.shift.data());
    Vec dw[C][V] = {}, db[V] = {}, sg[V] = {}, sgx[V] = {};
    // R rows at once; every sum over rows still takes them in row order (the same bits).
    const auto rows = [&](std::int64_t r0, auto count) BREC_SIMD_INLINE_LAMBDA {
        constexpr int R = decltype(count)::value;
        float gh[R][C];
        Vec a[R][V], ga[R][V] = {};
        for (int q = 0; q < R; ++q) {
            const std::int64_t r = r0 + q;
            for (int j = 0; j < V; ++j) {
                const Vec d = W::load(h2 + r * C + kLanes * j) - m2.v[j];
                const Vec gz =
                    pre_relu<W, C>(h2, m2, sc2, sh2, extra, r, j) > Vec{} ? upstream_at<W, C>(gy, r, j) : Vec{};
                const Vec g = k2.v[j] * (gz - mg2.v[j] - d * is2.v[j] * mgx2.v[j]);
                W::store(gh[q] + kLanes * j, g);
                db[j] += g;
                a[q][j] = relu((W::load(h1 + r * C + kLanes * j) - m1.v[j]) * sc1.v[j] + sh1.v[j]);
            }
        }
        linear_back<W, C, C, R>(gh, a, w, dw, ga);
        for (int q = 0; q < R; ++q) {
            const std::int64_t r = r0 + q;
            for (int j = 0; j < V; ++j) {
                const Vec xh = (W::load(h1 + r * C + kLanes * j) - m1.v[j]) * is1.v[j];
                const Vec gz = a[q][j] > Vec{} ? ga[q][j] : Vec{};
                W::store(gz1 + r * C + kLanes * j, gz);
                sg[j] += gz;
                sgx[j] += gz * xh;
            }
        }
    };
    by_row_groups<W, C>(r0, n, rows);
    write_weight_sums<W, C, C>(dw, db, weight_sums);
    to_doubles<W>(sg, norm_sums);
    to_doubles<W>(sgx, norm_sums + C);
}

/// From gz1 (rows of C): gh1 (bn1's backward), dW1 += gh1ᵀ s and db1 += gh1 per block, and
/// gs = gh1 W1 (rows of Ci) written to `gs_out`, which may be gz1 itself when Ci = C (a row is read
/// whole before it is written). With s2, s comes as two halves s and s2 (see input_row), and so
/// goes gs: its halves to gs_out and gs_out2.
template <typename W, int Ci, int C>
BREC_SIMD_INLINE void first_back_pass(const float* h1, const float* s, const float* s2, const NormValues& n1,
                                      const NormGrad& d1, const float* w1, const float* g, float* gs_out,
                                      float* gs_out2, std::int64_t r0, std::int64_t n, double* weight_sums) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes, Vi = Ci / kLanes;
    Lanes<W, Ci> w[C];
    for (int o = 0; o < C; ++o) w[o] = Lanes<W, Ci>(w1 + o * Ci);
    const Lanes<W, C> m1(n1.mean.data()), is1(n1.invstd.data()), k1(d1.k.data()), mg1(d1.mg.data()),
        mgx1(d1.mgx.data());
    Vec dw[C][Vi] = {}, db[V] = {};
    // R rows at once, all read before any is written (gs_out may be g); sums in row order.
    const auto rows = [&](std::int64_t r0, auto count) BREC_SIMD_INLINE_LAMBDA {
        constexpr int R = decltype(count)::value;
        float gh[R][C];
        Vec sv[R][Vi], gs[R][Vi] = {};
        for (int q = 0; q < R; ++q) {
            const std::int64_t r = r0 + q;
            for (int j = 0; j < V; ++j) {
                const Vec xh = (W::load(h1 + r * C + kLanes * j) - m1.v[j]) * is1.v[j];
                const Vec v = k1.v[j] * (W::load(g + r * C + kLanes * j) - mg1.v[j] - xh * mgx1.v[j]);
                W::store(gh[q] + kLanes * j, v);
                db[j] += v;
            }
            float buf[Ci];
            const float* sr = input_row<Ci>(s, s2, r, buf);
            for (int j = 0; j < Vi; ++j) sv[q][j] = W::load(sr + kLanes * j);
        }
        linear_back<W, Ci, C, R>(gh, sv, w, dw, gs);
        for (int q = 0; q < R; ++q) {
            const std::int64_t r = r0 + q;
            if (!s2) {
                for (int j = 0; j < Vi; ++j) W::store(gs_out + r * Ci + kLanes * j, gs[q][j]);
            } else {
                constexpr int H = Ci / 2;
                for (int j = 0; j < Vi / 2; ++j) {
                    W::store(gs_out + r * H + kLanes * j, gs[q][j]);
                    W::store(gs_out2 + r * H + kLanes * j, gs[q][Vi / 2 + j]);
                }
            }
        }
    };
    by_row_groups<W, C>(r0, n, rows);
    write_weight_sums<W, Ci, C>(dw, db, weight_sums);
}

/// gx = (1 + ε) gs + Σ_{u ∈ N(v)} gs_u: the backward of (1 + ε) x + neighbour_sum(x) over
/// symmetric arcs (none when `ptr` is null); with `eps_sum`, the block's Σ gs · x (ε's gradient)
/// in double. With `edge` (the messages relu(x_u + edge)), the neighbours' part passes where
/// x + edge > 0, and `edge_sums` gets the block's Σ of what passes (edge's gradient), per channel.
/// With `gy` (the output's gradient where the output adds x), gy is added too. With `gx` null, only
/// the sums are taken.
template <typename W, int C>
BREC_SIMD_INLINE void last_back_pass(const std::int64_t* ptr, const std::int64_t* col, const float* gs, const float* x,
                                     const float* edge, const float* gy, float one_plus_eps, float* gx, std::int64_t r0,
                                     std::int64_t n, double* eps_sum, double* edge_sums) {
    using Vec = typename W::Vec;
    constexpr int kLanes = W::kLanes;
    constexpr int V = C / kLanes;
    const Vec scale_x = W::splat(one_plus_eps);
    Lanes<W, C> e{};
    if (edge) e = Lanes<W, C>(edge);
    Vec ge[V] = {}, se[V] = {};
    for (std::int64_t r = r0; r < r0 + n; ++r) {
        Vec acc[V] = {};
        if (ptr) gather_sum<W, C>(col + ptr[r], col + ptr[r + 1], gs, acc);
        for (int j = 0; j < V; ++j) {
            const Vec g = W::load(gs + r * C + kLanes * j);
            Vec m = acc[j];
            if (edge) {
                m = W::load(x + r * C + kLanes * j) + e.v[j] > Vec{} ? m : Vec{};
                se[j] += m;
            }
            if (gx) {
                const Vec sum = g * scale_x + m;
                W::store(gx + r * C + kLanes * j, gy ? sum + W::load(gy + r * C + kLanes * j) : sum);
            }
            if (eps_sum) ge[j] += g * W::load(x + r * C + kLanes * j);
        }
    }
    if (edge) to_doubles<W>(se, edge_sums);
    if (!eps_sum) return;
    double total = 0;
    for (int j = 0; j < V; ++j)
        for (int k = 0; k < kLanes; ++k) total += ge[j][k];
    *eps_sum = total;
}

/// Per-block sums of `width` values combined in block order.
inline std::vector<double> sum_blocks(const std::vector<double>& blocks, std::int64_t rows, std::int64_t width) {
    std::vector<double> total(width, 0.0);
    for (std::int64_t b = 0; b * kBlock < rows; ++b)
        for (std::int64_t i = 0; i < width; ++i) total[i] += blocks[b * width + i];
    return total;
}

inline NormGrad norm_grad(const std::vector<double>& sums, const NormValues& n, std::int64_t rows, int c) {
    NormGrad d;
    for (int i = 0; i < c; ++i) {
        d.k.push_back(n.scale[i]);
        d.mg.push_back(static_cast<float>(sums[i] / static_cast<double>(rows)));
        d.mgx.push_back(static_cast<float>(sums[c + i] / static_cast<double>(rows)));
    }
    return d;
}

inline torch::Tensor float_tensor(const std::vector<double>& v, std::int64_t offset, std::int64_t count) {
    // from_blob only views the doubles; to() copies them out, rounded to float.
    return torch::from_blob(const_cast<double*>(v.data() + offset), {count}, torch::kDouble).to(torch::kFloat);
}

inline std::vector<double> as_doubles(const torch::Tensor& t) {
    const auto d = t.to(torch::kDouble).contiguous();
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

/// fn(C) for the row widths the passes are built for, C = 16, 32, 48 or 64 as an
/// integral_constant (any other width takes 64: the callers' predicates rule those out).
template <typename Fn>
auto by_width(std::int64_t c, Fn&& fn) {
    switch (c) {
        case 16:
            return fn(std::integral_constant<int, 16>{});
        case 32:
            return fn(std::integral_constant<int, 32>{});
        case 48:
            return fn(std::integral_constant<int, 48>{});
        default:
            return fn(std::integral_constant<int, 64>{});
    }
}

/// A BatchNorm's values from a pass's block `moments` (training: batch statistics, and the running
/// statistics updated as LibTorch updates them: the unbiased variance, weight `momentum`), or, with
/// `moments` null (eval mode), from the running statistics.
inline NormValues batch_norm_values(const std::vector<double>* moments, std::int64_t rows, int c,
                                    const torch::Tensor& running_mean, const torch::Tensor& running_var,
                                    const torch::Tensor& weight, const torch::Tensor& bias, double momentum,
                                    double eps) {
    std::vector<double> mean, var;
    if (!moments) {
        mean = as_doubles(running_mean);
        var = as_doubles(running_var);
        return norm_values(mean, var, eps, weight, bias);
    }
    combine_moments(*moments, rows, c, mean, var);
    torch::NoGradGuard no_grad;
    std::vector<double> unbiased(var);
    for (double& v : unbiased) v *= static_cast<double>(rows) / static_cast<double>(rows - 1);
    running_mean.mul_(1.0 - momentum).add_(float_tensor(mean, 0, c), momentum);
    running_var.mul_(1.0 - momentum).add_(float_tensor(unbiased, 0, c), momentum);
    return norm_values(mean, var, eps, weight, bias);
}

/// A BatchNorm's values kept in an autograd context between forward and backward, by `name`.
inline const char* const kNormParts[] = {"mean", "invstd", "scale", "shift"};

inline void save_norm(torch::autograd::AutogradContext* ctx, const std::string& name, const NormValues& n) {
    const std::vector<float>* parts[] = {&n.mean, &n.invstd, &n.scale, &n.shift};
    for (int i = 0; i < 4; ++i)
        ctx->saved_data[name + kNormParts[i]] =
            torch::tensor(*parts[i], torch::kFloat);  // copies: the vectors die with the forward
}

inline NormValues load_norm(torch::autograd::AutogradContext* ctx, const std::string& name) {
    NormValues n;
    std::vector<float>* parts[] = {&n.mean, &n.invstd, &n.scale, &n.shift};
    for (int i = 0; i < 4; ++i) {
        const auto t = ctx->saved_data[name + kNormParts[i]].toTensor().contiguous();
        parts[i]->assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    }
    return n;
}

}  // namespace brec::nn::fused
