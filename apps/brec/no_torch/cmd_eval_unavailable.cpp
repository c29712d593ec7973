// brec eval in a build without LibTorch: listed in the help, and an error that says how to get it.
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

int run_in_eval_binary(int, char**, const std::string& what) {
    throw Unsupported(what + " needs LibTorch: install libtorch-dev and rebuild with -DBREC_WITH_TORCH=ON");
}

void add_eval_forward(CLI::App& root, Action& action, int, char**) {
    auto* sub =
        root.add_subcommand("eval", "Siamese training + RPC (unavailable: this brec was built without LibTorch)");
    sub->prefix_command();
    sub->allow_extras();
    sub->fallthrough(false);
    sub->set_help_flag();
    sub->callback([&action]() {
        action = [](RunContext&) -> int {
            throw Unsupported("brec eval needs LibTorch: install libtorch-dev and rebuild with -DBREC_WITH_TORCH=ON");
        };
    });
}

void add_attack_forward(CLI::App& root, Action& action, int, char**) {
    auto* sub = root.add_subcommand(
        "attack", "Counting regressors and attacks (unavailable: this brec was built without LibTorch)");
    sub->prefix_command();
    sub->allow_extras();
    sub->fallthrough(false);
    sub->set_help_flag();
    sub->callback([&action]() {
        action = [](RunContext&) -> int {
            throw Unsupported("brec attack needs LibTorch: install libtorch-dev and rebuild with -DBREC_WITH_TORCH=ON");
        };
    });
}

}  // namespace brec::cli
