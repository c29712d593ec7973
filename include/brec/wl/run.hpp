#pragma once
// Whole `wl` and `certify` runs over a pair dataset: every selected pair is compared (in parallel
// across pairs), each record is appended to a JSONL results file as soon as its pair finishes (so
// that an interrupted run can be resumed), and the per-category summary is built at the end.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"
#include "brec/wl/wl.hpp"

namespace brec {

/// Options of run_wl.
struct WlRunOptions {
    WlOptions wl;              ///< method, round limit, threads inside one comparison
    bool reliability = false;  ///< also compare G with a random relabeling of G: "distinguished" is a failure
    std::uint64_t seed = 0;    ///< seed of those relabelings (pair `id` uses stream `id`)
    int jobs = 1;              ///< pairs compared in parallel
    std::string out;           ///< JSONL results file; empty: results are kept in memory only
    bool resume = false;       ///< keep the reusable records already in `out` and skip their pairs
    std::string dataset;       ///< the dataset's name in the summary (default: its path)
};

/// What run_wl found.
struct WlRunResult {
    std::string method;             ///< the method's canonical name, e.g. "2fwl"
    std::vector<WlRecord> records;  ///< one per selected pair, in selection order
    std::size_t resumed = 0;        ///< records taken over from the results file
    std::size_t unsupported = 0;    ///< pairs the method cannot run on (counted as not distinguished)
    double seconds = 0.0;           ///< wall time of the comparisons
    double pair_seconds = 0.0;      ///< the per-pair times summed
    std::string dataset;            ///< as in the summary
    /// The summary object of every pair command, plus rounds_limit, reliability_check,
    /// unsupported_pairs, pair_seconds and jobs.
    nlohmann::json summary;
    std::vector<std::string> notes;  ///< one line per unsupported pair, for the log
};

/// Runs one WL-family test on pairs `indices` of `dataset`. With opt.out, every record is
/// appended and flushed as its pair finishes; with opt.resume, records of `out` made with the same
/// method, round limit and reliability seed are kept and their pairs skipped. Progress goes to
/// `ctx` per pair and, for k-WL / k-FWL, per refinement round.
/// @throws ResultsFileError when `out` holds results and `resume` is not set, or `resume` is set
///         without `out`; ParseError for a corrupt results file; InvalidArgument for a bad method;
///         PairsCancelled when `ctx` is cancelled (finished records stay in `out`).
WlRunResult run_wl(const PairDataset& dataset, const std::vector<std::size_t>& indices, const WlRunOptions& opt,
                   RunContext& ctx);

/// The human form of a run_wl result: a header line, the per-group table (and the fine
/// categories with `fine`) and a note on unsupported pairs.
std::string wl_run_text(const WlRunResult& result, bool fine);

/// Options of run_certify.
struct CertifyRunOptions {
    int max_fwl = 3;           ///< highest folklore level tried (1, 2 or 3)
    int threads_per_pair = 1;  ///< threads inside one 2-/3-FWL comparison
    int jobs = 1;              ///< pairs certified in parallel
    std::string out;           ///< JSONL results file; empty: memory only
    bool resume = false;       ///< keep records of `out` with the same max_fwl and tests
    std::string dataset;       ///< the dataset's name in the summary (default: its path)
    /// Extra WL methods (`WlMethod::parse` names, e.g. the models' tight bounds "gswl:6") run on
    /// every pair beside the hardness levels, each to stability; their verdicts go in the record.
    std::vector<std::string> tests;
};

/// What run_certify found.
struct CertifyRunResult {
    int max_fwl = 3;
    std::vector<CertifyRecord> records;  ///< one per selected pair, in selection order
    std::size_t resumed = 0;             ///< records taken over from the results file
    double seconds = 0.0;
    std::string dataset;
    std::vector<std::string> tests;  ///< the extra tests' canonical names, in the order asked
    /// The summary object ("distinguished" = below "beyond") plus "levels": per category, the
    /// pairs per level ("1wl", "2fwl", "3fwl", "beyond") that occur; with tests, "tests": per test
    /// and category, the pairs it separates, and per test its "seconds" summed over the pairs.
    nlohmann::json summary;
};

/// The hardness certificate (certify_hardness) of pairs `indices` of `dataset`; results file,
/// resuming, progress and cancellation as for run_wl.
/// @throws as run_wl.
CertifyRunResult run_certify(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const CertifyRunOptions& opt, RunContext& ctx);

/// The human form of a run_certify result: pairs per category and level, and a total row; with
/// tests, the pairs each test separates per category.
std::string certify_run_text(const CertifyRunResult& result);

/// The record key of a hardness level: "1wl", "2fwl", "3fwl" or "beyond".
const char* hardness_key(Hardness h);

}  // namespace brec
