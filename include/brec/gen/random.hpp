#pragma once
// Random graph models used by the counting experiments: Erdős–Rényi G(n,p) and the stochastic
// block model. Every random choice comes from the caller's Rng.
//
// @article{holland1983stochastic, title={Stochastic blockmodels: First steps}, author={Holland,
//   Paul W. and Laskey, Kathryn Blackmond and Leinhardt, Samuel}, journal={Social Networks},
//   volume={5}, number={2}, pages={109--137}, year={1983}}

#include <cstdint>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// G(n, p): every pair is an edge independently with probability p. Complexity O(n^2).
/// Throws InvalidArgument unless 0 <= p <= 1.
Graph erdos_renyi(VertexId n, double p, Rng& rng);

/// Stochastic block model: block sizes, symmetric matrix probs[i][j] of edge probabilities between
/// blocks. Vertices of block 0 come first. The block of every vertex is stored as its node label
/// when `label_blocks` is true. Complexity O(n^2).
Graph stochastic_block_model(const std::vector<VertexId>& sizes, const std::vector<std::vector<double>>& probs,
                             Rng& rng, bool label_blocks = false);

}  // namespace brec
