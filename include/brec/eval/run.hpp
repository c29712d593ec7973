#pragma once
// A whole `brec eval` run: every selected pair for every seed, records appended to a JSONL file as
// they finish (resumable), one summary per seed with both RPC protocols, the multi-seed protocol,
// the CI regression check against an earlier summary and JUnit XML.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"
#include "brec/io/results_store.hpp"
#include "brec/rpc/run_summary.hpp"  // EvalRunResult, baseline_regressions, junit_xml, evaluation_text

namespace brec {

/// Options of run_evaluation.
struct EvalRunOptions {
    EvalOptions eval;
    std::vector<std::uint64_t> seeds{100};
    int jobs = 1;         ///< pairs evaluated in parallel
    std::string out;      ///< JSONL of per-pair records ("" = keep in memory only)
    bool resume = false;  ///< keep the records already in `out` and skip their (seed, pair)
    std::string dataset;  ///< the dataset's name for the summaries
    std::string shard;    ///< "i/N" when the selection is a shard (recorded in the summaries)
    /// The protocol of the headline numbers (summary "categories"/"total", baseline, JUnit
    /// failures); both protocols are always computed and recorded.
    Protocol protocol = Protocol::hotelling;
    /// Pairs whose model memory estimate (ModelEntry::estimate_bytes) exceeds this many bytes,
    /// divided by `jobs` (pairs run in parallel share it), are not run: their record says why in
    /// `skipped`, and a warning names the pair. 0 = 80 % of the machine's physical memory (room for
    /// the process's other data and the system; also on CUDA, whose device memory is not queried:
    /// give it here). Models without an estimate always run.
    /// Not part of the settings: a skipped record stays done on --resume, whatever the new limit.
    std::uint64_t max_memory = 0;
};

/// The machine's physical memory in bytes (0 when the system does not say).
std::uint64_t physical_memory_bytes();

/// The model's memory estimate for training on `pair` with these options: the largest of its
/// estimates for a training batch of G and H interleaved and for batches of G alone and H alone
/// (the reliability and RAPC groups). Empty when the model has no estimate.
std::optional<std::uint64_t> pair_memory_estimate(const GraphPairRecord& pair, const EvalOptions& opt);

/// The settings that decide a pair's result (model, hyperparameters, RPC settings, training,
/// noise floor), as a JSON object; devices, kernels, thread counts and the headline protocol are
/// not part of it.
nlohmann::json evaluation_settings(const EvalOptions& opt);
/// A short stable id of evaluation_settings (settings_hash, 16 hex digits), stored in every record
/// so that resuming never mixes results of different settings.
std::string settings_id(const EvalOptions& opt);

/// Every built-in model as JSON (what `brec eval --list-models --json` prints): per model its name,
/// family, citation, bound, default settings, Table 2 row of the BREC paper (null when it has none)
/// and paper subset (a pair list such as "0-319,380-399"; "" = all 400 pairs).
nlohmann::json model_list_json();
/// What `brec eval --list-models` prints: the table of describe_models(), or with `as_json` the
/// indented model_list_json() and a newline.
std::string model_listing(bool as_json);

/// The pairs of `indices` that the BREC study ran `model` on (its registry row's paper subset), in
/// their order; all of them when the row names no subset.
std::vector<std::size_t> paper_subset_indices(const PairDataset& dataset, std::vector<std::size_t> indices,
                                              const std::string& model);

/// The settings every eval record of a results file must have: those of `model` run with
/// `settings_id` (a record of another model or settings refuses the file; `path` names it).
ResultsSettings eval_results_settings(const std::string& path, const std::string& model,
                                      const std::string& settings_id);

/// The record of a pair not run because its memory estimate `need` exceeds `limit` / `jobs`
/// (counted as not distinguished and not as a reliability failure), after a warning naming it.
EvalRecord skipped_record(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed, std::uint64_t need,
                          std::uint64_t limit, int jobs, const RunContext& ctx);

/// Sets up the CPU threads of a run of `jobs` pairs in parallel and records them in `opt`:
/// LibTorch intra-op threads per job (`requested` when > 0, else cores / jobs, with pairs below 32
/// vertices single-threaded), a single-threaded OpenBLAS when jobs run in parallel (its own pool
/// would spin across jobs) and otherwise as many OpenBLAS threads per pair as intra-op threads (so a
/// small pair runs alike whatever --jobs), and the allocator tuning of large CPU tensors.
void configure_cpu_threads(EvalOptions& opt, int jobs, int requested);

/// Evaluates pairs `indices` of `dataset` for every seed. With opt.out, every record is appended
/// and flushed as soon as its pair finishes; with opt.resume, records already in opt.out for the
/// same model are kept and their pairs skipped. Throws InvalidArgument when opt.out exists but
/// opt.resume is not set (results are never overwritten silently) or when it holds records of
/// the same model made with other settings; ParseError for a corrupt line (a torn last line from
/// an interrupted run is dropped); Cancelled when ctx is cancelled (finished records are kept).
EvalRunResult run_evaluation(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const EvalRunOptions& opt, RunContext& ctx);

}  // namespace brec
