// brec eval: placeholder until the module lands (see the open issues).
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

void add_eval(CLI::App& root, Action& action) {
    auto* sub = root.add_subcommand("eval", "(not available yet in this build)");
    sub->callback([&action]() {
        action = [](RunContext&) -> int { throw Unsupported("brec eval is not available in this build yet"); };
    });
}

}  // namespace brec::cli
