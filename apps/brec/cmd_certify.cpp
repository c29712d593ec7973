// brec certify: per-pair hardness certificate (smallest of 1-WL, 2-FWL, 3-FWL that separates the
// pair), as a table or JSON lines; resumable through --out FILE.jsonl --resume.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "brec/wl/run.hpp"

namespace brec::cli {
namespace {

struct CertifyArgs {
    PairArgs pairs;
    int max_fwl = 3;
    std::string out;
    bool resume = false;
    int threads_per_pair = 1;
    std::vector<std::string> tests;
};

int certify_command(const CertifyArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    CertifyRunOptions opt;
    opt.max_fwl = args.max_fwl;
    opt.threads_per_pair = args.threads_per_pair;
    opt.jobs = args.pairs.jobs;
    opt.out = args.out;
    opt.resume = args.resume;
    opt.dataset = args.pairs.dataset;
    opt.tests = args.tests;
    const auto sel = load_selected_pairs(args.pairs);
    const CertifyRunResult result = run_certify(sel.dataset, sel.indices, opt, ctx);
    if (args.pairs.json) {
        for (const auto& r : result.records) print_json_line(to_json(r));
        print_json_line(result.summary);
    } else {
        std::cout << certify_run_text(result);
    }
    return 0;
}

}  // namespace

void add_certify(CLI::App& root, Action& action) {
    auto args = std::make_shared<CertifyArgs>();
    auto* sub =
        add_command(root, "certify", "Hardness certificate of every pair: the smallest WL level that distinguishes it",
                    "Tries 1-WL, 3-WL (= 2-FWL) and 4-WL (= 3-FWL) in turn; a pair none of them\n"
                    "distinguishes is 'beyond 4-WL'.\n"
                    "JSON (--json): one object per pair {id, category, level (1wl, 2fwl, 3fwl, beyond),\n"
                    "hardness, max_fwl, n, steps [{distinguished, rounds, seconds}], seconds}, then the\n"
                    "summary object with \"levels\" (pairs per category and level).\n"
                    "--tests runs more WL methods on every pair beside the levels, e.g. the models' tight\n"
                    "bounds (brec eval --list-models names them): each record gets \"tests\" [{method,\n"
                    "distinguished, rounds, seconds}], the summary \"tests\" (pairs separated per category),\n"
                    "and brec report --certificate sets every model against its tight bound.\n"
                    "Interrupted (Ctrl-C), a run with --out keeps every finished pair: rerun with --resume.\n"
                    "Example: brec certify --jobs 2 --out certify.jsonl --resume\n"
                    "         brec certify --tests ngnn:1,swl-vs:6,gswl:6,sswl,kp:8 --out tight.jsonl --resume");
    sub->add_option("--max-fwl", args->max_fwl, "Highest folklore level to try (1, 2 or 3)")
        ->check(CLI::Range(1, 3))
        ->capture_default_str();
    add_results_file_flags(sub, args->out, args->resume, "Append one JSON line per certified pair to this file",
                           "Skip pairs already certified in --out (a file of other levels or --tests is refused)");
    sub->add_option("--tests", args->tests,
                    "Extra WL methods to run on every pair (comma-separated brec wl --method names)")
        ->delimiter(',');
    add_threads_per_pair_flag(sub, args->threads_per_pair, "Threads inside one 2-/3-FWL run");
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return certify_command(*args, ctx); }; });
}

}  // namespace brec::cli
