// The JSON document of a report: every number of the analysis at full precision, typed, with the
// input lines it came from (the Markdown and LaTeX documents show rounded text instead).
#include <cmath>

#include "brec/report/render.hpp"

namespace brec {

nlohmann::json report_json(const ReportAnalysis& a) {
    using nlohmann::json;
    const auto& rs = a.results;
    json j;
    j["command"] = "report";
    j["inputs"] = rs.inputs;
    j["alpha"] = a.options.alpha;
    j["brec"] = rs.brec;
    j["tasks"] = rs.tasks;
    j["models"] = rs.models;
    json cells = json::array();
    for (const auto& c : a.cells) {
        // One seed gives no interval: half_width, lower and upper are null.
        const bool interval = c.values.size() >= 2;
        json cj{{"task", c.task},
                {"model", c.model},
                {"n", c.values.size()},
                {"mean", c.t.mean},
                {"half_width", interval ? json(c.t.half_width) : json()},
                {"lower", interval ? json(c.t.lower()) : json()},
                {"upper", interval ? json(c.t.upper()) : json()}};
        if (c.has_bootstrap) {
            cj["bootstrap_half_width"] = c.bootstrap.half_width;
            cj["bootstrap_resamples"] = a.options.resamples;
        }
        if (c.pairs >= 0) cj["pairs"] = c.pairs;
        if (c.reliability_failures >= 0) cj["reliability_failures"] = c.reliability_failures;
        json vals = json::array();
        for (std::size_t i = 0; i < c.values.size(); ++i)
            vals.push_back({{"seed", c.seeds[i]}, {"value", c.values[i]}, {"source", c.sources[i].str()}});
        cj["values"] = vals;
        cells.push_back(cj);
    }
    j["cells"] = cells;
    json comps = json::array();
    for (const auto& tc : a.comparisons) {
        json rows = json::array();
        for (const auto& r : tc.rows) {
            json rj{{"a", r.a}, {"b", r.b}, {"n", r.n}, {"agreement", r.agreement}, {"better", r.better}};
            rj["mean_difference"] = r.n > 0 ? json(r.mean_difference) : json();
            if (r.testable) {
                // Infinite statistics (constant non-zero differences) are written as null.
                auto num = [](double x) { return std::isfinite(x) ? json(x) : json(); };
                rj["t"] = num(r.t.statistic);
                rj["p_t"] = r.t.p_value;
                rj["p_t_holm"] = r.t_holm;
                rj["w_plus"] = r.wilcoxon.statistic;
                rj["wilcoxon_n"] = r.wilcoxon.n;
                rj["p_w"] = r.wilcoxon.p_value;
                rj["p_w_holm"] = r.wilcoxon_holm;
                rj["wilcoxon_exact"] = r.wilcoxon.exact;
                rj["dz"] = num(r.dz);
            }
            rows.push_back(rj);
        }
        comps.push_back({{"task", tc.task}, {"direction", tc.higher_is_better ? "max" : "min"}, {"rows", rows}});
    }
    j["comparisons"] = comps;
    const auto& ra = a.ranks;
    json f{{"available", ra.available}};
    if (!ra.available) {
        f["reason"] = ra.reason;
    } else {
        f["tasks"] = ra.tasks;
        json mr = json::object();
        for (std::size_t m = 0; m < ra.models.size(); ++m) mr[ra.models[m]] = ra.friedman.mean_ranks[m];
        f["mean_ranks"] = mr;
        json ranks = json::object();
        for (std::size_t t = 0; t < ra.tasks.size(); ++t) ranks[ra.tasks[t]] = ra.ranks[t];
        f["ranks"] = ranks;
        f["chi2"] = ra.friedman.chi2;
        f["df"] = ra.friedman.models - 1;
        f["p_value"] = ra.friedman.p_value;
        f["chi2_ties"] = ra.friedman.chi2_ties;
        f["p_value_ties"] = ra.friedman.p_value_ties;
        f["q_alpha"] = ra.q_alpha;
        f["cd"] = ra.cd;
        json cl = json::array();
        for (const auto& c : ra.cliques) {
            json names = json::array();
            for (int m : c) names.push_back(ra.models[m]);
            cl.push_back(names);
        }
        f["cliques"] = cl;
    }
    j["friedman"] = f;
    if (rs.rpc) {
        // Both protocols side by side; null where the records do not carry a protocol.
        j["protocol"] = protocol_name(rs.protocol);
        json protocols = json::object();
        for (const Protocol p : all_protocols()) protocols[protocol_name(p)] = json::object();
        const auto cell = [](const ProtocolCell& c) {
            return c.known ? json{{"distinguished", c.distinguished}, {"reliability_failures", c.reliability_failures}}
                           : json();
        };
        for (const auto& row : a.protocols) {
            json tasks = json::object();
            for (std::size_t t = 0; t < a.tasks.size(); ++t) tasks[a.tasks[t].name] = cell(row.tasks[t]);
            protocols[protocol_name(row.protocol)][row.model] = {
                {"seeds", row.seeds}, {"tasks", tasks}, {"total", cell(row.total)}};
        }
        j["protocols"] = protocols;
    }
    j["notes"] = a.notes;
    return j;
}

}  // namespace brec
