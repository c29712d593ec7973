// brec eval in the `brec` binary: hands the whole command line to `brec-eval`, the LibTorch part
// of brec, installed next to it. Keeping LibTorch out of `brec` makes every other command start
// in milliseconds instead of the ~0.7 s (and 150 MB) of LibTorch's static initialisation.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec::cli {

namespace {

/// A subcommand whose every word (its --help included) is brec-eval's to parse; when chosen, the
/// whole command line goes to brec-eval.
void add_forward(CLI::App& root, Action& action, int argc, char** argv, const std::string& name,
                 const std::string& summary) {
    auto* sub = root.add_subcommand(name, summary);
    sub->prefix_command();
    sub->allow_extras();
    sub->fallthrough(false);
    sub->set_help_flag();
    sub->callback([&action, argc, argv, name]() {
        action = [argc, argv, name](RunContext&) { return run_in_eval_binary(argc, argv, "brec " + name); };
    });
}

}  // namespace

namespace {

std::string eval_binary_path() {
    const char* env = std::getenv("BREC_EVAL_BINARY");
    return env && *env ? std::string(env) : executable_dir() + "/brec-eval";
}

}  // namespace

std::string eval_model_list() {
    const std::string path = eval_binary_path();
    if (!file_exists(path)) return "";
    const std::string command = "'" + path + "' eval --list-models --json 2>/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return "";
    std::string out;
    char buffer[4096];
    while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, got);
    return pclose(pipe) == 0 ? out : "";
}

int run_in_eval_binary(int argc, char** argv, const std::string& what) {
    const std::string path = eval_binary_path();
    if (!file_exists(path))
        throw Unsupported(what + " runs " + path +
                          " (the LibTorch part of brec), which is missing; "
                          "build brec with LibTorch (-DBREC_WITH_TORCH=ON) or set BREC_EVAL_BINARY");
    // brec-eval may allocate with tcmalloc, which reports every allocation above 1 GiB on stderr
    // with a stack trace; a big pair (a dense model on a CFI graph) is no news. A value the user
    // set stays.
    setenv("TCMALLOC_LARGE_ALLOC_REPORT_THRESHOLD", "1099511627776", /*overwrite=*/0);
    std::vector<char*> args(argv, argv + argc);
    args.push_back(nullptr);
    execv(path.c_str(), args.data());
    throw Error("cannot run " + path + ": " + std::strerror(errno));
}

void add_eval_forward(CLI::App& root, Action& action, int argc, char** argv) {
    add_forward(root, action, argc, argv, "eval", "Train a GNN per pair and judge it with BREC's RPC test (LibTorch)");
}

void add_attack_forward(CLI::App& root, Action& action, int argc, char** argv) {
    add_forward(root, action, argc, argv, "attack",
                "Counting regressors and adversarial edge-flip attacks on them (LibTorch)");
}

void add_board_forward(CLI::App& root, Action& action, int argc, char** argv) {
    add_forward(root, action, argc, argv, "board",
                "The BREC board: every model on its pairs, with provenance (LibTorch)");
}

}  // namespace brec::cli
