#pragma once
// Weisfeiler-Lehman subtree features of a whole dataset, for graph kernels: every graph's colour
// histogram after 0, 1, ..., h rounds of colour refinement, with colours shared by all graphs of
// the dataset (one signature table per round), so that a dot product of two feature vectors
// counts the pairs of vertices with equal colours, round by round.
//
// @article{shervashidze2011weisfeiler, title={Weisfeiler-Lehman Graph Kernels},
//   author={Shervashidze, Nino and Schweitzer, Pascal and van Leeuwen, Erik Jan and
//   Mehlhorn, Kurt and Borgwardt, Karsten M.}, journal={JMLR}, volume={12}, year={2011}}

#include <cstdint>
#include <utility>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// A sparse feature vector: (feature id, count) sorted by feature id, counts > 0.
using FeatureRow = std::vector<std::pair<std::uint64_t, double>>;

/// WL subtree features with `rounds` refinement rounds (0 = the vertex histogram: only the initial
/// colours). Initial colours are the node labels when `use_node_labels` and the graphs carry them,
/// else one colour for all vertices. Feature ids of round r follow those of rounds < r.
/// Throws InvalidArgument when `rounds` < 0.
/// Complexity: O(rounds · (V + E) log(V + E)) over the whole dataset.
std::vector<FeatureRow> wl_subtree_features(const std::vector<Graph>& graphs, int rounds, bool use_node_labels = true);

/// Dot product of two sparse feature rows. Complexity: O(|a| + |b|).
double feature_dot(const FeatureRow& a, const FeatureRow& b);

}  // namespace brec
