#include "brec/report/board_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/categories.hpp"
#include "brec/io/records.hpp"
#include "brec/report/figures.hpp"
#include "brec/report/layout.hpp"

namespace brec {

using nlohmann::json;

namespace {

constexpr Protocol kProtocols[] = {Protocol::hotelling, Protocol::brec_reference};
constexpr const char* kTotal = "Total";

/// A count: whole when it is one, else with one decimal (a mean over seeds).
std::string count_text(double v) {
    return std::fabs(v - std::round(v)) < 1e-9 ? format_fixed(v, 0) : format_fixed(v, 1);
}

/// A number of 4 significant digits for the page's data (T², thresholds); null when not finite.
json short_number(double v) {
    if (!std::isfinite(v)) return nullptr;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return std::stod(buf);
}

int level_rank(const std::string& level) {
    static const std::map<std::string, int> kRank = {{"1wl", 1}, {"2fwl", 2}, {"3fwl", 3}, {"beyond", 4}};
    const auto it = kRank.find(level);
    return it == kRank.end() ? 99 : it->second;
}

/// What the page knows of one model.
struct ModelView {
    std::string name, bound, bound_note, tight_bound;
    json paper;                        ///< the Table 2 row or null
    std::vector<const PairRun*> runs;  ///< by seed, ascending
    std::set<PairId> pairs;            ///< the board's pairs of the model (its manifest entry, else its runs)
    std::map<std::uint64_t, std::set<PairId>> not_run;
    std::set<std::uint64_t> seeds;  ///< of its manifest entries and its runs
    std::string settings_id;
};

/// One state letter per (model, pair) of a run under a protocol: s separated, n not, u unreliable,
/// k skipped (memory), x not run (the rule), - no record.
char state_of(const PairResult* p, bool not_run, Protocol protocol) {
    if (!p) return not_run ? 'x' : '-';
    if (p->skipped) return 'k';
    const PairDecision& d = p->decision(protocol);
    if (!d.known) return '-';
    if (!d.reliable) return 'u';
    return d.distinguished ? 's' : 'n';
}

class Page {
public:
    explicit Page(const BoardPageInput& in) : in_(in), results_(in.analysis->results) {
        if (results_.runs.empty()) throw InvalidArgument("the HTML board needs per-pair eval records of BREC pairs");
        collect_models();
        collect_pairs();
    }

    std::string html() const {
        std::ostringstream o;
        o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>BREC board</title>\n"
          << "<style>\n"
          << kStyle << "</style>\n</head>\n<body>\n";
        o << "<h1>BREC board</h1>\n<p class=\"lead\">" << models_.size() << " models, " << pair_ids_.size()
          << " pairs. Counts are pairs distinguished with a passed reliability check, the mean over the seeds; "
             "pairs not run count as not distinguished, as in the BREC paper's Table 2. <b>H</b>: the Hotelling "
             "protocol (the headline); <b>R</b>: the released BREC code's protocol (brec_reference), which "
             "produced the paper's numbers, shown beside it.</p>\n";
        groups_table(o);
        fine_table(o);
        figures(o);
        matrix(o);
        provenance(o);
        // "</" could end the script element early: JSON allows writing its slash escaped.
        std::string data_text = data().dump();
        for (std::size_t at = 0; (at = data_text.find("</", at)) != std::string::npos; at += 3)
            data_text.replace(at, 2, "<\\/");
        o << "<script type=\"application/json\" id=\"board-data\">" << data_text << "</script>\n";
        o << "<script>\n" << kScript << "</script>\n</body>\n</html>\n";
        return o.str();
    }

    std::string markdown_table() const {
        static const std::map<std::string, std::string> kShort = {
            {"basic", "Basic"},         {"regular", "Regular"}, {"strongly_regular", "SR"},
            {"extension", "Extension"}, {"cfi", "CFI"},         {"four_vertex_condition", "4-vertex"},
            {"distance_regular", "DR"}};
        std::vector<std::string> tasks = brec_fine_categories();
        tasks.push_back(kTotal);
        std::ostringstream o;
        o << "| model |";
        for (const std::string& t : tasks) o << " " << (t == kTotal ? std::string(kTotal) : kShort.at(t)) << " |";
        o << " paper B/R/E/CFI (total) | run / pairs | not run | pending | unreliable H / R | CPU h |\n|---|";
        for (std::size_t i = 0; i < tasks.size(); ++i) o << "---|";
        o << "---|---:|---:|---:|---|---:|\n";
        Coverage total;
        for (const ModelView& m : models_) {
            o << "| `" << m.name << "` |";
            for (const std::string& t : tasks) o << " " << markdown_cell(m, t) << " |";
            const Coverage c = coverage(m);
            total.add(c);
            o << " " << paper_text(m.paper) << " | " << c.row() << " |\n";
        }
        o << "| total |";
        for (std::size_t i = 0; i < tasks.size(); ++i) o << " |";
        o << " | " << total.row() << " |\n";
        return o.str();
    }

private:
    /// A model's share of the board, as means over its seeds.
    struct Coverage {
        double run = 0, pairs = 0, skipped = 0, not_run = 0, pending = 0, unreliable_h = 0, unreliable_r = 0;
        double seconds = 0;  ///< the sum over every seed: the board's cost
        void add(const Coverage& c) {
            run += c.run, pairs += c.pairs, skipped += c.skipped, not_run += c.not_run, pending += c.pending;
            unreliable_h += c.unreliable_h, unreliable_r += c.unreliable_r, seconds += c.seconds;
        }
        /// The Markdown table's coverage cells; "not run" counts both the rule and memory.
        std::string row() const {
            return count_text(run) + " / " + count_text(pairs) + " | " + count_text(not_run + skipped) + " | " +
                   count_text(pending) + " | " + count_text(unreliable_h) + " / " + count_text(unreliable_r) + " | " +
                   format_fixed(seconds / 3600.0, 2);
        }
    };

    Coverage coverage(const ModelView& m) const {
        Coverage c;
        for (const PairRun* r : m.runs)
            for (const PairResult& p : r->pairs) {
                c.seconds += p.seconds;
                if (p.skipped) {
                    ++c.skipped;
                    continue;
                }
                ++c.run;
                c.unreliable_h += p.hotelling.known && !p.hotelling.reliable;
                c.unreliable_r += p.brec_reference.known && !p.brec_reference.reliable;
            }
        for (const auto& [seed, ids] : m.not_run) c.not_run += static_cast<double>(ids.size());
        const double seeds = seed_count(m);
        c.pairs = static_cast<double>(m.pairs.size());
        // Tasks of the board with no record and not left out by the rule: still to run.
        c.pending = std::max(0.0, c.pairs * seeds - c.run - c.skipped - c.not_run);
        for (double* v : {&c.run, &c.skipped, &c.not_run, &c.pending, &c.unreliable_h, &c.unreliable_r}) *v /= seeds;
        return c;
    }

    /// "H / R", "H / R (k of N)" when only k of its N pairs of the task have a record, "—" (no pair of the task is the
    /// model's) or "–" (none has a record).
    std::string markdown_cell(const ModelView& m, const std::string& task) const {
        double pairs = 0, recorded = 0;
        for (PairId id : m.pairs) pairs += in_task(id, task);
        if (pairs == 0) return "—";
        for (const PairRun* r : m.runs)
            for (const PairResult& p : r->pairs) recorded += in_task(p.id, task) && !p.skipped;
        if (recorded == 0) return "–";
        recorded /= seed_count(m);
        std::string text =
            count_cell(m, task, Protocol::hotelling) + " / " + count_cell(m, task, Protocol::brec_reference);
        return recorded < pairs ? text + " (" + count_text(recorded) + " of " + count_text(pairs) + ")" : text;
    }

    static std::string paper_text(const json& paper) {
        if (!paper.is_object()) return "–";
        std::string text;
        for (const char* key : {"basic", "regular", "extension", "cfi"}) {
            if (!paper.contains(key)) return "–";
            text += (text.empty() ? "" : "/") + std::to_string(paper[key].get<int>());
        }
        return paper.contains("total") ? text + " (" + std::to_string(paper["total"].get<int>()) + ")" : text;
    }

    const PairResult* find(const PairRun& run, PairId id) const {
        const auto it = std::lower_bound(run.pairs.begin(), run.pairs.end(), id,
                                         [](const PairResult& p, PairId v) { return p.id < v; });
        return it != run.pairs.end() && it->id == id ? &*it : nullptr;
    }

    std::string category_of(PairId id) const {
        const auto it = category_.find(id);
        return it == category_.end() ? std::string("unknown") : it->second;
    }

    /// The models of the boards' manifests in their order (a model without a record yet gets its
    /// row too), then those of other inputs.
    std::vector<std::string> board_models() const {
        std::vector<std::string> names;
        const auto add = [&](const std::string& name) {
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        };
        for (const auto& [dir, manifest] : results_.boards)
            for (const BoardModel& m : manifest.models) add(m.name);
        for (const std::string& name : results_.models) add(name);
        return names;
    }

    void collect_models() {
        std::map<std::string, json> listed;
        if (in_.model_list.is_array())
            for (const json& m : in_.model_list) listed[m.value("name", "")] = m;
        for (const std::string& name : board_models()) {
            ModelView v;
            v.name = name;
            if (listed.count(name)) {
                const json& m = listed[name];
                v.bound = m.value("bound", "");
                v.tight_bound = m.value("tight_bound", "");
                v.paper = m.contains("paper") ? m["paper"] : json();
            }
            for (const PairRun& run : results_.runs)
                if (run.model == name) {
                    v.runs.push_back(&run);
                    if (v.bound.empty()) v.bound = run.bound;
                }
            std::sort(v.runs.begin(), v.runs.end(),
                      [](const PairRun* a, const PairRun* b) { return a->seed < b->seed; });
            for (const auto& [dir, manifest] : results_.boards)
                if (const BoardModel* m = manifest.find(name)) {
                    v.settings_id = m->settings_id;
                    v.seeds.insert(manifest.seeds.begin(), manifest.seeds.end());
                    for (PairId id : m->pairs.ids()) v.pairs.insert(id);
                    for (const auto& [seed, ids] : m->not_run)
                        for (PairId id : ids.ids()) v.not_run[seed].insert(id);
                }
            for (const PairRun* run : v.runs) {
                v.seeds.insert(run->seed);
                for (const PairResult& p : run->pairs) v.pairs.insert(p.id);
            }
            models_.push_back(std::move(v));
        }
    }

    void collect_pairs() {
        std::set<PairId> ids;
        for (const ModelView& m : models_) ids.insert(m.pairs.begin(), m.pairs.end());
        pair_ids_.assign(ids.begin(), ids.end());
        for (const PairRun& run : results_.runs)
            for (const PairResult& p : run.pairs) category_[p.id] = canonical_category(p.category);
        if (in_.pairs)
            for (const GraphPairRecord& p : in_.pairs->pairs) {
                if (!ids.count(p.id)) continue;
                category_[p.id] = canonical_category(p.category);
                graphs_[p.id] = &p;
            }
        for (PairId id : pair_ids_)
            if (!category_.count(id)) category_[id] = brec_category_of_id(id);
    }

    /// The seeds every per-seed mean of a model divides by: those of its manifest entries and its
    /// runs, so that a seed without records counts (at least 1).
    static double seed_count(const ModelView& m) { return std::max<double>(1.0, static_cast<double>(m.seeds.size())); }

    /// Mean over the model's seeds of the pairs distinguished in `task` (a group, a fine category
    /// or Total) under `protocol`.
    double distinguished(const ModelView& m, const std::string& task, Protocol protocol) const {
        double sum = 0.0;
        for (const PairRun* run : m.runs)
            for (const PairResult& p : run->pairs)
                if (in_task(p.id, task) && p.decision(protocol).counts() && !p.skipped) sum += 1.0;
        return sum / seed_count(m);
    }

    bool in_task(PairId id, const std::string& task) const {
        const std::string c = category_of(id);
        return task == kTotal || c == task || brec_group_of(c) == task;
    }

    /// Of the model's board pairs in `task`: those its bound's WL level separates (upper) and
    /// those its tight-bound test separates; -1 when unknown.
    std::pair<int, int> bounds(const ModelView& m, const std::string& task) const {
        if (!in_.certificate) return {-1, -1};
        int upper = 0, tight = 0;
        bool tight_known = !m.tight_bound.empty();
        for (PairId id : m.pairs) {
            if (!in_task(id, task)) continue;
            const auto it = in_.certificate->pairs.find(id);
            if (it == in_.certificate->pairs.end()) return {-1, -1};
            if (!m.bound.empty() && level_rank(it->second.level) <= level_rank(m.bound)) ++upper;
            const CertifyTest* t = tight_known ? it->second.test(m.tight_bound) : nullptr;
            if (tight_known && !t) tight_known = false;
            if (t && t->distinguished) ++tight;
        }
        return {m.bound.empty() ? -1 : upper, tight_known ? tight : -1};
    }

    /// The count cell's text: "–" for a model without a record.
    std::string count_cell(const ModelView& m, const std::string& task, Protocol protocol) const {
        return m.runs.empty() ? "–" : count_text(distinguished(m, task, protocol));
    }

    static std::string num_cell(const std::string& model, const std::string& task, const char* protocol,
                                const std::string& text, const char* cls = "num") {
        return "<td class=\"" + std::string(cls) + "\" data-model=\"" + xml_escape(model) + "\" data-task=\"" +
               xml_escape(task) + "\" data-protocol=\"" + protocol + "\">" + text + "</td>";
    }

    void groups_table(std::ostringstream& o) const {
        std::vector<std::string> tasks = brec_groups();
        tasks.push_back(kTotal);
        const std::map<std::string, const char*> paper_key = {
            {"Basic", "basic"}, {"Regular", "regular"}, {"Extension", "extension"}, {"CFI", "cfi"}, {kTotal, "total"}};
        o << "<h2 id=\"board\">Pairs distinguished per group</h2>\n<table id=\"board-groups\" "
             "class=\"board\">\n<thead><tr>"
             "<th rowspan=\"2\">model</th><th rowspan=\"2\">bound</th>";
        for (const std::string& t : tasks) o << "<th colspan=\"5\">" << t << " (" << group_size(t) << ")</th>";
        o << "</tr>\n<tr>";
        for (std::size_t i = 0; i < tasks.size(); ++i)
            o << "<th class=\"headline\">H</th><th>R</th><th title=\"BREC paper, Table 2 (brec_reference protocol)\">"
                 "paper</th><th title=\"pairs its bound's WL level separates\">upper</th><th title=\"pairs its tight-"
                 "bound test separates\">tight</th>";
        o << "</tr></thead>\n<tbody>\n";
        for (const ModelView& m : models_) {
            o << "<tr><th class=\"model\">" << xml_escape(m.name) << "</th><td>" << xml_escape(m.bound) << "</td>";
            for (const std::string& t : tasks) {
                o << num_cell(m.name, t, "hotelling", count_cell(m, t, Protocol::hotelling), "num headline")
                  << num_cell(m.name, t, "brec_reference", count_cell(m, t, Protocol::brec_reference));
                const json& paper = m.paper;
                const bool has_paper = paper.is_object() && paper.contains(paper_key.at(t));
                o << num_cell(m.name, t, "paper", has_paper ? std::to_string(paper[paper_key.at(t)].get<int>()) : "–",
                              "num paper");
                const auto [upper, tight] = bounds(m, t);
                o << num_cell(m.name, t, "upper", upper < 0 ? "–" : std::to_string(upper), "num bound")
                  << num_cell(m.name, t, "tight", tight < 0 ? "–" : std::to_string(tight), "num bound");
            }
            o << "</tr>\n";
        }
        o << "</tbody></table>\n";
    }

    static std::size_t group_size(const std::string& task) {
        std::size_t n = 0;
        for (const BrecCategory& c : brec_categories())
            if (task == kTotal || c.group == task || c.name == task) n += c.v3_pairs();
        return n;
    }

    void fine_table(std::ostringstream& o) const {
        o << "<h2>Per fine category</h2>\n<table id=\"board-fine\" class=\"board\">\n<thead><tr><th rowspan=\"2\">"
             "model</th>";
        for (const std::string& c : brec_fine_categories())
            o << "<th colspan=\"2\">" << xml_escape(c) << " (" << group_size(c) << ")</th>";
        o << "<th rowspan=\"2\">run</th><th rowspan=\"2\">unreliable H/R</th><th rowspan=\"2\">skipped</th><th "
             "rowspan=\"2\">not run</th><th rowspan=\"2\" title=\"tasks of the board without a record yet\">"
             "pending</th></tr>\n<tr>";
        for (std::size_t i = 0; i < brec_fine_categories().size(); ++i) o << "<th class=\"headline\">H</th><th>R</th>";
        o << "</tr></thead>\n<tbody>\n";
        for (const ModelView& m : models_) {
            o << "<tr><th class=\"model\">" << xml_escape(m.name) << "</th>";
            for (const std::string& c : brec_fine_categories())
                o << num_cell(m.name, c, "hotelling", count_cell(m, c, Protocol::hotelling), "num headline")
                  << num_cell(m.name, c, "brec_reference", count_cell(m, c, Protocol::brec_reference));
            const Coverage c = coverage(m);
            o << "<td class=\"num\">" << count_text(c.run) << "</td><td class=\"num\">" << count_text(c.unreliable_h)
              << " / " << count_text(c.unreliable_r) << "</td><td class=\"num\">" << count_text(c.skipped)
              << "</td><td class=\"num\">" << count_text(c.not_run) << "</td><td class=\"num\">"
              << count_text(c.pending) << "</td></tr>\n";
        }
        o << "</tbody></table>\n";
    }

    void figures(std::ostringstream& o) const {
        const ReportAnalysis& a = *in_.analysis;
        o << "<h2>Ranks and categories</h2>\n<div class=\"figures\">";
        if (a.ranks.available) o << "<figure>" << strip_xml_header(cd_diagram_svg(a)) << "</figure>";
        if (a.results.brec) o << "<figure>" << strip_xml_header(category_chart_svg(a)) << "</figure>";
        o << "</div>\n";
    }

    static std::string strip_xml_header(const std::string& svg) {
        const auto at = svg.find("<svg");
        return at == std::string::npos ? svg : svg.substr(at);
    }

    void matrix(std::ostringstream& o) const {
        o << "<h2>Pairs × models</h2>\n<p>Each cell is one model on one pair (its first seed): "
             "<span class=\"key s\"></span> separated <span class=\"key n\"></span> not separated "
             "<span class=\"key u\"></span> unreliable <span class=\"key k\"></span> skipped (memory) "
             "<span class=\"key x\"></span> not run (cost rule) <span class=\"key m\"></span> no record. Hover "
             "for the pair; click to draw it with every model's T². Protocol: "
             "<button id=\"proto-hotelling\" class=\"on\">H (Hotelling)</button> "
             "<button id=\"proto-brec_reference\">R (brec_reference)</button></p>\n"
             "<div id=\"matrix\"></div>\n<div id=\"pair-panel\"></div>\n";
    }

    void provenance(std::ostringstream& o) const {
        o << "<h2>Provenance</h2>\n";
        if (results_.boards.empty()) {
            o << "<p>No board manifest: these records were read as files.</p>\n";
            return;
        }
        for (const auto& [dir, m] : results_.boards) {
            o << "<div class=\"provenance\"><h3>" << xml_escape(dir) << "</h3>\n<p>dataset " << xml_escape(m.dataset)
              << " (" << m.dataset_pairs << " pairs), SHA-256 <code>" << xml_escape(m.dataset_sha256)
              << "</code>; subset: " << xml_escape(m.subset) << "; seeds:";
            for (std::uint64_t s : m.seeds) o << " " << s;
            o << "; rule: "
              << (m.max_cost_seconds > 0
                      ? "tasks estimated above " + format_fixed(m.max_cost_seconds, 0) + " core-seconds not run"
                      : std::string("every task"))
              << "</p>\n<table class=\"plain\"><thead><tr><th>model</th><th>settings id</th><th>pairs</th>"
                 "<th>records</th><th>estimated core-h</th><th>not run (est. core-h)</th></tr></thead><tbody>\n";
            for (const BoardModel& b : m.models)
                o << "<tr><td>" << xml_escape(b.name) << "</td><td><code>" << xml_escape(b.settings_id)
                  << "</code></td><td>" << xml_escape(b.pairs.str()) << "</td><td class=\"num\">" << b.records
                  << "</td><td class=\"num\">" << format_fixed(b.estimated_seconds / 3600.0, 2)
                  << "</td><td class=\"num\">" << format_fixed(b.not_run_estimated_seconds / 3600.0, 2)
                  << "</td></tr>\n";
            o << "</tbody></table>\n<table class=\"plain\"><thead><tr><th>started</th><th>ended</th><th>brec</th>"
                 "<th>commit</th><th>host</th><th>CPU</th><th>cores</th><th>device</th><th>GPU</th><th>jobs</th>"
                 "<th>tasks</th><th>wall h</th><th>CPU h</th></tr></thead><tbody>\n";
            for (const BoardSegment& s : m.segments)
                o << "<tr><td>" << xml_escape(s.started) << "</td><td>" << xml_escape(s.ended) << "</td><td>"
                  << xml_escape(s.brec_version) << "</td><td><code>" << xml_escape(s.git_commit.substr(0, 12))
                  << "</code></td><td>" << xml_escape(s.host) << "</td><td>" << xml_escape(s.cpu) << "</td><td>"
                  << s.cores << "</td><td>" << xml_escape(s.device) << "</td><td>" << xml_escape(s.gpu) << "</td><td>"
                  << s.jobs << "</td><td class=\"num\">" << s.tasks << "</td><td class=\"num\">"
                  << format_fixed(s.wall_seconds / 3600.0, 2) << "</td><td class=\"num\">"
                  << format_fixed(s.cpu_seconds / 3600.0, 2) << "</td></tr>\n";
            o << "</tbody></table></div>\n";
        }
    }

    json data() const {
        json pairs = json::array(), models = json::array(), graphs = json::object();
        for (PairId id : pair_ids_) {
            json p = {{"id", id}, {"category", category_of(id)}};
            if (in_.certificate) {
                const auto it = in_.certificate->pairs.find(id);
                if (it != in_.certificate->pairs.end()) p["hardness"] = it->second.hardness;
            }
            pairs.push_back(std::move(p));
        }
        for (const ModelView& m : models_) {
            json states = json::object(), t2 = json::object();
            const PairRun* run = m.runs.empty() ? nullptr : m.runs.front();
            const std::uint64_t seed = run ? run->seed : m.seeds.empty() ? 0 : *m.seeds.begin();
            const auto not_run = m.not_run.find(seed);
            for (Protocol protocol : kProtocols) {
                std::string letters;
                json values = json::array();
                for (PairId id : pair_ids_) {
                    const PairResult* p = run ? find(*run, id) : nullptr;
                    const bool excluded = not_run != m.not_run.end() && not_run->second.count(id);
                    letters += m.pairs.count(id) ? state_of(p, excluded, protocol) : ' ';
                    const PairDecision* d = p && !p->skipped ? &p->decision(protocol) : nullptr;
                    values.push_back(d && d->known ? json::array({short_number(d->t2_test), short_number(d->threshold)})
                                                   : json());
                }
                states[protocol_name(protocol)] = letters;
                t2[protocol_name(protocol)] = std::move(values);
            }
            models.push_back({{"name", m.name}, {"seed", seed}, {"states", states}, {"t2", t2}});
        }
        for (const auto& [id, pair] : graphs_) graphs[std::to_string(id)] = drawing(*pair);
        return {{"pairs", pairs}, {"models", models}, {"graphs", graphs}};
    }

    /// Both graphs of a pair laid out as `brec show` lays them out: points scaled to 0..1000 and
    /// edge lists, the edges of one graph only marked when the layout is shared.
    static json drawing(const GraphPairRecord& pair) {
        const PairLayout layout = plan_pair_layout(pair.a, pair.b);
        const auto one = [](const Graph& g, const Layout& l, const std::vector<Edge>& only) {
            json xy = json::array(), edges = json::array(), marked = json::array();
            for (const Point& p : l.points) {
                xy.push_back(std::lround((p.x + 1.0) * 500.0));
                xy.push_back(std::lround((p.y + 1.0) * 500.0));
            }
            for (const Edge& e : g.edges()) {
                edges.push_back(e.first);
                edges.push_back(e.second);
            }
            for (const Edge& e : only) {
                marked.push_back(e.first);
                marked.push_back(e.second);
            }
            return json{{"xy", xy}, {"edges", edges}, {"marked", marked}};
        };
        const std::vector<Edge> none;
        return {{"a", one(pair.a, layout.a, layout.shared ? layout.only_a : none)},
                {"b", one(pair.b, layout.b, layout.shared ? layout.only_b : none)},
                {"layout", layout.description()}};
    }

    static constexpr const char* kStyle =
        R"(body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1600px}
h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
table.board,table.plain{border-collapse:collapse;font-size:13px;margin:.5em 0}
table.board th,table.board td,table.plain th,table.plain td{border:1px solid #ddd;padding:2px 5px}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.headline{font-weight:bold;background:#eef4ff}td.paper{color:#666}td.bound{color:#2a6f2a}
th.model{text-align:left}.figures{display:flex;flex-wrap:wrap;gap:1em}
figure{margin:0;max-width:100%}figure svg{max-width:100%;height:auto}
#matrix{font-size:11px;overflow-x:auto}.mrow{display:flex;align-items:center;height:13px}
.mname{width:90px;flex:none}.c{width:3px;height:11px;margin-right:1px;flex:none;cursor:pointer}
.c.s,.key.s{background:#2b8a3e}.c.n,.key.n{background:#d9d9d9}.c.u,.key.u{background:#e8590c}
.c.k,.key.k{background:#845ef7}.c.x,.key.x{background:#fff;outline:1px solid #bbb}.c.m,.key.m{background:#fff3bf}
.c.gap{background:transparent;cursor:default}.key{display:inline-block;width:10px;height:10px;margin:0 2px}
button.on{font-weight:bold}#pair-panel svg{border:1px solid #ddd;margin-right:1em}
code{font-size:12px})";

    static constexpr const char* kScript = R"((function(){
var D=JSON.parse(document.getElementById('board-data').textContent);var proto='hotelling';
var names={s:'separated',n:'not separated',u:'unreliable',k:'skipped (memory)',x:'not run (cost rule)',m:'no record'};
function cls(ch){return ch==='-'?'m':ch;}
function num(v){return v===null||v===undefined?'':(Math.abs(v)>=1e5?v.toExponential(3):String(v));}
function draw(){var box=document.getElementById('matrix');box.textContent='';
D.models.forEach(function(m){var row=document.createElement('div');row.className='mrow';
var nm=document.createElement('span');nm.className='mname';nm.textContent=m.name;row.appendChild(nm);
var st=m.states[proto];for(var i=0;i<D.pairs.length;i++){var c=document.createElement('span');var ch=st[i];
if(ch===' '){c.className='c gap';row.appendChild(c);continue;}var p=D.pairs[i];c.className='c '+cls(ch);
c.setAttribute('data-model',m.name);c.setAttribute('data-pair',p.id);
var t=m.t2[proto][i];c.title='pair '+p.id+' · '+p.category+(p.hardness?' · certificate '+p.hardness:'')+'\n'+m.name+' (seed '+m.seed+'): '+names[cls(ch)]+(t?' · T² '+num(t[0])+' vs '+num(t[1]):'');
c.addEventListener('click',(function(k){return function(){show(k);};})(i));row.appendChild(c);}
box.appendChild(row);});}
function svg(g,title){var n=g.xy.length/2,s='<svg xmlns="http://www.w3.org/2000/svg" width="320" height="340" viewBox="-40 -80 1080 1120"><text x="500" y="-30" font-size="48" text-anchor="middle">'+title+'</text>';
var mk={};for(var j=0;j<g.marked.length;j+=2)mk[g.marked[j]+','+g.marked[j+1]]=1;
for(var e=0;e<g.edges.length;e+=2){var a=g.edges[e],b=g.edges[e+1];var red=mk[a+','+b]||mk[b+','+a];
s+='<line x1="'+g.xy[2*a]+'" y1="'+g.xy[2*a+1]+'" x2="'+g.xy[2*b]+'" y2="'+g.xy[2*b+1]+'" stroke="'+(red?'#d00':'#555')+'" stroke-width="'+(red?6:2)+'"/>';}
for(var v=0;v<n;v++)s+='<circle cx="'+g.xy[2*v]+'" cy="'+g.xy[2*v+1]+'" r="10" fill="#1c7ed6"/>';return s+'</svg>';}
function show(i){var p=D.pairs[i],panel=document.getElementById('pair-panel');
var h='<h3>Pair '+p.id+' · '+p.category+(p.hardness?' · certificate '+p.hardness:'')+'</h3>';var g=D.graphs[String(p.id)];
if(g)h+='<div>'+svg(g.a,'G')+svg(g.b,'H')+'</div><p>'+g.layout+'</p>';else h+='<p>(no drawing: the dataset was not available)</p>';
h+='<table class="plain"><thead><tr><th>model</th><th>H</th><th>T² (H)</th><th>threshold</th><th>R</th><th>T² (R)</th><th>threshold</th></tr></thead><tbody>';
D.models.forEach(function(m){var sh=m.states.hotelling[i],sr=m.states.brec_reference[i];if(sh===' ')return;
var th=m.t2.hotelling[i],tr=m.t2.brec_reference[i];h+='<tr><td>'+m.name+'</td><td>'+names[cls(sh)]+'</td><td>'+(th?num(th[0]):'')+'</td><td>'+(th?num(th[1]):'')+'</td><td>'+names[cls(sr)]+'</td><td>'+(tr?num(tr[0]):'')+'</td><td>'+(tr?num(tr[1]):'')+'</td></tr>';});
panel.innerHTML=h+'</tbody></table>';}
['hotelling','brec_reference'].forEach(function(k){document.getElementById('proto-'+k).addEventListener('click',function(){proto=k;
document.getElementById('proto-hotelling').className=k==='hotelling'?'on':'';document.getElementById('proto-brec_reference').className=k==='brec_reference'?'on':'';draw();});});
draw();var want=/pair=(\d+)/.exec(location.hash);if(want)for(var q=0;q<D.pairs.length;q++)if(String(D.pairs[q].id)===want[1])show(q);})();
)";

    const BoardPageInput& in_;
    const ResultSet& results_;
    std::vector<ModelView> models_;
    std::vector<PairId> pair_ids_;
    std::map<PairId, std::string> category_;
    std::map<PairId, const GraphPairRecord*> graphs_;
};

}  // namespace

std::string board_table_markdown(const BoardPageInput& input) {
    if (!input.analysis) throw InvalidArgument("the board table needs the report's analysis");
    return Page(input).markdown_table();
}

std::string board_page_html(const BoardPageInput& input) {
    if (!input.analysis) throw InvalidArgument("the HTML board needs the report's analysis");
    return Page(input).html();
}

}  // namespace brec
