#pragma once
// The figures of a statistics report as standalone SVG: Demšar's critical-difference diagram and
// the per-category bar chart of BREC results.
//
// @article{demsar2006statistical, title={Statistical comparisons of classifiers over multiple data
//   sets}, author={Dem{\v{s}}ar, Janez}, journal={JMLR}, volume={7}, pages={1--30}, year={2006}}

#include <string>
#include <vector>

#include "brec/report/analysis.hpp"

namespace brec {

/// Demšar's critical-difference diagram: a mean-rank axis 1..k (1 = best, on the left;
/// `class="axis"`), the CD scale bar from rank 1 to rank 1 + CD (`class="cd-bar"`, true length even
/// when CD exceeds k − 1), one line per model to its label "name (mean rank)" (`class="model"`;
/// best half to the left, rest to the right) and one thick bar per clique (`class="clique"`)
/// joining models whose mean ranks span less than CD. The drawing is sized from the label lengths.
/// Throws InvalidArgument if names and ranks differ in size, fewer than 2 models are given, CD is
/// not positive or a clique names no model.
std::string cd_diagram_svg(const std::vector<std::string>& models, const std::vector<double>& mean_ranks, double cd,
                           const std::vector<std::vector<int>>& cliques, const std::string& title = "");

/// The CD diagram of a report's rank analysis, titled with α and N. Throws InvalidArgument when
/// the ranks were not computed.
std::string cd_diagram_svg(const ReportAnalysis& a);

/// Grouped bar chart of a report: per task a bar per model, height = mean as a percentage of
/// the category's pairs (BREC) or the raw mean otherwise, with the CI as error bars.
/// Throws InvalidArgument when the report has no task or no model.
std::string category_chart_svg(const ReportAnalysis& a);

}  // namespace brec
