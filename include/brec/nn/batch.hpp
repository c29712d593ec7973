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

/// The graphs a model embeds (one group of a pair, on one device) and their per-range values
/// (batches, subgraph structures), each built once: the trainer asks for the same ranges every
/// epoch. A model's set_graphs calls reset; its forward_range calls get.
template <typename T>
class RangeCache {
public:
    /// New graphs on `device`: forgets every value built for the previous ones.
    void reset(const std::vector<Graph>& graphs, torch::Device device) {
        graphs_ = graphs;
        device_ = device;
        cache_.clear();
    }
    const std::vector<Graph>& graphs() const { return graphs_; }
    torch::Device device() const { return device_; }
    /// The value of graphs [begin, end): build(begin, end) the first time, the stored one after.
    template <typename Build>
    const T& get(std::size_t begin, std::size_t end, Build&& build) {
        const auto key = std::make_pair(begin, end);
        auto it = cache_.find(key);
        if (it == cache_.end()) it = cache_.emplace(key, build(begin, end)).first;
        return it->second;
    }

private:
    std::vector<Graph> graphs_;
    torch::Device device_ = torch::kCPU;
    std::map<std::pair<std::size_t, std::size_t>, T> cache_;
};

/// out[i] = Σ_{k : index[k] = i} src[k] over the first dimension; out has `size` rows.
torch::Tensor scatter_sum(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size);
/// Mean instead of the sum; rows without any entry are 0.
torch::Tensor scatter_mean(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size);
/// Element-wise maximum; rows without any entry are 0.
torch::Tensor scatter_max(const torch::Tensor& src, const torch::Tensor& index, std::int64_t size);

/// 1 / (entries of each row in `index`) as a [size, 1] column (0 for rows without entries), so that
/// scatter_sum(src, index, size) * inverse_counts(index, size, src.options()) is scatter_mean with
/// the counts computed once per index instead of on every call.
torch::Tensor inverse_counts(const torch::Tensor& index, std::int64_t size, const torch::TensorOptions& options);

/// out[v] = Σ over arcs k with dst[k] = v of x[src[k]]: the neighbour sum of GIN-like layers,
/// [x.size(0), ...], by index_select and index_add (an [arcs, ...] intermediate). Complexity
/// O(arcs · row size).
torch::Tensor neighbour_sum(const torch::Tensor& x, const torch::Tensor& src, const torch::Tensor& dst);

/// A symmetric set of arcs (every arc src → dst also present as dst → src, as for the edges of
/// undirected graphs and subgraphs), kept both as arc lists and as CSR rows by receiver.
struct Adjacency {
    std::int64_t rows = 0;
    torch::Tensor src, dst;  ///< [E] int64 on the model's device
    torch::Tensor row_ptr,
        col;  ///< [rows + 1], [E] int64 on the CPU: the senders of row v are col[row_ptr[v] .. row_ptr[v+1])
};

/// The Adjacency of arcs src → dst (int64, any device) over `rows` rows; the CSR keeps, per
/// receiver, the order of the arc list. The arcs must be symmetric (not checked).
/// Complexity O(rows + arcs).
Adjacency make_adjacency(const torch::Tensor& src, const torch::Tensor& dst, std::int64_t rows);

/// out[v] = Σ over arcs u → v of x[u], differentiable in x. On the CPU, a row-parallel CSR kernel
/// with no [arcs, width] intermediate, whose backward is the same sum (the arcs are symmetric);
/// each row is summed by one thread in the order of its arcs, in x's type as PyTorch's scatter
/// does, so results do not depend on the thread count. Elsewhere, neighbour_sum(x, src, dst).
/// x is [rows, ...]. Complexity O(arcs · row size).
torch::Tensor neighbour_sum(const torch::Tensor& x, const Adjacency& adj);

/// x.index_select(0, index) (index int64, 1-d), differentiable in x. On the CPU its backward sums
/// the gradient's rows per row of x with the CSR kernel, each in increasing position of `index` and
/// in x's type, the order and type of index_add_ (which LibTorch's own backward calls): the same
/// bits, without index_add_'s one tensor operation per row of the gradient. Complexity O(rows of
/// the gradient · row size).
torch::Tensor gather_rows(const torch::Tensor& x, const torch::Tensor& index);

/// The gradient gather_rows(x, index) gives x ([rows, ...] on the CPU) from the gradient `grad` of
/// its result: the same CSR sums, in the same order and type, as its backward.
torch::Tensor gather_rows_backward(const torch::Tensor& grad, const torch::Tensor& index, std::int64_t rows);

/// gather_rows(x, index.reshape(-1)) viewed as [R, k, ...] and summed over k: for an index [R, k]
/// (int64), row r of the result is x[index[r][0]] + ... + x[index[r][k - 1]], differentiable in x.
/// On the CPU with k <= 4 it is one kernel each way, with no [R·k, ...] intermediate and the same
/// bits as that formula: each result row adds its k rows in index order, from zero, in x's type (as
/// sum(1) does over at most four rows; it groups more), and the backward adds the gradient's rows to
/// the rows of x in increasing position of the flattened index, as gather_rows' backward does;
/// otherwise the formula itself. InvalidArgument for an index outside x's rows. Complexity
/// O(R · k · row size).
torch::Tensor gather_rows_sum(const torch::Tensor& x, const torch::Tensor& index);

/// Rows assigned to groups (copies to subgraphs, nodes to graphs), as the index and as CSR lists of
/// each group's rows, for sums and means that do not depend on the order of the rows.
struct Grouping {
    std::int64_t groups = 0;
    torch::Tensor index;         ///< [R] int64: the group of each row, on the model's device
    torch::Tensor ptr, members;  ///< [groups + 1], [R] int64 on the CPU: group g's rows are members[ptr[g] .. ptr[g+1])
    torch::Tensor inverse_count;  ///< [groups, 1] float on the device: 1 / rows of each group (0 if none)
};
/// The Grouping of rows by `index` (values in [0, groups)); InvalidArgument for values outside.
/// Complexity O(groups + rows).
Grouping make_grouping(const torch::Tensor& index, std::int64_t groups);
/// scatter_sum(x, g.index, g.groups), differentiable in x. On the CPU each group is accumulated in
/// double and rounded once, so a group's sum practically never depends on the order of its rows (a
/// subgraph's copies come in a relabeling's order) and stays accurate over thousands of rows; elsewhere
/// scatter_sum.
///
/// Why only group sums: float32 rounding in pooled sums of many rows, amplified by an output
/// BatchNorm, made relabelings of one graph differ in the 4th digit; neighbour sums (a degree's
/// worth of terms) stay in float32 as in the reference implementations, whose few-ulp differences
/// between relabelings keep the sample covariance of the BREC reference T² from being exactly 0
/// (its pseudo-inverse would then be 0 and every pair undistinguished).
torch::Tensor group_sum(const torch::Tensor& x, const Grouping& g);
/// group_sum(x, g) · g.inverse_count: the mean of each group's rows, 0 for empty groups.
torch::Tensor group_mean(const torch::Tensor& x, const Grouping& g);

}  // namespace brec::nn
