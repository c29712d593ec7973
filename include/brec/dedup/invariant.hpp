#pragma once
// A cheap isomorphism invariant that sorts a dataset before any canonical labelling: graphs whose
// invariants differ are never isomorphic, so only graphs that share their invariant with another
// graph need a certificate.

#include <cstdint>

#include "brec/dedup/orbits.hpp"
#include "brec/graph/dense_rows.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// A 64-bit hash of n, m and the colour histogram after three rounds of colour refinement (1-WL),
/// starting from the degrees (and, by `mode`, the node labels; edge labels take part in every
/// neighbour message in edge-label mode). Colours are 64-bit hashes combined without renumbering,
/// so values are comparable across graphs. Isomorphic graphs (under `mode`, with missing labels
/// read as 0, as the certificates do) get equal values; unequal values prove non-isomorphism,
/// equal values prove nothing.
/// Complexity: O(n + m) (three passes over the edges, nothing sorted).
std::uint64_t refinement_invariant(const Graph& g, OrbitMode mode);

/// The same invariant for adjacency bit rows in topology mode: equal to
/// refinement_invariant(graph_from_rows(g), OrbitMode::topology). Neighbours are read from the set
/// bits of each row. Complexity: O(n * ceil(n / 64) + m).
std::uint64_t refinement_invariant(const DenseRows& g);

}  // namespace brec
