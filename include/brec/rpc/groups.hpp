#pragma once
// The graphs a pair is judged on by BREC's reliable paired comparison: q relabelings of each graph
// (the "traintest" group) and 2q relabelings of one of them (the "reliability" group). Every model
// sees exactly these graphs, whether brec trains it (`brec eval`) or the user does from an export
// (`brec export`, `brec rpc`), so this part needs no LibTorch.
//
// @article{wang2023towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, journal={arXiv:2304.07702}, year={2023}}

#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// `count` relabelings of g: the first is g itself, the others random relabelings that are
/// distinct as labelled graphs where possible (re-drawn up to 100 times, as the reference).
std::vector<Graph> relabelings(const Graph& g, int count, Rng& rng);

/// The graphs one pair is judged on.
struct PairGroups {
    std::vector<Graph> traintest;    ///< 2q graphs G₁, H₁, G₂, H₂, ... (copy 1 is the original)
    std::vector<Graph> reliability;  ///< 2q relabelings of one graph, paired (0,1), (2,3), ...
    bool reliability_of_b = false;   ///< whether the reliability group is made of H
};

/// The groups of a pair for the pair's random stream `rng` (Rng(stream_seed(seed, pair id))),
/// exactly as evaluate_pair builds them; draws from rng in a fixed order.
/// Complexity: O(q (n + m) log n) plus the graph6 encodings of the distinctness check.
PairGroups make_pair_groups(const GraphPairRecord& pair, int q, Rng& rng);

}  // namespace brec
