// brec wl: one WL-family test on every selected pair; per-category table or JSON lines.
#include <chrono>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pair_records.hpp"
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
    std::string out;
    bool resume = false;
};

/// The JSON record of one pair (printed with --json, appended to --out).
nlohmann::json pair_record(const GraphPairRecord& p, const WlArgs& args, const std::string& method,
                           const WlResult& r, bool reliability_failure, const std::string& unsupported) {
    nlohmann::json j{{"id", p.id},
                     {"category", p.category},
                     {"method", method},
                     {"rounds_limit", args.rounds},
                     {"distinguished", r.distinguished},
                     {"rounds", r.rounds},
                     {"colours", r.colours},
                     {"seconds", r.seconds}};
    if (args.reliability) {
        j["reliability_failure"] = reliability_failure;
        j["reliability_seed"] = args.seed;
    }
    if (!unsupported.empty()) j["unsupported"] = unsupported;
    return j;
}

/// Can a record of an earlier run stand for this run (same method, round limit, checks)?
bool reusable(const nlohmann::json& j, const WlArgs& args, const std::string& method) {
    if (!j.is_object() || !j.contains("id") || !j.contains("distinguished")) return false;
    if (j.value("method", "") != method || j.value("rounds_limit", -2) != args.rounds) return false;
    if (args.reliability && (!j.contains("reliability_failure") || j.value("reliability_seed", ~std::uint64_t{0}) != args.seed))
        return false;
    return true;
}

int run_wl(const WlArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    WlOptions opt(WlMethod::parse(args.method));
    opt.method.mark_root = args.mark_root;
    opt.max_rounds = args.rounds;
    opt.threads = args.threads_per_pair;
    const std::string method = opt.method.name();
    const auto sel = load_selected_pairs(args.pairs);

    // Records of finished pairs: from an earlier run (--resume) or computed now.
    PairRecords records(args.out, args.resume,
                        [&](const nlohmann::json& j, std::size_t) { return reusable(j, args, method); });
    if (records.loaded())
        ctx.info("resuming: " + std::to_string(records.loaded()) + " pairs already done in " + args.out);
    const auto start = std::chrono::steady_clock::now();
    compute_missing_pairs(sel.dataset, sel.indices, 0, args.pairs.jobs, records, "wl " + method, ctx,
                          [&](const GraphPairRecord& p) {
                              WlResult result;
                              bool failure = false;
                              std::string unsupported;
                              try {
                                  result = compare_pair(p.a, p.b, opt);
                                  if (args.reliability) {
                                      Rng rng(stream_seed(args.seed, static_cast<std::uint64_t>(p.id)));
                                      const Graph relabelled = permute(p.a, rng.permutation(p.a.n()));
                                      failure = compare_pair(p.a, relabelled, opt).distinguished;
                                  }
                              } catch (const Unsupported& e) {
                                  unsupported = e.what();
                              }
                              return pair_record(p, args, method, result, failure, unsupported);
                          });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<PairOutcome> outcomes;
    std::size_t unsupported = 0;
    double pair_seconds = 0;
    for (std::size_t k : sel.indices) {
        const auto& p = sel.dataset.pairs[k];
        const auto& j = records.at(0, p.id);
        if (j.contains("unsupported")) {
            ++unsupported;
            if (!args.pairs.json)
                ctx.warn("pair " + std::to_string(p.id) + ": " + j["unsupported"].get<std::string>() +
                         "; counted as not distinguished");
        }
        pair_seconds += j.value("seconds", 0.0);
        outcomes.push_back({p.id, p.category, j["distinguished"].get<bool>(), j.value("reliability_failure", false)});
        if (args.pairs.json) print_json_line(j);
    }
    const std::string dataset = args.pairs.dataset.empty() ? sel.dataset.path : args.pairs.dataset;
    nlohmann::json summary = make_summary({"wl", method, dataset, args.seed, seconds}, outcomes);
    summary["rounds_limit"] = args.rounds;
    summary["reliability_check"] = args.reliability;
    summary["unsupported_pairs"] = unsupported;
    summary["pair_seconds"] = pair_seconds;
    summary["jobs"] = args.pairs.jobs;
    if (args.pairs.json) {
        print_json_line(summary);
    } else {
        std::cout << "method " << method << " on " << dataset << " (" << sel.indices.size() << " pairs, "
                  << format_seconds(seconds) << " wall, " << format_seconds(pair_seconds) << " summed over pairs)\n\n"
                  << summary_table(summary, args.fine);
        if (unsupported > 0)
            std::cout << "(" << unsupported << " pairs unsupported by " << method << ", counted as not distinguished)\n";
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
              "gd needs connected graphs: other pairs are reported as \"unsupported\" and counted as\n"
              "not distinguished. Rounds: refinement stops when the histograms differ or the joint\n"
              "partition is stable; spd and gd stop after 10 rounds as the BREC reference does.\n"
              "JSON (--json): one object per pair {id, category, method, rounds_limit, distinguished,\n"
              "rounds, colours, seconds[, reliability_failure, unsupported]}, then the summary object.\n"
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
    sub->add_option("--out,-o", args->out,
                    "Append one JSON line per finished pair to this file (fields as with --json)");
    sub->add_flag("--resume", args->resume,
                  "Skip pairs already in --out with the same method, --rounds and --reliability/--seed");
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_wl(*args, ctx); }; });
}

}  // namespace brec::cli
