// brec: expressiveness benchmarks for graph neural networks. Only main() catches exceptions:
// exit 0 on success, 2 on bad usage or bad input, 1 on internal errors.
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"

int main(int argc, char** argv) {
    using namespace brec;
    CLI::App app{"brec: how expressive is your graph neural network really?\n"
                 "Rebuild and inspect the BREC benchmark, run Weisfeiler-Leman tests, train and judge\n"
                 "GNNs with the RPC test, report statistics, and find isomorphic duplicates.\n"
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
#else
    cli::add_info(app, action);
    cli::add_convert(app, action);
    cli::add_wl(app, action);
    cli::add_certify(app, action);
    cli::add_generate(app, action);
    cli::add_show(app, action);
    cli::add_eval_forward(app);
    cli::add_report(app, action);
    cli::add_stats(app, action);
    cli::add_dedup(app, action);
    cli::add_export(app, action);
    cli::add_rpc(app, action);
#endif

    try {
#if !defined(BREC_EVAL_BINARY)
        if (cli::runs_eval(argc, argv))
            action = cli::eval_handoff(argc, argv);
        else
#endif
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
    try {
        return action ? action(ctx) : 2;
    } catch (const Error& e) {
        // Every library exception except a failed internal assertion is about the user's input.
        const bool internal = dynamic_cast<const ParseError*>(&e) == nullptr &&
                              dynamic_cast<const InvalidArgument*>(&e) == nullptr &&
                              dynamic_cast<const IoError*>(&e) == nullptr &&
                              dynamic_cast<const Unsupported*>(&e) == nullptr &&
                              dynamic_cast<const ResourceLimit*>(&e) == nullptr;
        std::cerr << (internal ? "brec: internal error: " : "brec: error: ") << e.what() << '\n';
        return internal ? 1 : 2;
    } catch (const std::exception& e) {
        std::cerr << "brec: internal error: " << e.what() << '\n';
        return 1;
    }
}
