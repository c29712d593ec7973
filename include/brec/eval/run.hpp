#pragma once
// A whole `brec eval` run: every selected pair for every seed, records appended to a JSONL file as
// they finish (resumable), one summary per seed with both RPC protocols, the multi-seed protocol,
// the CI regression check against an earlier summary and JUnit XML.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"

namespace brec {

/// Options of run_evaluation.
struct EvalRunOptions {
    EvalOptions eval;
    std::vector<std::uint64_t> seeds{100};
    int jobs = 1;          ///< pairs evaluated in parallel
    std::string out;       ///< JSONL of per-pair records ("" = keep in memory only)
    bool resume = false;   ///< keep the records already in `out` and skip their (seed, pair)
    std::string dataset;   ///< the dataset's name for the summaries
    std::string shard;     ///< "i/N" when the selection is a shard (recorded in the summaries)
    /// The protocol of the headline numbers (summary "categories"/"total", baseline, JUnit
    /// failures); both protocols are always computed and recorded.
    Protocol protocol = Protocol::hotelling;
};

/// The settings that decide a pair's result (model, hyperparameters, RPC settings, training,
/// noise floor), as a JSON object; devices, kernels, thread counts and the headline protocol are
/// not part of it.
nlohmann::json evaluation_settings(const EvalOptions& opt);
/// A short stable id of evaluation_settings (16 hex digits), stored in every record so that
/// resuming never mixes results of different settings.
std::string settings_id(const EvalOptions& opt);

struct SeedRun {
    std::uint64_t seed = 0;
    nlohmann::json summary;           ///< per-protocol counts, headline counts, settings, runtime
    std::vector<EvalRecord> records;  ///< in selection order
};

struct EvalRunResult {
    std::vector<SeedRun> runs;  ///< one per seed, in the order given
    /// Index of the best seed with no reliability failure under the headline protocol (most pairs
    /// distinguished; ties: the earlier seed), or runs.size() when every seed failed some check.
    std::size_t best_reliable = 0;
    /// The best reliable seed's summary (else the first seed's); with several seeds also "seeds"
    /// (per-seed totals under both protocols), "best_reliable_seed" and "multi_seed": per protocol
    /// BREC's rule (a result only when every seed passed every reliability check, then the best
    /// seed), the best reliable seed, and mean ± 95 % Student-t interval over the seeds per group.
    nlohmann::json summary;
    double seconds = 0.0;
};

/// Evaluates pairs `indices` of `dataset` for every seed. With opt.out, every record is appended
/// and flushed as soon as its pair finishes; with opt.resume, records already in opt.out for the
/// same model are kept and their pairs skipped. Throws InvalidArgument when opt.out exists but
/// opt.resume is not set (results are never overwritten silently) or when it holds records of
/// the same model made with other settings; ParseError for a corrupt line (a torn last line from
/// an interrupted run is dropped); Cancelled when ctx is cancelled (finished records are kept).
EvalRunResult run_evaluation(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const EvalRunOptions& opt, RunContext& ctx);

/// Categories of `summary` that distinguish fewer pairs or fail more reliability checks than in
/// `baseline` (an earlier summary), under `protocol` (a baseline without per-protocol counts is
/// compared by its headline counts), as "category: distinguished 3 < 5" lines. Throws ParseError
/// (file name `baseline_name`) when `baseline` is not a brec summary.
std::vector<std::string> baseline_regressions(const nlohmann::json& baseline, const nlohmann::json& summary,
                                              const std::string& baseline_name, Protocol protocol = Protocol::hotelling);

/// JUnit XML with one test case per record (classname brec.CATEGORY, name "pair ID ..."); a
/// reliability failure under `protocol` is a test failure; both protocols' T² are in system-out.
std::string junit_xml(const std::vector<EvalRecord>& records, const std::string& suite, double seconds,
                      Protocol protocol = Protocol::hotelling);

/// The human report of a run: per seed, per group (or fine category) both protocols' counts
/// side by side, then the multi-seed lines.
std::string evaluation_text(const EvalRunResult& result, const std::string& model, std::size_t pairs, bool fine);

}  // namespace brec
