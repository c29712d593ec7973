// The Markdown document of a report: its prose around the tables of detail/report_tables.
#include <sstream>

#include "brec/report/render.hpp"
#include "brec/report/table.hpp"
#include "detail/format.hpp"
#include "detail/report_tables.hpp"

namespace brec {
namespace {

using detail::fixed;
using detail::pvalue;

std::string clique_text(const RankAnalysis& r) { return detail::clique_text(r, markdown_escape, "{", "}"); }

/// The footnotes of a table as one sentence tail: "; *: normal approximation".
std::string footnote_text(const Table& t) {
    std::string out;
    for (const auto& [mark, meaning] : t.footnotes) out += "; " + mark + ": " + meaning;
    return out;
}

}  // namespace

std::string report_markdown(const ReportAnalysis& a) {
    const auto& rs = a.results;
    const auto tables = detail::report_tables(a);
    const std::string conf = detail::percent_label(a.options.alpha);
    const int seeds = detail::common_seeds(a);
    std::ostringstream o;
    o << "# brec report\n\n";
    o << "Inputs: ";
    for (std::size_t i = 0; i < rs.inputs.size(); ++i) o << (i ? ", " : "") << "`" << rs.inputs[i] << "`";
    o << "  \n"
      << rs.records.size() << " per-seed results: " << rs.tasks.size() << " tasks × " << rs.models.size() << " models"
      << (seeds > 0 ? ", " + std::to_string(seeds) + (seeds == 1 ? " seed" : " seeds") + " per cell" : "")
      << "; α = " << a.options.alpha
      << (rs.brec ? "; values are distinguished pairs per category (reliable pairs only)" : "")
      << (rs.rpc ? std::string(", counted under the ") + protocol_name(rs.protocol) + " RPC protocol" : "") << ".\n\n";

    o << "## Per-cell results\n\n";
    o << "Mean ± half-width of the " << conf << "% Student-t interval, t_{S−1, 1−α/2} · s / √S over the S seeds"
      << (seeds > 0 ? "" : " (S in parentheses)") << "; best mean per task in bold"
      << (rs.brec ? "; [rf N]: reliability failures summed over seeds" : "")
      << (detail::single_seed_cells(a) ? "; a cell with one seed shows its value only (no interval)" : "") << ".\n\n"
      << markdown_table(tables.cells);
    if (a.options.bootstrap)
        o << "\nPercentile bootstrap (B = " << a.options.resamples << ", seed " << a.options.bootstrap_seed
          << "): mean ± half-width of the " << conf << "% interval.\n\n"
          << markdown_table(tables.bootstrap);
    // brec_reference (text below): the T² of GraphPKU/BREC @966b5ed's test_BREC*.py (brec/stats/hotelling.hpp).
    if (!tables.protocols.rows.empty())
        o << "\n## Both RPC protocols\n\n"
          << "Distinguished pairs (reliable pairs only) per model under each RPC decision "
             "protocol, "
             "mean over the seeds; [rf N]: reliability failures summed over seeds; total: the sum "
             "over the tasks; –: the records do not carry that protocol. hotelling: Hotelling's "
             "T² = q · d̄ᵀ S⁺ d̄ against the F threshold calibrated for it; brec_reference: the "
             "statistic of the released BREC code, without the factor q (q times stricter), with "
             "its isclose equality test, which produced the published counts. The per-cell results "
             "above count "
          << protocol_name(rs.protocol) << " (in bold).\n\n"
          << markdown_table(tables.protocols);

    o << "\n## Pairwise comparisons per task\n\n";
    o << "Paired by seed. Paired t-test and Wilcoxon signed-rank test (zeros dropped; exact null "
         "up to "
      << a.options.wilcoxon_exact_limit
      << " non-zero differences, else normal approximation with tie correction), two-sided, each "
         "Holm-corrected over the task's comparisons; d_z = mean(A − B) / sd(A − B); agreement: "
         "which tests reject at α = "
      << a.options.alpha << " after correction.\n";
    for (std::size_t i = 0; i < a.comparisons.size(); ++i) {
        const auto& tc = a.comparisons[i];
        o << "\n### " << markdown_escape(a.task(tc.task).label()) << " (" << (tc.higher_is_better ? "higher" : "lower")
          << " is better)\n\n"
          << markdown_table(tables.comparisons[i]) << "\np-values: Holm-adjusted (raw in parentheses)"
          << footnote_text(tables.comparisons[i]) << ".\n";
    }

    o << "\n## Ranks across tasks (Friedman test, Nemenyi critical difference)\n\n";
    const auto& ra = a.ranks;
    if (!ra.available) {
        o << "Not computed: " << ra.reason << ".\n";
    } else {
        o << "Ranks of the cell means per task (1 = best, ties averaged, direction respected) over "
             "N = "
          << ra.tasks.size() << " tasks.\n\n"
          << markdown_table(tables.ranks);
        const int k = ra.friedman.models;
        const bool rejects = ra.friedman.p_value < a.options.alpha;
        o << "\nFriedman χ²_F = " << fixed(ra.friedman.chi2, 3) << " on " << k - 1
          << " degrees of freedom, p = " << pvalue(ra.friedman.p_value);
        if (ra.friedman.chi2_ties != ra.friedman.chi2)
            o << " (with the tie correction of R's friedman.test: χ² = " << fixed(ra.friedman.chi2_ties, 3)
              << ", p = " << pvalue(ra.friedman.p_value_ties) << ")";
        // Demšar (2006): the post-hoc test is meaningful only once the Friedman test rejects.
        o << (rejects ? ": the models do not all perform alike (significant at α = "
                      : ": no evidence that the models differ (not significant at α = ")
          << a.options.alpha << (rejects ? ")" : "; the Nemenyi groups below are descriptive only)") << ".  \n";
        o << "Nemenyi: q_α = " << fixed(ra.q_alpha, 3)
          << " (studentised range, ∞ d.f., / √2), CD = q_α · √(k(k+1)/(6N)) = " << fixed(ra.cd, 3) << " for k = " << k
          << ", N = " << ra.tasks.size() << ", α = " << a.options.alpha << ".  \n";
        o << "Groups whose mean ranks differ by less than CD (not significantly different): " << clique_text(ra)
          << ".\n\n![Critical-difference diagram](cd.svg)\n";
    }
    if (rs.brec) o << "\n![Distinguished pairs per category](categories.svg)\n";
    if (!a.notes.empty()) {
        o << "\n## Notes\n\n";
        for (const auto& n : a.notes) o << "- " << n << "\n";
    }
    o << "\n## Appendix: per-seed values\n\n" << markdown_table(tables.values);
    return o.str();
}

}  // namespace brec
