#include "brec/wl/run.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/core/text.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pair_records.hpp"
#include "brec/io/summary.hpp"

namespace brec {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The levels of a certificate, in the order of the hierarchy.
const std::vector<std::string>& level_keys() {
    static const std::vector<std::string> kLevels = {"1wl", "2fwl", "3fwl", "beyond"};
    return kLevels;
}

/// The settings of a wl record that decide whether it stands for this run: the method, the round
/// limit and, when this run checks reliability, its relabeling seed.
std::string wl_settings(const std::string& method, int rounds_limit, bool reliability, bool checked,
                        std::uint64_t seed) {
    std::string text =
        "wl " + method + ", rounds " + (rounds_limit < 0 ? "until stable" : std::to_string(rounds_limit));
    if (reliability) text += checked ? ", relabeling seed " + std::to_string(seed) : ", no reliability check";
    return text;
}

/// The settings of a certify record: the levels and the extra tests, in order.
std::string certify_settings(int max_fwl, const std::vector<std::string>& tests) {
    std::string text = "certify up to " + std::to_string(max_fwl) + "-FWL, tests ";
    for (std::size_t k = 0; k < tests.size(); ++k) text += (k ? "," : "") + tests[k];
    return tests.empty() ? text + "none" : text;
}

}  // namespace

const char* hardness_key(Hardness h) {
    switch (h) {
        case Hardness::wl1:
            return "1wl";
        case Hardness::fwl2:
            return "2fwl";
        case Hardness::fwl3:
            return "3fwl";
        default:
            return "beyond";
    }
}

WlRunResult run_wl(const PairDataset& dataset, const std::vector<std::size_t>& indices, const WlRunOptions& opt,
                   RunContext& ctx) {
    WlRunResult result;
    result.method = opt.wl.method.name();
    result.dataset = opt.dataset.empty() ? dataset.path : opt.dataset;
    // A record of an earlier run stands for this one when it used the same method, round limit
    // and (when checked) relabeling seed; any other record refuses the file.
    const ResultsSettings settings(
        wl_settings(result.method, opt.wl.max_rounds, opt.reliability, true, opt.seed),
        [&](const nlohmann::json& j, std::int64_t line) {
            if (!is_wl_record(j)) return std::string(is_certify_record(j) ? "a certify record" : "not a wl record");
            const WlRecord r = wl_record_from_json(j, opt.out, line);
            return wl_settings(r.method, r.rounds_limit, opt.reliability, r.reliability_checked, r.reliability_seed);
        });
    PairRecords records(opt.out, opt.resume, settings);
    result.resumed = records.loaded();
    if (records.loaded())
        ctx.info("resuming: " + std::to_string(records.loaded()) + " pairs already done in " + opt.out);

    const auto start = std::chrono::steady_clock::now();
    compute_missing_pairs(dataset, indices, 0, opt.jobs, records, "wl " + result.method, ctx,
                          [&](const GraphPairRecord& p) {
                              WlRecord blank;
                              blank.id = p.id;
                              blank.category = p.category;
                              blank.method = result.method;
                              blank.rounds_limit = opt.wl.max_rounds;
                              blank.reliability_checked = opt.reliability;
                              blank.reliability_seed = opt.seed;
                              WlRecord r = blank;
                              try {
                                  const WlResult w = compare_pair(p.a, p.b, opt.wl, &ctx);
                                  r.distinguished = w.distinguished;
                                  r.rounds = w.rounds;
                                  r.colours = w.colours;
                                  r.seconds = w.seconds;
                                  if (opt.reliability) {
                                      Rng rng(stream_seed(opt.seed, static_cast<std::uint64_t>(p.id)));
                                      const Graph relabelled = permute(p.a, rng.permutation(p.a.n()));
                                      r.reliability_failure = compare_pair(p.a, relabelled, opt.wl, &ctx).distinguished;
                                  }
                              } catch (const Unsupported& e) {
                                  // An expected outcome, not an error: the pair is recorded as not distinguished.
                                  r = blank;
                                  r.unsupported = e.what();
                              }
                              return to_json(r);
                          });
    result.seconds = seconds_since(start);

    std::vector<PairOutcome> outcomes;
    for (std::size_t k : indices) {
        const PairId id = dataset.pairs[k].id;
        WlRecord r = wl_record_from_json(records.at(0, id), opt.out, 0);
        if (!r.unsupported.empty()) {
            ++result.unsupported;
            result.notes.push_back("pair " + std::to_string(id) + ": " + r.unsupported +
                                   "; counted as not distinguished");
        }
        result.pair_seconds += r.seconds;
        outcomes.push_back({r.id, r.category, r.distinguished, r.reliability_failure});
        result.records.push_back(std::move(r));
    }
    result.summary = make_summary({"wl", result.method, result.dataset, opt.seed, result.seconds}, outcomes);
    result.summary["rounds_limit"] = opt.wl.max_rounds;
    result.summary["reliability_check"] = opt.reliability;
    result.summary["unsupported_pairs"] = result.unsupported;
    result.summary["pair_seconds"] = result.pair_seconds;
    result.summary["jobs"] = opt.jobs;
    return result;
}

std::string wl_run_text(const WlRunResult& result, bool fine) {
    std::ostringstream out;
    out << "method " << result.method << " on " << result.dataset << " (" << result.records.size() << " pairs, "
        << format_seconds(result.seconds) << " wall, " << format_seconds(result.pair_seconds)
        << " summed over pairs)\n\n"
        << summary_table(result.summary, fine);
    if (result.unsupported > 0)
        out << "(" << result.unsupported << " pairs unsupported by " << result.method
            << ", counted as not distinguished)\n";
    return out.str();
}

CertifyRunResult run_certify(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const CertifyRunOptions& opt, RunContext& ctx) {
    if (opt.max_fwl < 1 || opt.max_fwl > 3)
        throw InvalidArgument("the highest folklore level must be 1, 2 or 3, got " + std::to_string(opt.max_fwl));
    CertifyRunResult result;
    result.max_fwl = opt.max_fwl;
    result.dataset = opt.dataset.empty() ? dataset.path : opt.dataset;
    std::vector<WlOptions> tests;
    for (const auto& name : opt.tests) {
        WlOptions o(WlMethod::parse(name));
        o.threads = opt.threads_per_pair;
        o.reference_rounds = false;  // a tight bound is what the design separates at best: to stability
        const std::string canonical = o.method.name();
        if (std::find(result.tests.begin(), result.tests.end(), canonical) != result.tests.end())
            throw InvalidArgument("test '" + canonical + "' is asked for twice");
        result.tests.push_back(canonical);
        tests.push_back(o);
    }
    // A record stands for this run when it has the same levels and exactly the same tests.
    const ResultsSettings settings(certify_settings(opt.max_fwl, result.tests),
                                   [&](const nlohmann::json& j, std::int64_t line) {
                                       if (!is_certify_record(j)) return std::string("not a certify record");
                                       const CertifyRecord r = certify_record_from_json(j, opt.out, line);
                                       std::vector<std::string> tests;
                                       for (const auto& t : r.tests) tests.push_back(t.method);
                                       return certify_settings(r.max_fwl, tests);
                                   });
    PairRecords records(opt.out, opt.resume, settings);
    result.resumed = records.loaded();
    if (records.loaded())
        ctx.info("resuming: " + std::to_string(records.loaded()) + " pairs already certified in " + opt.out);

    const auto start = std::chrono::steady_clock::now();
    compute_missing_pairs(dataset, indices, 0, opt.jobs, records, "certify", ctx, [&](const GraphPairRecord& p) {
        const HardnessResult h = certify_hardness(p.a, p.b, opt.max_fwl, opt.threads_per_pair, &ctx);
        CertifyRecord r;
        r.id = p.id;
        r.category = p.category;
        r.level = hardness_key(h.level);
        r.hardness = hardness_name(h.level);
        r.max_fwl = opt.max_fwl;
        r.n = p.a.n();
        for (const auto& s : h.steps) {
            r.steps.push_back({s.distinguished, s.rounds, s.seconds});
            r.seconds += s.seconds;
        }
        for (std::size_t i = 0; i < tests.size(); ++i) {
            CertifyTest t;
            t.method = result.tests[i];
            try {
                const WlResult w = compare_pair(p.a, p.b, tests[i], &ctx);
                t.distinguished = w.distinguished;
                t.rounds = w.rounds;
                t.seconds = w.seconds;
            } catch (const Unsupported& e) {
                t.unsupported = e.what();
            }
            r.seconds += t.seconds;
            r.tests.push_back(std::move(t));
        }
        return to_json(r);
    });
    result.seconds = seconds_since(start);

    // Pairs per category and level, categories in order of appearance.
    std::vector<std::string> categories;
    std::map<std::string, std::map<std::string, int>> tally;
    std::vector<PairOutcome> outcomes;
    for (std::size_t k : indices) {
        CertifyRecord r = certify_record_from_json(records.at(0, dataset.pairs[k].id), opt.out, 0);
        if (!tally.count(r.category)) categories.push_back(r.category);
        ++tally[r.category][r.level];
        outcomes.push_back({r.id, r.category, r.level != "beyond", false});
        result.records.push_back(std::move(r));
    }
    result.summary = make_summary(
        {"certify", "hardness<=" + std::to_string(opt.max_fwl) + "fwl", result.dataset, 0, result.seconds}, outcomes);
    nlohmann::json levels = nlohmann::json::object();
    for (const auto& c : categories) levels[c] = tally[c];
    result.summary["levels"] = levels;
    if (!result.tests.empty()) {
        nlohmann::json per_test = nlohmann::json::object();
        for (const auto& name : result.tests) {
            nlohmann::json row{{"seconds", 0.0}, {"unsupported", 0}, {"separated", nlohmann::json::object()}};
            for (const auto& c : categories) row["separated"][c] = 0;
            for (const auto& r : result.records) {
                const CertifyTest* t = r.test(name);
                row["seconds"] = row["seconds"].get<double>() + t->seconds;
                if (t->distinguished) row["separated"][r.category] = row["separated"][r.category].get<int>() + 1;
                if (!t->unsupported.empty()) row["unsupported"] = row["unsupported"].get<int>() + 1;
            }
            per_test[name] = std::move(row);
        }
        result.summary["tests"] = std::move(per_test);
    }
    return result;
}

std::string certify_run_text(const CertifyRunResult& result) {
    // Categories in order of appearance (the summary's JSON object sorts them by name).
    std::vector<std::string> categories;
    std::map<std::string, std::map<std::string, int>> tally;
    for (const auto& r : result.records) {
        if (!tally.count(r.category)) categories.push_back(r.category);
        ++tally[r.category][r.level];
    }
    TextTable t({"category", "pairs", "1-WL", "3-WL (2-FWL)", "4-WL (3-FWL)", "beyond"});
    std::map<std::string, int> total;
    int total_pairs = 0;
    for (const auto& c : categories) {
        int pairs = 0;
        std::vector<std::string> row{c, ""};
        for (const auto& l : level_keys()) {
            const int x = tally[c][l];
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
    for (const auto& l : level_keys()) row.push_back(std::to_string(total[l]));
    t.add_row(row);
    std::ostringstream out;
    out << "hardness: the smallest level that distinguishes each pair (" << result.dataset << ", "
        << format_seconds(result.seconds) << ")\n\n"
        << t.str();
    if (result.max_fwl < 3)
        out << "(levels above " << result.max_fwl << "-FWL not tested: 'beyond' means beyond " << result.max_fwl
            << "-FWL)\n";
    if (!result.tests.empty()) {
        std::vector<std::string> header{"test"};
        header.insert(header.end(), categories.begin(), categories.end());
        header.push_back("total");
        header.push_back("time");
        TextTable tt(header);
        // The summary's per-test counts, categories in order of appearance.
        for (const auto& name : result.tests) {
            const nlohmann::json& counts = result.summary.at("tests").at(name);
            std::vector<std::string> row{name};
            int all = 0;
            for (const auto& c : categories) {
                const int separated = counts.at("separated").at(c).get<int>();
                all += separated;
                row.push_back(std::to_string(separated));
            }
            const int unsupported = counts.at("unsupported").get<int>();
            row.push_back(std::to_string(all) +
                          (unsupported ? " (" + std::to_string(unsupported) + " unsupported)" : ""));
            row.push_back(format_seconds(counts.at("seconds").get<double>()));
            tt.add_row(row);
        }
        out << "\npairs each test separates, per category (time: summed over the pairs)\n\n" << tt.str();
    }
    return out.str();
}

}  // namespace brec
