// brec eval and brec attack in a build without LibTorch: listed in the help, and an error that says
// how to get them.
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

int run_in_eval_binary(int, char**, const std::string& what) {
    throw Unsupported(what + " needs LibTorch: install libtorch-dev and rebuild with -DBREC_WITH_TORCH=ON");
}

std::string eval_model_list() { return ""; }

namespace {

/// A subcommand that takes any arguments and fails with run_in_eval_binary's message.
void add_unavailable(CLI::App& root, Action& action, const std::string& name, const std::string& description) {
    auto* sub = root.add_subcommand(name, description + " (unavailable: this brec was built without LibTorch)");
    sub->prefix_command();
    sub->allow_extras();
    sub->fallthrough(false);
    sub->set_help_flag();
    sub->callback([&action, name]() {
        action = [name](RunContext&) -> int { return run_in_eval_binary(0, nullptr, "brec " + name); };
    });
}

}  // namespace

void add_eval_forward(CLI::App& root, Action& action, int, char**) {
    add_unavailable(root, action, "eval", "Siamese training + RPC");
}

void add_attack_forward(CLI::App& root, Action& action, int, char**) {
    add_unavailable(root, action, "attack", "Counting regressors and attacks");
}

void add_board_forward(CLI::App& root, Action& action, int, char**) {
    add_unavailable(root, action, "board", "The BREC board of every model");
}

}  // namespace brec::cli
