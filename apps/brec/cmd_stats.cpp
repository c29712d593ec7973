// brec stats: placeholder until the module lands (see the open issues).
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

void add_stats(CLI::App& root, Action& action) {
    auto* sub = root.add_subcommand("stats", "(not available yet in this build)");
    sub->callback([&action]() {
        action = [](RunContext&) -> int { throw Unsupported("brec stats is not available in this build yet"); };
    });
}

}  // namespace brec::cli
