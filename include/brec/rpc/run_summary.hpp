#pragma once
// What a run of RPC decisions reports, whoever produced the embeddings (`brec eval` training a
// model per pair, `brec rpc` reading a user's embeddings): per seed a summary with both protocols'
// counts, the multi-seed protocol over seeds, the CI regression check against an earlier summary,
// JUnit XML and the human table. Both commands share these functions, so their summaries have one
// shape and `brec report` reads either.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/io/records.hpp"

namespace brec {

/// What every summary of a run says about the run besides its counts.
struct RunDescription {
    std::string command = "eval";  ///< "eval" or "rpc"
    std::string model;             ///< the model's name (records' "model")
    std::string dataset;           ///< the dataset's name
    std::string shard;             ///< "i/N" when the selection is a shard ("" = none)
    /// The protocol of the headline numbers ("categories", "total", baseline, JUnit failures).
    Protocol protocol = Protocol::hotelling;
    nlohmann::json settings;  ///< the settings that decide the results
    std::string settings_id;  ///< settings_hash(settings)
    nlohmann::json runtime;   ///< how the run was executed (devices, threads, inputs); not results
};

/// A short stable id of a settings object (16 hex digits of FNV-1a of its JSON text).
std::string settings_hash(const nlohmann::json& settings);

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

/// The summary of one seed's records: the usual summary fields (command, method, dataset, seed,
/// categories, groups, total, seconds) under the headline protocol, "protocols" with both
/// protocols' counts, and the run's description (model, settings, settings_id, shard, runtime).
/// A skipped record counts as neither distinguished nor a reliability failure.
nlohmann::json seed_summary(const std::vector<EvalRecord>& records, const RunDescription& run, std::uint64_t seed,
                            double seconds);

/// Completes a result whose runs hold their records and summaries: best_reliable, summary (with the
/// multi-seed fields when there are several seeds) and "wall_seconds" = result.seconds.
/// Throws InvalidArgument when there is no run.
void summarise_seeds(EvalRunResult& result, Protocol protocol);

/// Categories of `summary` that distinguish fewer pairs or fail more reliability checks than in
/// `baseline` (an earlier summary), under `protocol` (a baseline without per-protocol counts is
/// compared by its headline counts), as "category: distinguished 3 < 5" lines. Throws ParseError
/// (file name `baseline_name`) when `baseline` is not a brec summary.
std::vector<std::string> baseline_regressions(const nlohmann::json& baseline, const nlohmann::json& summary,
                                              const std::string& baseline_name,
                                              Protocol protocol = Protocol::hotelling);

/// Reads an earlier run summary to compare with (--baseline) and checks it before the run, so that
/// a bad file fails before any work; null for "". Throws IoError, or ParseError naming the file.
nlohmann::json read_baseline(const std::string& path);

/// The run that a run's records and table show: the best reliable seed's, else the first.
const SeedRun& shown_run(const EvalRunResult& result);

/// Writes a finished run's files, each atomically: the summary JSON to `summary_file` and JUnit XML
/// of shown_run's records (suite `suite`, failures under `protocol`) to `junit`; "" = not that file.
void write_run_files(const EvalRunResult& result, const std::string& summary_file, const std::string& junit,
                     const std::string& suite, Protocol protocol);

/// JUnit XML with one test case per record (classname brec.CATEGORY, name "pair ID ..."); a
/// reliability failure under `protocol` is a test failure; both protocols' T² are in system-out.
std::string junit_xml(const std::vector<EvalRecord>& records, const std::string& suite, double seconds,
                      Protocol protocol = Protocol::hotelling);

/// The human report of a run: per seed, per group (or fine category) both protocols' counts
/// side by side, then the multi-seed lines.
std::string evaluation_text(const EvalRunResult& result, const std::string& model, std::size_t pairs, bool fine);

}  // namespace brec
