#pragma once
#include "brec/core/run_context.hpp"
#include "brec/wl/wl.hpp"

namespace brec::detail {

/// Whether k-WL / k-FWL runs a graph on the orbits of its automorphism group on k-tuples (see
/// tuple_wl.cpp): automatic decides per graph by a fixed rule (k = 3, enough vertices and few
/// enough orbits); always takes the orbit path for every graph when k >= 2 (also with a trivial
/// group: one orbit per tuple), never takes the plain path. The results are the same in every mode.
enum class TupleOrbitMode { automatic, always, never };

/// The orbits each graph ran on: 0 for the plain path.
struct TupleOrbitUse {
    std::size_t orbits[2] = {0, 0};
};

/// k-WL (folklore = false, k = 2, 3) or k-FWL (folklore = true, k = 1, 2, 3) on the pair. With a
/// context, every round is reported as progress (a step of unknown count) and cancellation is
/// checked between blocks of tuples: Cancelled is thrown within a fraction of a round.
/// Complexity per round: O(n^(k+1)) for a graph on the plain path, O(orbits k n) on the orbit path,
/// which costs one nauty run and O(n^k |generators|) once (orbit_mode says when it is taken).
/// @param orbit_use optional: set to the orbits each graph ran on.
WlResult run_tuple_wl(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds, bool use_labels,
                      int threads, const RunContext* ctx = nullptr,
                      TupleOrbitMode orbit_mode = TupleOrbitMode::automatic, TupleOrbitUse* orbit_use = nullptr);

}  // namespace brec::detail
