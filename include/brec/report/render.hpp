#pragma once
// The documents of a report (Markdown, LaTeX, JSON) and the files of a report directory.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brec/report/analysis.hpp"

namespace brec {

/// The report as Markdown: inputs, per-cell mean ± CI table, per-task pairwise tables (paired t
/// and Wilcoxon, Holm-adjusted, side by side with their agreement), Friedman test and CD,
/// notes, and an appendix with every per-seed value and the file and line it came from.
std::string report_markdown(const ReportAnalysis& a);

/// The same tables as a LaTeX fragment (booktabs; \input into a document), without the columns of
/// detail (per-task ranks, the better model) and the appendix.
std::string report_latex(const ReportAnalysis& a);

/// Everything as JSON, full precision, including the per-seed values and their sources:
/// {"command":"report","inputs","alpha","tasks","models","cells":[{task, model, n, mean,
/// half_width, lower, upper, [bootstrap_half_width], [pairs, reliability_failures],
/// values:[{seed, value, source}]}], "comparisons":[{task, direction, rows:[{a, b, n,
/// mean_difference, t, p_t, p_t_holm, w_plus, p_w, p_w_holm, wilcoxon_exact, dz, agreement,
/// better}]}], "friedman":{available, reason | tasks, mean_ranks, ranks, chi2, df, p_value,
/// chi2_ties, p_value_ties, q_alpha, cd, cliques}, "notes"}. A cell with one seed has no
/// interval: its half_width, lower and upper are null. Infinite statistics are null as well.
/// RPC results add "protocol" (whose counts form the cells) and "protocols":{"hotelling" |
/// "brec_reference": {model: {seeds, tasks:{task: {distinguished, reliability_failures}}, total}}},
/// with null where the records do not carry a protocol.
nlohmann::json report_json(const ReportAnalysis& a);

/// A document format of a report.
enum class ReportFormat { markdown, latex, json };

/// Parses "md" / "markdown", "latex" / "tex" or "json". Throws InvalidArgument naming the three.
ReportFormat parse_report_format(const std::string& name);

/// Parses a comma-separated list of formats ("md,json"); empty items are skipped.
std::vector<ReportFormat> parse_report_formats(const std::string& list);

/// The file name of a document: "report.md", "report.tex" or "report.json".
const char* report_file_name(ReportFormat format);

/// One document of a report, as text.
std::string render_report(const ReportAnalysis& a, ReportFormat format);

/// A file of a report directory.
struct ReportFile {
    std::string name;     ///< file name within the directory
    std::string content;  ///< its text
};

/// The files of a report: report.md, report.tex and report.json for the requested formats (all
/// three when none is given) and, with `figures`, cd.svg when the ranks could be computed and
/// categories.svg for BREC results. A figure is drawn only when asked for, to be written.
std::vector<ReportFile> report_files(const ReportAnalysis& a, const std::vector<ReportFormat>& formats,
                                     bool figures = true);

/// The same with format names ("md", "latex", "json"). Throws InvalidArgument for an unknown one.
std::vector<ReportFile> report_files(const ReportAnalysis& a, const std::vector<std::string>& formats);

}  // namespace brec
