#pragma once
// `brec report` as one library call: read the result files, compute the view (statistics, or the
// certificate view), render the requested documents and figures. Nothing is written here; the
// caller writes the files, so bad input leaves no partial output behind.

#include <string>
#include <vector>

#include "brec/report/analysis.hpp"
#include "brec/report/render.hpp"
#include "brec/report/results.hpp"

namespace brec {

/// What a report is asked for.
struct ReportRequest {
    std::vector<std::string> inputs;  ///< result files (CSV, JSONL, summary JSON)
    ResultReadOptions read;           ///< fine categories; the RPC protocol counted
    ReportOptions statistics;         ///< α, bootstrap, Wilcoxon exact limit
    /// A `brec certify` JSONL file: the certificate view instead of the statistics.
    std::string certificate;
    /// The certificate view: the models' tight bounds (see parse_tight_bounds), as the text of
    /// `brec eval --list-models --json`, and where it came from; empty: no tight-bound section.
    std::string model_list;
    std::string model_list_source;
    /// The documents wanted; empty: every form of the view (Markdown, LaTeX and JSON for the
    /// statistics, Markdown and JSON for the certificate view).
    std::vector<ReportFormat> formats;
    /// Also draw the figures (for a report directory). Without, only the documents are rendered.
    bool figures = true;
    /// Also render the board as one HTML page (board_page.hpp) into ReportOutput::html. Its
    /// certificates come from --certificate, else from the first board directory's certify.jsonl;
    /// its drawings from each board's dataset when that file still has the manifest's SHA-256,
    /// else from `html_dataset` when that one has it (or, without a board, from `html_dataset`).
    bool html = false;
    std::string html_dataset;
    /// Instead of the statistics, the board as one Markdown table (board_table_markdown): the file
    /// board.md.
    bool board_table = false;

    /// Whether the request shows tight bounds (the certificate view or the page): what `model_list`
    /// is for.
    bool uses_model_list() const { return !certificate.empty() || html || board_table; }
};

/// A rendered report.
struct ReportOutput {
    /// Documents in the order asked (report.md, report.tex, report.json or certificate.md,
    /// certificate.json), then the figures (cd.svg, categories.svg) when drawn.
    std::vector<ReportFile> files;
    std::vector<std::string> notes;  ///< what reading and analysing decided that a user should know
    std::string html;                ///< the board page, when asked for
};

/// Checks a request as a command line gives it and fills its defaults. `printed`: the report goes
/// to standard output, so it is one document (Markdown unless `formats` names another) and no
/// figure. Throws InvalidArgument naming the option at fault: several formats printed, a model list
/// without a view that uses it, or two views.
void complete_report_request(ReportRequest& request, bool printed);

/// Reads, analyses and renders. Throws ParseError naming file and line for bad input, IoError for
/// an unreadable file, InvalidArgument for a format the view does not have or a bad option.
ReportOutput make_report(const ReportRequest& request);

/// Writes the page to `html` (when not empty), then the documents and figures into directory `dir`
/// (when not empty; created), all of them or none; returns the paths written, in that order.
std::vector<std::string> write_report(const ReportOutput& report, const std::string& dir, const std::string& html);

}  // namespace brec
