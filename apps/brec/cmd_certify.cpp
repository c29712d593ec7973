// brec certify: per-pair hardness certificate (smallest of 1-WL, 2-FWL, 3-FWL that separates the
// pair), as a table or JSON lines; resumable through --out FILE.jsonl --resume.
#include <chrono>
#include <iostream>
#include <map>
#include <set>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/pair_records.hpp"
#include "brec/io/summary.hpp"
#include "brec/wl/wl.hpp"

namespace brec::cli {
namespace {

struct CertifyArgs {
    PairArgs pairs;
    int max_fwl = 3;
    std::string out;
    bool resume = false;
    bool fine = false;
    int threads_per_pair = 1;
};

const char* level_key(Hardness h) {
    switch (h) {
        case Hardness::wl1: return "1wl";
        case Hardness::fwl2: return "2fwl";
        case Hardness::fwl3: return "3fwl";
        default: return "beyond";
    }
}

int run_certify(const CertifyArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    const auto sel = load_selected_pairs(args.pairs);
    // Finished pairs of an earlier run (same file) are not recomputed.
    PairRecords records(args.out, args.resume, [&](const nlohmann::json& j, std::size_t) {
        return j.contains("level") && j.value("max_fwl", 3) == args.max_fwl;
    });
    if (records.loaded())
        ctx.info("resuming: " + std::to_string(records.loaded()) + " pairs already certified in " + args.out);
    const auto start = std::chrono::steady_clock::now();
    compute_missing_pairs(sel.dataset, sel.indices, 0, args.pairs.jobs, records, "certify", ctx,
                          [&](const GraphPairRecord& p) {
                              const HardnessResult h = certify_hardness(p.a, p.b, args.max_fwl, args.threads_per_pair);
                              nlohmann::json j{{"id", p.id},
                                               {"category", p.category},
                                               {"level", level_key(h.level)},
                                               {"hardness", hardness_name(h.level)},
                                               {"max_fwl", args.max_fwl},
                                               {"n", p.a.n()}};
                              double secs = 0;
                              nlohmann::json steps = nlohmann::json::array();
                              for (const auto& s : h.steps) {
                                  steps.push_back({{"distinguished", s.distinguished}, {"rounds", s.rounds},
                                                   {"seconds", s.seconds}});
                                  secs += s.seconds;
                              }
                              j["steps"] = steps;
                              j["seconds"] = secs;
                              return j;
                          });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Tally per category: pairs per level, in dataset order.
    const std::vector<std::string> levels = {"1wl", "2fwl", "3fwl", "beyond"};
    std::map<std::string, std::map<std::string, int>> tally;
    std::vector<std::string> cat_order;
    std::vector<PairOutcome> outcomes;
    for (std::size_t k : sel.indices) {
        const auto& p = sel.dataset.pairs[k];
        const auto& j = records.at(0, p.id);
        if (args.pairs.json) print_json_line(j);
        if (!tally.count(p.category)) cat_order.push_back(p.category);
        ++tally[p.category][j["level"].get<std::string>()];
        outcomes.push_back({p.id, p.category, j["level"] != "beyond", false});
    }
    const std::string dataset = args.pairs.dataset.empty() ? sel.dataset.path : args.pairs.dataset;
    nlohmann::json summary = make_summary({"certify", "hardness<=" + std::to_string(args.max_fwl) + "fwl", dataset, 0, seconds}, outcomes);
    nlohmann::json levels_json = nlohmann::json::object();
    for (const auto& c : cat_order) levels_json[c] = tally[c];
    summary["levels"] = levels_json;
    if (args.pairs.json) {
        print_json_line(summary);
        return 0;
    }
    TextTable t({"category", "pairs", "1-WL", "3-WL (2-FWL)", "4-WL (3-FWL)", "beyond"});
    std::map<std::string, int> total;
    int total_pairs = 0;
    for (const auto& c : cat_order) {
        int pairs = 0;
        std::vector<std::string> row{c, ""};
        for (const auto& l : levels) {
            const int x = tally[c].count(l) ? tally[c][l] : 0;
            pairs += x;
            total[l] += x;
            row.push_back(std::to_string(x));
        }
        row[1] = std::to_string(pairs);
        total_pairs += pairs;
        t.add_row(row);
    }
    t.add_rule();
    std::vector<std::string> row{"total", std::to_string(total_pairs)};
    for (const auto& l : levels) row.push_back(std::to_string(total[l]));
    t.add_row(row);
    std::cout << "hardness: the smallest level that distinguishes each pair (" << dataset << ", "
              << format_seconds(seconds) << ")\n\n" << t.str();
    if (args.max_fwl < 3) std::cout << "(levels above " << args.max_fwl << "-FWL not tested: 'beyond' means beyond " << args.max_fwl << "-FWL)\n";
    return 0;
}

}  // namespace

void add_certify(CLI::App& root, Action& action) {
    auto args = std::make_shared<CertifyArgs>();
    auto* sub = root.add_subcommand(
        "certify", "Hardness certificate of every pair: the smallest of 1-WL, 3-WL (= 2-FWL) and\n"
                   "4-WL (= 3-FWL) that distinguishes it, else 'beyond 4-WL'. Resumable.\n"
                   "Example: brec certify --jobs 2 --out certify.jsonl --resume");
    sub->add_option("--max-fwl", args->max_fwl, "Highest folklore level to try (2 or 3)")
        ->check(CLI::Range(1, 3))
        ->capture_default_str();
    sub->add_option("--out,-o", args->out, "Append one JSON line per certified pair to this file");
    sub->add_flag("--resume", args->resume, "Skip pairs already certified in --out");
    sub->add_option("--threads-per-pair", args->threads_per_pair, "Threads inside one 2-/3-FWL run")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_certify(*args, ctx); }; });
}

}  // namespace brec::cli
