#pragma once
// Registration of the subcommands of `brec`. Each cmd_<sub>.cpp defines add_<sub>(), which creates
// the CLI11 subcommand and, when it is chosen, stores the action that main() runs.

#include <functional>

#include <CLI/CLI.hpp>

#include "brec/core/run_context.hpp"

namespace brec {
struct RegressorSettings;
}

namespace brec::cli {

/// What main() runs after parsing: returns the process exit code.
using Action = std::function<int(RunContext&)>;

void add_info(CLI::App& root, Action& action);
void add_convert(CLI::App& root, Action& action);
void add_wl(CLI::App& root, Action& action);
void add_certify(CLI::App& root, Action& action);
void add_generate(CLI::App& root, Action& action);
void add_show(CLI::App& root, Action& action);
/// The real `eval`, in the brec-eval binary (the only one that links LibTorch).
void add_eval(CLI::App& root, Action& action);
/// `eval` in the `brec` binary, which does not link LibTorch: a subcommand that takes every word
/// after it unparsed and, when chosen, hands the whole command line (argc, argv) to brec-eval, or,
/// in a build without LibTorch, answers with an error that says how to get it.
void add_eval_forward(CLI::App& root, Action& action, int argc, char** argv);
/// The real `attack` (counting regressors and attacks), in brec-eval.
void add_attack(CLI::App& root, Action& action);
/// brec board (brec-eval): the whole board of models with provenance.
void add_board(CLI::App& root, Action& action);
/// brec board in the `brec` binary: hands the command line to brec-eval.
void add_board_forward(CLI::App& root, Action& action, int argc, char** argv);
/// `attack ood` (in brec-eval), a subcommand of `attack`.
void add_attack_ood(CLI::App& attack, Action& action);
/// The training flags of `attack train` and `attack ood` (--loss is parsed by the caller).
void add_regressor_flags(CLI::App& sub, RegressorSettings& settings, std::string& loss);
/// `attack` in the `brec` binary: forwarded to brec-eval as `eval` is.
void add_attack_forward(CLI::App& root, Action& action, int argc, char** argv);
void add_report(CLI::App& root, Action& action);
void add_stats(CLI::App& root, Action& action);
void add_dedup(CLI::App& root, Action& action);
/// `classify`: in `brec`, --model gin hands the whole command line (argc, argv) to brec-eval (the
/// kernels run in place); in brec-eval every model runs.
void add_classify(CLI::App& root, Action& action, int argc, char** argv);
/// Replaces the process with brec-eval run on the same command line; `what` names the command in
/// the error when brec-eval is missing or this brec was built without LibTorch.
int run_in_eval_binary(int argc, char** argv, const std::string& what);
/// The model registry as `brec eval --list-models --json` prints it, asked of brec-eval; "" when
/// brec was built without LibTorch or brec-eval is missing.
std::string eval_model_list();
void add_count(CLI::App& root, Action& action);
void add_export(CLI::App& root, Action& action);
void add_rpc(CLI::App& root, Action& action);

}  // namespace brec::cli
