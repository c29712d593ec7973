#pragma once
// A whole `brec eval` run: every selected pair for every seed, results appended to a JSONL file as
// they finish (resumable), one summary per seed, the multi-seed protocol of SPEC §5 (the published
// number is the best seed whose run passed the reliability check on every pair), the CI regression
// check against an earlier summary and JUnit XML.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// Options of run_evaluation.
struct EvalRunOptions {
    EvalOptions eval;
    std::vector<std::uint64_t> seeds{100};
    int jobs = 1;             ///< pairs evaluated in parallel
    std::string out;          ///< JSONL of per-pair records ("" = keep in memory only)
    bool resume = false;      ///< keep the records already in `out` and skip their (seed, pair)
    std::string dataset;      ///< the dataset's name for the summaries
    std::string shard;        ///< "i/N" when the selection is a shard (recorded in the summaries)
};

/// The settings that decide a pair's result (model, hyperparameters, RPC settings, training,
/// noise floor), as a JSON object; devices, kernels and thread counts are not part of it.
nlohmann::json evaluation_settings(const EvalOptions& opt);
/// A short stable id of evaluation_settings (16 hex digits), stored in every record so that
/// --resume never mixes results of different settings.
std::string settings_id(const EvalOptions& opt);

/// One per-pair JSONL record; `settings_id` is settings_id(opt), computed once per run.
nlohmann::json evaluation_record(const PairEvaluation& r, const EvalOptions& opt, std::uint64_t seed,
                                 const std::string& settings_id);

struct SeedRun {
    std::uint64_t seed = 0;
    nlohmann::json summary;                ///< make_summary(...) plus model, rpc, hyperparameters
    std::vector<nlohmann::json> records;   ///< in selection order
};

struct EvalRunResult {
    std::vector<SeedRun> runs;  ///< one per seed, in the order given
    /// Index of the best seed with no reliability failure (most pairs distinguished; ties: the
    /// earlier seed), or runs.size() when every seed failed some reliability check.
    std::size_t best_reliable = 0;
    nlohmann::json summary;     ///< the best reliable seed's summary (else the first seed's), with
                                ///< "seeds" and "best_reliable_seed" when several seeds ran
    double seconds = 0.0;
};

/// Evaluates pairs `indices` of `dataset` for every seed. With opt.out, every record is appended
/// and flushed as soon as its pair finishes; with opt.resume, records already in opt.out for the
/// same model are kept and their pairs skipped. Throws InvalidArgument when opt.out exists but
/// opt.resume is not set (results are never overwritten silently) or when it holds records of
/// the same model made with other settings; ParseError for a corrupt line (a torn last line from
/// an interrupted run is dropped).
EvalRunResult run_evaluation(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const EvalRunOptions& opt, RunContext& ctx);

/// Categories of `summary` that distinguish fewer pairs or fail more reliability checks than in
/// `baseline` (an earlier summary), as "category: distinguished 3 < 5" lines. Throws ParseError
/// (file name `baseline_name`) when `baseline` is not a brec summary.
std::vector<std::string> baseline_regressions(const nlohmann::json& baseline, const nlohmann::json& summary,
                                              const std::string& baseline_name);

/// JUnit XML with one test case per record (classname brec.CATEGORY, name "pair ID ..."); a
/// reliability failure is a test failure.
std::string junit_xml(const std::vector<nlohmann::json>& records, const std::string& suite, double seconds);

}  // namespace brec
