// brec: expressiveness benchmarks for graph neural networks. Only main() catches exceptions:
// exit 0 on success, 2 on bad usage or bad input, 1 on internal errors, 128 + signal (130 for
// Ctrl-C) when a run was interrupted.
#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/pair_records.hpp"

namespace {

/// Commands whose library calls stop cleanly when their RunContext is cancelled: for them, SIGINT
/// and SIGTERM cancel the context. Every other command keeps the default (the signal ends it).
bool cancellable(const std::string& command) {
#if defined(BREC_EVAL_BINARY)
    static const std::set<std::string> kCommands = {"eval", "attack", "board", "classify"};
#else
    static const std::set<std::string> kCommands = {"info", "wl", "certify", "dedup", "classify", "count", "generate"};
#endif
    return kCommands.count(command) > 0;
}

/// The one stderr line of an interrupted run.
std::string interrupted_message(const brec::Cancelled& e) {
    const auto* pairs = dynamic_cast<const brec::PairsCancelled*>(&e);
    if (!pairs) return "brec: interrupted";
    if (pairs->path().empty())
        return "brec: interrupted; " + std::to_string(pairs->kept()) +
               " finished results were not kept (use --out FILE.jsonl to keep them)";
    return "brec: interrupted; " + std::to_string(pairs->kept()) + " results kept in " + pairs->path() +
           ", rerun with --resume";
}

/// The kind of path an output flag names.
enum class OutputKind { file, directory };

/// A one-line problem with output path `path` of kind `kind`, "" if it can be written: checked
/// when the flags are parsed, so that a typo fails before hours of work rather than after.
std::string output_path_problem(const std::string& path, OutputKind kind) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(path);
    if (kind == OutputKind::file && fs::is_directory(p, ec)) return "cannot write " + path + ": it is a directory";
    if (kind == OutputKind::directory && fs::exists(p, ec) && !fs::is_directory(p, ec))
        return "cannot write to " + path + ": it exists and is not a directory";
    if (kind == OutputKind::file) {
        const fs::path parent = p.parent_path();
        if (!parent.empty() && !fs::is_directory(parent, ec))
            return "cannot write " + path + ": directory " + parent.string() + " does not exist";
    }
    return "";
}

/// Adds the output path check to the output flags of every command (recursively).
void check_output_flags(CLI::App& app) {
    // --out names a file or a directory depending on the command ("attack run": a subcommand).
    static const std::map<std::string, OutputKind> kOut = {
        {"wl", OutputKind::file},          {"certify", OutputKind::file},
        {"eval", OutputKind::file},        {"classify", OutputKind::file},
        {"rpc", OutputKind::file},         {"attack run", OutputKind::file},
        {"report", OutputKind::directory}, {"generate", OutputKind::directory},
        {"count", OutputKind::directory},  {"attack train", OutputKind::directory},
        {"export", OutputKind::directory}, {"board run", OutputKind::directory}};
    static const std::set<std::string> kFiles = {"--svg", "--csv", "--markdown", "--junit", "--html"};
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) check_output_flags(*sub);
    for (CLI::Option* opt : app.get_options()) {
        const std::string name = opt->get_name();
        const CLI::App* parent = app.get_parent();
        const std::string command =
            parent && parent->get_parent() ? parent->get_name() + " " + app.get_name() : app.get_name();
        OutputKind kind = OutputKind::file;
        if (name == "--out" && kOut.count(command))
            kind = kOut.at(command);
        else if (name == "--write-clean")
            kind = OutputKind::directory;
        else if (!kFiles.count(name))
            continue;
        opt->check(CLI::Validator([kind](std::string& path) { return output_path_problem(path, kind); }, "PATH"));
    }
}

/// The one line for a missing subcommand: the unknown word the user typed, or the subcommands of
/// the command that needs one.
std::string missing_command_message(const CLI::App& root) {
    const CLI::App* app = &root;
    std::string path = "brec";
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const CLI::App* sub : app->get_subcommands())
            if (sub->parsed()) {
                app = sub;
                path += " " + sub->get_name();
                deeper = true;
                break;
            }
    }
    std::string names;
    for (const CLI::App* sub : const_cast<CLI::App*>(app)->get_subcommands([](CLI::App*) { return true; }))
        names += (names.empty() ? "" : ", ") + sub->get_name();
    const auto rest = root.remaining();
    if (app == &root && !rest.empty() && !rest.front().empty() && rest.front()[0] != '-')
        return "unknown command '" + rest.front() + "'; the commands are: " + names;
    return "'" + path + "' needs a command: " + names;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace brec;
    CLI::App app{
        "brec: how expressive is your graph neural network really?\n"
        "Rebuild and inspect the BREC benchmark, run Weisfeiler-Leman tests, train and judge\n"
        "GNNs with the RPC test, report statistics, and find isomorphic duplicates.\n"
        "Run 'brec COMMAND --help' for the flags of a command.\n"
        "Example: brec wl --method 2fwl --fine",
        "brec"};
    app.set_version_flag("--version", std::string("brec ") + BREC_VERSION);
    app.require_subcommand(1);
    app.fallthrough();
    cli::GlobalArgs global;
    cli::add_global_flags(app, global);

    cli::Action action;
#if defined(BREC_EVAL_BINARY)
    // brec-eval: the LibTorch part of brec, run by `brec eval` with the same command line.
    cli::add_eval(app, action);
    cli::set_summary(app, "eval", "Train a GNN per pair and judge it with BREC's RPC test");
    cli::add_attack(app, action);
    cli::add_board(app, action);
    cli::add_classify(app, action, argc, argv);
#else
    cli::add_info(app, action);
    cli::add_convert(app, action);
    cli::add_wl(app, action);
    cli::add_certify(app, action);
    cli::add_generate(app, action);
    cli::add_show(app, action);
    cli::add_eval_forward(app, action, argc, argv);
    cli::add_attack_forward(app, action, argc, argv);
    cli::add_board_forward(app, action, argc, argv);
    cli::add_report(app, action);
    cli::add_stats(app, action);
    cli::add_dedup(app, action);
    cli::add_classify(app, action, argc, argv);
    cli::add_count(app, action);
    cli::add_export(app, action);
    cli::add_rpc(app, action);
    // `brec --help` lists one line per command (git style); the long text is in `brec CMD --help`.
    cli::set_summary(app, "generate", "Rebuild a BREC-style dataset: DIR/pairs.tsv and DIR/meta.json");
    cli::set_summary(app, "show", "Draw both graphs of a pair side by side as SVG");
    cli::set_summary(app, "report", "Statistics over result files: CIs, paired tests, Friedman-Nemenyi, figures");
#endif

    check_output_flags(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        // One line, like every other bad-usage error (CLI11 alone would print two).
        std::string what = e.what();
        if (what == "A subcommand is required") what = missing_command_message(app);
        while (!what.empty() && what.back() == '\n') what.pop_back();
        for (char& c : what)
            if (c == '\n') c = ' ';
        std::cerr << "brec: error: " << what << " (run with --help for usage)\n";
        return 2;
    }
    RunContext ctx;
    cli::configure_context(global, ctx);
    const auto& chosen = app.get_subcommands();
    std::unique_ptr<cli::InterruptWatcher> watcher;
    try {
        if (!chosen.empty() && cancellable(chosen.front()->get_name()))
            watcher = std::make_unique<cli::InterruptWatcher>(ctx);
        return action ? action(ctx) : 2;
    } catch (const Cancelled& e) {
        std::cerr << interrupted_message(e) << '\n';
        const int sig = watcher ? watcher->signal() : 0;
        return 128 + (sig ? sig : SIGINT);
    } catch (const ResultsFileError& e) {
        std::cerr << "brec: error: " << cli::flag_message(e) << '\n';
        return 2;
    } catch (const Error& e) {
        // Every library exception except a failed internal assertion is about the user's input.
        const bool internal =
            dynamic_cast<const ParseError*>(&e) == nullptr && dynamic_cast<const InvalidArgument*>(&e) == nullptr &&
            dynamic_cast<const IoError*>(&e) == nullptr && dynamic_cast<const Unsupported*>(&e) == nullptr &&
            dynamic_cast<const ResourceLimit*>(&e) == nullptr;
        std::cerr << (internal ? "brec: internal error: " : "brec: error: ") << e.what() << '\n';
        return internal ? 1 : 2;
    } catch (const std::exception& e) {
        std::cerr << "brec: internal error: " << e.what() << '\n';
        return 1;
    }
}
