// brec: expressiveness benchmarks for graph neural networks. Only main() catches exceptions:
// exit 0 on success, 2 on bad usage or bad input, 1 on internal errors, 128 + signal (130 for
// Ctrl-C) when a run was interrupted.
#include <csignal>
#include <iostream>
#include <memory>
#include <set>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/pair_records.hpp"

namespace {

/// Commands whose library calls stop cleanly when their RunContext is cancelled: for them, SIGINT
/// and SIGTERM cancel the context. Every other command keeps the default (the signal ends it).
bool cancellable(const std::string& command) {
#if defined(BREC_EVAL_BINARY)
    static const std::set<std::string> kCommands = {"eval", "attack", "classify"};
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

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        // One line, like every other bad-usage error (CLI11 alone would print two).
        std::string what = e.what();
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
