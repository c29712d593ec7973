#include "brec/nn/batch.hpp"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include <ATen/Parallel.h>

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
class QuietBetaNotice : public c10::WarningHandler {
public:
    QuietBetaNotice() : previous_(c10::Warning::get_warning_handler()) {}
    void process(const c10::SourceLocation& where, const std::string& message, bool verbatim) override {
        if (message.find("is in beta") == std::string::npos) previous_->process(where, message, verbatim);
    }

private:
    c10::WarningHandler* previous_;
};

}  // namespace

torch::Tensor scatter_max(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size) {
    QuietBetaNotice quiet;
    const c10::Warning::WarningHandlerGuard guard(&quiet);
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
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((optimize("O3"), target_clones("avx2", "default")))
#endif
void csr_row_range(const std::int64_t* ptr, const std::int64_t* col, const T* x, T* out, std::int64_t lo,
                   std::int64_t hi, std::int64_t width) {
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
    std::vector<std::int64_t> shape(xc.sizes().begin(), xc.sizes().end());
    shape[0] = rows;
    auto out = torch::empty(shape, xc.options());
    const std::int64_t width = xc.size(0) > 0 ? xc.numel() / xc.size(0) : 0;
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
    for (std::int64_t k = 0; k < count; ++k) {
        if (dp[k] < 0 || dp[k] >= rows || (sp && (sp[k] < 0 || sp[k] >= rows)))
            throw InvalidArgument(std::string(what) + ": entry " + std::to_string(k) + " leaves the " +
                                  std::to_string(rows) + " rows");
        ++ptr[dp[k] + 1];
    }
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
