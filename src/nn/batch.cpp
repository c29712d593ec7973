#include "brec/nn/batch.hpp"

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

torch::Tensor scatter_max(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size) {
    return torch::zeros(rows_shape(src, size), src.options())
        .scatter_reduce(0, expand_index(index, src), src, "amax", /*include_self=*/false);
}

}  // namespace brec::nn
