#pragma once
// Graphs as tensors for message passing: block-diagonal batches of a list of graphs, built once
// per (begin, end) range and kept on the device, and the scatter reductions models pool with.

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "brec/graph/graph.hpp"

namespace brec::nn {

/// Graphs [begin, end) of a list as one disjoint union: nodes numbered consecutively graph by
/// graph, every undirected edge as two directed ones (messages flow src → dst).
struct SparseBatch {
    torch::Tensor src;       ///< [E] int64
    torch::Tensor dst;       ///< [E] int64
    torch::Tensor graph_of;  ///< [N] int64, the graph (0..graphs−1) of each node
    std::int64_t nodes = 0;
    std::int64_t graphs = 0;
};

/// Builds the SparseBatch of graphs [begin, end) on `device`. Complexity O(N + E).
SparseBatch make_sparse_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                              torch::Device device);

/// Memoises per-range values (batches, subgraph structures) so that each is built once per list
/// of graphs: the trainer asks for the same ranges every epoch.
template <typename T>
class RangeCache {
public:
    void clear() { cache_.clear(); }
    template <typename Build>
    const T& get(std::size_t begin, std::size_t end, Build&& build) {
        const auto key = std::make_pair(begin, end);
        auto it = cache_.find(key);
        if (it == cache_.end()) it = cache_.emplace(key, build(begin, end)).first;
        return it->second;
    }

private:
    std::map<std::pair<std::size_t, std::size_t>, T> cache_;
};

/// out[i] = Σ_{k : index[k] = i} src[k] over the first dimension; out has `size` rows.
torch::Tensor scatter_sum(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size);
/// Mean instead of the sum; rows without any entry are 0.
torch::Tensor scatter_mean(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size);
/// Element-wise maximum; rows without any entry are 0.
torch::Tensor scatter_max(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size);

}  // namespace brec::nn
