#pragma once
// A whole `dedup` run: read a dataset (TU directory, graph6/sparse6 file or BREC pair file), find
// its isomorphism orbits, compute the bias metrics, analyse a train/test split against the orbits
// and optionally write the cleaned dataset; plus the JSON and text forms of the result.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/dedup/dataset.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/dedup/split.hpp"
#include "brec/dedup/stream.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// Options of run_dedup. Defaults: topology isomorphism by canonical certificates.
struct DedupOptions {
    std::string path;             ///< TU directory, graph6/sparse6 file or BREC pair file
    std::string format = "auto";  ///< auto (detected), tu, graph6 (also sparse6) or pairs
    std::string tu_name;          ///< TU input: the dataset DS when the directory holds several
    std::string labels;           ///< graph6 input: target labels, one integer per line
    PairSelection selection;      ///< pair files only: categories and ids
    bool node_labels = false;     ///< label-preserving isomorphism (node labels are colours)
    bool edge_labels = false;     ///< node and edge labels preserved
    /// certificate (invariants, then certificates where invariants collide), all-certificates (one
    /// per graph) or pairwise (baseline); all three give the same orbits
    std::string method = "certificate";
    /// certificate method: whether a colour-refinement invariant spares canonical forms first:
    /// auto (decided from a sample), always or never
    std::string invariants = "auto";
    /// Inputs read as a stream (all but the pairwise method and a cleaned TU dataset or pair file):
    /// bytes of canonical forms held in memory before a sorted run goes to disk; 0 = no limit
    std::uint64_t memory_budget = 0;
    std::string spill_dir;  ///< where sorted runs go ("" = $TMPDIR, else /tmp)
    /// The caller needs the graphs (DedupResult::data.graphs): the input is read into memory.
    bool keep_graphs = false;
    std::string split;        ///< train/test split file (see read_split_file); "" = none
    std::string predictions;  ///< model predictions (see read_predictions); needs `split`
    bool one_based = false;   ///< indices in `split` and `predictions` are 1-based
    std::string write_clean;  ///< directory for the cleaned dataset; "" = none
    std::size_t top = 10;     ///< number of largest orbits to list
};

/// What run_dedup found.
struct DedupResult {
    LabelledGraphs data;
    std::string format;  ///< "tu", "graph6" or "pairs"
    OrbitMode mode = OrbitMode::topology;
    std::string method;
    Orbits orbits;
    BiasReport report;
    std::vector<std::size_t> largest;  ///< the largest orbits (largest_orbits), at most `top`
    std::vector<FoldReport> folds;     ///< one per fold of the split
    std::string clean_dir;             ///< where the cleaned dataset went ("" = not written)
    CleanResult clean;
    std::uint64_t comparisons = 0;  ///< isomorphism tests of the pairwise method
    bool streamed = false;    ///< the input read as a stream (graph_file_orbits, tu_dataset_orbits, pair_file_orbits)
    StreamOrbitStats stream;  ///< what the stream did (streamed only)
    double seconds_load = 0, seconds_orbits = 0, seconds = 0;
};

/// Runs the whole analysis; the cleaned dataset is written atomically (nothing on error).
/// Uses ctx.threads() for the canonical labelling, reports progress and stops with Cancelled when
/// `ctx` is cancelled (before anything is written). Problems of the input that are not errors
/// (dropped self-loops or duplicate edges, labels asked for but absent) are logged as warnings
/// as soon as the input is read.
/// @throws InvalidArgument for an unknown format or method, options that do not fit the input,
///         predictions without a split or without target labels; ParseError / IoError from the
///         readers; ResourceLimit for graphs beyond the isomorphism module's limit.
DedupResult run_dedup(const DedupOptions& opt, RunContext& ctx);

/// The JSON form (one object): command, dataset, format, name, mode, method, graphs,
/// orbits{total_including_trivial, trivial, non_trivial}, I, I_pct, isomorphic_pairs, IP_pct,
/// redundant_graphs, mismatched_graphs, mismatched_pct, histogram, largest_orbits,
/// non_trivial_orbits, folds, tu_stats, clean, comparisons, stream (inputs read as a stream: forms,
/// sparse_forms, invariants, predicted_unique, runs, spilled_bytes), seconds.
nlohmann::json to_json(const DedupResult& result);

/// The human form: the metrics, the orbit-size histogram, the largest orbits, the split, the TU
/// input statistics and the cleaned dataset. `svg_path` names a histogram SVG written beside it.
std::string dedup_text(const DedupResult& result, const std::string& svg_path = "");

}  // namespace brec
