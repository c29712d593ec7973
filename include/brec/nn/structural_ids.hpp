#pragma once
// GSN's edge structural identifiers as model input: per edge, the counts of the 12 edge orbits of
// the connected induced 3- and 4-vertex patterns (count/patterns.hpp), each count one-hot encoded
// over a fixed vocabulary.
//
// The released GSN encodes each count column over the distinct values that column takes in the
// whole dataset it was given (BREC's 260-pair brec_v3_s4 file: 273 columns in all): the encoding,
// and the width of the first message MLP, depend on every graph of the run. brec trains a fresh
// model per pair from that pair's graphs only, so the vocabulary is fixed instead: column o is
// one-hot over the values 0..cap(o), larger values sharing the last slot (561 columns). The caps
// are the largest values each column takes on the pairs of brec_v3_s4 (BREC ids 0-259), so on
// those pairs no two counts share a slot and the encoding carries exactly the information of the
// released one; what differs is the 288 columns that are never 1 there (values between the
// distinct ones), which change the first Linear's fan-in and so its initial weight scale (a
// BatchNorm follows it). On the other BREC pairs (CFI, 4-vertex condition, distance regular: up to
// 412 per column) larger counts share the last slot, so GSN there sees less than the released code
// would have with those graphs in its dataset (it never ran them).
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), GSN/test_BREC.py (--id_encoding
// one_hot_unique), GSN/utils_encoding.py and GSN/datasets/BREC/brec_v3_s4/brec_v3_s4.g6.

#include <array>
#include <cstdint>
#include <vector>

#include "brec/count/patterns.hpp"
#include "brec/graph/graph.hpp"

namespace brec::nn {

/// The largest count of each edge orbit (EdgeOrbit order) with a slot of its own.
const std::array<std::uint32_t, kNumEdgeOrbits>& gsn_id_caps();
/// Width of the one-hot identifier of an edge: Σ (cap(o) + 1).
std::int64_t gsn_id_width();

/// Both arcs of every edge of g with the one-hot slots of the edge's identifier.
struct GsnArcs {
    std::vector<std::int64_t> src, dst;  ///< 2m arcs: each edge (u, v) of g.edges() as u → v, then v → u
    /// kNumEdgeOrbits slots per arc (column offsets included: slot of orbit o lies in
    /// [offset(o), offset(o) + cap(o)]), so that a [arcs, gsn_id_width()] one-hot matrix has a 1 at
    /// each of them.
    std::vector<std::int64_t> slots;
};
GsnArcs gsn_arcs(const Graph& g);

}  // namespace brec::nn
