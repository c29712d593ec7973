#pragma once
// Adversarial attacks on counting regressors (Campi et al.): edge flips that make a model's
// predicted count of a pattern wrong while the exact count of the perturbed graph is known by
// incremental update (count/flip.hpp).
//
// Perturbation spaces: P (any flip), P^c (flips that leave the pattern's count unchanged) and P^s
// (flips that leave the set of occurrences unchanged). Budgets are cumulative stages, [1, 4, 7, 20]
// flips by default (1, 5, 10, 25 % of the mean edge count of the SBM graphs), each stage continuing
// from the previous one's state. Greedy search (the default for P): per step, up to 109 existing
// edges and 109 non-edges are sampled without replacement with probability proportional to
// (deg u + deg v)^2 (deg u^2 + deg v^2 with Sampling::paper), and the flip that raises the error
// most is kept, only if it raises it. Beam search (the default for P^c and P^s): every admissible
// flip of every beam graph is scored, candidates whose loss equals one already kept are dropped and
// the 10 with the largest loss form the next beam.
//
// Success at a stage (Definition 4.1 with the original's rounding): with l(G) = |f(G) - C(G)|,
// the perturbed graph G~ has l(G~) > 0.5 and (l(G~) - l(G)) / l(G) > delta (delta = 1). Transfer:
// the adversarial graph of a stage is judged by the same rule against every other seed's model
// (all / any / the first other seed).
//
// Every random draw of a task (graph, model seed) comes from an Rng seeded from (seed, graph id),
// and models run single-threaded, so results never depend on --jobs. On CUDA (--device) the
// scatter sums of the models add in no fixed order, so predictions may differ in their last bits
// from the CPU's and between runs.
//
// @inproceedings{campi2023robustness, title={Expressivity of Graph Neural Networks Through the
//   Lens of Adversarial Robustness}, author={Campi, Francesco and Gosch, Lukas and Wollschl{\"a}ger,
//   Tom and Scholten, Yan and G{\"u}nnemann, Stephan}, booktitle={ICML Workshop on New Frontiers in
//   Adversarial Machine Learning}, year={2023}}

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/count/patterns.hpp"
#include "brec/graph/graph.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/io/records.hpp"

namespace brec {

enum class PerturbationSpace { any, count_preserving, subgraph_preserving };
const char* space_name(PerturbationSpace s);  ///< "any", "count", "subgraph"
PerturbationSpace parse_space(const std::string& name);
enum class SearchMethod { automatic, greedy, beam };  ///< automatic: greedy for any, beam otherwise
SearchMethod parse_search(const std::string& name);
enum class Sampling { code, paper };  ///< (deg u + deg v)^2, or deg u^2 + deg v^2
Sampling parse_sampling(const std::string& name);

/// Scores graphs: the predicted count of each (one model, single-threaded, deterministic).
using CountPredictor = std::function<std::vector<double>(const std::vector<Graph>&)>;

struct AttackSettings {
    Pattern pattern = Pattern::triangle;
    PerturbationSpace space = PerturbationSpace::any;
    SearchMethod search = SearchMethod::automatic;
    Sampling sampling = Sampling::code;
    std::vector<int> budgets{1, 4, 7, 20};  ///< flips added per stage (cumulative)
    int sample_edges = 109;                 ///< greedy: edges and non-edges sampled per step
    int beam_width = 10;
    double delta = 1.0;
    double tolerance = 0.5;  ///< |f - C| above this is a wrong count
    /// What the search maximises: the error |f - C| (l1) or |f - C| / (C + 1) (lc), the loss the
    /// original attacks each model with (its training loss: lc for PPGN). Success stays Definition
    /// 4.1 on |f - C|.
    RegressionLoss objective = RegressionLoss::l1;
    std::uint64_t seed = 0;
};

/// One stage of an attack on one graph.
struct StageResult {
    int budget = 0;                                    ///< cumulative flips allowed
    std::vector<std::pair<VertexId, VertexId>> flips;  ///< flips of the best graph so far
    std::int64_t count = 0;                            ///< exact count of that graph
    double prediction = 0.0;
    double loss = 0.0;
    bool success = false;
    Graph graph;
};

struct GraphAttackResult {
    std::int64_t count = 0;  ///< of the clean graph
    double prediction = 0.0;
    double loss = 0.0;
    std::vector<StageResult> stages;
};

/// Success by Definition 4.1: loss > tolerance and (loss - clean_loss) / clean_loss > delta
/// (with clean_loss = 0, any loss above the tolerance is a success).
bool is_adversarial(double clean_loss, double loss, const AttackSettings& s);

/// Attacks one graph with one model. `stream` seeds every random draw (e.g. stream_seed(seed, id)).
/// Throws InvalidArgument for empty budgets, a non-positive budget, width or sample size.
GraphAttackResult attack_graph(const Graph& g, const CountPredictor& predict, const AttackSettings& s,
                               std::uint64_t stream);

/// What `brec attack run` does.
struct AttackRunOptions {
    std::string data;    ///< counting dataset directory
    std::string models;  ///< model directory (brec attack train --out)
    std::string model = "gin";
    std::vector<std::uint64_t> seeds{0, 1, 2, 3, 4};
    AttackSettings attack;
    /// true: attack.objective is the regressors' training loss (every seed's must agree), as the
    /// original attacks each model; false: attack.objective as set.
    bool objective_from_models = true;
    std::size_t graphs = 100;  ///< first test graphs on which every seed is within the tolerance
    std::string out;           ///< JSONL, one record per (graph, model seed); + .summary.json, .csv, .svg
    bool resume = false;
    int jobs = 1;
    /// Where the models run: auto, cpu, cuda or cuda:N (parse_device). Not part of the settings id:
    /// a run may resume on another device.
    std::string device = "auto";
};

struct AttackRunResult {
    std::size_t graphs = 0;  ///< attacked graphs
    std::size_t tasks = 0, resumed = 0;
    /// Success rate per budget with sd/sqrt(seeds), AUC, transfer rates (what `brec attack run`
    /// writes to OUT.summary.json; its "stages" give the figure's curve).
    nlohmann::ordered_json summary;
    std::string report_rows;  ///< CSV task,model,seed,value,direction rows for brec report (OUT.csv)
    double seconds = 0.0;
};

/// Loads the regressors of every seed, selects the graphs, attacks every (graph, seed) on
/// options.jobs threads and appends one JSONL record per task to options.out as it finishes (a
/// task already there is skipped with resume); returns the summary and the report rows of all the
/// file's records. Throws InvalidArgument / IoError / ParseError before anything is written,
/// Cancelled.
AttackRunResult run_attack(const AttackRunOptions& options, RunContext& ctx);

/// What `brec attack run` writes beside options.out once the run is complete, each file atomically:
/// OUT.summary.json (r.summary), OUT.csv (r.report_rows, for brec report) and OUT.svg (the success
/// rate against the budget, with error bars). Throws IoError.
void write_attack_outputs(const AttackRunResult& r, const AttackRunOptions& options);

/// The summary of a results file's records (what OUT.summary.json holds).
nlohmann::ordered_json summarize_attack(const std::vector<AttackRecord>& records, const AttackRunOptions& options);

/// AUC of success rates over budgets x = [0.01, 0.05, 0.10, 0.25] (trapezoid, divided by 0.24);
/// rates must have 4 entries.
double attack_auc(const std::vector<double>& rates);

/// Model seeds as a set: parse_seed_list's seeds sorted, each once (the order of the settings
/// id and of "first" in transfer).
std::vector<std::uint64_t> parse_model_seeds(const std::string& text);
/// Patterns "triangle,4-cycle"; InvalidArgument for an unknown name or an empty list.
std::vector<Pattern> parse_pattern_list(const std::string& text);
/// Budgets "1,4,7,20" (flips per stage, cumulative); InvalidArgument for anything else.
std::vector<int> parse_budgets(const std::string& text);

/// The text `brec attack run` prints: success, error and transfer per budget, and the AUC.
std::string attack_run_text(const AttackRunResult& r, const AttackRunOptions& options);

}  // namespace brec
