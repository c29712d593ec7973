// brec attack: counting regressors (train) and adversarial attacks on them (run); library:
// attack/regressor.hpp and attack/attack.hpp.
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/attack/attack.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/nn/registry.hpp"

namespace brec::cli {
namespace {

struct TrainArgs {
    RegressorTrainRequest r;
    std::string patterns = "triangle", seeds = "0", loss;
    bool quiet = false;
};

int run_train(TrainArgs& a, RunContext& ctx) {
    set_quiet(ctx, a.quiet);
    a.r.patterns = parse_pattern_list(a.patterns);
    a.r.seeds = parse_model_seeds(a.seeds);
    find_model(a.r.settings.model);
    check_counting_model(a.r.settings.model);
    a.r.settings.loss = a.loss.empty() ? default_regression_loss(a.r.settings.model) : parse_regression_loss(a.loss);
    std::cout << regressor_table_header() << std::flush;
    train_regressors(a.r, ctx, [](const TrainedRegressor& r) { std::cout << regressor_table_row(r) << std::flush; });
    return 0;
}

struct RunArgs {
    AttackRunOptions o;
    std::string pattern = "triangle", space = "any", search = "auto", sampling = "code", seeds = "0-4",
                budgets = "1,4,7,20", objective = "auto";
    bool quiet = false, json = false;
};

int run_run(RunArgs& a, RunContext& ctx) {
    set_quiet(ctx, a.quiet);
    auto& at = a.o.attack;
    at.pattern = parse_pattern(a.pattern);
    at.space = parse_space(a.space);
    at.search = parse_search(a.search);
    at.sampling = parse_sampling(a.sampling);
    a.o.objective_from_models = a.objective == "auto";
    if (!a.o.objective_from_models) at.objective = parse_regression_loss(a.objective);
    a.o.seeds = parse_model_seeds(a.seeds);
    at.budgets = parse_budgets(a.budgets);
    const AttackRunResult r = run_attack(a.o, ctx);
    write_attack_outputs(r, a.o);
    if (a.json)
        print_json_line(r.summary);
    else
        std::cout << attack_run_text(r, a.o);
    return 0;
}

}  // namespace

void add_attack(CLI::App& root, Action& action) {
    auto* cmd = add_command(root, "attack", "Counting regressors and adversarial edge-flip attacks on them",
                            "Train GIN/PPGN regressors that count a pattern, then search edge flips that make them\n"
                            "miscount (Campi et al., ICML 2023 workshop). Subcommands: train, run, ood.");
    cmd->require_subcommand(1);

    auto t = std::make_shared<TrainArgs>();
    auto* tr = cmd->add_subcommand(
        "train", "Train counting regressors (one per pattern and seed), saved as MODEL_PATTERN_seedK.{pt,json}");
    tr->footer(
        "Example: brec count --generate sbm --out sbm && brec attack train --data sbm --model ppgn --pattern triangle "
        "--seeds 0-4 --out models");
    tr->add_option("--data", t->r.data, "Counting dataset directory (brec count --generate)")->required();
    tr->add_option("--model,-m", t->r.settings.model, counting_model_list())->capture_default_str();
    tr->add_option("--pattern", t->patterns, "Pattern(s), comma-separated (triangle, 2-path, 4-cycle, ...)")
        ->capture_default_str();
    tr->add_option("--seeds", t->seeds, "Seeds, e.g. 0-4")->capture_default_str();
    tr->add_option("--out,-o", t->r.out, "Model directory")->required();
    tr->add_flag("--resume", t->r.resume,
                 "Skip (model, pattern, seed) whose files exist (trained with these settings and --max-seconds)");
    add_regressor_flags(*tr, t->r.settings, t->loss);
    add_device_flag(tr, t->r.device);
    add_quiet_flag(tr, t->quiet);
    tr->callback([&action, t]() { action = [t](RunContext& ctx) { return run_train(*t, ctx); }; });

    auto r = std::make_shared<RunArgs>();
    auto* ru =
        cmd->add_subcommand("run", "Attack the regressors of every seed on the test graphs they all count right");
    ru->footer(
        "Example: brec attack run --data sbm --models models --model ppgn --pattern triangle --space count --out "
        "atk.jsonl");
    ru->add_option("--data", r->o.data, "Counting dataset directory")->required();
    ru->add_option("--models", r->o.models, "Model directory (brec attack train --out)")->required();
    ru->add_option("--model,-m", r->o.model, counting_model_list())->capture_default_str();
    ru->add_option("--pattern", r->pattern, "Pattern")->capture_default_str();
    ru->add_option("--space", r->space, "any (P), count (count-preserving P^c) or subgraph (subgraph-preserving P^s)")
        ->capture_default_str();
    ru->add_option("--objective", r->objective,
                   "What the search maximises: auto (the regressors' training loss, as the original: lc for "
                   "PPGN), l1 (|f - C|) or lc (|f - C| / (C + 1)); success is judged on |f - C| either way")
        ->check(CLI::IsMember({"auto", "l1", "lc"}))
        ->capture_default_str();
    ru->add_option("--search", r->search, "auto (greedy for any, beam otherwise), greedy or beam")
        ->capture_default_str();
    ru->add_option("--sampling", r->sampling,
                   "Greedy candidates: code ((deg u + deg v)^2, the original code) or paper (deg u^2 + deg v^2)")
        ->capture_default_str();
    ru->add_option("--seeds", r->seeds, "Model seeds")->capture_default_str();
    ru->add_option("--budgets", r->budgets, "Flips per stage, cumulative")->capture_default_str();
    ru->add_option("--graphs", r->o.graphs, "Attack the first N test graphs every seed counts within 0.5")
        ->capture_default_str();
    ru->add_option("--samples", r->o.attack.sample_edges, "Greedy: edges and non-edges sampled per step")
        ->capture_default_str()
        ->check(whole_number_at_least(1));
    ru->add_option("--beam-width", r->o.attack.beam_width, "Beam width")
        ->capture_default_str()
        ->check(whole_number_at_least(1));
    ru->add_option("--delta", r->o.attack.delta, "Relative error increase of a success")->capture_default_str();
    ru->add_option("--seed", r->o.attack.seed, "Seed of the sampling")->capture_default_str();
    ru->add_option("--out,-o", r->o.out,
                   "JSONL, one record per (graph, model seed); also OUT.summary.json, OUT.csv, OUT.svg")
        ->required();
    ru->add_flag("--resume", r->o.resume, "Skip (graph, seed) records already in --out (other settings are refused)");
    add_jobs_flag(ru, r->o.jobs, "Worker threads across (graph, seed) tasks (results do not depend on it)");
    add_device_flag(ru, r->o.device);
    add_json_flag(ru, r->json);
    add_quiet_flag(ru, r->quiet);
    ru->callback([&action, r]() { action = [r](RunContext& ctx) { return run_run(*r, ctx); }; });

    add_attack_ood(*cmd, action);
}

}  // namespace brec::cli
