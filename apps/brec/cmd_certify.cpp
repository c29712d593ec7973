// brec certify: placeholder until the module lands (see the open issues).
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

void add_certify(CLI::App& root, Action& action) {
    auto* sub = root.add_subcommand("certify", "(not available yet in this build)");
    sub->callback([&action]() {
        action = [](RunContext&) -> int { throw Unsupported("brec certify is not available in this build yet"); };
    });
}

}  // namespace brec::cli
