#pragma once
// Views of a graph over its ordered vertex pairs, as two BREC models consume them: the 2-tuple
// graph of δ-2-LGNN (local 2-tuple neighbourhoods, Morris et al.) and the spatial encoding of
// Graphormer (shortest-path distances as embedding indices, Ying et al.). Plain C++ over the
// graph's CSR; the models (src/nn/models/lgnn2.cpp, graphormer.cpp) turn them into tensors.
//
// @inproceedings{morris2020sparse, title={Weisfeiler and Leman go sparse: Towards scalable
//   higher-order graph embeddings}, author={Morris, Christopher and Rattan, Gaurav and Mutzel,
//   Petra}, booktitle={NeurIPS}, year={2020}}
// @inproceedings{ying2021graphormer, title={Do Transformers Really Perform Bad for Graph
//   Representation?}, author={Ying, Chengxuan and Cai, Tianle and Luo, Shengjie and Zheng, Shuxin
//   and Ke, Guolin and He, Di and Shen, Yanming and Liu, Tie-Yan}, booktitle={NeurIPS}, year={2021}}

#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec::nn {

/// The isomorphism type of an ordered pair (v, w), numbered as the δ-2-LGNN preprocessing of the
/// BREC study numbers its tuple colours: by first appearance, scanning the tuples of the data set's
/// first graph in row-major order. (0, 0) is v = w; in that graph (BREC's first Basic graph) vertices
/// 0 and 1 are not adjacent, so a non-edge comes second and an edge third.
enum class TupleType : std::int64_t { same = 0, non_edge = 1, edge = 2 };

/// The 2-tuple graph of δ-2-LWL without "+": one node per ordered pair (v, w), numbered v·n + w,
/// with two kinds of local neighbours. Arcs of `first` join (v, w) and (v', w) for every edge
/// v–v'; arcs of `second` join (v, w) and (v, w') for every edge w–w'. Both arc sets are symmetric
/// and hold n · 2m arcs each, sorted by (dst, src).
struct TupleGraph {
    std::int32_t n = 0;
    std::vector<std::int64_t> type;  ///< [n²], the TupleType of each tuple
    std::vector<std::int64_t> first_src, first_dst;
    std::vector<std::int64_t> second_src, second_dst;
};

/// The 2-tuple graph of `g`. Complexity O(n² + n · m).
TupleGraph tuple_graph(const Graph& g);

/// The distance Graphormer's Floyd–Warshall gives to pairs in different components (and to any
/// distance at or above it).
inline constexpr std::int64_t kGraphormerUnreachable = 510;

/// Graphormer's spatial-encoding index of every ordered pair, [n²] row-major: the shortest-path
/// distance plus 1 (the collator's shift that keeps 0 for padding), so 1 on the diagonal, 2 for
/// adjacent pairs, and kGraphormerUnreachable + 1 = 511 for pairs in different components.
/// Complexity O(n (n + m)).
std::vector<std::int64_t> graphormer_spatial_index(const Graph& g);

}  // namespace brec::nn
