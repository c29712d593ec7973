#pragma once
// `brec show`: one pair of a pair file drawn side by side, with a caption of its parameters.

#include <functional>
#include <string>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// Facts about a pair that come from the isomorphism module, which the report module does not
/// depend on: the caller computes them.
struct PairSymmetry {
    std::string automorphisms_a;  ///< |Aut(G)| as text
    std::string automorphisms_b;  ///< |Aut(H)| as text
    bool isomorphic = false;      ///< G ≅ H (a pair file should hold none)
};

/// Computes the PairSymmetry of two graphs.
using PairSymmetryFn = std::function<PairSymmetry(const Graph&, const Graph&)>;

/// A drawn pair: the SVG document and its caption lines (also printed by `brec show`).
struct PairFigure {
    std::string svg;
    std::vector<std::string> caption;
};

/// A one-line description of a graph's structure: "empty", "degrees 2-4", the strongly regular
/// parameters (with the 4-vertex constants when they exist), "distance-regular {...}" or
/// "k-regular".
std::string graph_structure(const Graph& g);

/// The parameters `brec generate` recorded for pair `id` in meta.json next to the pair file (kind,
/// base, treewidth, ...), or "" when there is no such file or it is not the generator's.
std::string generated_pair_parameters(const std::string& dataset, PairId id);

/// Draws pair `id` of the pair file `dataset`. The caption says: id, category, sizes; the
/// structure of both graphs; the generator's parameters when recorded; |Aut| and whether the
/// graphs are isomorphic (from `symmetry`); and the layout, from the same plan that draws it.
/// Throws InvalidArgument when the file has no pair `id`, ParseError/IoError for a bad file.
PairFigure draw_pair(const std::string& dataset, PairId id, const PairSymmetryFn& symmetry);

}  // namespace brec
