#pragma once
// A GIN layer with ε = 0 and a BatchNorm MLP, then BatchNorm and ReLU, as one fused CPU kernel:
//   y = relu(bn2(W2 relu(bn1(W1 (x + Σ_{u ∈ N(v)} x_u) + b1)) + b2) + e)   (e optional)
// LibTorch runs this as some twenty operators, each a pass over the [rows, width] activations, and
// its one-thread products at widths 16-64 are far below the machine's GEMM rate. Here the 16-64
// values of a row stay in registers: three passes forward, four backward.

#include <functional>

#include <torch/torch.h>

#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"

namespace brec::nn {

/// relu(norm(mlp(x + neighbour_sum(x, adj))) + extra()) as LibTorch's modules compute it, in the
/// modules' training or eval mode (training: batch statistics, running statistics updated). `extra`
/// is optional (empty: nothing is added; DSS-GNN adds its cross-subgraph term there) and is called
/// once: after the GIN on the modules' path, so autograd meets the operators in the order a model
/// written with the modules makes them (the same bits), and before the kernel on the fused path. On
/// the CPU, for float rows whose width, the MLP's hidden width and its output width are all 16, 32
/// or 64 (one of them) and with affine BatchNorms with biased Linears, one fused autograd function;
/// otherwise the modules themselves. The fused function's sums are in another order than
/// LibTorch's (its statistics accumulate in double), so its values agree with the modules' within
/// float rounding, not bit for bit. Deterministic: the same bits for any number of threads. `fused`
/// false always takes the modules (LibTorch operators only, which count_ops sees); so does a term
/// not of x's shape, type and device (the modules broadcast it; it is then added after the GIN).
torch::Tensor gin_bn_layer(const torch::Tensor& x, const Adjacency& adj, BnMlp& mlp, torch::nn::BatchNorm1d& norm,
                           bool fused = true, const std::function<torch::Tensor()>& extra = {});

/// Whether gin_bn_layer takes the fused path for these arguments.
bool gin_bn_layer_fused(const torch::Tensor& x, BnMlp& mlp, torch::nn::BatchNorm1d& norm);

}  // namespace brec::nn
