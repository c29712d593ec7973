#pragma once
// The attention readout of Set2Set (Vinyals et al., 2016), as PyTorch Geometric computes it: for
// each group g of rows (a graph's nodes or tuples) and its query q_g,
//   e_i = ⟨x_i, q_g⟩,  a_i = exp(e_i − max_g e) / (Σ_{j ∈ g} exp(e_j − max_g e) + 10⁻¹⁶),
//   r_g = Σ_{i ∈ g} a_i x_i.
// LibTorch runs it as some dozen operators over the [rows, width] activations and their gradients
// (a gather of the queries, the product, the sum, the group maximum, exp, the group sum, the
// division, the weighted rows and their group sum), each a pass over memory; fused, it is three
// passes forward and two back.

#include <torch/torch.h>

#include "brec/nn/batch.hpp"

namespace brec::nn {

/// r [groups, width] from x [rows, width] and query [groups, width], rows grouped by `g`. The
/// maximum is a constant shift (no gradient flows through it, as PyG detaches it); an empty group
/// reads 0. With `fused`, for float tensors on the CPU: one autograd function, each group on one
/// thread, so the bits do not depend on the thread count. The softmax's denominator is summed in
/// float in row order, as the operators sum it, so its rounding depends on the rows' order as
/// theirs does; r, and in the backward pass Σ a_i ⟨x_i, dr⟩ and the query's gradient, accumulate
/// in double. The values agree with the operators' within float rounding, not bit for bit. A NaN
/// in a group makes that group's output NaN. `fused` false, other types or devices: LibTorch's
/// operators in the order above (which count_ops sees).
torch::Tensor softmax_readout(const torch::Tensor& x, const torch::Tensor& query, const Grouping& g, bool fused = true);

}  // namespace brec::nn
