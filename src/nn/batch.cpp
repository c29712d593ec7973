#include "brec/nn/batch.hpp"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include <ATen/Parallel.h>
#include <torch/version.h>

#include "brec/core/error.hpp"

namespace brec::nn {

SparseBatch make_sparse_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                              torch::Device device) {
    if (begin > end || end > graphs.size()) throw InvalidArgument("make_sparse_batch: range outside the graph list");
    std::int64_t nodes = 0, arcs = 0;
    for (std::size_t i = begin; i < end; ++i) {
        nodes += graphs[i].n();
        arcs += 2 * static_cast<std::int64_t>(graphs[i].m());
    }
    auto src = torch::empty({arcs}, torch::kLong), dst = torch::empty({arcs}, torch::kLong);
    auto owner = torch::empty({nodes}, torch::kLong);
    auto* s = src.data_ptr<std::int64_t>();
    auto* d = dst.data_ptr<std::int64_t>();
    auto* o = owner.data_ptr<std::int64_t>();
    std::int64_t offset = 0, k = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Graph& g = graphs[i];
        for (VertexId v = 0; v < g.n(); ++v) {
            o[offset + v] = static_cast<std::int64_t>(i - begin);
            for (VertexId w : g.neighbors(v)) {
                s[k] = offset + w;
                d[k] = offset + v;
                ++k;
            }
        }
        offset += g.n();
    }
    SparseBatch b;
    b.src = src.to(device);
    b.dst = dst.to(device);
    b.graph_of = owner.to(device);
    b.nodes = nodes;
    b.graphs = static_cast<std::int64_t>(end - begin);
    return b;
}

namespace {

std::vector<std::int64_t> rows_shape(const torch::Tensor& src, std::int64_t size) {
    std::vector<std::int64_t> shape(src.sizes().begin(), src.sizes().end());
    shape[0] = size;
    return shape;
}

/// index [K] broadcast to src's shape [K, ...] for scatter along dimension 0.
torch::Tensor expand_index(const torch::Tensor& index, const torch::Tensor& src) {
    auto idx = index;
    for (std::int64_t i = 1; i < src.dim(); ++i) idx = idx.unsqueeze(-1);
    return idx.expand_as(src);
}

}  // namespace

torch::Tensor scatter_sum(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size) {
    return torch::zeros(rows_shape(src, size), src.options()).index_add_(0, index, src);
}

torch::Tensor scatter_mean(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size) {
    const auto sum = scatter_sum(src, index, size);
    auto count = torch::zeros({size}, src.options()).index_add_(0, index, torch::ones({index.size(0)}, src.options()));
    count = count.clamp_min(1.0);
    for (std::int64_t i = 1; i < src.dim(); ++i) count = count.unsqueeze(-1);
    return sum / count;
}

namespace {

/// Passes LibTorch's warnings on to the handler it replaces, except its one-time notice that
/// scatter_reduce "is in beta" (about LibTorch's API, not about the run; printed on stderr even
/// under --quiet). Warning handlers are per thread in LibTorch, so a guard affects this thread only.
/// (LibTorch 2 moved the handler's accessors to c10::WarningUtils and passes a c10::Warning.)
#if TORCH_VERSION_MAJOR >= 2
namespace warnings = c10::WarningUtils;
#else
namespace warnings = c10::Warning;
#endif
class QuietBetaNotice : public c10::WarningHandler {
public:
    QuietBetaNotice() : previous_(warnings::get_warning_handler()) {}
#if TORCH_VERSION_MAJOR >= 2
    void process(const c10::Warning& warning) override {
        if (warning.msg().find("is in beta") == std::string::npos) previous_->process(warning);
    }
#else
    void process(const c10::SourceLocation& where, const std::string& message, bool verbatim) override {
        if (message.find("is in beta") == std::string::npos) previous_->process(where, message, verbatim);
    }
#endif

private:
    c10::WarningHandler* previous_;
};

}  // namespace

torch::Tensor scatter_max(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size) {
    QuietBetaNotice quiet;
    const warnings::WarningHandlerGuard guard(&quiet);
    return torch::zeros(rows_shape(src, size), src.options())
        .scatter_reduce(0, expand_index(index, src), src, "amax", /*include_self=*/false);
}

torch::Tensor inverse_counts(const torch::Tensor& index, std::int64_t size, const torch::TensorOptions& options) {
    const auto count = torch::zeros({size}, options).index_add_(0, index, torch::ones({index.size(0)}, options));
    return torch::where(count > 0, count.reciprocal(), torch::zeros_like(count)).unsqueeze(1);
}

torch::Tensor neighbour_sum(const torch::Tensor& x, const torch::Tensor& src, const torch::Tensor& dst) {
    return scatter_sum(x.index_select(0, src), dst, x.size(0));
}

namespace {

// The row kernels below, built twice (AVX2 and the default) and picked at load time.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BREC_ROW_KERNEL __attribute__((optimize("O3"), target_clones("avx2", "default")))
#else
#define BREC_ROW_KERNEL
#endif

/// The shape of x with its first dimension replaced by `rows`.
std::vector<std::int64_t> with_rows(const torch::Tensor& x, std::int64_t rows) {
    std::vector<std::int64_t> shape(x.sizes().begin(), x.sizes().end());
    shape[0] = rows;
    return shape;
}

/// The values in one row of x (all but the first dimension), 0 for a tensor without rows.
std::int64_t row_width(const torch::Tensor& x) { return x.size(0) > 0 ? x.numel() / x.size(0) : 0; }

/// o[j0, j0 + W) = Σ over the listed rows r of x[r][j0, j0 + W), accumulated in W registers of Acc
/// in the listed order; W is a compile-time width so the sums stay in vector registers.
template <typename T, typename Acc, int W>
inline __attribute__((always_inline)) void csr_block(const std::int64_t* first, const std::int64_t* last, const T* x,
                                                     T* o, std::int64_t width, std::int64_t j0) {
    Acc a[W] = {};
    for (const std::int64_t* k = first; k != last; ++k) {
        const T* xr = x + *k * width + j0;
#pragma GCC unroll 32
        for (int j = 0; j < W; ++j) a[j] += static_cast<Acc>(xr[j]);
    }
#pragma GCC unroll 32
    for (int j = 0; j < W; ++j) o[j0 + j] = static_cast<T>(a[j]);
}

/// out[v] = Σ_{k in row v} x[col[k]] for v in [lo, hi), rows of `width` values, accumulated in Acc
/// in the CSR order: the width is cut into blocks of four vector registers, then of one, then single
/// values, and each block sums every listed row before the next. Only additions, in the same order
/// per value whatever the block or the instruction set, so every clone gives the same bits. With
/// Acc = double a sum of float rows is accurate to double precision before its one rounding to T,
/// so the order of the rows practically never changes a bit.
template <typename T, typename Acc>
BREC_ROW_KERNEL void csr_row_range(const std::int64_t* ptr, const std::int64_t* col, const T* x, T* out,
                                   std::int64_t lo, std::int64_t hi, std::int64_t width) {
    constexpr int kBlock = static_cast<int>(32 / sizeof(Acc));  // values of Acc in one 256-bit register
    for (std::int64_t v = lo; v < hi; ++v) {
        const std::int64_t* first = col + ptr[v];
        const std::int64_t* last = col + ptr[v + 1];
        T* o = out + v * width;
        std::int64_t j = 0;
        for (; j + 4 * kBlock <= width; j += 4 * kBlock) csr_block<T, Acc, 4 * kBlock>(first, last, x, o, width, j);
        for (; j + kBlock <= width; j += kBlock) csr_block<T, Acc, kBlock>(first, last, x, o, width, j);
        for (; j < width; ++j) csr_block<T, Acc, 1>(first, last, x, o, width, j);
    }
}

/// csr_row_range over every row, split over threads: rows are independent, so any split gives the
/// same bits.
template <typename T, typename Acc>
void csr_row_sums(const std::int64_t* ptr, const std::int64_t* col, const T* x, T* out, std::int64_t rows,
                  std::int64_t width) {
    at::parallel_for(0, rows, 64,
                     [&](std::int64_t lo, std::int64_t hi) { csr_row_range<T, Acc>(ptr, col, x, out, lo, hi, width); });
}

/// [rows, ...] sums of the rows of x listed by the CSR (ptr over the output rows, col into x's rows),
/// accumulated in double when `exact`, else in x's type.
torch::Tensor csr_sum(const torch::Tensor& x, const torch::Tensor& ptr, const torch::Tensor& col, bool exact) {
    const auto xc = x.contiguous();
    const std::int64_t rows = ptr.numel() - 1;
    auto out = torch::empty(with_rows(xc, rows), xc.options());
    const std::int64_t width = row_width(xc);
    AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "csr_sum", [&] {
        if (exact)
            csr_row_sums<scalar_t, double>(ptr.data_ptr<std::int64_t>(), col.data_ptr<std::int64_t>(),
                                           xc.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rows, width);
        else
            csr_row_sums<scalar_t, scalar_t>(ptr.data_ptr<std::int64_t>(), col.data_ptr<std::int64_t>(),
                                             xc.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rows, width);
    });
    return out;
}

/// The CSR neighbour sum as an autograd node: for symmetric arcs the adjacency is its own
/// transpose, so the gradient is the same sum of the output gradient.
struct CsrNeighbourSum : torch::autograd::Function<CsrNeighbourSum> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& ptr, const torch::Tensor& col) {
        ctx->save_for_backward({ptr, col});
        return csr_sum(x, ptr, col, /*exact=*/false);
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto saved = ctx->get_saved_variables();
        return {csr_sum(grad[0], saved[0], saved[1], /*exact=*/false), torch::Tensor(), torch::Tensor()};
    }
};

/// The CSR group sum as an autograd node: the gradient of a row is its group's gradient.
struct CsrGroupSum : torch::autograd::Function<CsrGroupSum> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& ptr, const torch::Tensor& members, const torch::Tensor& index) {
        ctx->save_for_backward({index});
        return csr_sum(x, ptr, members, /*exact=*/true);
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto index = ctx->get_saved_variables()[0];
        return {grad[0].index_select(0, index), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

/// Throws, naming the first entry k of the `count` values at `p` outside [0, rows), as
/// "<prefix>k leaves the <rows> rows".
void check_rows(const std::int64_t* p, std::int64_t count, std::int64_t rows, const std::string& prefix) {
    for (std::int64_t k = 0; k < count; ++k)
        if (p[k] < 0 || p[k] >= rows)
            throw InvalidArgument(prefix + std::to_string(k) + " leaves the " + std::to_string(rows) + " rows");
}

/// CSR of `index` (values in [0, rows)) by value: ptr [rows + 1] and, per row, the positions k with
/// index[k] = row, in increasing k.
std::pair<torch::Tensor, torch::Tensor> csr_by_value(const torch::Tensor& index, std::int64_t rows,
                                                     const torch::Tensor* sources, const char* what) {
    const auto d = index.to(torch::kCPU).contiguous();
    const std::int64_t count = d.numel();
    const auto* dp = d.data_ptr<std::int64_t>();
    torch::Tensor s;
    const std::int64_t* sp = nullptr;
    if (sources) {
        s = sources->to(torch::kCPU).contiguous();
        sp = s.data_ptr<std::int64_t>();
    }
    auto ptr_t = torch::zeros({rows + 1}, torch::kLong);
    auto col_t = torch::empty({count}, torch::kLong);
    auto* ptr = ptr_t.data_ptr<std::int64_t>();
    auto* col = col_t.data_ptr<std::int64_t>();
    const std::string prefix = std::string(what) + ": entry ";
    check_rows(dp, count, rows, prefix);
    if (sp) check_rows(sp, count, rows, prefix);
    for (std::int64_t k = 0; k < count; ++k) ++ptr[dp[k] + 1];
    for (std::int64_t v = 0; v < rows; ++v) ptr[v + 1] += ptr[v];
    std::vector<std::int64_t> next(ptr, ptr + rows);
    for (std::int64_t k = 0; k < count; ++k) col[next[static_cast<std::size_t>(dp[k])]++] = sp ? sp[k] : k;
    return {ptr_t, col_t};
}

/// x.index_select(0, index) whose backward is the CSR sum of the gradient rows by index.
struct CsrGather : torch::autograd::Function<CsrGather> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& index) {
        ctx->save_for_backward({index});
        ctx->saved_data["rows"] = x.size(0);
        return x.index_select(0, index);
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        return {gather_rows_backward(grad[0], ctx->get_saved_variables()[0], ctx->saved_data["rows"].toInt()),
                torch::Tensor()};
    }
};

}  // namespace

torch::Tensor gather_rows_backward(const torch::Tensor& grad, const torch::Tensor& index, std::int64_t rows) {
    const auto [ptr, col] = csr_by_value(index, rows, nullptr, "gather_rows: index");
    return csr_sum(grad, ptr, col, /*exact=*/false);
}

torch::Tensor gather_rows(const torch::Tensor& x, const torch::Tensor& index) {
    if (!x.device().is_cpu() || !x.requires_grad() || !torch::GradMode::is_enabled() ||
        index.scalar_type() != torch::kLong || index.dim() != 1 || x.dim() == 0)
        return x.index_select(0, index);
    return CsrGather::apply(x, index);
}

namespace {

/// out[r] = x[index[r][0]] + ... + x[index[r][k - 1]] for r in [lo, hi), from zero, in T and in
/// index order. Only additions of whole rows: the same bits in every clone.
template <typename T>
BREC_ROW_KERNEL void gather_sum_range(const T* __restrict x, const std::int64_t* __restrict index, T* __restrict out,
                                      std::int64_t k, std::int64_t width, std::int64_t lo, std::int64_t hi) {
    for (std::int64_t r = lo; r < hi; ++r) {
        T* o = out + r * width;
        std::fill(o, o + width, T(0));
        for (std::int64_t c = 0; c < k; ++c) {
            const T* xr = x + index[r * k + c] * width;
            for (std::int64_t j = 0; j < width; ++j) o[j] += xr[j];
        }
    }
}

/// g[v] += grad[p / k] for every position p of the flattened index with index[p] = v in [lo, hi),
/// in increasing p: one pass over the index, so each row of g sums in position order. grad's rows
/// lie `stride` values apart (a column slice, as a concatenation's backward hands back).
template <typename T>
BREC_ROW_KERNEL void scatter_sum_range(const T* __restrict grad, std::int64_t stride,
                                       const std::int64_t* __restrict index, T* __restrict g, std::int64_t positions,
                                       std::int64_t k, std::int64_t width, std::int64_t lo, std::int64_t hi) {
    for (std::int64_t p = 0; p < positions; ++p) {
        const std::int64_t v = index[p];
        if (v < lo || v >= hi) continue;
        const T* gr = grad + (p / k) * stride;
        T* o = g + v * width;
        for (std::int64_t j = 0; j < width; ++j) o[j] += gr[j];
    }
}

#undef BREC_ROW_KERNEL

/// gather_rows_sum on the CPU as an autograd node.
struct GatherRowsSum : torch::autograd::Function<GatherRowsSum> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& index) {
        const auto xc = x.contiguous();
        const std::int64_t rows = index.size(0), k = index.size(1);
        const std::int64_t width = row_width(xc);
        ctx->save_for_backward({index});
        ctx->saved_data["rows"] = x.size(0);
        auto out = torch::empty(with_rows(xc, rows), xc.options());
        AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "gather_rows_sum", [&] {
            const scalar_t* xp = xc.data_ptr<scalar_t>();
            const std::int64_t* ip = index.data_ptr<std::int64_t>();
            scalar_t* op = out.data_ptr<scalar_t>();
            at::parallel_for(0, rows, 256, [&](std::int64_t lo, std::int64_t hi) {
                gather_sum_range<scalar_t>(xp, ip, op, k, width, lo, hi);
            });
        });
        return out;
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::tensor_list grad) {
        const auto index = ctx->get_saved_variables()[0];
        // A column slice of rows is read in place; anything else is made contiguous.
        const auto& g_in = grad[0];
        const auto gc = g_in.dim() == 2 && g_in.stride(1) == 1 ? g_in : g_in.contiguous();
        const std::int64_t rows = ctx->saved_data["rows"].toInt(), k = index.size(1);
        const std::int64_t width = row_width(gc);
        const std::int64_t stride = gc.dim() == 2 ? gc.stride(0) : width;
        auto g = torch::zeros(with_rows(gc, rows), gc.options());
        AT_DISPATCH_FLOATING_TYPES(gc.scalar_type(), "gather_rows_sum_backward", [&] {
            const scalar_t* gp = gc.data_ptr<scalar_t>();
            const std::int64_t* ip = index.data_ptr<std::int64_t>();
            scalar_t* op = g.data_ptr<scalar_t>();
            // Each thread takes a range of x's rows and reads the whole index once.
            at::parallel_for(0, rows, 1, [&](std::int64_t lo, std::int64_t hi) {
                scatter_sum_range<scalar_t>(gp, stride, ip, op, index.numel(), k, width, lo, hi);
            });
        });
        return {g, torch::Tensor()};
    }
};

}  // namespace

torch::Tensor gather_rows_sum(const torch::Tensor& x, const torch::Tensor& index) {
    if (index.dim() != 2 || index.scalar_type() != torch::kLong || x.dim() == 0)
        throw InvalidArgument("gather_rows_sum: needs an int64 index [rows, k] and a tensor of rows");
    const auto ic = index.contiguous();
    if (ic.device().is_cpu())
        check_rows(ic.data_ptr<std::int64_t>(), ic.numel(), x.size(0), "gather_rows_sum: index entry ");
    // LibTorch's sum of more than four rows groups them, in an order this kernel does not follow.
    if (!x.device().is_cpu() || !ic.device().is_cpu() || ic.size(1) > 4 ||
        (x.scalar_type() != torch::kFloat && x.scalar_type() != torch::kDouble)) {
        std::vector<std::int64_t> shape{ic.size(0), ic.size(1)};
        shape.insert(shape.end(), x.sizes().begin() + 1, x.sizes().end());
        return x.index_select(0, ic.reshape(-1)).view(shape).sum(1);
    }
    return GatherRowsSum::apply(x, ic);
}

Adjacency make_adjacency(const torch::Tensor& src, const torch::Tensor& dst, std::int64_t rows) {
    if (src.numel() != dst.numel()) throw InvalidArgument("make_adjacency: src and dst differ in length");
    Adjacency a;
    a.rows = rows;
    a.src = src;
    a.dst = dst;
    std::tie(a.row_ptr, a.col) = csr_by_value(dst, rows, &src, "make_adjacency: arc");
    return a;
}

torch::Tensor neighbour_sum(const torch::Tensor& x, const Adjacency& adj) {
    if (x.size(0) != adj.rows)
        throw InvalidArgument("neighbour_sum: " + std::to_string(x.size(0)) + " rows for an adjacency of " +
                              std::to_string(adj.rows));
    if (!x.device().is_cpu()) return neighbour_sum(x, adj.src, adj.dst);
    return CsrNeighbourSum::apply(x, adj.row_ptr, adj.col);
}

Grouping make_grouping(const torch::Tensor& index, std::int64_t groups) {
    Grouping g;
    g.groups = groups;
    g.index = index;
    std::tie(g.ptr, g.members) = csr_by_value(index, groups, nullptr, "make_grouping: row");
    const auto counts = (g.ptr.slice(0, 1) - g.ptr.slice(0, 0, groups)).to(torch::kFloat);
    g.inverse_count =
        torch::where(counts > 0, counts.reciprocal(), torch::zeros_like(counts)).unsqueeze(1).to(index.device());
    return g;
}

torch::Tensor group_sum(const torch::Tensor& x, const Grouping& g) {
    if (x.size(0) != g.index.numel())
        throw InvalidArgument("group_sum: " + std::to_string(x.size(0)) + " rows for a grouping of " +
                              std::to_string(g.index.numel()));
    if (!x.device().is_cpu()) return scatter_sum(x, g.index, g.groups);
    return CsrGroupSum::apply(x, g.ptr, g.members, g.index);
}

torch::Tensor group_mean(const torch::Tensor& x, const Grouping& g) { return group_sum(x, g) * g.inverse_count; }

}  // namespace brec::nn
