#include "brec/report/certificate.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/report/table.hpp"
#include "detail/jsonl.hpp"

namespace brec {
namespace {

/// Position of a level key in hardness_levels(): 0 for 1wl up to 3 for beyond.
int level_index(const std::string& level) {
    const auto& all = hardness_levels();
    const auto it = std::find(all.begin(), all.end(), level);
    if (it == all.end()) throw InvalidArgument("unknown hardness level '" + level + "'");
    return static_cast<int>(it - all.begin());
}

/// The smallest level index a certified pair can have. A pair separated at level L is exactly L;
/// one that "beyond" a certificate that stopped at k-FWL (max_fwl = k < 3) was not separated by
/// k-FWL, whose index is k − 1, so it lies at index k or above.
int lowest_index(const CertifyRecord& c) {
    if (c.level != "beyond") return level_index(c.level);
    return std::min(std::max(c.max_fwl, 1), 3);
}

std::string run_label(const RunCertificate& r, bool several_seeds) {
    return several_seeds ? r.model + " (seed " + std::to_string(r.seed) + ")" : r.model;
}

}  // namespace

const std::vector<std::string>& hardness_levels() {
    static const std::vector<std::string> levels = {"1wl", "2fwl", "3fwl", "beyond"};
    return levels;
}

std::string hardness_label(const std::string& level) {
    static constexpr const char* kLabels[] = {"1-WL", "3-WL (2-FWL)", "4-WL (3-FWL)", "beyond 4-WL"};
    return kLabels[level_index(level)];
}

Certificate parse_certificate(const std::string& text, const std::string& source) {
    Certificate c;
    c.source = source;
    detail::for_each_json_line(text, source, c.notes, [&](const nlohmann::json& j, std::int64_t line) {
        // `brec certify --json` ends with its summary object: not a pair.
        if (j.contains("categories")) return;
        if (!is_certify_record(j))
            throw ParseError(source, line, "expected a certify record (with \"id\" and \"level\")");
        CertifyRecord r = certify_record_from_json(j, source, line);
        const auto it = c.pairs.find(r.id);
        if (it != c.pairs.end()) {
            if (it->second.level != r.level || it->second.max_fwl != r.max_fwl)
                throw ParseError(source, line,
                                 "pair " + std::to_string(r.id) + " is certified " + r.level + " here but " +
                                     it->second.level + " at " + c.where[r.id].str());
            return;  // the same certificate twice (a resumed run)
        }
        c.where[r.id] = SourceLine{source, line};
        c.pairs.emplace(r.id, std::move(r));
    });
    if (c.pairs.empty()) throw ParseError(source, 0, "no certify records: expected the JSON lines of brec certify");
    return c;
}

Certificate read_certificate(const std::string& path) { return parse_certificate(read_text_file(path), path); }

TightBounds parse_tight_bounds(const std::string& text, const std::string& source) {
    nlohmann::json list;
    try {
        list = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw ParseError(source, 1, std::string("not JSON (") + e.what() + ")");
    }
    if (!list.is_array()) throw ParseError(source, 1, "expected the array of `brec eval --list-models --json`");
    TightBounds out;
    for (const auto& m : list) {
        if (!m.is_object() || !m.contains("name") || !m["name"].is_string() || !m.contains("tight_bound") ||
            !m["tight_bound"].is_string())
            throw ParseError(source, 1, "every model needs a string \"name\" and \"tight_bound\"");
        out[m["name"].get<std::string>()] = m["tight_bound"].get<std::string>();
    }
    return out;
}

namespace {

/// Whether the test `method` separates the certified pair: its --tests verdict, or for 1wl, 2fwl
/// and 3fwl the certificate's own levels; nullopt when the certificate cannot say.
std::optional<bool> test_verdict(const CertifyRecord& cert, const std::string& method) {
    if (const CertifyTest* t = cert.test(method)) return t->distinguished;
    const std::vector<std::string>& levels = hardness_levels();
    const auto at = std::find(levels.begin(), levels.end(), method);
    if (at == levels.end() || method == "beyond") return std::nullopt;
    const int k = static_cast<int>(at - levels.begin());  // 0: 1wl, 1: 2fwl, 2: 3fwl
    if (cert.level != "beyond") return level_index(cert.level) <= k;
    return cert.max_fwl >= k + 1 ? std::optional<bool>(false) : std::nullopt;
}

TightPair tight_pair(const PairResult& p, const PairDecision& d) {
    TightPair t;
    t.id = p.id;
    t.category = p.category;
    t.note = p.skipped ? "skipped" : (d.known && !d.reliable ? "unreliable" : "");
    t.rpc = p.rpc;
    t.t2_hotelling = p.hotelling.t2_test;
    t.threshold_hotelling = p.hotelling.threshold;
    t.reference_known = p.brec_reference.known;
    t.t2_reference = p.brec_reference.t2_test;
    t.threshold_reference = p.brec_reference.threshold;
    return t;
}

}  // namespace

CertificateView certificate_view(const ResultSet& results, const Certificate& certificate, const TightBounds& tight) {
    CertificateView v;
    v.inputs = results.inputs;
    v.certificate = certificate.source;
    v.protocol = results.protocol;
    v.notes = certificate.notes;
    std::set<std::string> with_runs;
    std::map<std::string, int> runs_per_model;
    for (const auto& run : results.runs) {
        with_runs.insert(run.model);
        ++runs_per_model[run.model];
    }
    for (const auto& m : results.models)
        if (!with_runs.count(m))
            v.notes.push_back("model " + m + " has no per-pair records (only summaries or a table): left out");
    if (results.runs.empty())
        throw InvalidArgument(
            "the certificate view needs per-pair records (the JSON lines of brec eval or brec wl); "
            "the results hold none");
    bool stopped_early = false;
    for (const auto& [id, c] : certificate.pairs) stopped_early = stopped_early || c.max_fwl < 3;

    for (const auto& run : results.runs) {
        v.several_seeds = v.several_seeds || runs_per_model[run.model] > 1;
        RunCertificate rc;
        rc.model = run.model;
        rc.seed = run.seed;
        rc.bound = run.bound;
        v.bounds_known = v.bounds_known || !rc.bound.empty();
        for (const auto& level : hardness_levels()) rc.levels.push_back(LevelCount{level, 0, 0, 0});
        const int bound = rc.bound.empty() ? -1 : level_index(rc.bound);
        const auto tb = tight.find(run.model);
        rc.has_tight = tb != tight.end() && !tb->second.empty();
        if (rc.has_tight) rc.tight.method = tb->second;
        v.tight_known = v.tight_known || rc.has_tight;
        for (const PairResult& p : run.pairs) {
            const auto it = certificate.pairs.find(p.id);
            if (it == certificate.pairs.end()) {
                ++rc.uncertified;
                continue;
            }
            const CertifyRecord& cert = it->second;
            const PairDecision& d = p.decision(results.protocol);
            const bool distinguished = d.counts();
            if (rc.has_tight) {
                TightBoundCount& t = rc.tight;
                const std::optional<bool> separated = test_verdict(cert, t.method);
                if (!separated) {
                    ++t.untested;
                } else {
                    ++t.tested;
                    if (*separated) {
                        ++t.separated;
                        if (distinguished)
                            ++t.realized;
                        else
                            t.gap.push_back(tight_pair(p, d));
                    } else if (distinguished) {
                        ++t.beyond_count;
                        t.beyond.push_back(tight_pair(p, d));
                    }
                }
            }
            LevelCount& lc = rc.levels[static_cast<std::size_t>(level_index(cert.level))];
            ++lc.pairs;
            lc.distinguished += distinguished ? 1 : 0;
            lc.reliability_failures += d.known && !d.reliable ? 1 : 0;
            if (bound < 0) continue;
            const CertifiedPair named{p.id, p.category, cert.level,
                                      p.skipped ? "skipped" : (!d.reliable ? "unreliable" : "")};
            const int lowest = lowest_index(cert);
            if (cert.level != "beyond" || lowest > bound) {
                if (lowest <= bound) {
                    ++rc.within_bound;
                    if (distinguished)
                        ++rc.within_bound_distinguished;
                    else
                        rc.failed_within_bound.push_back(named);
                } else if (distinguished) {
                    rc.distinguished_beyond_bound.push_back(named);
                }
            } else {
                ++rc.undetermined;
            }
        }
        if (rc.uncertified > 0)
            v.notes.push_back(run_label(rc, true) + ": " + std::to_string(rc.uncertified) +
                              " pair(s) run but not in the certificate: left out");
        if (rc.has_tight && rc.tight.untested > 0)
            v.notes.push_back(run_label(rc, true) + ": the certificate lacks its tight bound " + rc.tight.method +
                              " on " + std::to_string(rc.tight.untested) + " pair(s) (brec certify --tests " +
                              rc.tight.method + ")");
        v.runs.push_back(std::move(rc));
    }
    if (stopped_early)
        v.notes.push_back(
            "some certificates stopped below 3-FWL: their 'beyond' pairs lie beyond "
            "the highest level tested, not necessarily beyond 4-WL");
    return v;
}

namespace {

/// The pairs of one list as a table: run, pair, category, level, note.
Table pair_table(const CertificateView& v, bool failed) {
    Table t;
    t.columns = {Column{"model", "", Align::left, false}, Column{"pair", "", Align::right, false},
                 Column{"category", "", Align::left, false}, Column{"level", "", Align::left, false},
                 Column{"note", "", Align::left, false}};
    for (const auto& r : v.runs)
        for (const auto& p : failed ? r.failed_within_bound : r.distinguished_beyond_bound)
            t.add_row({Cell::plain(run_label(r, v.several_seeds)), Cell::plain(std::to_string(p.id)),
                       Cell::plain(p.category), Cell::plain(hardness_label(p.level)),
                       p.note.empty() ? Cell::none() : Cell::plain(p.note)});
    return t;
}

std::string t2_text(double t2, double threshold) {
    std::ostringstream o;
    o.precision(4);
    o << t2 << " / " << threshold;
    return o.str();
}

/// The tight-bound section: per run the counts, the gap (listed) and the pairs beyond the bound
/// with their RPC evidence.
std::string tight_markdown(const CertificateView& v) {
    std::ostringstream o;
    o << "\n## Against the tight bound\n\nTight bound: the WL-type test exactly as powerful as the "
         "model's design (brec eval --list-models; its verdicts from brec certify --tests). Gap: pairs the "
         "test separates that the model did not distinguish (its design could have; its training did "
         "not). Beyond: pairs the model distinguished that the test does not separate, which its design "
         "rules out: a false positive of the RPC test, a floating-point artefact or a bug, for the reader "
         "to judge from the evidence below.\n\n";
    Table t;
    t.columns = {Column{"model", "", Align::left, false},           Column{"tight bound", "", Align::left, false},
                 Column{"pairs tested", "", Align::right, false},   Column{"test separates", "", Align::right, false},
                 Column{"model realized", "", Align::right, false}, Column{"gap", "", Align::right, false},
                 Column{"beyond", "", Align::right, false}};
    for (const auto& r : v.runs) {
        if (!r.has_tight) continue;
        const TightBoundCount& c = r.tight;
        t.add_row({Cell::plain(run_label(r, v.several_seeds)), Cell::plain(c.method),
                   Cell::plain(std::to_string(c.tested)), Cell::plain(std::to_string(c.separated)),
                   Cell::plain(std::to_string(c.realized)), Cell::plain(std::to_string(c.gap.size())),
                   Cell::plain(std::to_string(c.beyond_count))});
    }
    o << markdown_table(t);
    bool any_gap = false;
    for (const auto& r : v.runs) {
        if (!r.has_tight || r.tight.gap.empty()) continue;
        if (!any_gap) o << "\n### Gap pairs\n\n";
        any_gap = true;
        std::map<std::string, std::vector<std::string>> by_category;
        std::vector<std::string> order;
        for (const auto& p : r.tight.gap) {
            if (!by_category.count(p.category)) order.push_back(p.category);
            by_category[p.category].push_back(std::to_string(p.id) + (p.note.empty() ? "" : " (" + p.note + ")"));
        }
        o << "- " << run_label(r, v.several_seeds) << ":";
        for (const auto& c : order) {
            o << " " << c << " [";
            for (std::size_t i = 0; i < by_category[c].size(); ++i) o << (i ? ", " : "") << by_category[c][i];
            o << "]";
        }
        o << "\n";
    }
    Table beyond;
    beyond.columns = {Column{"model", "", Align::left, false}, Column{"pair", "", Align::right, false},
                      Column{"category", "", Align::left, false},
                      Column{"T² / threshold (hotelling)", "", Align::right, false},
                      Column{"T² / threshold (brec_reference)", "", Align::right, false}};
    for (const auto& r : v.runs)
        for (const auto& p : r.has_tight ? r.tight.beyond : std::vector<TightPair>{})
            beyond.add_row({Cell::plain(run_label(r, v.several_seeds)), Cell::plain(std::to_string(p.id)),
                            Cell::plain(p.category),
                            p.rpc ? Cell::plain(t2_text(p.t2_hotelling, p.threshold_hotelling)) : Cell::none(),
                            p.rpc && p.reference_known ? Cell::plain(t2_text(p.t2_reference, p.threshold_reference))
                                                       : Cell::none()});
    o << "\n### Distinguished beyond the tight bound\n\n"
      << (beyond.rows.empty() ? std::string("None.\n") : markdown_table(beyond));
    return o.str();
}

}  // namespace

std::string certificate_markdown(const CertificateView& v) {
    std::ostringstream o;
    o << "# brec report: realized against theoretical expressiveness\n\nResults: ";
    for (std::size_t i = 0; i < v.inputs.size(); ++i) o << (i ? ", " : "") << "`" << v.inputs[i] << "`";
    o << "  \nCertificate: `" << v.certificate << "`  \nA pair counts as distinguished when the "
      << protocol_name(v.protocol)
      << " RPC protocol (for WL results: the test) separated it and its reliability check passed."
         "\n\n## Distinguished pairs per hardness level\n\n"
         "Hardness: the smallest of 1-WL, 3-WL (2-FWL), 4-WL (3-FWL) that separates the pair. "
         "Cells: distinguished / pairs run at that level; [rf N]: reliability failures.\n\n";
    Table levels;
    levels.columns = {Column{"model", "", Align::left, false}};
    if (v.bounds_known) levels.columns.push_back(Column{"bound", "", Align::left, false});
    for (const auto& l : hardness_levels())
        levels.columns.push_back(Column{hardness_label(l), "", Align::right, false});
    if (v.bounds_known) levels.columns.push_back(Column{"within bound", "", Align::right, false});
    for (const auto& r : v.runs) {
        std::vector<Cell> row{Cell::plain(run_label(r, v.several_seeds))};
        if (v.bounds_known) row.push_back(r.bound.empty() ? Cell::none() : Cell::plain(hardness_label(r.bound)));
        for (const auto& lc : r.levels) {
            Cell c = Cell::plain(std::to_string(lc.distinguished) + " / " + std::to_string(lc.pairs));
            if (lc.reliability_failures > 0) c.suffix = " [rf " + std::to_string(lc.reliability_failures) + "]";
            row.push_back(std::move(c));
        }
        if (v.bounds_known)
            row.push_back(r.bound.empty() ? Cell::none()
                                          : Cell::plain(std::to_string(r.within_bound_distinguished) + " / " +
                                                        std::to_string(r.within_bound)));
        levels.add_row(std::move(row));
    }
    o << markdown_table(levels);
    if (!v.bounds_known) {
        o << "\nNo record names its model's theoretical bound (the \"bound\" field of eval "
             "records), so only the counts per level are shown: nothing to set them against.\n";
    } else {
        int undetermined = 0;
        for (const auto& r : v.runs) undetermined += r.undetermined;
        if (undetermined > 0)
            o << "\n"
              << undetermined
              << " pair(s) were not separated by the highest level their certificate tried, which "
                 "lies below the bound: whether they are within it is unknown, so they are in "
                 "neither list.\n";
        const Table failed = pair_table(v, true), beyond = pair_table(v, false);
        o << "\n## Failed within the bound\n\nPairs at or below the model's theoretical bound that "
             "it did not distinguish: the gap between what the architecture can do and what the "
             "trained model did.\n\n"
          << (failed.rows.empty() ? std::string("None.\n") : markdown_table(failed))
          << "\n## Distinguished beyond the bound\n\nPairs above the model's bound that it "
             "distinguished, which theory rules out: a false positive of the test, a bug, or a "
             "bound that does not hold.\n\n"
          << (beyond.rows.empty() ? std::string("None.\n") : markdown_table(beyond));
    }
    if (v.tight_known) o << tight_markdown(v);
    if (!v.notes.empty()) {
        o << "\n## Notes\n\n";
        for (const auto& n : v.notes) o << "- " << n << "\n";
    }
    return o.str();
}

namespace {

nlohmann::json tight_json(const TightBoundCount& c) {
    using nlohmann::json;
    json gap = json::array(), beyond = json::array();
    for (const auto& p : c.gap) gap.push_back({{"id", p.id}, {"category", p.category}, {"note", p.note}});
    for (const auto& p : c.beyond) {
        json e{{"id", p.id}, {"category", p.category}, {"note", p.note}};
        if (p.rpc) {
            e["hotelling"] = {{"t2_test", p.t2_hotelling}, {"threshold", p.threshold_hotelling}};
            if (p.reference_known)
                e["brec_reference"] = {{"t2_test", p.t2_reference}, {"threshold", p.threshold_reference}};
        }
        beyond.push_back(std::move(e));
    }
    return {{"method", c.method},     {"tested", c.tested}, {"separated", c.separated}, {"realized", c.realized},
            {"untested", c.untested}, {"gap", gap},         {"beyond", beyond}};
}

}  // namespace

nlohmann::json certificate_json(const CertificateView& v) {
    using nlohmann::json;
    const auto pairs = [](const std::vector<CertifiedPair>& list) {
        json out = json::array();
        for (const auto& p : list)
            out.push_back({{"id", p.id}, {"category", p.category}, {"level", p.level}, {"note", p.note}});
        return out;
    };
    json runs = json::array();
    for (const auto& r : v.runs) {
        json levels = json::object();
        for (const auto& lc : r.levels)
            levels[lc.level] = {{"pairs", lc.pairs},
                                {"distinguished", lc.distinguished},
                                {"reliability_failures", lc.reliability_failures}};
        const bool bounded = !r.bound.empty();
        runs.push_back(
            {{"model", r.model},
             {"seed", r.seed},
             {"bound", bounded ? json(r.bound) : json()},
             {"levels", levels},
             {"uncertified", r.uncertified},
             {"within_bound",
              bounded ? json{{"pairs", r.within_bound}, {"distinguished", r.within_bound_distinguished}} : json()},
             {"undetermined", bounded ? json(r.undetermined) : json()},
             {"failed_within_bound", bounded ? pairs(r.failed_within_bound) : json()},
             {"distinguished_beyond_bound", bounded ? pairs(r.distinguished_beyond_bound) : json()},
             {"tight_bound", r.has_tight ? tight_json(r.tight) : json()}});
    }
    return {{"command", "report"},
            {"view", "certificate"},
            {"inputs", v.inputs},
            {"certificate", v.certificate},
            {"protocol", protocol_name(v.protocol)},
            {"levels", hardness_levels()},
            {"bounds_known", v.bounds_known},
            {"tight_known", v.tight_known},
            {"runs", runs},
            {"notes", v.notes}};
}

}  // namespace brec
