#pragma once
// A GIN layer with a BatchNorm MLP, then BatchNorm and ReLU, as one fused CPU kernel:
//   y = relu(bn2(W2 relu(bn1(W1 ((1 + ε) x + Σ_{u ∈ N(v)} x_u) + b1)) + b2) + e)
// with ε = 0 fixed or trainable, and e optional.
// LibTorch runs this as some twenty operators, each a pass over the [rows, width] activations, and
// its one-thread products at widths 16-64 are far below the machine's GEMM rate. Here the 16-64
// values of a row stay in registers: three passes forward, four backward.

#include <functional>
#include <utility>

#include <torch/torch.h>

#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"

namespace brec::nn {

/// relu(norm(mlp(x + neighbour_sum(x, adj))) + extra()) as LibTorch's modules compute it, in the
/// modules' training or eval mode (training: batch statistics, running statistics updated). `extra`
/// is optional (empty: nothing is added; DSS-GNN adds its cross-subgraph term there) and is called
/// once: after the GIN on the modules' path, so autograd meets the operators in the order a model
/// written with the modules makes them (the same bits), and before the kernel on the fused path. On
/// the CPU, for float rows whose width is the MLP's width (16, 32, 48 or 64; the MLP's hidden and
/// output widths are one) or twice it (up to 64), and with affine BatchNorms (the Linears with or
/// without biases), one fused autograd function; otherwise the modules themselves. The fused function's sums are in
/// another order than LibTorch's (its statistics accumulate in double), so its values agree with the modules' within
/// float rounding, not bit for bit. Deterministic: the same bits for any number of threads. `fused`
/// false always takes the modules (LibTorch operators only, which count_ops sees); so does a term
/// not of the output's shape and of x's type and device (the modules broadcast it; it is then added
/// after the GIN). With `extra_index` (int64, one entry per row of x), extra() returns rows [m, C]
/// and the term is gather_rows(extra(), extra_index): the fused function reads row
/// extra_index[r] in place instead of the gathered [rows, C] copy, and sums the term's gradient
/// per row of extra() as gather_rows' backward does (the same bits).
torch::Tensor gin_bn_layer(const torch::Tensor& x, const Adjacency& adj, BnMlp& mlp, torch::nn::BatchNorm1d& norm,
                           bool fused = true, const std::function<torch::Tensor()>& extra = {},
                           const torch::Tensor& extra_index = {});

/// gin_bn_layer(x, adj, mlp, norm, fused) and the mean of its output over `runs` equal blocks of
/// rows, y.view({runs, rows / runs, C}).mean(0), as DropGNN reads out its runs after every layer.
/// On the fused path the mean is an output of the fused function, whose backward adds the mean's
/// gradient to y's in one pass: LibTorch's mean backward and autograd's sum of the two would make
/// two more [rows, C] tensors. The same bits as the mean taken after the layer. x's rows must be a
/// multiple of `runs` (else InvalidArgument).
std::pair<torch::Tensor, torch::Tensor> gin_bn_layer_and_mean(const torch::Tensor& x, const Adjacency& adj, BnMlp& mlp,
                                                              torch::nn::BatchNorm1d& norm, std::int64_t runs,
                                                              bool fused = true);

/// gin_bn_layer(x, adj, mlp, norm, fused, extra, extra_index) and group_mean of its output by
/// `groups`, as DSS-GNN's next layer reads the mean of each node's copies. On the fused path the mean
/// is an output of the fused function, whose backward adds the mean's gradient (times 1 / count, as
/// group_mean's backward) to each row's in the passes that read it: the same bits as group_mean
/// after the layer, without the gathered [rows, C] gradient and autograd's sum of the two.
std::pair<torch::Tensor, torch::Tensor> gin_bn_layer_and_group_mean(const torch::Tensor& x, const Adjacency& adj,
                                                                    BnMlp& mlp, torch::nn::BatchNorm1d& norm,
                                                                    const Grouping& groups, bool fused = true,
                                                                    const std::function<torch::Tensor()>& extra = {},
                                                                    const torch::Tensor& extra_index = {});

/// The modules of such a layer as a model holds them: a GIN's MLP Linear → BatchNorm → ReLU → Linear
/// and the BatchNorm after it (BnMlp's first, norm and second, and the layer's norm).
struct GinBnModules {
    Linear& first;
    torch::nn::BatchNorm1d& norm1;
    Linear& second;
    torch::nn::BatchNorm1d& norm2;
};

/// The same layer from its modules, with an optional trainable ε ([1], float; undefined: ε = 0
/// fixed): relu(norm2(second(relu(norm1(first((1 + ε) x + Σ_{u ∈ N(v)} x_u))))) + extra()), on the
/// modules' path in the order a model written with the modules makes its operators. ε's gradient
/// is Σ over rows and channels of x times the gradient at the MLP's input. With `pad_input`, an x
/// narrower than the MLP (a first layer's features) takes the fused path too: x and the first
/// weight get zero columns up to the MLP's width, which add exact zeros to every product (the
/// modules' path is then LibTorch's on the narrow x, and the two agree within float rounding).
/// Where x needs no gradient, the fused backward skips x's pass over the arcs.
torch::Tensor gin_bn_layer(const torch::Tensor& x, const Adjacency& adj, const GinBnModules& m, bool fused = true,
                           const std::function<torch::Tensor()>& extra = {}, const torch::Tensor& eps = {},
                           bool pad_input = false);

/// A GINE layer (Hu et al., ICLR 2020) with one edge feature e for every arc, as GNN-AK's inner
/// GNN runs it, ending in BatchNorm and ReLU, and with `residual` its input added:
///   [x +] relu(norm2(second(relu(norm1(first((1 + ε) x + Σ_{u ∈ N(v)} relu(x_u + e)))))))
/// e: [C] or [1, C] (x's width), float; its gradient is summed over the arcs. ε as above. Fused
/// under gin_bn_layer's conditions (the Linears may lack biases; with `residual`, x as wide as the
/// MLP's output); the modules' path makes (1 + ε) x + neighbour_sum(relu(x + e)), the MLP and the
/// residual sum as a model written with the modules does.
torch::Tensor gine_bn_layer(const torch::Tensor& x, const Adjacency& adj, const GinBnModules& m,
                            const torch::Tensor& edge, const torch::Tensor& eps = {}, bool residual = false,
                            bool fused = true);

/// The same layer without the GIN's sum: relu(norm2(second(relu(norm1(first(x)))))), a BatchNorm MLP
/// ending in BatchNorm and ReLU, fused under the same conditions (x's width the MLP's or twice it:
/// δ-2-LGNN combines its two GINs' outputs so). No arcs are read and x is not copied; the modules'
/// path makes the operators in the order of that formula.
torch::Tensor bn_mlp_layer(const torch::Tensor& x, const GinBnModules& m, bool fused = true);

/// bn_mlp_layer(torch::cat({a, b}, 1), m, fused) without making the concatenation on the fused
/// path (a and b of equal shape): the kernel reads each row's two halves and writes a's and b's
/// gradients apart, the same bits as on the concatenation. The modules' path makes it with cat.
torch::Tensor bn_mlp_layer(const torch::Tensor& a, const torch::Tensor& b, const GinBnModules& m, bool fused = true);

/// Whether gin_bn_layer (and bn_mlp_layer, with eps undefined) takes the fused path for these
/// arguments.
bool gin_bn_layer_fused(const torch::Tensor& x, BnMlp& mlp, torch::nn::BatchNorm1d& norm);
bool gin_bn_layer_fused(const torch::Tensor& x, const GinBnModules& m, const torch::Tensor& eps = {},
                        bool pad_input = false);

}  // namespace brec::nn
