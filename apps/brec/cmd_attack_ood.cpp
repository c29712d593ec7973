// brec attack ood: the out-of-distribution experiment on counting regressors (library:
// attack/ood.hpp); and the training flags it shares with brec attack train.
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/attack/attack.hpp"
#include "brec/attack/ood.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec::cli {
namespace {

struct OodArgs {
    OodRequest r;
    std::string patterns = "triangle", seeds = "0-4", loss;
    bool quiet = false;
};

int run_ood_command(OodArgs& a, RunContext& ctx) {
    set_quiet(ctx, a.quiet);
    a.r.patterns = parse_pattern_list(a.patterns);
    a.r.seeds = parse_model_seeds(a.seeds);
    check_counting_model(a.r.settings.model);
    a.r.settings.loss = a.loss.empty() ? default_regression_loss(a.r.settings.model) : parse_regression_loss(a.loss);
    const OodResult result = run_ood(a.r, ctx);
    write_text_file_atomic(a.r.out + "/ood.csv", result.report_rows);
    std::cout << ood_run_text(result, a.r);
    return 0;
}

}  // namespace

void add_regressor_flags(CLI::App& sub, RegressorSettings& s, std::string& loss) {
    sub.add_option("--loss", loss, "l1 or lc = mean(|y^-y|/(y+1)) (default: lc for ppgn, l1 for gin)");
    sub.add_option("--epochs", s.epochs, "Maximum epochs")->capture_default_str()->check(whole_number_at_least(1));
    sub.add_option("--patience", s.patience, "Early stopping: epochs without a better validation loss")
        ->capture_default_str()
        ->check(whole_number_at_least(1));
    sub.add_option("--lr", s.lr, "Adam learning rate (halved after --lr-patience epochs without improvement)")
        ->capture_default_str();
    sub.add_option("--lr-patience", s.lr_patience, "ReduceLROnPlateau patience")
        ->capture_default_str()
        ->check(whole_number_at_least(0));
    sub.add_option("--batch", s.batch, "Graphs per batch")->capture_default_str()->check(whole_number_at_least(2));
    sub.add_option("--layers", s.layers, "Layers / blocks")->capture_default_str()->check(whole_number_at_least(1));
    sub.add_option("--hidden", s.hidden, "Hidden width")->capture_default_str()->check(whole_number_at_least(1));
    sub.add_option("--max-train", s.max_train, "Use only the first N training graphs (0 = all)");
    sub.add_option("--max-validation", s.max_validation, "Use only the first N validation graphs (0 = all)");
    sub.add_option("--max-test", s.max_test, "Use only the first N test graphs during training (0 = all)");
    sub.add_option("--max-seconds", s.max_seconds,
                   "Stop after the epoch that ends past N seconds, keeping the best weights so far (0 = no limit)")
        ->check(CLI::Range(0.0, 1e9));
}

void add_attack_ood(CLI::App& attack, Action& action) {
    auto a = std::make_shared<OodArgs>();
    auto* sub = attack.add_subcommand(
        "ood", "Out-of-distribution errors: test on a second dataset, retrain from scratch, retrain the head only");
    sub->footer(
        "Out-of-distribution errors of counting regressors (Campi et al.). Per pattern and seed:\n"
        "  in_dist      trained on --in, tested on the test split of --in\n"
        "  ood          the same model tested on the test split of --ood (no retraining)\n"
        "  ood_scratch  trained from scratch on --ood, tested on --ood\n"
        "  ood_head     the --in model with only its regression head (its final MLP) retrained on --ood\n"
        "               (every other parameter kept as trained on --in), tested on --ood\n"
        "Errors: l1 = mean |y^-y|, lc = mean |y^-y|/(y+1), over the whole test split. Every training\n"
        "uses the flags below (Adam, ReduceLROnPlateau, early stopping, best validation weights).\n"
        "Writes OUT/in, OUT/scratch, OUT/head (model files), OUT/ood.jsonl (one row per model, pattern,\n"
        "seed and setting, appended as measured) and OUT/ood.csv (brec report rows, tasks like\n"
        "triangle/ood_l1); prints mean +- sd over seeds per pattern and setting. --resume keeps the\n"
        "rows and model files already there."
        "\n\n"
        "Example: brec count --generate er --out er04 && brec count --generate er-ood --out er08 &&\n"
        "         brec attack ood --in er04 --ood er08 --model ppgn --pattern triangle,4-cycle --seeds 0-4 --out ood");
    sub->add_option("--in", a->r.in, "Counting dataset trained on first (brec count --generate er)")->required();
    sub->add_option("--ood", a->r.ood, "Out-of-distribution counting dataset (brec count --generate er-ood)")
        ->required();
    sub->add_option("--out,-o", a->r.out, "Output directory")->required();
    sub->add_option("--in-models", a->r.in_models,
                    "Take the --in models from this brec attack train directory instead of OUT/in");
    sub->add_option("--model,-m", a->r.settings.model, counting_model_list())->capture_default_str();
    sub->add_option("--pattern", a->patterns, "Pattern(s), comma-separated (triangle, 2-path, 4-cycle, ...)")
        ->capture_default_str();
    sub->add_option("--seeds", a->seeds, "Seeds, e.g. 0-4")->capture_default_str();
    sub->add_flag("--resume", a->r.resume,
                  "Keep finished rows and model files in --out and go on (other settings are refused)");
    add_regressor_flags(*sub, a->r.settings, a->loss);
    add_device_flag(sub, a->r.device);
    add_quiet_flag(sub, a->quiet);
    sub->callback([&action, a]() { action = [a](RunContext& ctx) { return run_ood_command(*a, ctx); }; });
}

}  // namespace brec::cli
