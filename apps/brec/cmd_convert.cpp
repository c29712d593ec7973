// brec convert: placeholder until the module lands (see the open issues).
#include "commands.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

void add_convert(CLI::App& root, Action& action) {
    auto* sub = root.add_subcommand("convert", "(not available yet in this build)");
    sub->callback([&action]() {
        action = [](RunContext&) -> int { throw Unsupported("brec convert is not available in this build yet"); };
    });
}

}  // namespace brec::cli
