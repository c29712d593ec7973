#pragma once
// The BREC board: every model (or a list) on its paper subset or on all pairs, for given seeds,
// into one directory of ordinary eval records (one results file per model) with a provenance
// manifest (io/board_manifest.hpp). The (model, pair, seed) tasks of all models share one pool of
// jobs, cheapest first by each model's estimated cost (eval/cost.hpp); an optional inclusion rule
// leaves out the tasks estimated above a cost, deterministically, so a board does not depend on
// the speed of the machine that builds it. Every record is appended as it finishes; rerunning
// with `resume` continues where a run stopped, on any machine, and adds a segment to the manifest.

#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/run_context.hpp"
#include "brec/eval/cost.hpp"
#include "brec/io/board_manifest.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

struct BoardOptions {
    std::string dir;                  ///< the board directory (created)
    bool resume = false;              ///< continue a board already in `dir`
    std::vector<std::string> models;  ///< empty: every built-in model, in registry order
    bool all_pairs = false;           ///< false: each model's paper subset of the selected pairs
    std::vector<std::uint64_t> seeds{100};
    /// Tasks estimated above this many core-seconds (PairCost::seconds) are not run; 0 = no rule.
    double max_cost_seconds = 0.0;
    int jobs = 1;  ///< tasks run in parallel
    std::string device = "auto";
    std::string kernel = "auto";
    int torch_threads = 0;                 ///< per job; 0 = cores / jobs
    std::uint64_t max_memory = 0;          ///< as EvalRunOptions::max_memory
    std::string dataset;                   ///< the pair file's path (its SHA-256 goes into the manifest)
    std::string brec_version, git_commit;  ///< of the running binary, for the manifest
    /// Only estimate the costs (kept in DIR/costs.jsonl for the run) and say what a run would do:
    /// no task runs and no manifest is written.
    bool plan = false;
};

/// One model's share of a board run, in tasks of (pair, seed).
struct BoardModelPlan {
    std::string model;
    std::size_t tasks = 0;                               ///< of the board: its pairs times its seeds
    std::size_t done = 0;                                ///< with a record already
    std::size_t to_run = 0;                              ///< run by this run (skipped for memory included)
    std::size_t not_run = 0;                             ///< left out by the rule
    double to_run_seconds = 0.0, not_run_seconds = 0.0;  ///< estimated, one core
    double estimated_seconds = 0.0;                      ///< of all its tasks, whatever their state
    double largest_seconds = 0.0;                        ///< the costliest task run
};

/// What a board run did.
struct BoardResult {
    BoardManifest manifest;
    std::size_t ran = 0;             ///< tasks run now
    std::size_t kept = 0;            ///< tasks already done before (resumed)
    std::size_t skipped = 0;         ///< tasks recorded as skipped for memory now
    std::size_t not_run = 0;         ///< tasks the inclusion rule leaves out
    double estimated_seconds = 0.0;  ///< of the tasks run now
    double wall_seconds = 0.0;
    std::vector<BoardModelPlan> plan;  ///< per model, in board order
};

/// The plan of a board run as an aligned text table: per model its tasks, those done before, to
/// run and not run, with their estimated core-hours, and a total row.
std::string board_plan_text(const BoardResult& result);

/// Runs the board over pairs `indices` of `dataset` (intersected with each model's paper subset
/// unless opt.all_pairs). Throws InvalidArgument for an unknown model, bad options, a directory
/// that holds a board when resuming was not asked for (or none when it was), or a board of other
/// data, seeds, rule or model settings; ResultsFileError and ParseError as the results store does;
/// PairsCancelled when ctx is cancelled (every finished record is kept and the manifest written).
BoardResult run_board(const PairDataset& dataset, const std::vector<std::size_t>& indices, const BoardOptions& opt,
                      RunContext& ctx);

}  // namespace brec
