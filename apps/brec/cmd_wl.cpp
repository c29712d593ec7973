// brec wl: one WL-family test on every selected pair; per-category table or JSON lines.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/wl/run.hpp"

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
    bool no_orbits = false;
    std::string out;
    bool resume = false;
};

int wl_command(const WlArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    WlRunOptions opt;
    opt.wl = WlOptions(WlMethod::parse(args.method));
    opt.wl.method.mark_root = args.mark_root;
    opt.wl.max_rounds = args.rounds;
    opt.wl.threads = args.threads_per_pair;
    opt.wl.use_automorphisms = !args.no_orbits;
    opt.reliability = args.reliability;
    opt.seed = args.seed;
    opt.jobs = args.pairs.jobs;
    opt.out = args.out;
    opt.resume = args.resume;
    opt.dataset = args.pairs.dataset;
    const auto sel = load_selected_pairs(args.pairs);
    const WlRunResult result = run_wl(sel.dataset, sel.indices, opt, ctx);
    if (args.pairs.json) {
        for (const auto& r : result.records) print_json_line(to_json(r));
        print_json_line(result.summary);
        return 0;
    }
    for (const auto& note : result.notes) ctx.warn(note);
    std::cout << wl_run_text(result, args.fine);
    if (!args.reliability) std::cout << "(reliability not checked; use --reliability)\n";
    return 0;
}

}  // namespace

void add_wl(CLI::App& root, Action& action) {
    auto args = std::make_shared<WlArgs>();
    auto* sub = add_command(root, "wl", "Run a Weisfeiler-Leman-family test on every pair: does it tell G from H?",
                            "Methods: 1wl (colour refinement); 2wl, 3wl, kwl:K (oblivious k-WL, Morris et al.);\n"
                            "1fwl, 2fwl, 3fwl, kfwl:K (folklore k-FWL; k-WL = (k-1)-FWL, '3-WL' in papers = 2fwl);\n"
                            "spd (shortest-path-distance WL), gd (resistance-distance WL), s3 / s4 (1-WL from\n"
                            "3-/4-node pattern counts), n:K (1-WL from K-hop ego-net isomorphism classes), m1\n"
                            "(node marking).\n"
                            "Tight bounds of the BREC models (brec eval --list-models names each model's):\n"
                            "swl-vs, swl-sv, pswl-vs, pswl-sv, gswl, sswl (the subgraph WL classes of Zhang et al.\n"
                            "2023; node marking, r = the whole graph; ':R' keeps only the R-ball's edges in every\n"
                            "subgraph, ':ego' makes the subgraph the induced ball, ':hop' adds the distance to the\n"
                            "root, e.g. gswl:6:ego:hop), lfwl / slfwl (localized 2-FWL), ngnn:R / de-ngnn:R (1-WL\n"
                            "in every induced R-ball, + distance to the root), i2:R (R-balls with root and one\n"
                            "neighbour marked), drop1 (1-WL over the one-vertex-deleted subgraphs), gsn-e:3 /\n"
                            "gsn-e:4 (1-WL with edge-orbit counts on the edges), kp:K (K-hop message passing with\n"
                            "KP-GNN's peripheral counts), d2lwl / d2lwl+ (local delta-2-WL), setwl:K:C\n"
                            "((k,c)-SetWL).\n"
                            "gd needs connected graphs: other pairs are reported as \"unsupported\" and counted as\n"
                            "not distinguished. Rounds: refinement stops when the histograms differ or the joint\n"
                            "partition is stable; spd and gd stop after 10 rounds as the BREC reference does.\n"
                            "JSON (--json): one object per pair {id, category, method, rounds_limit, distinguished,\n"
                            "rounds, colours, seconds[, reliability_failure, unsupported]}, then the summary object.\n"
                            "Interrupted (Ctrl-C), a run with --out keeps every finished pair: rerun with --resume.\n"
                            "Example: brec wl --method 2fwl --fine --jobs 2");
    sub->add_option("--method,-m", args->method, "WL-family method (see below)")
        ->check(checked_by([](const std::string& name) { WlMethod::parse(name); }, "METHOD"))
        ->capture_default_str();
    sub->add_option("--rounds", args->rounds,
                    "Stop after R refinement rounds (default: until stable; spd/gd use the reference's 10)")
        ->check(CLI::Range(0, 1000000));
    add_fine_flag(sub, args->fine);
    sub->add_flag("--reliability", args->reliability,
                  "Also run each method on (G, random relabeling of G); any 'distinguished' is a failure");
    sub->add_flag("--mark-root", args->mark_root, "n:K only: mark the root of each ego-net (the reference does not)");
    add_seed_flag(sub, args->seed, "Seed of the relabelings of --reliability");
    add_threads_per_pair_flag(sub, args->threads_per_pair,
                              "Threads inside one k-WL/k-FWL comparison (useful for 3fwl on large pairs)");
    sub->add_flag("--no-orbits", args->no_orbits,
                  "3wl/3fwl: refine every tuple, not one per orbit of the automorphism group (same results, "
                  "slower on symmetric graphs such as CFI; for timings and cross-checks)");
    add_results_file_flags(sub, args->out, args->resume,
                           "Append one JSON line per finished pair to this file (fields as with --json)",
                           "Skip pairs already in --out (a file of another method, --rounds or --seed is refused)");
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return wl_command(*args, ctx); }; });
}

}  // namespace brec::cli
