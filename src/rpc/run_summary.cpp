#include "brec/rpc/run_summary.hpp"

#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/summary.hpp"
#include "brec/stats/tests.hpp"

namespace brec {

namespace {

using nlohmann::json;

/// The counts of one protocol: {categories, groups, total}.
json protocol_counts(const std::vector<EvalRecord>& records, Protocol p, const SummaryHeader& header) {
    std::vector<PairOutcome> outcomes;
    for (const auto& r : records) {
        const ProtocolResult& x = r.result(p);
        // A skipped pair (not run) counts as neither distinguished nor a reliability failure.
        outcomes.push_back({r.id, r.category, r.skipped.empty() && x.counts(), r.skipped.empty() && !x.reliable});
    }
    const json s = make_summary(header, outcomes);
    return {{"categories", s["categories"]}, {"groups", s["groups"]}, {"total", s["total"]}};
}

int distinguished(const json& summary, Protocol p) {
    return summary["protocols"][protocol_name(p)]["total"]["distinguished"].get<int>();
}
int failures(const json& summary, Protocol p) {
    return summary["protocols"][protocol_name(p)]["total"]["reliability_failures"].get<int>();
}

/// Index of the best seed with no reliability failure under p (ties: the earlier), or size().
std::size_t best_reliable_seed(const std::vector<SeedRun>& runs, Protocol p) {
    std::size_t best = runs.size();
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (failures(runs[i].summary, p) == 0 &&
            (best == runs.size() || distinguished(runs[i].summary, p) > distinguished(runs[best].summary, p)))
            best = i;
    return best;
}

json interval_json(const std::vector<double>& values) {
    const Interval ci = t_interval(values);
    json j{{"n", values.size()}, {"mean", ci.mean}};
    if (values.size() > 1) {
        j["half_width"] = ci.half_width;
        j["lower"] = ci.lower();
        j["upper"] = ci.upper();
    }
    return j;
}

/// The multi-seed protocol of one protocol's counts.
json multi_seed(const std::vector<SeedRun>& runs, Protocol p) {
    const std::size_t best = best_reliable_seed(runs, p);
    bool all_reliable = true;
    std::size_t best_any = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        all_reliable = all_reliable && failures(runs[i].summary, p) == 0;
        if (distinguished(runs[i].summary, p) > distinguished(runs[best_any].summary, p)) best_any = i;
    }
    const auto total_of = [&](std::size_t i) { return runs[i].summary["protocols"][protocol_name(p)]["total"]; };
    json j;
    // BREC's rule: a model's result counts only if every seed passed the reliability check on
    // every pair; the published number is then the best seed.
    j["brec_rule"] = all_reliable ? json{{"valid", true}, {"seed", runs[best_any].seed}, {"total", total_of(best_any)}}
                                  : json{{"valid", false}, {"seed", nullptr}, {"total", nullptr}};
    j["best_reliable_seed"] = best < runs.size() ? json(runs[best].seed) : json();
    j["best_reliable_total"] = best < runs.size() ? total_of(best) : json();
    json mean = json::object();
    std::vector<double> totals;
    for (const auto& r : runs) totals.push_back(distinguished(r.summary, p));
    mean["total"] = interval_json(totals);
    for (const auto& g : brec_groups()) {
        std::vector<double> v;
        for (const auto& r : runs)
            v.push_back(r.summary["protocols"][protocol_name(p)]["groups"][g]["distinguished"].get<double>());
        mean[g] = interval_json(v);
    }
    j["mean_ci"] = mean;
    return j;
}

}  // namespace

json seed_summary(const std::vector<EvalRecord>& records, const RunDescription& run, std::uint64_t seed,
                  double seconds) {
    const SummaryHeader header{run.command, run.model, run.dataset, seed, seconds};
    json protocols = json::object();
    for (Protocol p : all_protocols()) protocols[protocol_name(p)] = protocol_counts(records, p, header);
    // The headline: the command's usual summary fields, counted under the chosen protocol.
    json s = make_summary(header, {});
    const json& chosen = protocols[protocol_name(run.protocol)];
    s["categories"] = chosen["categories"];
    s["groups"] = chosen["groups"];
    s["total"] = chosen["total"];
    s["protocol"] = protocol_name(run.protocol);
    s["protocols"] = std::move(protocols);
    std::size_t skipped = 0;
    for (const auto& r : records) skipped += !r.skipped.empty();
    if (skipped) s["skipped_pairs"] = skipped;
    s["model"] = run.model;
    s["settings"] = run.settings;
    s["settings_id"] = run.settings_id;
    if (!run.shard.empty()) s["shard"] = run.shard;
    if (!run.runtime.is_null()) s["runtime"] = run.runtime;
    return s;
}

std::string settings_hash(const json& settings) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(settings.dump())));
    return buf;
}

void summarise_seeds(EvalRunResult& result, Protocol protocol) {
    if (result.runs.empty()) throw InvalidArgument("no seed was run");
    result.best_reliable = best_reliable_seed(result.runs, protocol);
    const std::size_t shown = result.best_reliable < result.runs.size() ? result.best_reliable : 0;
    result.summary = result.runs[shown].summary;
    if (result.runs.size() > 1) {
        json seeds = json::array();
        for (const auto& r : result.runs) {
            json totals = json::object();
            for (Protocol p : all_protocols())
                totals[protocol_name(p)] = r.summary["protocols"][protocol_name(p)]["total"];
            seeds.push_back({{"seed", r.seed}, {"protocols", totals}, {"seconds", r.summary["seconds"]}});
        }
        result.summary["seeds"] = seeds;
        result.summary["best_reliable_seed"] =
            result.best_reliable < result.runs.size() ? json(result.runs[result.best_reliable].seed) : json();
        json ms = json::object();
        for (Protocol p : all_protocols()) ms[protocol_name(p)] = multi_seed(result.runs, p);
        result.summary["multi_seed"] = ms;
    }
    result.summary["wall_seconds"] = result.seconds;
}

std::vector<std::string> baseline_regressions(const json& baseline, const json& summary,
                                              const std::string& baseline_name, Protocol protocol) {
    if (!baseline.is_object() || !baseline.contains("categories") || !baseline["categories"].is_object())
        throw ParseError(baseline_name, 0, "not a brec summary (no 'categories' object)");
    const std::string name = protocol_name(protocol);
    // Compare like with like: the baseline's counts under the same protocol when it has them. (The
    // baseline is a user's file: every member is looked up with find, never with a const
    // operator[] on a key that may be missing.)
    const json* old_cats = &baseline["categories"];
    if (const auto protocols = baseline.find("protocols"); protocols != baseline.end()) {
        if (!protocols->is_object()) throw ParseError(baseline_name, 0, "'protocols' is not an object");
        if (const auto p = protocols->find(name); p != protocols->end()) {
            const auto cats = p->is_object() ? p->find("categories") : p->end();
            if (cats == p->end())
                throw ParseError(baseline_name, 0, "protocol '" + name + "' has no 'categories' object");
            old_cats = &*cats;
        }
    }
    if (!old_cats->is_object())
        throw ParseError(baseline_name, 0, "protocol '" + name + "' has no 'categories' object");
    const json& now_cats =
        summary.contains("protocols") ? summary["protocols"][name]["categories"] : summary["categories"];
    std::vector<std::string> out;
    for (auto it = old_cats->begin(); it != old_cats->end(); ++it) {
        if (!now_cats.contains(it.key())) continue;
        const auto& old = it.value();
        const auto& now = now_cats[it.key()];
        for (const char* key : {"distinguished", "reliability_failures"})
            if (!old.contains(key) || !old[key].is_number_integer())
                throw ParseError(baseline_name, 0, "category '" + it.key() + "' has no integer '" + key + "'");
        // 64-bit: a count beyond int in a baseline compares as written, not cut to int.
        const std::int64_t old_d = old["distinguished"].get<std::int64_t>();
        const std::int64_t now_d = now["distinguished"].get<std::int64_t>();
        const std::int64_t old_f = old["reliability_failures"].get<std::int64_t>();
        const std::int64_t now_f = now["reliability_failures"].get<std::int64_t>();
        if (now_d < old_d)
            out.push_back(it.key() + ": distinguished " + std::to_string(now_d) + " < " + std::to_string(old_d) + " (" +
                          name + ")");
        if (now_f > old_f)
            out.push_back(it.key() + ": reliability failures " + std::to_string(now_f) + " > " + std::to_string(old_f) +
                          " (" + name + ")");
    }
    return out;
}

std::string junit_xml(const std::vector<EvalRecord>& records, const std::string& suite, double seconds,
                      Protocol protocol) {
    int failures = 0;
    for (const auto& r : records) failures += r.skipped.empty() && !r.result(protocol).reliable;
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" << xml_escape(suite) << "\" tests=\""
      << records.size() << "\" failures=\"" << failures << "\" time=\"" << seconds << "\">\n";
    for (const auto& r : records) {
        const ProtocolResult& h = r.result(protocol);
        x << "  <testcase classname=\"brec." << xml_escape(r.category) << "\" name=\"pair " << r.id
          << (!r.skipped.empty() ? " skipped"
              : h.distinguished  ? " distinguished"
                                 : " not distinguished")
          << "\" time=\"" << r.seconds << "\">";
        if (!r.skipped.empty()) {
            x << "<skipped message=\"" << xml_escape(r.skipped) << "\"/>";
        } else if (!h.reliable) {
            x << "<failure message=\"reliability check failed (" << protocol_name(protocol) << "): T2_reliability "
              << h.t2_reliability << " &gt;= threshold " << h.threshold << "\"/>";
        }
        x << "<system-out>";
        for (Protocol p : all_protocols()) {
            if (p == Protocol::brec_reference && !r.has_reference) continue;
            const ProtocolResult& v = r.result(p);
            x << protocol_name(p) << ": T2_test=" << v.t2_test << " T2_reliability=" << v.t2_reliability
              << " threshold=" << v.threshold << " distinguished=" << (v.distinguished ? "yes" : "no")
              << " reliable=" << (v.reliable ? "yes" : "no") << "; ";
        }
        x << "</system-out></testcase>\n";
    }
    x << "</testsuite>\n";
    return x.str();
}

std::string evaluation_text(const EvalRunResult& result, const std::string& model, std::size_t pairs, bool fine) {
    std::ostringstream out;
    const std::vector<Protocol>& protocols = all_protocols();
    for (const auto& run : result.runs) {
        const json& s = run.summary;
        out << "model " << model << ", seed " << run.seed << " (" << pairs << " pairs, " << std::fixed
            << std::setprecision(1) << s["seconds"].get<double>()
            << " s); headline protocol: " << s["protocol"].get<std::string>() << "\n\n";
        out << std::left << std::setw(26) << "category" << std::right << std::setw(7) << "pairs";
        for (Protocol p : protocols) out << std::setw(16) << protocol_name(p) << std::setw(11) << "rel.fail";
        out << '\n' << std::string(26 + 7 + 27 * protocols.size(), '-') << '\n';
        const auto row = [&](const std::string& label, const std::string& section, const std::string& key) {
            const json& any = s["protocols"]["hotelling"][section];
            const json& v = key.empty() ? any : any[key];
            out << std::left << std::setw(26) << label << std::right << std::setw(7) << v["pairs"].get<int>();
            for (Protocol p : protocols) {
                const json& c = key.empty() ? s["protocols"][protocol_name(p)][section]
                                            : s["protocols"][protocol_name(p)][section][key];
                out << std::setw(16) << c["distinguished"].get<int>() << std::setw(11)
                    << c["reliability_failures"].get<int>();
            }
            out << '\n';
        };
        for (const auto& g : brec_groups()) {
            if (s["groups"][g]["pairs"].get<int>() == 0) continue;
            row(g, "groups", g);
            if (!fine) continue;
            for (const auto& c : brec_fine_categories())
                if (brec_group_of(c) == g && s["categories"].contains(c)) row("  " + c, "categories", c);
        }
        for (auto it = s["categories"].begin(); it != s["categories"].end(); ++it)
            if (brec_group_of(it.key()) == "Other") row(it.key(), "categories", it.key());
        out << std::string(26 + 7 + 27 * protocols.size(), '-') << '\n';
        row("Total", "total", "");
        if (s.contains("skipped_pairs"))
            out << "(" << s["skipped_pairs"].get<int>() << " pairs skipped, counted as not distinguished)\n";
        out << '\n';
    }
    if (result.runs.size() > 1 && result.summary.contains("multi_seed")) {
        for (Protocol p : protocols) {
            const json& m = result.summary["multi_seed"][protocol_name(p)];
            out << protocol_name(p) << ": BREC rule (every seed reliable on every pair, then the best seed): ";
            if (m["brec_rule"]["valid"].get<bool>())
                out << m["brec_rule"]["total"]["distinguished"].get<int>() << " (seed " << m["brec_rule"]["seed"]
                    << ")";
            else
                out << "no valid result (some seed failed a reliability check)";
            out << "; best reliable seed: "
                << (m["best_reliable_seed"].is_null() ? std::string("none") : m["best_reliable_seed"].dump());
            const json& t = m["mean_ci"]["total"];
            out << "; mean " << std::setprecision(2) << t["mean"].get<double>();
            if (t.contains("half_width")) out << " +- " << t["half_width"].get<double>();
            out << " over " << t["n"].get<int>() << " seeds\n";
        }
    }
    return out.str();
}

nlohmann::json read_baseline(const std::string& path) {
    if (path.empty()) return nullptr;
    nlohmann::json baseline = nlohmann::json::parse(read_text_file(path), nullptr, false);
    if (baseline.is_discarded()) throw ParseError(path, 0, "not JSON");
    baseline_regressions(baseline, nlohmann::json{{"categories", nlohmann::json::object()}}, path);
    return baseline;
}

const SeedRun& shown_run(const EvalRunResult& result) {
    return result.runs.at(result.best_reliable < result.runs.size() ? result.best_reliable : 0);
}

void write_run_files(const EvalRunResult& result, const std::string& summary_file, const std::string& junit,
                     const std::string& suite, Protocol protocol) {
    // A path that is not UTF-8 is written with U+FFFD in its place.
    if (!summary_file.empty())
        write_text_file_atomic(summary_file,
                               result.summary.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    if (!junit.empty())
        write_text_file_atomic(junit, junit_xml(shown_run(result).records, suite, result.seconds, protocol));
}

}  // namespace brec
