#include "brec/report/render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"

namespace brec {
namespace {

std::string fixed(double x, int digits) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    if (std::isnan(x)) return "nan";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    std::string s = buf;
    if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-')
        s = s.substr(1);  // no "-0.000"
    return s;
}

std::string pvalue(double p) {
    if (p == 0.0) return "0";
    if (p >= 1e-4) return fixed(p, 4);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", p);
    return buf;
}

/// Digits after the point for the values of a task: enough for three significant digits of its
/// smallest non-zero |mean| (at least 2, at most 6).
int task_digits(const ReportAnalysis& a, const std::string& task) {
    double smallest = 0.0;
    for (const auto& c : a.cells)
        if (c.task == task && c.t.mean != 0.0 && (smallest == 0.0 || std::abs(c.t.mean) < smallest))
            smallest = std::abs(c.t.mean);
    if (smallest == 0.0) return 2;
    const int d = 2 - static_cast<int>(std::floor(std::log10(smallest)));
    return std::max(2, std::min(6, d));
}

std::string md_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '|' || c == '*' || c == '_' || c == '`') o += '\\';
        o += c;
    }
    return o;
}

std::string tex_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '_':
                o += "\\_";
                break;
            case '&':
                o += "\\&";
                break;
            case '%':
                o += "\\%";
                break;
            case '#':
                o += "\\#";
                break;
            case '$':
                o += "\\$";
                break;
            case '{':
                o += "\\{";
                break;
            case '}':
                o += "\\}";
                break;
            case '~':
                o += "\\textasciitilde{}";
                break;
            case '^':
                o += "\\textasciicircum{}";
                break;
            case '\\':
                o += "\\textbackslash{}";
                break;
            default:
                o += c;
        }
    }
    return o;
}

std::string task_label(const ReportAnalysis& a, const std::string& task) {
    int pairs = -1;
    for (const auto& c : a.cells)
        if (c.task == task) pairs = std::max(pairs, c.pairs);
    return pairs >= 0 ? task + " (" + std::to_string(pairs) + ")" : task;
}

bool direction_of(const ReportAnalysis& a, const std::string& task) {
    for (const auto& r : a.results.records)
        if (r.task == task) return r.higher_is_better;
    return true;
}

/// The model(s) with the best mean in a task.
std::vector<std::string> best_models(const ReportAnalysis& a, const std::string& task) {
    const bool higher = direction_of(a, task);
    double best = 0;
    bool any = false;
    for (const auto& c : a.cells)
        if (c.task == task && (!any || (higher ? c.t.mean > best : c.t.mean < best))) {
            best = c.t.mean;
            any = true;
        }
    std::vector<std::string> out;
    for (const auto& c : a.cells)
        if (c.task == task && c.t.mean == best) out.push_back(c.model);
    return out;
}

/// Seeds per cell: the common S, or -1 if cells differ.
int common_seeds(const ReportAnalysis& a) {
    int s = -2;
    for (const auto& c : a.cells) {
        const int n = static_cast<int>(c.values.size());
        if (s == -2)
            s = n;
        else if (s != n)
            return -1;
    }
    return s < 0 ? -1 : s;
}

/// Whether some cell has a single seed (and so no interval).
bool single_seed_cells(const ReportAnalysis& a) {
    for (const auto& c : a.cells)
        if (c.values.size() < 2) return true;
    return false;
}

std::string percent_label(double alpha) {
    const double conf = 100.0 * (1.0 - alpha);
    return conf == std::floor(conf) ? fixed(conf, 0) : fixed(conf, 1);
}

std::string clique_text(const RankAnalysis& r, bool tex) {
    std::string out;
    for (const auto& c : r.cliques) {
        std::string g;
        for (int m : c)
            g += (g.empty() ? "" : ", ") + (tex ? tex_escape(r.models[m]) : md_escape(r.models[m]));
        out += (out.empty() ? "" : "; ") + std::string(tex ? "\\{" : "{") + g + (tex ? "\\}" : "}");
    }
    return out.empty() ? "none (every pair of models differs by at least CD)" : out;
}

}  // namespace

std::string report_markdown(const ReportAnalysis& a) {
    const auto& rs = a.results;
    const std::string conf = percent_label(a.options.alpha);
    const int seeds = common_seeds(a);
    std::ostringstream o;
    o << "# brec report\n\n";
    o << "Inputs: ";
    for (std::size_t i = 0; i < rs.inputs.size(); ++i)
        o << (i ? ", " : "") << "`" << rs.inputs[i] << "`";
    o << "  \n"
      << rs.records.size() << " per-seed results: " << rs.tasks.size() << " tasks × "
      << rs.models.size() << " models"
      << (seeds > 0 ? ", " + std::to_string(seeds) + (seeds == 1 ? " seed" : " seeds") + " per cell"
                    : "")
      << "; α = " << a.options.alpha
      << (rs.brec ? "; values are distinguished pairs per category (reliable pairs only)" : "")
      << ".\n\n";

    o << "## Per-cell results\n\n";
    o << "Mean ± half-width of the " << conf
      << "% Student-t interval, t_{S−1, 1−α/2} · s / √S over the S seeds"
      << (seeds > 0 ? "" : " (S in parentheses)") << "; best mean per task in bold"
      << (rs.brec ? "; [rf N]: reliability failures summed over seeds" : "")
      << (single_seed_cells(a) ? "; a cell with one seed shows its value only (no interval)" : "")
      << ".\n\n";
    o << "| task | dir |";
    for (const auto& m : rs.models) o << " " << md_escape(m) << " |";
    o << "\n|---|---|";
    for (std::size_t i = 0; i < rs.models.size(); ++i) o << "---:|";
    o << "\n";
    for (const auto& task : rs.tasks) {
        const int dv = task_digits(a, task);
        const auto best = best_models(a, task);
        o << "| " << md_escape(task_label(a, task)) << " | "
          << (direction_of(a, task) ? "max" : "min") << " |";
        for (const auto& m : rs.models) {
            const ReportCell* c = a.cell(task, m);
            if (!c) {
                o << " – |";
                continue;
            }
            std::string v = fixed(c->t.mean, dv);
            if (c->values.size() >= 2) v += " ± " + fixed(c->t.half_width, dv);
            if (std::find(best.begin(), best.end(), m) != best.end()) v = "**" + v + "**";
            if (seeds <= 0) v += " (" + std::to_string(c->values.size()) + ")";
            if (c->reliability_failures > 0)
                v += " [rf " + std::to_string(c->reliability_failures) + "]";
            o << " " << v << " |";
        }
        o << "\n";
    }
    if (a.options.bootstrap) {
        o << "\nPercentile bootstrap (B = " << a.options.resamples << ", seed "
          << a.options.bootstrap_seed << "): mean ± half-width of the " << conf
          << "% interval.\n\n| task |";
        for (const auto& m : rs.models) o << " " << md_escape(m) << " |";
        o << "\n|---|";
        for (std::size_t i = 0; i < rs.models.size(); ++i) o << "---:|";
        o << "\n";
        for (const auto& task : rs.tasks) {
            const int dv = task_digits(a, task);
            o << "| " << md_escape(task_label(a, task)) << " |";
            for (const auto& m : rs.models) {
                const ReportCell* c = a.cell(task, m);
                o << " "
                  << (c ? fixed(c->bootstrap.mean, dv) + " ± " + fixed(c->bootstrap.half_width, dv)
                        : "–")
                  << " |";
            }
            o << "\n";
        }
    }

    o << "\n## Pairwise comparisons per task\n\n";
    o << "Paired by seed. Paired t-test and Wilcoxon signed-rank test (zeros dropped; exact null "
         "up to "
      << a.options.wilcoxon_exact_limit
      << " non-zero differences, else normal approximation with tie correction), two-sided, each "
         "Holm-corrected over "
         "the task's comparisons; d_z = mean(A − B) / sd(A − B); agreement: which tests reject at "
         "α = "
      << a.options.alpha << " after correction.\n";
    for (const auto& tc : a.comparisons) {
        const int dv = task_digits(a, tc.task);
        o << "\n### " << md_escape(task_label(a, tc.task)) << " ("
          << (tc.higher_is_better ? "higher" : "lower") << " is better)\n\n";
        o << "| A | B | n | mean A−B | t | p_t (Holm) | W+ | p_W (Holm) | d_z | agreement | better "
             "|\n";
        o << "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
        for (const auto& r : tc.rows) {
            o << "| " << md_escape(r.a) << " | " << md_escape(r.b) << " | " << r.n << " | "
              << (r.n > 0 ? fixed(r.mean_difference, dv) : "–") << " | ";
            if (r.testable) {
                o << fixed(r.t.statistic, 3) << " | " << pvalue(r.t_holm) << " ("
                  << pvalue(r.t.p_value) << ") | " << fixed(r.wilcoxon.statistic, 1)
                  << (r.wilcoxon.exact ? "" : "*") << " | " << pvalue(r.wilcoxon_holm) << " ("
                  << pvalue(r.wilcoxon.p_value) << ") | " << fixed(r.dz, 3) << " | ";
            } else {
                o << "– | – | – | – | – | ";
            }
            o << r.agreement << " | " << (r.better.empty() ? "–" : md_escape(r.better)) << " |\n";
        }
        o << "\np-values: Holm-adjusted (raw in parentheses)";
        bool approx = false, untestable = false;
        for (const auto& r : tc.rows) {
            approx = approx || (r.testable && !r.wilcoxon.exact);
            untestable = untestable || !r.testable;
        }
        o << (approx ? "; * normal approximation" : "")
          << (untestable ? "; n/a: fewer than two seeds shared by A and B, no test" : "") << ".\n";
    }

    o << "\n## Ranks across tasks (Friedman test, Nemenyi critical difference)\n\n";
    const auto& ra = a.ranks;
    if (!ra.available) {
        o << "Not computed: " << ra.reason << ".\n";
    } else {
        o << "Ranks of the cell means per task (1 = best, ties averaged, direction respected) over "
             "N = "
          << ra.tasks.size() << " tasks.\n\n| model | mean rank |";
        for (const auto& t : ra.tasks) o << " " << md_escape(t) << " |";
        o << "\n|---|---:|";
        for (std::size_t i = 0; i < ra.tasks.size(); ++i) o << "---:|";
        o << "\n";
        std::vector<int> order(ra.models.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
            return ra.friedman.mean_ranks[x] < ra.friedman.mean_ranks[y];
        });
        for (int m : order) {
            o << "| " << md_escape(ra.models[m]) << " | " << fixed(ra.friedman.mean_ranks[m], 3)
              << " |";
            for (const auto& row : ra.ranks) o << " " << fixed(row[m], 1) << " |";
            o << "\n";
        }
        const int k = ra.friedman.models;
        o << "\nFriedman χ²_F = " << fixed(ra.friedman.chi2, 3) << " on " << k - 1
          << " degrees of freedom, p = " << pvalue(ra.friedman.p_value);
        if (ra.friedman.chi2_ties != ra.friedman.chi2)
            o << " (with the tie correction of R's friedman.test: χ² = "
              << fixed(ra.friedman.chi2_ties, 3) << ", p = " << pvalue(ra.friedman.p_value_ties)
              << ")";
        // Demšar (2006): the post-hoc test is meaningful only once the Friedman test rejects.
        o << (ra.friedman.p_value < a.options.alpha
                  ? ": the models do not all perform alike (significant at α = "
                  : ": no evidence that the models differ (not significant at α = ")
          << a.options.alpha
          << (ra.friedman.p_value < a.options.alpha
                  ? ")"
                  : "; the Nemenyi groups below are descriptive only)")
          << ".  \n";
        o << "Nemenyi: q_α = " << fixed(ra.q_alpha, 3)
          << " (studentised range, ∞ d.f., / √2), CD = q_α · √(k(k+1)/(6N)) = " << fixed(ra.cd, 3)
          << " for k = " << k << ", N = " << ra.tasks.size() << ", α = " << a.options.alpha
          << ".  \n";
        o << "Groups whose mean ranks differ by less than CD (not significantly different): "
          << clique_text(ra, false) << ".\n\n![Critical-difference diagram](cd.svg)\n";
    }
    if (rs.brec) o << "\n![Distinguished pairs per category](categories.svg)\n";
    if (!a.notes.empty()) {
        o << "\n## Notes\n\n";
        for (const auto& n : a.notes) o << "- " << n << "\n";
    }
    o << "\n## Appendix: per-seed values\n\n| task | model | seed | value | source "
         "|\n|---|---|---:|---:|---|\n";
    for (const auto& c : a.cells)
        for (std::size_t i = 0; i < c.values.size(); ++i)
            o << "| " << md_escape(c.task) << " | " << md_escape(c.model) << " | " << c.seeds[i]
              << " | " << nlohmann::json(c.values[i]).dump() << " | " << md_escape(c.sources[i])
              << " |\n";
    return o.str();
}

std::string report_latex(const ReportAnalysis& a) {
    const auto& rs = a.results;
    const int seeds = common_seeds(a);
    std::ostringstream o;
    o << "% brec report (LaTeX fragment; needs \\usepackage{booktabs})\n";
    o << "\\begin{table}[t]\n\\centering\n\\caption{Mean $\\pm$ half-width of the "
      << percent_label(a.options.alpha) << "\\% Student-$t$ interval over "
      << (seeds > 0 ? std::to_string(seeds) + " seeds" : "the seeds (count in parentheses)")
      << "; best mean per task in bold"
      << (single_seed_cells(a) ? "; a cell with one seed shows its value only" : "")
      << ".}\n\\begin{tabular}{ll";
    for (std::size_t i = 0; i < rs.models.size(); ++i) o << "r";
    o << "}\n\\toprule\nTask & Dir.";
    for (const auto& m : rs.models) o << " & " << tex_escape(m);
    o << " \\\\\n\\midrule\n";
    for (const auto& task : rs.tasks) {
        const int dv = task_digits(a, task);
        const auto best = best_models(a, task);
        o << tex_escape(task_label(a, task)) << " & " << (direction_of(a, task) ? "max" : "min");
        for (const auto& m : rs.models) {
            const ReportCell* c = a.cell(task, m);
            if (!c) {
                o << " & --";
                continue;
            }
            const bool b = std::find(best.begin(), best.end(), m) != best.end();
            o << " & $" << (b ? "\\mathbf{" : "") << fixed(c->t.mean, dv);
            if (c->values.size() >= 2) o << " \\pm " << fixed(c->t.half_width, dv);
            o << (b ? "}" : "") << "$";
            if (seeds <= 0) o << " (" << c->values.size() << ")";
            if (c->reliability_failures > 0) o << " [rf " << c->reliability_failures << "]";
        }
        o << " \\\\\n";
    }
    o << "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n";

    for (const auto& tc : a.comparisons) {
        const int dv = task_digits(a, tc.task);
        o << "\\begin{table}[t]\n\\centering\n\\caption{" << tex_escape(task_label(a, tc.task))
          << ": paired $t$-test and Wilcoxon signed-rank test over seeds, Holm-adjusted $p$ (raw "
             "in parentheses).}\n";
        o << "\\begin{tabular}{llrrrrrrrl}\n\\toprule\nA & B & $n$ & $\\bar d$ & $t$ & $p_t$ & "
             "$W^+$ & $p_W$ & $d_z$ & "
             "agreement \\\\\n\\midrule\n";
        for (const auto& r : tc.rows) {
            o << tex_escape(r.a) << " & " << tex_escape(r.b) << " & " << r.n << " & "
              << (r.n > 0 ? fixed(r.mean_difference, dv) : "--");
            if (r.testable)
                o << " & " << fixed(r.t.statistic, 3) << " & " << pvalue(r.t_holm) << " ("
                  << pvalue(r.t.p_value) << ") & " << fixed(r.wilcoxon.statistic, 1) << " & "
                  << pvalue(r.wilcoxon_holm) << " (" << pvalue(r.wilcoxon.p_value) << ") & "
                  << fixed(r.dz, 3);
            else
                o << " & -- & -- & -- & -- & --";
            o << " & " << r.agreement << " \\\\\n";
        }
        o << "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n";
    }
    const auto& ra = a.ranks;
    if (ra.available) {
        o << "\\begin{table}[t]\n\\centering\n\\caption{Mean ranks over $N = " << ra.tasks.size()
          << "$ tasks. Friedman $\\chi^2_F = " << fixed(ra.friedman.chi2, 3) << "$ ($"
          << ra.friedman.models - 1 << "$ d.f.), $p = " << pvalue(ra.friedman.p_value)
          << "$; Nemenyi $q_\\alpha = " << fixed(ra.q_alpha, 3) << "$, CD $= " << fixed(ra.cd, 3)
          << "$ ($\\alpha = " << a.options.alpha
          << "$). Not significantly different: " << clique_text(ra, true)
          << ".}\n\\begin{tabular}{lr}\n\\toprule\nModel & Mean rank \\\\\n\\midrule\n";
        std::vector<int> order(ra.models.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
            return ra.friedman.mean_ranks[x] < ra.friedman.mean_ranks[y];
        });
        for (int m : order)
            o << tex_escape(ra.models[m]) << " & " << fixed(ra.friedman.mean_ranks[m], 3)
              << " \\\\\n";
        o << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
    } else {
        o << "% Friedman/Nemenyi not computed: " << ra.reason << "\n";
    }
    return o.str();
}

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
            vals.push_back(
                {{"seed", c.seeds[i]}, {"value", c.values[i]}, {"source", c.sources[i]}});
        cj["values"] = vals;
        cells.push_back(cj);
    }
    j["cells"] = cells;
    json comps = json::array();
    for (const auto& tc : a.comparisons) {
        json rows = json::array();
        for (const auto& r : tc.rows) {
            json rj{{"a", r.a},
                    {"b", r.b},
                    {"n", r.n},
                    {"agreement", r.agreement},
                    {"better", r.better}};
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
        comps.push_back({{"task", tc.task},
                         {"direction", tc.higher_is_better ? "max" : "min"},
                         {"rows", rows}});
    }
    j["comparisons"] = comps;
    const auto& ra = a.ranks;
    json f{{"available", ra.available}};
    if (!ra.available) {
        f["reason"] = ra.reason;
    } else {
        f["tasks"] = ra.tasks;
        json mr = json::object();
        for (std::size_t m = 0; m < ra.models.size(); ++m)
            mr[ra.models[m]] = ra.friedman.mean_ranks[m];
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
    j["notes"] = a.notes;
    return j;
}

std::string cd_diagram_svg(const std::vector<std::string>& models,
                           const std::vector<double>& mean_ranks, double cd,
                           const std::vector<std::vector<int>>& cliques, const std::string& title) {
    const int k = static_cast<int>(models.size());
    if (k < 2 || mean_ranks.size() != models.size())
        throw InvalidArgument("CD diagram needs at least 2 models, each with a mean rank");
    if (!(cd > 0) || !std::isfinite(cd))
        throw InvalidArgument("CD diagram needs a positive, finite critical difference");
    for (const auto& c : cliques)
        for (int m : c)
            if (m < 0 || m >= k)
                throw InvalidArgument("CD diagram: clique member " + std::to_string(m) +
                                      " is not a model");
    std::vector<int> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return mean_ranks[a] < mean_ranks[b]; });
    // Best half on the left (best on the top row), the rest on the right (worst on the top row).
    const int n_left = (k + 1) / 2, n_right = k - n_left;
    auto label_of = [&](int m) {
        return models[static_cast<std::size_t>(m)] + " (" + fixed(mean_ranks[m], 2) + ")";
    };
    // Text widths are estimated at 0.62 em per character (Helvetica/Arial average is about 0.55).
    const double font = 14.0, char_w = 0.62 * font;
    double left_w = 0, right_w = 0;
    for (int i = 0; i < k; ++i) {
        const double w =
            char_w * static_cast<double>(label_of(order[static_cast<std::size_t>(i)]).size());
        double& side = i < n_left ? left_w : right_w;
        side = std::max(side, w);
    }
    const double margin = 16, stub = 18;  // stub: horizontal line from the axis end to the label
    const double axis_w = std::max(480.0, 90.0 * (k - 1));
    const double left = margin + left_w + 6 + stub, right = left + axis_w;
    auto x_of = [&](double r) { return left + (r - 1.0) / (k - 1) * axis_w; };
    // The CD bar has its true length in rank units even when CD exceeds the axis (k − 1).
    const double cd_end = x_of(1.0 + cd);
    const double width = std::max(right + stub + 6 + right_w, cd_end + 40) + margin;
    const double top = title.empty() ? 36.0 : 62.0;  // y of the CD bar
    const double axis_y = top + 44;
    const double lane = 10.0, row_h = 26.0;
    const double clique_y = axis_y + 16;
    const double labels_y = clique_y + lane * static_cast<double>(cliques.size()) + 12;
    const double height = labels_y + row_h * (std::max(n_left, n_right) - 1) + 22;

    std::ostringstream s;
    auto num = [](double x) { return fixed(x, 2); };
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    if (!title.empty())
        s << "<text x=\"" << num(width / 2)
          << "\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">"
          << xml_escape(title) << "</text>\n";
    // CD scale bar above the axis, starting at rank 1, with end marks.
    s << "<g stroke=\"black\" stroke-width=\"1.5\">\n";
    s << "<line class=\"cd-bar\" x1=\"" << num(x_of(1)) << "\" y1=\"" << num(top) << "\" x2=\""
      << num(cd_end) << "\" y2=\"" << num(top) << "\"/>\n";
    for (double x : {x_of(1), cd_end})
        s << "<line x1=\"" << num(x) << "\" y1=\"" << num(top - 5) << "\" x2=\"" << num(x)
          << "\" y2=\"" << num(top + 5) << "\"/>\n";
    s << "</g>\n<text x=\"" << num((x_of(1) + cd_end) / 2) << "\" y=\"" << num(top - 9)
      << "\" text-anchor=\"middle\" font-size=\"13\">CD = " << fixed(cd, 2) << "</text>\n";
    // Mean-rank axis 1..k, ticks at integers (labelled) and halves.
    s << "<g stroke=\"black\" stroke-width=\"1.5\">\n<line class=\"axis\" x1=\"" << num(x_of(1))
      << "\" y1=\"" << num(axis_y) << "\" x2=\"" << num(x_of(k)) << "\" y2=\"" << num(axis_y)
      << "\"/>\n";
    for (int t = 2; t <= 2 * k; ++t) {
        const double r = t / 2.0;
        const double len = t % 2 == 0 ? 8.0 : 4.0;
        s << "<line x1=\"" << num(x_of(r)) << "\" y1=\"" << num(axis_y - len) << "\" x2=\""
          << num(x_of(r)) << "\" y2=\"" << num(axis_y) << "\"/>\n";
    }
    s << "</g>\n";
    for (int t = 1; t <= k; ++t)
        s << "<text x=\"" << num(x_of(t)) << "\" y=\"" << num(axis_y - 13)
          << "\" text-anchor=\"middle\" font-size=\"13\">" << t << "</text>\n";
    s << "<text x=\"" << num(x_of(1) - 10) << "\" y=\"" << num(axis_y + 4)
      << "\" text-anchor=\"end\" font-size=\"11\" fill=\"#555\">mean rank</text>\n";
    // One line per model from its mean rank down to its row, then out to its label.
    s << "<g stroke=\"black\" stroke-width=\"1\" fill=\"none\">\n";
    std::ostringstream labels;
    for (int i = 0; i < k; ++i) {
        const int m = order[static_cast<std::size_t>(i)];
        const bool on_left = i < n_left;
        const int row = on_left ? i : k - 1 - i;
        const double y = labels_y + row_h * row;
        const double x = x_of(mean_ranks[m]);
        const double end = on_left ? left - stub : right + stub;
        s << "<polyline points=\"" << num(x) << "," << num(axis_y) << " " << num(x) << "," << num(y)
          << " " << num(end) << "," << num(y) << "\"/>\n";
        const std::string name = xml_escape(models[static_cast<std::size_t>(m)]);
        const std::string rank = "<tspan class=\"rank\" fill=\"#555\" font-size=\"12\">";
        labels << "<text class=\"model\" x=\"" << num(on_left ? end - 6 : end + 6) << "\" y=\""
               << num(y + 5) << "\" text-anchor=\"" << (on_left ? "end" : "start")
               << "\" font-size=\"" << font << "\">";
        if (on_left)
            labels << name << rank << " (" << fixed(mean_ranks[m], 2) << ")</tspan>";
        else
            labels << rank << "(" << fixed(mean_ranks[m], 2) << ") </tspan>" << name;
        labels << "</text>\n";
    }
    s << "</g>\n" << labels.str();
    // Clique bars below the axis, one lane each: models whose mean ranks differ by less than CD.
    s << "<g stroke=\"black\" stroke-width=\"4\" stroke-linecap=\"round\">\n";
    for (std::size_t c = 0; c < cliques.size(); ++c) {
        double lo = 1e300, hi = -1e300;
        for (int m : cliques[c]) {
            lo = std::min(lo, mean_ranks[static_cast<std::size_t>(m)]);
            hi = std::max(hi, mean_ranks[static_cast<std::size_t>(m)]);
        }
        const double y = clique_y + lane * static_cast<double>(c);
        s << "<line class=\"clique\" x1=\"" << num(x_of(lo) - 4) << "\" y1=\"" << num(y)
          << "\" x2=\"" << num(x_of(hi) + 4) << "\" y2=\"" << num(y) << "\"/>\n";
    }
    s << "</g>\n</svg>\n";
    return s.str();
}

std::string category_chart_svg(const ReportAnalysis& a) {
    const auto& rs = a.results;
    const bool percent = rs.brec;
    static constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                               "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                               "#9c755f", "#bab0ac"};
    const int k = static_cast<int>(rs.models.size()), t_count = static_cast<int>(rs.tasks.size());
    if (k == 0 || t_count == 0)
        throw InvalidArgument("bar chart needs at least one task and one model");
    // Values (percent of the category's pairs for BREC), their interval, and the axis range.
    auto scale = [&](const ReportCell& c) {
        return percent && c.pairs > 0 ? 100.0 / c.pairs : 1.0;
    };
    double lo = 0.0, hi = percent ? 100.0 : 0.0;
    for (const auto& c : a.cells) {
        const double f = scale(c);
        lo = std::min(lo, f * c.t.lower());
        hi = std::max(hi, f * c.t.upper());
    }
    // A share of pairs lies in [0, 100] %: Student-t intervals reaching beyond are cut at the axis.
    if (percent) lo = 0.0, hi = 100.0;
    if (hi <= lo) hi = lo + 1.0;
    // Nice tick step.
    const double raw = (hi - lo) / 5.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) {
            step = m * mag;
            break;
        }
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    const int tick_digits = step >= 1 ? 0 : (step >= 0.1 ? 1 : (step >= 0.01 ? 2 : 4));
    const int seeds = common_seeds(a);
    const std::string title =
        std::string(percent ? "Distinguished pairs per category" : "Mean per task") + " (mean ± " +
        percent_label(a.options.alpha) + "% CI over " +
        (seeds > 0 ? std::to_string(seeds) + " seed" + (seeds == 1 ? "" : "s") : "seeds") + ")";
    const double bar_w = std::max(10.0, std::min(30.0, 200.0 / k)), group_gap = 30.0;
    const double group_w = bar_w * k + group_gap;
    // Width: the plot, the title (15 px bold, about 0.6 em per character) and the task labels.
    std::size_t longest_task = 0;
    for (const auto& t : rs.tasks) longest_task = std::max(longest_task, task_label(a, t).size());
    const double left = 70, right_margin = 30, plot_h = 300, top = 70;
    const double title_w = 9.0 * static_cast<double>(title.size()) + 40;
    double slot_w = std::max(group_w, 7.2 * static_cast<double>(longest_task) + 12);
    const double width = std::max({left + slot_w * t_count + right_margin, title_w, 460.0});
    slot_w = (width - left - right_margin) / t_count;  // the groups spread over the whole width
    const double plot_w = slot_w * t_count;
    // Legend: as many entries per row as fit.
    std::size_t longest_model = 0;
    for (const auto& m : rs.models) longest_model = std::max(longest_model, m.size());
    const double entry_w = 30 + 7.5 * static_cast<double>(longest_model);
    const int per_row = std::max(1, static_cast<int>((width - left - 20) / entry_w));
    const double legend_rows = std::ceil(static_cast<double>(k) / per_row);
    const double height = top + plot_h + 56 + 22 * legend_rows;
    auto y_of = [&](double v) {
        return top + (hi - std::min(hi, std::max(lo, v))) / (hi - lo) * plot_h;
    };
    auto num = [](double x) { return fixed(x, 2); };
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << num(width / 2)
      << "\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">"
      << xml_escape(title) << "</text>\n";
    // Grid and y axis.
    for (int i = 0; lo + i * step <= hi + step / 2; ++i) {
        const double v = lo + i * step;
        s << "<line x1=\"" << num(left) << "\" y1=\"" << num(y_of(v)) << "\" x2=\""
          << num(left + plot_w) << "\" y2=\"" << num(y_of(v)) << "\" stroke=\"#ddd\"/>\n";
        s << "<text x=\"" << num(left - 6) << "\" y=\"" << num(y_of(v) + 4)
          << "\" text-anchor=\"end\" font-size=\"11\">" << fixed(v, tick_digits) << "</text>\n";
    }
    s << "<line x1=\"" << num(left) << "\" y1=\"" << num(top) << "\" x2=\"" << num(left)
      << "\" y2=\"" << num(top + plot_h) << "\" stroke=\"black\"/>\n";
    s << "<text transform=\"translate(20," << num(top + plot_h / 2)
      << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">"
      << (percent ? "% of pairs distinguished" : "value") << "</text>\n";
    const double base = y_of(std::max(lo, 0.0));
    for (int t = 0; t < t_count; ++t) {
        const std::string& task = rs.tasks[static_cast<std::size_t>(t)];
        const double centre = left + slot_w * (t + 0.5);
        const double gx = centre - bar_w * k / 2;
        for (int m = 0; m < k; ++m) {
            const ReportCell* c = a.cell(task, rs.models[static_cast<std::size_t>(m)]);
            if (!c) continue;
            const double f = scale(*c);
            const double v = f * c->t.mean, h = f * c->t.half_width;
            const double x = gx + bar_w * m, cx = x + bar_w / 2;
            const double y = y_of(v);
            s << "<rect class=\"bar\" x=\"" << num(x + 1) << "\" y=\"" << num(std::min(y, base))
              << "\" width=\"" << num(bar_w - 2) << "\" height=\"" << num(std::abs(base - y))
              << "\" fill=\"" << kPalette[m % 10] << "\"><title>"
              << xml_escape(rs.models[static_cast<std::size_t>(m)] + " on " + task + ": " +
                            fixed(v, 2) + " ± " + fixed(h, 2) + (percent ? " %" : ""))
              << "</title></rect>\n";
            double label_y = std::min(y, base) - 4;
            if (h > 0) {
                const double y1 = y_of(v - h), y2 = y_of(v + h);
                s << "<g class=\"error\" stroke=\"black\" stroke-width=\"1.2\"><line x1=\""
                  << num(cx) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(cx) << "\" y2=\""
                  << num(y2) << "\"/><line x1=\"" << num(cx - 4) << "\" y1=\"" << num(y1)
                  << "\" x2=\"" << num(cx + 4) << "\" y2=\"" << num(y1) << "\"/><line x1=\""
                  << num(cx - 4) << "\" y1=\"" << num(y2) << "\" x2=\"" << num(cx + 4) << "\" y2=\""
                  << num(y2) << "\"/></g>\n";
                label_y = std::min(label_y, y2 - 4);
            }
            // The value above the bar, so that a zero is visible too.
            if (bar_w >= 14)
                s << "<text x=\"" << num(cx) << "\" y=\"" << num(label_y)
                  << "\" text-anchor=\"middle\" font-size=\"10\">"
                  << fixed(v, percent ? 0 : std::min(task_digits(a, task), 3)) << "</text>\n";
        }
        s << "<text x=\"" << num(centre) << "\" y=\"" << num(top + plot_h + 20)
          << "\" text-anchor=\"middle\" font-size=\"12\">" << xml_escape(task_label(a, task))
          << "</text>\n";
    }
    s << "<line x1=\"" << num(left) << "\" y1=\"" << num(base) << "\" x2=\"" << num(left + plot_w)
      << "\" y2=\"" << num(base) << "\" stroke=\"black\"/>\n";
    // Legend.
    for (int m = 0; m < k; ++m) {
        const double lx = left + (m % per_row) * entry_w,
                     ly = top + plot_h + 50 + 22 * (m / per_row);
        s << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly - 10)
          << "\" width=\"12\" height=\"12\" fill=\"" << kPalette[m % 10]
          << "\"/><text class=\"legend\" x=\"" << num(lx + 17) << "\" y=\"" << num(ly)
          << "\" font-size=\"12\">" << xml_escape(rs.models[static_cast<std::size_t>(m)])
          << "</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

std::vector<std::pair<std::string, std::string>> report_files(
    const ReportAnalysis& a, const std::vector<std::string>& formats) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& f : formats) {
        if (f == "md" || f == "markdown")
            out.emplace_back("report.md", report_markdown(a));
        else if (f == "latex" || f == "tex")
            out.emplace_back("report.tex", report_latex(a));
        else if (f == "json")
            out.emplace_back("report.json", report_json(a).dump(1) + "\n");
        else
            throw InvalidArgument("unknown report format '" + f + "' (expected md, latex or json)");
    }
    if (a.ranks.available) {
        std::string title = "Critical difference (Nemenyi, alpha = " + fixed(a.options.alpha, 2) +
                            ", N = " + std::to_string(a.ranks.tasks.size()) + " tasks)";
        out.emplace_back("cd.svg", cd_diagram_svg(a.ranks.models, a.ranks.friedman.mean_ranks,
                                                  a.ranks.cd, a.ranks.cliques, title));
    }
    if (a.results.brec) out.emplace_back("categories.svg", category_chart_svg(a));
    return out;
}

}  // namespace brec
