#include "brec/nn/fused_gin.hpp"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "nn/simd.hpp"

namespace brec::nn {

namespace {

// Rows per block. Every sum over rows is taken per block, in row order, and the blocks' sums are
// combined in block order: the bits do not depend on how threads split the blocks.
constexpr std::int64_t kBlock = 256;

/// A BatchNorm's per-channel values as the passes use them: z = (h − mean) · scale + shift, with
/// scale = γ / σ; invstd = 1 / σ.
struct NormValues {
    std::vector<float> mean, invstd, scale, shift;
};

NormValues norm_values(const std::vector<double>& mean, const std::vector<double>& var, double eps,
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
void combine_moments(const std::vector<double>& blocks, std::int64_t rows, int c, std::vector<double>& mean,
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
/// With `gy` (the output's gradient where the output adds x), gy is added too.
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
            const Vec sum = g * scale_x + m;
            W::store(gx + r * C + kLanes * j, gy ? sum + W::load(gy + r * C + kLanes * j) : sum);
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
std::vector<double> sum_blocks(const std::vector<double>& blocks, std::int64_t rows, std::int64_t width) {
    std::vector<double> total(width, 0.0);
    for (std::int64_t b = 0; b * kBlock < rows; ++b)
        for (std::int64_t i = 0; i < width; ++i) total[i] += blocks[b * width + i];
    return total;
}

NormGrad norm_grad(const std::vector<double>& sums, const NormValues& n, std::int64_t rows, int c) {
    NormGrad d;
    for (int i = 0; i < c; ++i) {
        d.k.push_back(n.scale[i]);
        d.mg.push_back(static_cast<float>(sums[i] / static_cast<double>(rows)));
        d.mgx.push_back(static_cast<float>(sums[c + i] / static_cast<double>(rows)));
    }
    return d;
}

torch::Tensor float_tensor(const std::vector<double>& v, std::int64_t offset, std::int64_t count) {
    // from_blob only views the doubles; to() copies them out, rounded to float.
    return torch::from_blob(const_cast<double*>(v.data() + offset), {count}, torch::kDouble).to(torch::kFloat);
}

std::vector<double> as_doubles(const torch::Tensor& t) {
    const auto d = t.to(torch::kDouble).contiguous();
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

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
        std::vector<double> mean, var;
        if (!l.training) {
            mean = as_doubles(rm);
            var = as_doubles(rv);
            return norm_values(mean, var, eps, weight, bias);
        }
        combine_moments(moments, rows, C, mean, var);
        // The running statistics as LibTorch updates them: the unbiased variance, weight `momentum`.
        torch::NoGradGuard no_grad;
        std::vector<double> unbiased(var);
        for (double& v : unbiased) v *= static_cast<double>(rows) / static_cast<double>(rows - 1);
        rm.mul_(1.0 - momentum).add_(float_tensor(mean, 0, C), momentum);
        rv.mul_(1.0 - momentum).add_(float_tensor(unbiased, 0, C), momentum);
        return norm_values(mean, var, eps, weight, bias);
    };
    double* m = l.training ? moments.data() : nullptr;
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            first_pass<decltype(w), Ci, C>(
                ptr, col, l.x.data_ptr<float>(), l.x2.defined() ? l.x2.data_ptr<float>() : nullptr,
                l.edge.defined() ? l.edge.data_ptr<float>() : nullptr, one_plus_eps(l), w1t.data_ptr<float>(),
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
Grads fused_backward(const Layer& l, const Forward& f, const Upstream& gy) {
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
    g.x = torch::empty_like(l.x);
    std::vector<double> eps_blocks(l.eps.defined() ? static_cast<std::size_t>(blocks) : 0);
    std::vector<double> edge_blocks(l.edge.defined() ? static_cast<std::size_t>(blocks * Ci) : 0);
    for_blocks(rows, [&](std::int64_t b, std::int64_t r0, std::int64_t n) {
        simd::dispatch([&](auto w) BREC_SIMD_INLINE_LAMBDA {
            last_back_pass<decltype(w), Ci>(ptr, col, gs.data_ptr<float>(), l.x.data_ptr<float>(),
                                            l.edge.defined() ? l.edge.data_ptr<float>() : nullptr,
                                            l.residual ? gy.gy : nullptr, one_plus_eps(l), g.x.data_ptr<float>(), r0, n,
                                            eps_blocks.empty() ? nullptr : eps_blocks.data() + b,
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
    using I48 = std::integral_constant<int, 48>;
    using I64 = std::integral_constant<int, 64>;
    if (ci == 2 * c) return c == 16 ? fn(I32{}, I16{}) : fn(I64{}, I32{});
    switch (c) {
        case 16:
            return fn(I16{}, I16{});
        case 32:
            return fn(I32{}, I32{});
        case 48:
            return fn(I48{}, I48{});
        default:
            return fn(I64{}, I64{});
    }
}

const char* const kNormParts[] = {"mean", "invstd", "scale", "shift"};

void save_norm(torch::autograd::AutogradContext* ctx, const std::string& name, const NormValues& n) {
    const std::vector<float>* parts[] = {&n.mean, &n.invstd, &n.scale, &n.shift};
    for (int i = 0; i < 4; ++i)
        ctx->saved_data[name + kNormParts[i]] =
            torch::tensor(*parts[i], torch::kFloat);  // copies: the vectors die with the forward
}

NormValues load_norm(torch::autograd::AutogradContext* ctx, const std::string& name) {
    NormValues n;
    std::vector<float>* parts[] = {&n.mean, &n.invstd, &n.scale, &n.shift};
    for (int i = 0; i < 4; ++i) {
        const auto t = ctx->saved_data[name + kNormParts[i]].toTensor().contiguous();
        parts[i]->assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    }
    return n;
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
            return fused_backward<decltype(ci)::value, decltype(c)::value>(l, f, up);
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

/// gin_bn_layer_fused for an input of x's rows, type and device and `ci` columns.
bool fits(const torch::Tensor& x, std::int64_t ci, const GinBnModules& m, const torch::Tensor& eps) {
    const auto& w1 = m.first->weight;
    const auto c = w1.dim() == 2 ? w1.size(0) : 0;
    const auto shape = [](const torch::Tensor& w, std::int64_t out, std::int64_t in) {
        return w.dim() == 2 && w.size(0) == out && w.size(1) == in;
    };
    const bool widths = (c == 16 || c == 32 || c == 48 || c == 64) && (ci == c || (ci == 2 * c && ci <= 64)) &&
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

}  // namespace

bool gin_bn_layer_fused(const torch::Tensor& x, const GinBnModules& m, const torch::Tensor& eps) {
    return fits(x, x.dim() == 2 ? x.size(1) : 0, m, eps);
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
                                   const MeanOf& mean = {}, const torch::Tensor& edge = {}, bool residual = false) {
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
    if (!fused || !halves_fit || !edge_fits || !residual_fits || !fits(x, ci, m, eps)) return with_mean(modules({}));
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
    auto outputs = FusedGin::apply(x, or_none(x2), m.first->weight, or_none(m.first->bias), m.norm1->weight,
                                   m.norm1->bias, m.second->weight, or_none(m.second->bias), m.norm2->weight,
                                   m.norm2->bias, or_none(e), or_none(eps), or_none(edge), l);
    if (!mean.asked()) outputs[1] = torch::Tensor();
    return outputs;
}

}  // namespace

torch::Tensor gin_bn_layer(const torch::Tensor& x, const Adjacency& adj, const GinBnModules& m, bool fused,
                           const std::function<torch::Tensor()>& extra, const torch::Tensor& eps) {
    return layer(x, {}, &adj, m, fused, extra, eps)[0];
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
