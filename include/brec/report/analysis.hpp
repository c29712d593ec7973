#pragma once
// The statistics of a report: per-cell intervals, per-task pairwise tests with Holm
// correction, and the Friedman test with the Nemenyi critical difference across tasks.
//
// @article{demsar2006statistical, title={Statistical comparisons of classifiers over multiple data
//   sets}, author={Dem{\v{s}}ar, Janez}, journal={JMLR}, volume={7}, pages={1--30}, year={2006}}
// @article{holm1979simple, title={A simple sequentially rejective multiple test procedure},
//   author={Holm, Sture}, journal={Scandinavian Journal of Statistics}, volume={6}, year={1979}}

#include <cstdint>
#include <string>
#include <vector>

#include "brec/report/results.hpp"
#include "brec/stats/tests.hpp"

namespace brec {

struct ReportOptions {
    double alpha = 0.05;     ///< for the intervals, the tests' verdicts and the CD
    bool bootstrap = false;  ///< also compute percentile bootstrap intervals
    int resamples = 10000;   ///< bootstrap resamples B
    std::uint64_t bootstrap_seed = 1;
    int wilcoxon_exact_limit = 50;  ///< exact Wilcoxon null up to this many non-zero differences
};

/// One task × model cell: its per-seed values (seed order) and interval.
struct ReportCell {
    std::string task;
    std::string model;
    std::vector<std::uint64_t> seeds;
    std::vector<double> values;
    std::vector<Provenance> sources;  ///< per seed: the input lines its value came from
    Interval t;                       ///< Student-t interval (half_width 0 with one seed)
    Interval bootstrap;               ///< percentile bootstrap (only with ReportOptions::bootstrap)
    bool has_bootstrap = false;
    int pairs = -1;                 ///< BREC: pairs in the category (max over seeds), else -1
    int reliability_failures = -1;  ///< BREC: summed over seeds, else -1
};

/// Model a against model b on one task, paired by seed.
struct PairComparison {
    std::string a, b;
    int n = 0;                   ///< seeds both models have
    double mean_difference = 0;  ///< mean of a − b over the shared seeds
    TestResult t;                ///< paired t-test
    double t_holm = 1.0;         ///< Holm-adjusted over the task's comparisons
    TestResult wilcoxon;         ///< Wilcoxon signed-rank (zeros dropped)
    double wilcoxon_holm = 1.0;
    double dz = 0.0;        ///< Cohen's d_z of a − b
    bool testable = false;  ///< n >= 2
    /// "both", "neither", "t only", "W only" (significant at α after Holm), or "n/a".
    std::string agreement = "n/a";
    std::string better;  ///< the model with the better mean (respecting direction), "" if equal
};

/// A task as the report presents it; every writer takes direction, size and best models from here.
struct ReportTask {
    std::string name;
    bool higher_is_better = true;   ///< the metric's direction ("max"), from the results
    int pairs = -1;                 ///< BREC: pairs in the category (max over its cells), else -1
    std::vector<std::string> best;  ///< the model(s) with the best cell mean, respecting direction

    /// The name, with the number of pairs for BREC categories: "Basic (60)".
    std::string label() const;
};

struct TaskComparisons {
    std::string task;
    bool higher_is_better = true;      ///< that of the task
    std::vector<PairComparison> rows;  ///< all model pairs (a before b in model order)
};

/// Friedman test and Nemenyi CD over the tasks that have every model.
struct RankAnalysis {
    bool available = false;
    std::string reason;                      ///< why not, when !available
    std::vector<std::string> models;         ///< model order of the ResultSet
    std::vector<std::string> tasks;          ///< tasks used (complete rows)
    std::vector<std::vector<double>> ranks;  ///< ranks[task][model] (1 = best, ties averaged)
    FriedmanResult friedman;
    /// Indices into models, best mean rank first (ties keep the model order).
    std::vector<int> order;
    double q_alpha = 0.0;  ///< studentised range quantile / √2
    double cd = 0.0;
    /// Maximal groups of models (indices into models) whose mean ranks span less than CD.
    std::vector<std::vector<int>> cliques;
};

/// One model's result on one task under one RPC protocol.
struct ProtocolCell {
    bool known = false;            ///< the model has results here and they carry the protocol
    double distinguished = 0.0;    ///< mean over the seeds of the reliable pairs distinguished
    int reliability_failures = 0;  ///< summed over the seeds
};

/// One model under one RPC protocol, per task and in total, so both protocols can be shown side by
/// side whichever one forms the cells.
struct ProtocolRow {
    std::string model;
    Protocol protocol = Protocol::hotelling;
    int seeds = 0;                    ///< distinct seeds of the model's RPC results
    std::vector<ProtocolCell> tasks;  ///< per entry of ReportAnalysis::tasks
    /// The sum of the task means (known when every task with a result is known).
    ProtocolCell total;
};

struct ReportAnalysis {
    ReportOptions options;
    ResultSet results;
    std::vector<ReportTask> tasks;  ///< in the order of results.tasks
    std::vector<ReportCell> cells;  ///< task-major, models in order; only cells with data
    std::vector<TaskComparisons> comparisons;
    RankAnalysis ranks;
    /// RPC results: for each model with RPC results (in model order) a hotelling row, then a
    /// brec_reference row. Empty for other results.
    std::vector<ProtocolRow> protocols;
    std::vector<std::string> notes;

    /// The cell of (task, model) or nullptr.
    const ReportCell* cell(const std::string& task, const std::string& model) const;
    /// The task of that name. Throws InvalidArgument when there is none.
    const ReportTask& task(const std::string& name) const;
};

/// Computes every statistic of the report. Throws InvalidArgument for α outside (0, 1).
/// Complexity: O(T · k² · S) for the tests plus O(T · k · B · S) with the bootstrap.
ReportAnalysis analyse_results(const ResultSet& results, const ReportOptions& options = {});

/// Indices of `mean_ranks`, best (smallest) mean rank first; ties keep their order. The one order
/// of models by rank used by the cliques, the rank tables and the CD diagram.
std::vector<int> rank_order(const std::vector<double>& mean_ranks);

/// Maximal cliques of the CD diagram: for models sorted by mean rank, each maximal run whose
/// span (largest − smallest mean rank) is below `cd`; runs of one model are omitted.
/// Returns indices into `mean_ranks`.
std::vector<std::vector<int>> cd_cliques(const std::vector<double>& mean_ranks, double cd);

}  // namespace brec
