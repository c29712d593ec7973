#pragma once
// Isomorphism orbits of a dataset without holding its graphs (a graph-line file: graph6 / sparse6,
// one graph per line; a TU directory; a pair file): the input is read in batches, every graph that
// needs one gets a canonical form (for graph6 records dense nauty on graphs of up to kDenseFormMaxN
// vertices, as nauty's labelg does, sparse nauty above; for TU graphs compact forms under the
// labels), and graphs are grouped by sorting (hash, index) records and comparing the forms of
// equal hashes.
// Memory is the forms of the graphs that need them plus a few bytes per graph; beyond a memory
// budget, sorted runs of records go to disk and are merged (as `sort` does), with the same orbits.
//
// A cheap invariant (colour refinement) spares the canonical form of every graph whose invariant is
// unique; it needs a first pass over the input and pays only when invariants separate the graphs,
// so by default it is used when a sample of the first graphs predicts that enough of them are unique
// (when the sample is the whole input: when enough of them are). An input that fits its first batch
// is read once.

#include <cstdint>
#include <string>

#include "brec/core/run_context.hpp"
#include "brec/dedup/dataset.hpp"
#include "brec/dedup/orbits.hpp"

namespace brec {

/// Graphs up to this many vertices get dense-nauty forms; larger ones sparse-nauty certificates.
inline constexpr VertexId kDenseFormMaxN = 1024;

enum class InvariantUse {
    automatic,  ///< decided from the first graphs (predicted_unique_share)
    always,     ///< an invariant pass, then forms only where invariants collide
    never,      ///< a canonical form for every graph
};

struct StreamOrbitOptions {
    InvariantUse invariants = InvariantUse::automatic;
    /// Bytes of forms and sort records held in memory before a sorted run is written to disk;
    /// 0 = no limit (everything in memory).
    std::uint64_t memory_budget = 0;
    std::string spill_dir;  ///< directory for the runs; "" = $TMPDIR, else /tmp
    /// Graphs read at a time (fewer once their text reaches 1 MiB), and graphs of the sample that
    /// decides InvariantUse::automatic. Neither changes the orbits; tests make them small.
    std::size_t batch = 1 << 14;
    std::size_t sample = 4096;
};

struct StreamOrbitStats {
    std::uint64_t graphs = 0;
    std::uint64_t forms = 0;         ///< canonical forms computed
    std::uint64_t sparse_forms = 0;  ///< of them by sparse nauty (graphs above kDenseFormMaxN)
    bool invariants = false;         ///< whether the invariant pass ran
    double predicted_unique = -1;    ///< automatic: predicted share of unique invariants (-1: not sampled)
    std::uint64_t runs = 0;          ///< sorted runs written to disk (0 = all in memory)
    std::uint64_t spilled_bytes = 0;
};

/// The decision of InvariantUse::automatic from `sample` invariants (the first graphs of a file of
/// about `estimated_graphs` graphs): with c pairs of equal invariants among the s(s-1)/2 pairs of
/// the sample, a graph's invariant is unique in the file with probability about
/// exp(-c / (s(s-1)/2) * (estimated_graphs - 1)); the pass pays when that share is at least
/// `threshold` (an invariant costs a fraction of a canonical form). Returns the predicted share.
double predicted_unique_share(std::vector<std::uint64_t> sample, double estimated_graphs);

/// Orbits of the graphs of `path` under plain graph isomorphism (labels: graph lines carry none).
/// Graph k is the k-th record as read_graph_lines reads the file. Orbits are numbered by first
/// member, as compute_orbits numbers them, and equal its orbits; they do not depend on the thread
/// count, the invariant choice or the memory budget. Uses ctx.threads(); progress task "dedup"
/// counts graphs (total unknown: 0); stops with Cancelled. Throws ParseError naming the file and
/// line of a bad record, IoError when the file or a run cannot be read or written.
/// Complexity: one canonical labelling per graph that needs one, O(N log N) sorting; memory about
/// (form bytes + 17) per graph with a form plus 5 bytes per graph, or the budget.
Orbits graph_file_orbits(const std::string& path, const StreamOrbitOptions& opt, RunContext& ctx,
                         StreamOrbitStats* stats = nullptr);

/// Orbits of a TU dataset (see TuGraphReader) under `mode`, read graph by graph as
/// graph_file_orbits reads a graph-line file: compact canonical forms (append_compact_form) under
/// the mode's labels, the same invariant choice, memory budget and spilling; equal to the orbits of
/// compute_orbits on read_tu_dataset's graphs. `data` receives everything but the graphs (their
/// count, the target labels, the label flags and the reader's statistics). Throws TuOrderError
/// when the files are not stored graph by graph, and what TuGraphReader throws.
Orbits tu_dataset_orbits(const std::string& dir, const std::string& name, OrbitMode mode, const StreamOrbitOptions& opt,
                         RunContext& ctx, LabelledGraphs& data, StreamOrbitStats* stats = nullptr);

/// Orbits of the selected pairs of a pair file (see PairFileReader): graphs 2k and 2k + 1 are
/// graphs a and b of the k-th selected pair, as from_pairs numbers them; read as graph_file_orbits
/// reads a graph-line file. `data` receives everything but the graphs (their count and the pair
/// ids). Throws what PairFileReader throws.
Orbits pair_file_orbits(const std::string& path, const PairSelection& selection, const StreamOrbitOptions& opt,
                        RunContext& ctx, LabelledGraphs& data, StreamOrbitStats* stats = nullptr);

}  // namespace brec
