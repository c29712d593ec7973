#pragma once
// Rendering a ReportAnalysis: Markdown, LaTeX and JSON documents, the Demšar critical-difference
// diagram and the per-category bar chart of BREC results as standalone SVG.
//
// @article{demsar2006statistical, title={Statistical comparisons of classifiers over multiple data
//   sets}, author={Dem{\v{s}}ar, Janez}, journal={JMLR}, volume={7}, pages={1--30}, year={2006}}

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "brec/report/analysis.hpp"

namespace brec {

/// The report as Markdown: inputs, per-cell mean ± CI table, per-task pairwise tables (paired t
/// and Wilcoxon, Holm-adjusted, side by side with their agreement), Friedman test and CD,
/// notes, and an appendix with every per-seed value and the file and line it came from.
std::string report_markdown(const ReportAnalysis& a);

/// The same tables as a LaTeX fragment (booktabs; \input into a document).
std::string report_latex(const ReportAnalysis& a);

/// Everything as JSON, full precision, including the per-seed values and their sources:
/// {"command":"report","inputs","alpha","tasks","models","cells":[{task, model, n, mean,
/// half_width, lower, upper, [bootstrap_half_width], [pairs, reliability_failures],
/// values:[{seed, value, source}]}], "comparisons":[{task, direction, rows:[{a, b, n,
/// mean_difference, t, p_t, p_t_holm, w_plus, p_w, p_w_holm, wilcoxon_exact, dz, agreement,
/// better}]}], "friedman":{available, reason | tasks, mean_ranks, ranks, chi2, df, p_value,
/// chi2_ties, p_value_ties, q_alpha, cd, cliques}, "notes"}. A cell with one seed has no
/// interval: its half_width, lower and upper are null. Infinite statistics are null as well.
nlohmann::json report_json(const ReportAnalysis& a);

/// Demšar's critical-difference diagram: a mean-rank axis 1..k (1 = best, on the left;
/// `class="axis"`), the CD scale bar from rank 1 to rank 1 + CD (`class="cd-bar"`, true length even
/// when CD exceeds k − 1), one line per model to its label "name (mean rank)" (`class="model"`;
/// best half to the left, rest to the right) and one thick bar per clique (`class="clique"`)
/// joining models whose mean ranks span less than CD. The drawing is sized from the label lengths.
/// Throws InvalidArgument if names and ranks differ in size, fewer than 2 models are given, CD is
/// not positive or a clique names no model.
std::string cd_diagram_svg(const std::vector<std::string>& models,
                           const std::vector<double>& mean_ranks, double cd,
                           const std::vector<std::vector<int>>& cliques,
                           const std::string& title = "");

/// Grouped bar chart of a report: per task a bar per model, height = mean as a percentage of
/// the category's pairs (BREC) or the raw mean otherwise, with the CI as error bars.
std::string category_chart_svg(const ReportAnalysis& a);

/// The files of a report directory, (name, content): report.md, report.tex and report.json for
/// the requested formats ("md", "latex", "json"), cd.svg when the ranks could be computed, and
/// categories.svg for BREC results. Throws InvalidArgument for an unknown format.
std::vector<std::pair<std::string, std::string>> report_files(
    const ReportAnalysis& a, const std::vector<std::string>& formats);

}  // namespace brec
