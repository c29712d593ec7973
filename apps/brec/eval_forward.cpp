// brec eval in the `brec` binary: hands the whole command line to `brec-eval`, the LibTorch part
// of brec, installed next to it. Keeping LibTorch out of `brec` makes every other command start
// in milliseconds instead of the ~0.7 s (and 150 MB) of LibTorch's static initialisation.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec::cli {

void add_eval_forward(CLI::App& root, Action& action, int argc, char** argv) {
    auto* sub = root.add_subcommand("eval", "Train a GNN per pair and judge it with BREC's RPC test (LibTorch)");
    // Every word after `eval` (its --help included) is brec-eval's to parse: none is parsed here.
    sub->prefix_command();
    sub->allow_extras();
    sub->fallthrough(false);
    sub->set_help_flag();
    sub->callback([&action, argc, argv]() {
        action = [argc, argv](RunContext&) -> int {
            const char* env = std::getenv("BREC_EVAL_BINARY");
            const std::string path = env && *env ? std::string(env) : executable_dir() + "/brec-eval";
            if (!file_exists(path))
                throw Unsupported("brec eval runs " + path + " (the LibTorch part of brec), which is missing; "
                                  "build brec with LibTorch (-DBREC_WITH_TORCH=ON) or set BREC_EVAL_BINARY");
            std::vector<char*> args(argv, argv + argc);
            args.push_back(nullptr);
            execv(path.c_str(), args.data());
            throw Error("cannot run " + path + ": " + std::strerror(errno));
        };
    });
}

}  // namespace brec::cli
