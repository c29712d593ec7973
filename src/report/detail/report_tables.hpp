#pragma once
// The tables of a report, built once from its analysis; the Markdown and LaTeX documents write
// them with their own syntax (private to the report module).

#include <vector>

#include "brec/report/analysis.hpp"
#include "brec/report/table.hpp"

namespace brec::detail {

struct ReportTables {
    Table cells;      ///< task × model: mean ± half-width, best in bold
    Table bootstrap;  ///< task × model: bootstrap intervals (no rows without them)
    /// model × protocol: both RPC protocols' counts per task (no rows unless records carry both)
    Table protocols;
    std::vector<Table> comparisons;  ///< one per entry of ReportAnalysis::comparisons
    Table ranks;                     ///< models by mean rank (no rows when ranks are unavailable)
    Table values;                    ///< every per-seed value with the lines it came from
};

/// Builds every table of the report. Complexity: O(cells · seeds + comparisons).
ReportTables report_tables(const ReportAnalysis& a);

}  // namespace brec::detail
