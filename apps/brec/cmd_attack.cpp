// brec attack: counting regressors (train) and adversarial attacks on them (run); library:
// attack/regressor.hpp and attack/attack.hpp.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/attack/attack.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"

namespace brec::cli {
namespace {

std::vector<std::uint64_t> parse_seeds(const std::string& text) {
    std::vector<std::uint64_t> out;
    try {
        const IdRanges ranges = parse_id_ranges(text);
        for (const auto& r : ranges.intervals()) {
            if (r.hi - r.lo >= 100000) throw InvalidArgument("too many seeds");
            for (auto id = r.lo; id <= r.hi; ++id) out.push_back(static_cast<std::uint64_t>(id));
        }
    } catch (const Error&) {
        throw InvalidArgument("--seeds '" + text + "': expected seeds such as 0-4 or 0,2,7");
    }
    if (out.empty()) throw InvalidArgument("--seeds '" + text + "': no seeds");
    return out;
}

std::vector<Pattern> parse_patterns(const std::string& text) {
    std::vector<Pattern> out;
    std::stringstream ss(text);
    for (std::string tok; std::getline(ss, tok, ',');) out.push_back(parse_pattern(tok));
    if (out.empty()) throw InvalidArgument("--pattern: no pattern");
    return out;
}

struct TrainArgs {
    RegressorSettings s;
    std::string data, out, patterns = "triangle", seeds = "0", loss;
    bool resume = false, quiet = false;
};

int run_train(TrainArgs& a, RunContext& ctx) {
    set_quiet(ctx, a.quiet);
    const auto patterns = parse_patterns(a.patterns);
    const auto seeds = parse_seeds(a.seeds);
    find_model(a.s.model);
    if (a.s.model != "gin" && a.s.model != "ppgn")
        throw InvalidArgument("--model " + a.s.model + ": counting regressors are gin or ppgn");
    a.s.loss = a.loss.empty() ? default_regression_loss(a.s.model) : parse_regression_loss(a.loss);
    if (!a.resume)
        for (Pattern p : patterns)
            for (auto seed : seeds) {
                RegressorSettings s = a.s;
                s.pattern = p;
                s.seed = seed;
                if (file_exists(regressor_path(a.out, s)))
                    throw InvalidArgument(regressor_path(a.out, s) + " exists (use --resume to skip trained models)");
            }
    const CountingData data = read_counting_data(a.data);
    set_torch_threads(ctx.threads());
    std::cout << std::left << std::setw(10) << "model" << std::setw(18) << "pattern" << std::setw(6) << "seed"
              << std::setw(8) << "epochs" << std::setw(12) << "val_loss" << std::setw(10) << "test_l1" << std::setw(10)
              << "test_lc"
              << "paper_l1\n";
    for (Pattern p : patterns)
        for (auto seed : seeds) {
            RegressorSettings s = a.s;
            s.pattern = p;
            s.seed = seed;
            Regressor r;
            const std::string path = regressor_path(a.out, s);
            if (a.resume && file_exists(path)) {
                r = load_regressor(path);
                ctx.info("attack train: " + path + " exists, skipped");
            } else {
                r = train_regressor(data, s, ctx);
                save_regressor(r, a.out);
            }
            const double paper = paper_test_l1(s.model, p);
            std::ostringstream row;
            row << std::left << std::setw(10) << s.model << std::setw(18) << pattern_name(p) << std::setw(6) << seed
                << std::setw(8) << r.epochs_run << std::setw(12) << std::setprecision(4) << r.validation_loss
                << std::setw(10) << r.test_l1 << std::setw(10) << r.test_lc
                << (paper >= 0 ? std::to_string(paper).substr(0, 5) : "-") << '\n';
            std::cout << row.str() << std::flush;
        }
    return 0;
}

struct RunArgs {
    AttackRunOptions o;
    std::string pattern = "triangle", space = "any", search = "auto", sampling = "code", seeds = "0-4",
                budgets = "1,4,7,20";
    bool quiet = false, json = false;
};

int run_run(RunArgs& a, RunContext& ctx) {
    set_quiet(ctx, a.quiet);
    auto& at = a.o.attack;
    at.pattern = parse_pattern(a.pattern);
    at.space = parse_space(a.space);
    at.search = parse_search(a.search);
    at.sampling = parse_sampling(a.sampling);
    a.o.seeds = parse_seeds(a.seeds);
    at.budgets.clear();
    std::stringstream ss(a.budgets);
    for (std::string tok; std::getline(ss, tok, ',');) {
        std::int64_t v = 0;
        if (!parse_int64(tok, v) || v < 1 || v > 100000)
            throw InvalidArgument("--budgets '" + a.budgets + "': '" + tok + "' is not a positive number of flips");
        at.budgets.push_back(static_cast<int>(v));
    }
    const AttackRunResult r = run_attack(a.o, ctx);
    if (a.json) {
        print_json_line(r.summary);
        return 0;
    }
    std::cout << "attack " << a.o.model << " " << a.pattern << " space " << a.space << ": " << r.graphs << " graphs, "
              << r.tasks << " tasks run, " << r.resumed << " resumed\n";
    std::cout << "budget  success  error   transfer(all/any/first)\n";
    for (const auto& row : r.summary["stages"]) {
        std::ostringstream line;
        line << std::fixed << std::setprecision(3) << std::left << std::setw(8) << row["budget"].get<int>()
             << std::setw(9) << row["success_rate"].get<double>() << std::setw(8) << row["error"].get<double>()
             << row["transfer_all"].get<double>() << "/" << row["transfer_any"].get<double>() << "/"
             << row["transfer_first"].get<double>() << '\n';
        std::cout << line.str();
    }
    if (r.summary.contains("auc")) std::cout << "AUC " << r.summary["auc"].get<double>() << '\n';
    std::cout << "wrote " << a.o.out << " (+ .summary.json, .csv, .svg)\n";
    return 0;
}

}  // namespace

void add_attack(CLI::App& root, Action& action) {
    auto* cmd = add_command(root, "attack", "Counting regressors and adversarial edge-flip attacks on them",
                            "Train GIN/PPGN regressors that count a pattern, then search edge flips that make them\n"
                            "miscount (Campi et al., ICML 2023 workshop). Subcommands: train, run.");
    cmd->require_subcommand(1);

    auto t = std::make_shared<TrainArgs>();
    auto* tr = cmd->add_subcommand(
        "train", "Train counting regressors (one per pattern and seed), saved as MODEL_PATTERN_seedK.{pt,json}");
    tr->footer(
        "Example: brec count --generate sbm --out sbm && brec attack train --data sbm --model ppgn --pattern triangle "
        "--seeds 0-4 --out models");
    tr->add_option("--data", t->data, "Counting dataset directory (brec count --generate)")->required();
    tr->add_option("--model,-m", t->s.model, "gin or ppgn")->capture_default_str();
    tr->add_option("--pattern", t->patterns, "Pattern(s), comma-separated (triangle, 2-path, 4-cycle, ...)")
        ->capture_default_str();
    tr->add_option("--seeds", t->seeds, "Seeds, e.g. 0-4")->capture_default_str();
    tr->add_option("--out,-o", t->out, "Model directory")->required();
    tr->add_flag("--resume", t->resume, "Skip (model, pattern, seed) whose files exist");
    tr->add_option("--loss", t->loss, "l1 or lc = mean(|y^-y|/(y+1)) (default: lc for ppgn, l1 for gin)");
    tr->add_option("--epochs", t->s.epochs, "Maximum epochs")->capture_default_str()->check(whole_number_at_least(1));
    tr->add_option("--patience", t->s.patience, "Early stopping: epochs without a better validation loss")
        ->capture_default_str()
        ->check(whole_number_at_least(1));
    tr->add_option("--lr", t->s.lr, "Adam learning rate (halved after --lr-patience epochs without improvement)")
        ->capture_default_str();
    tr->add_option("--lr-patience", t->s.lr_patience, "ReduceLROnPlateau patience")
        ->capture_default_str()
        ->check(whole_number_at_least(0));
    tr->add_option("--batch", t->s.batch, "Graphs per batch")->capture_default_str()->check(whole_number_at_least(2));
    tr->add_option("--layers", t->s.layers, "Layers / blocks")->capture_default_str()->check(whole_number_at_least(1));
    tr->add_option("--hidden", t->s.hidden, "Hidden width")->capture_default_str()->check(whole_number_at_least(1));
    tr->add_option("--max-train", t->s.max_train, "Use only the first N training graphs (0 = all)");
    tr->add_option("--max-validation", t->s.max_validation, "Use only the first N validation graphs (0 = all)");
    tr->add_option("--max-test", t->s.max_test, "Use only the first N test graphs (0 = all)");
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
    ru->add_option("--model,-m", r->o.model, "gin or ppgn")->capture_default_str();
    ru->add_option("--pattern", r->pattern, "Pattern")->capture_default_str();
    ru->add_option("--space", r->space, "any (P), count (count-preserving P^c) or subgraph (subgraph-preserving P^s)")
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
    ru->add_flag("--resume", r->o.resume, "Skip (graph, seed) records already in --out");
    add_jobs_flag(ru, r->o.jobs, "Worker threads across (graph, seed) tasks (results do not depend on it)");
    add_json_flag(ru, r->json);
    add_quiet_flag(ru, r->quiet);
    ru->callback([&action, r]() { action = [r](RunContext& ctx) { return run_run(*r, ctx); }; });
}

}  // namespace brec::cli
