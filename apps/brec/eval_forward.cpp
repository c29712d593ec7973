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

Action eval_handoff(int argc, char** argv) {
    return [argc, argv](RunContext&) -> int {
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
}

void add_eval_forward(CLI::App& root) {
    // Listed for `brec --help`; main() hands `brec ... eval ...` to brec-eval before parsing.
    root.add_subcommand("eval",
                        "Train a fresh GNN per pair and judge it with BREC's RPC test (LibTorch; see\n"
                        "'brec eval --help')");
}

}  // namespace brec::cli
