// brec dedup: placeholder until the module lands (see the open issues).
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

void add_dedup(CLI::App& root, Action& action) {
    auto* sub = root.add_subcommand("dedup", "(not available yet in this build)");
    sub->callback([&action]() {
        action = [](RunContext&) -> int { throw Unsupported("brec dedup is not available in this build yet"); };
    });
}

}  // namespace brec::cli
