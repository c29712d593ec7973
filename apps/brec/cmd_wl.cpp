// brec wl: one WL-family test on every selected pair; per-category table or JSON lines.
#include <chrono>
#include <iostream>
#include <mutex>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/summary.hpp"
#include "brec/wl/wl.hpp"

namespace brec::cli {
namespace {

struct WlArgs {
    PairArgs pairs;
    std::string method = "1wl";
    int rounds = -1;
    bool fine = false;
    bool reliability = false;
    bool mark_root = false;
    std::uint64_t seed = 0;
    int threads_per_pair = 1;
};

struct PairRun {
    WlResult result;
    bool reliability_failure = false;
    std::string error;  // Unsupported for this pair (e.g. GD-WL on a disconnected graph)
};

int run_wl(const WlArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    WlOptions opt(WlMethod::parse(args.method));
    opt.method.mark_root = args.mark_root;
    opt.max_rounds = args.rounds;
    opt.threads = args.threads_per_pair;
    const auto sel = load_selected_pairs(args.pairs);
    const auto start = std::chrono::steady_clock::now();
    std::vector<PairRun> runs(sel.indices.size());
    std::mutex mutex;
    std::size_t done = 0;
    parallel_for(sel.indices.size(), args.pairs.jobs, [&](std::size_t k) {
        const auto& p = sel.dataset.pairs[sel.indices[k]];
        PairRun r;
        try {
            r.result = compare_pair(p.a, p.b, opt);
            if (args.reliability) {
                Rng rng(stream_seed(args.seed, static_cast<std::uint64_t>(p.id)));
                const Graph relabelled = permute(p.a, rng.permutation(p.a.n()));
                r.reliability_failure = compare_pair(p.a, relabelled, opt).distinguished;
            }
        } catch (const Unsupported& e) {
            r.error = e.what();
        }
        runs[k] = r;
        std::lock_guard<std::mutex> lock(mutex);
        ctx.progress("wl " + opt.method.name(), ++done, sel.indices.size());
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<PairOutcome> outcomes;
    std::size_t unsupported = 0;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const auto& p = sel.dataset.pairs[sel.indices[k]];
        const auto& r = runs[k];
        if (!r.error.empty()) {
            ++unsupported;
            if (!args.pairs.json) ctx.warn("pair " + std::to_string(p.id) + ": " + r.error + "; counted as not distinguished");
        }
        outcomes.push_back({p.id, p.category, r.result.distinguished, r.reliability_failure});
        if (args.pairs.json) {
            nlohmann::json j{{"id", p.id},
                             {"category", p.category},
                             {"method", opt.method.name()},
                             {"distinguished", r.result.distinguished},
                             {"rounds", r.result.rounds},
                             {"colours", r.result.colours},
                             {"seconds", r.result.seconds}};
            if (args.reliability) j["reliability_failure"] = r.reliability_failure;
            if (!r.error.empty()) j["unsupported"] = r.error;
            print_json_line(j);
        }
    }
    const std::string dataset = args.pairs.dataset.empty() ? sel.dataset.path : args.pairs.dataset;
    nlohmann::json summary = make_summary({"wl", opt.method.name(), dataset, args.seed, seconds}, outcomes);
    summary["rounds_limit"] = args.rounds;
    summary["reliability_check"] = args.reliability;
    summary["unsupported_pairs"] = unsupported;
    if (args.pairs.json) {
        print_json_line(summary);
    } else {
        std::cout << "method " << opt.method.name() << " on " << dataset << " ("
                  << sel.indices.size() << " pairs, " << format_seconds(seconds) << ")\n\n"
                  << summary_table(summary, args.fine);
        if (!args.reliability) std::cout << "(reliability not checked; use --reliability)\n";
    }
    return 0;
}

}  // namespace

void add_wl(CLI::App& root, Action& action) {
    auto args = std::make_shared<WlArgs>();
    auto* sub = root.add_subcommand(
        "wl", "Run a Weisfeiler-Leman-family test on every pair: does it tell G from H?\n"
              "Methods: 1wl (colour refinement); 2wl, 3wl, kwl:K (oblivious k-WL, Morris et al.);\n"
              "1fwl, 2fwl, 3fwl, kfwl:K (folklore k-FWL; k-WL = (k-1)-FWL, '3-WL' in papers = 2fwl);\n"
              "spd (shortest-path-distance WL), gd (resistance-distance WL), s3 / s4 (1-WL from\n"
              "3-/4-node pattern counts), n:K (1-WL from K-hop ego-net isomorphism classes), m1\n"
              "(node marking).\n"
              "Example: brec wl --method 2fwl --fine --jobs 2");
    sub->add_option("--method,-m", args->method, "WL-family method (see above)")->capture_default_str();
    sub->add_option("--rounds", args->rounds,
                    "Stop after R refinement rounds (default: until stable; spd/gd use the reference's 10)")
        ->check(CLI::Range(0, 1000000));
    sub->add_flag("--fine", args->fine, "Show the 7 fine categories under the 4 groups");
    sub->add_flag("--reliability", args->reliability,
                  "Also run each method on (G, random relabeling of G); any 'distinguished' is a failure");
    sub->add_flag("--mark-root", args->mark_root, "n:K only: mark the root of each ego-net (the reference does not)");
    sub->add_option("--seed", args->seed, "Seed of the relabelings of --reliability")->capture_default_str();
    sub->add_option("--threads-per-pair", args->threads_per_pair,
                    "Threads inside one k-WL/k-FWL comparison (useful for 3fwl on large pairs)")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_wl(*args, ctx); }; });
}

}  // namespace brec::cli
