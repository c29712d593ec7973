#pragma once
// The board as one self-contained HTML page (`brec report DIR --html FILE`): the Table-2-style
// board (pairs distinguished per group and fine category under both RPC protocols, the BREC
// paper's row beside the brec_reference count, the upper and tight bounds), the CD diagram and
// the category chart, a pair x model matrix whose cells name the pair, its category and hardness
// certificate and, clicked, draw both graphs with every model's T², and the boards' provenance.
// Inline CSS, SVG and JavaScript only: the page references nothing outside itself.

#include <string>

#include <nlohmann/json.hpp>

#include "brec/io/pairs.hpp"
#include "brec/report/analysis.hpp"
#include "brec/report/certificate.hpp"

namespace brec {

struct BoardPageInput {
    const ReportAnalysis* analysis = nullptr;  ///< its results (both protocols) and figures
    const Certificate* certificate = nullptr;  ///< hardness and tight-bound verdicts per pair, or none
    const PairDataset* pairs = nullptr;        ///< the boards' pairs (drawn on click), or none
    /// `brec eval --list-models --json` (paper rows, bounds, tight bounds), or null.
    nlohmann::json model_list;
};

/// The page. Numbers of the board tables carry data-model, data-task and data-protocol attributes
/// (tasks as in the report: the four BREC groups and "Total"), so that a test can read them back.
/// Throws InvalidArgument when the results hold no RPC runs of BREC pairs.
std::string board_page_html(const BoardPageInput& input);

/// The board as one Markdown table, a row per model (the README's Models table): per fine category
/// and in total "hotelling / brec_reference" pairs distinguished (mean over seeds; "(k of N)" when
/// only k of the model's N pairs of the category have a record, "—" when it has none of the
/// category's pairs, "–" when none has a record yet), the paper's row, and the coverage: pairs run of the model's
/// pairs, not run (the cost rule or memory), pending, reliability failures per protocol and CPU hours; then a total
/// row. Throws as board_page_html.
std::string board_table_markdown(const BoardPageInput& input);

}  // namespace brec
