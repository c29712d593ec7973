// The LaTeX fragment of a report: booktabs tables of detail/report_tables with their captions.
#include <sstream>

#include "brec/report/render.hpp"
#include "brec/report/table.hpp"
#include "detail/format.hpp"
#include "detail/report_tables.hpp"

namespace brec {
namespace {

using detail::fixed;
using detail::pvalue;

std::string clique_text(const RankAnalysis& r) { return detail::clique_text(r, latex_escape, "\\{", "\\}"); }

/// A floating table around a tabular.
std::string float_table(const std::string& caption, const Table& t) {
    return "\\begin{table}[t]\n\\centering\n\\caption{" + caption + "}\n" + latex_table(t) + "\\end{table}\n";
}

}  // namespace

std::string report_latex(const ReportAnalysis& a) {
    const auto tables = detail::report_tables(a);
    const int seeds = detail::common_seeds(a);
    std::ostringstream o;
    o << "% brec report (LaTeX fragment; needs \\usepackage{booktabs})\n";
    std::ostringstream caption;
    caption << "Mean $\\pm$ half-width of the " << detail::percent_label(a.options.alpha)
            << "\\% Student-$t$ interval over "
            << (seeds > 0 ? std::to_string(seeds) + " seeds" : "the seeds (count in parentheses)")
            << "; best mean per task in bold"
            << (detail::single_seed_cells(a) ? "; a cell with one seed shows its value only" : "") << ".";
    o << float_table(caption.str(), tables.cells) << "\n";
    // brec_reference (text below): the T² of GraphPKU/BREC @966b5ed's test_BREC*.py (brec/stats/hotelling.hpp).
    if (!tables.protocols.rows.empty())
        o << float_table(std::string("Distinguished pairs under both RPC protocols, mean over the "
                                     "seeds. hotelling: Hotelling's $T^2$ with the factor $q$; "
                                     "brec\\_reference: the released BREC code's statistic without "
                                     "$q$ and its equality test. The table above counts ") +
                             latex_escape(protocol_name(a.results.protocol)) + " (in bold).",
                         tables.protocols)
          << "\n";

    for (std::size_t i = 0; i < a.comparisons.size(); ++i) {
        std::string notes;
        for (const auto& [mark, meaning] : tables.comparisons[i].footnotes)
            notes += "; " + latex_escape(mark) + ": " + latex_escape(meaning);
        o << float_table(latex_escape(a.task(a.comparisons[i].task).label()) +
                             ": paired $t$-test and Wilcoxon signed-rank test over seeds, "
                             "Holm-adjusted $p$ (raw in parentheses)" +
                             notes + ".",
                         tables.comparisons[i])
          << "\n";
    }
    const auto& ra = a.ranks;
    if (ra.available) {
        std::ostringstream c;
        c << "Mean ranks over $N = " << ra.tasks.size()
          << "$ tasks. Friedman $\\chi^2_F = " << fixed(ra.friedman.chi2, 3) << "$ ($" << ra.friedman.models - 1
          << "$ d.f.), $p = " << pvalue(ra.friedman.p_value) << "$; Nemenyi $q_\\alpha = " << fixed(ra.q_alpha, 3)
          << "$, CD $= " << fixed(ra.cd, 3) << "$ ($\\alpha = " << a.options.alpha
          << "$). Not significantly different: " << clique_text(ra) << ".";
        o << float_table(c.str(), tables.ranks);
    } else {
        o << "% Friedman/Nemenyi not computed: " << ra.reason << "\n";
    }
    return o.str();
}

}  // namespace brec
