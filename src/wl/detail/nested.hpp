#pragma once
// Private building block of the nested tests (NGNN-WL, DE+NGNN-WL, I²-WL, drop1): many induced
// subgraphs ("copies") of G and H refined jointly as one disjoint union with one palette, so that
// colours are comparable across all copies of both graphs; each copy's invariant is its sorted
// colour histogram.

#include <cstdint>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/graph/graph.hpp"
#include "refine.hpp"

namespace brec::detail {

class CopyUnion {
public:
    /// Appends the subgraph of `x` induced by `vertices` (vertices[i] becomes local vertex i) with
    /// the initial colour key keys[i] of each; returns the copy's index. Keys are compared as plain
    /// integers across all copies. Throws ResourceLimit when the union outgrows 32-bit ids.
    std::size_t add(const Graph& x, const std::vector<VertexId>& vertices, const std::vector<std::uint64_t>& keys);

    std::size_t copies() const { return starts_.size(); }
    VertexId vertices() const { return union_.n; }

    /// Refines every copy jointly (max_rounds < 0: to stability) and returns each copy's sorted
    /// colour histogram, in the order the copies were added. `outcome` (optional) receives the
    /// rounds and the palette size (its final_colours are left empty).
    std::vector<std::vector<ColorId>> histograms(int max_rounds, RefineOutcome* outcome = nullptr) const;

private:
    LabelledUnion union_;
    std::vector<std::uint64_t> keys_;
    std::vector<VertexId> starts_;  ///< first union vertex of each copy
    std::vector<VertexId> slot_;    ///< scratch: local index of a vertex of the copy being added
};

}  // namespace brec::detail
