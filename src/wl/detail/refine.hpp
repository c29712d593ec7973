#pragma once
// Private building blocks of the WL engine: joint colour refinement of two graphs with a shared
// integer palette, on sparse graphs or on edge-labelled complete graphs.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/graph/graph.hpp"
#include "brec/wl/wl.hpp"

namespace brec::detail {

/// A graph with integer arc labels, for refinement: CSR over the disjoint union of G (vertices
/// [0, split)) and H (vertices [split, n)).
struct LabelledUnion {
    VertexId n = 0;
    VertexId split = 0;
    std::vector<std::uint32_t> offsets;  // n + 1
    std::vector<VertexId> targets;       // arcs
    std::vector<std::uint32_t> labels;   // per arc; empty = all 0
};

/// Union of g and h with their own edges (arc labels from `g.has_edge_labels()` are not used).
LabelledUnion make_union(const Graph& g, const Graph& h);

/// Ranks arbitrary 64-bit keys of both graphs to dense colours 0..c-1 (sorted order).
std::vector<ColorId> dense_rank(const std::vector<std::uint64_t>& keys, std::size_t* classes = nullptr);

/// Ranks comparable values (of both graphs) to dense colours 0..c-1 in sorted order: equal values,
/// equal colours.
template <typename T>
std::vector<ColorId> rank_values(const std::vector<T>& values) {
    std::vector<T> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<ColorId> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = static_cast<ColorId>(std::lower_bound(sorted.begin(), sorted.end(), values[i]) - sorted.begin());
    return out;
}

/// Initial colours of the union of G and H from their node labels (all equal without `use_labels`).
std::vector<ColorId> label_colours(const Graph& g, const Graph& h, bool use_labels);

struct RefineOutcome {
    bool distinguished = false;
    int rounds = 0;
    std::size_t colours = 0;
    std::vector<ColorId> final_colours;
};

/// Joint 1-WL on the union: new colour = (old colour, sorted multiset of (arc label, neighbour colour)).
/// Compares the colour histograms of [0,split) and [split,n) after every round (and before the first).
/// max_rounds < 0: until stable. When `compare` is false, refines to stability without comparing.
RefineOutcome refine_union(const LabelledUnion& u, std::vector<ColorId> colours, int max_rounds, bool compare = true);

/// The WlResult of a refinement: its rounds and colours, and whether it distinguished the graphs
/// (or, where the graphs' invariants are compared after refining, `distinguished`).
WlResult from_outcome(const RefineOutcome& o);
WlResult from_outcome(const RefineOutcome& o, bool distinguished);

/// Do the colour histograms of [0,split) and [split,n) agree?
bool histograms_equal(const std::vector<ColorId>& colours, VertexId split, std::size_t num_colours);

}  // namespace brec::detail
