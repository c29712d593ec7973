// brec eval: built without LibTorch: explain how to get it.
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

void add_eval(CLI::App& root, Action& action) {
    auto* sub = root.add_subcommand("eval", "Siamese training + RPC (unavailable: this brec was built without LibTorch)");
    sub->callback([&action]() {
        action = [](RunContext&) -> int { throw Unsupported("brec eval needs LibTorch: install libtorch-dev and rebuild with -DBREC_WITH_TORCH=ON"); };
    });
}

}  // namespace brec::cli
