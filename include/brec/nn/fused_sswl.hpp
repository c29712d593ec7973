#pragma once
// One SSWL+ layer (Zhang et al., ICML 2023) over the node pairs of a batch of graphs, as one fused
// CPU kernel: three GIN branches over the same rows, summed, then BatchNorm and ReLU,
//   y = relu(norm(Σ_b mlp_b((1 + ε_b) x + m_b))),   mlp_b = Linear → BatchNorm → ReLU → Linear,
// with the messages m_uL = Σ relu(x_w) over the pairs w of `within`, m_vL the same over `across`,
// and m_vv = x of the root copy (v, v) of each pair (u, v).
// LibTorch runs a layer as some forty operators, each a pass over the [pairs, width] activations.
// Here a row's values stay in registers: three passes forward, four backward.

#include <torch/torch.h>

#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"

namespace brec::nn {

/// What one SSWL+ layer reads besides x: the arcs of its two local aggregations (symmetric, as a
/// graph's arcs make them), and the root copy of every row as arcs both ways.
struct SswlArcs {
    const Adjacency& within;        ///< uL: (u, w) → (u, v) for every arc w → v of the graph
    const Adjacency& across;        ///< vL: (w, v) → (u, v) for every arc w → u of the graph
    const Adjacency& root_arcs;     ///< (v, v) → (u, v), one arc into every row, in row order: src[r]
                                    ///< is the row of r's root copy
    const Adjacency& root_readers;  ///< the same arcs reversed (row (v, v) receives from every (u, v))
};

/// The modules of one SSWL+ layer: each branch's MLP and trainable ε ([1], float), and the
/// BatchNorm after their sum.
struct SswlModules {
    BnMlp& within;
    BnMlp& across;
    BnMlp& root;
    const torch::Tensor& eps_within;
    const torch::Tensor& eps_across;
    const torch::Tensor& eps_root;
    torch::nn::BatchNorm1d& norm;
};

/// relu(norm(within((1 + ε_uL) x + neighbour_sum(relu(x), arcs.within)) + across(...) +
/// root((1 + ε_vv) x + gather_rows(x, arcs.root_arcs.src)))), in the modules' training or eval mode
/// (training: batch statistics, running statistics updated). On the CPU, for float rows of width
/// 16, 32, 48 or 64 (every Linear [width, width] with a bias) and affine BatchNorms, one fused
/// autograd function; otherwise, or with `fused` false, the modules in the order of that formula
/// (LibTorch operators only, which count_ops sees). The fused function's sums run in another order
/// than LibTorch's (its products in registers, its statistics in double), so its values agree with
/// the modules' within float rounding, not bit for bit. Deterministic: the same bits for any number
/// of threads. Complexity O(rows · width² + arcs · width).
torch::Tensor sswl_layer(const torch::Tensor& x, const SswlArcs& arcs, const SswlModules& m, bool fused = true);

/// Whether sswl_layer takes the fused path for x.
bool sswl_layer_fused(const torch::Tensor& x, const SswlModules& m);

}  // namespace brec::nn
