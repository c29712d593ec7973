// The documents and figures of a report directory, and the report formats by name.
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/report/figures.hpp"
#include "brec/report/render.hpp"

namespace brec {

ReportFormat parse_report_format(const std::string& name) {
    if (name == "md" || name == "markdown") return ReportFormat::markdown;
    if (name == "latex" || name == "tex") return ReportFormat::latex;
    if (name == "json") return ReportFormat::json;
    throw InvalidArgument("unknown report format '" + name + "' (expected md, latex or json)");
}

std::vector<ReportFormat> parse_report_formats(const std::string& list) {
    std::vector<ReportFormat> out;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(parse_report_format(item));
    return out;
}

const char* report_file_name(ReportFormat format) {
    switch (format) {
        case ReportFormat::markdown:
            return "report.md";
        case ReportFormat::latex:
            return "report.tex";
        case ReportFormat::json:
            return "report.json";
    }
    return "report";
}

std::string render_report(const ReportAnalysis& a, ReportFormat format) {
    switch (format) {
        case ReportFormat::markdown:
            return report_markdown(a);
        case ReportFormat::latex:
            return report_latex(a);
        case ReportFormat::json:
            return report_json(a).dump(1) + "\n";
    }
    throw InvalidArgument("unknown report format");
}

std::vector<ReportFile> report_files(const ReportAnalysis& a, const std::vector<ReportFormat>& formats, bool figures) {
    const std::vector<ReportFormat> wanted =
        formats.empty() ? std::vector<ReportFormat>{ReportFormat::markdown, ReportFormat::latex, ReportFormat::json}
                        : formats;
    std::vector<ReportFile> out;
    for (const ReportFormat f : wanted) out.push_back({report_file_name(f), render_report(a, f)});
    if (!figures) return out;
    if (a.ranks.available) out.push_back({"cd.svg", cd_diagram_svg(a)});
    if (a.results.brec) out.push_back({"categories.svg", category_chart_svg(a)});
    return out;
}

std::vector<ReportFile> report_files(const ReportAnalysis& a, const std::vector<std::string>& formats) {
    std::vector<ReportFormat> parsed;
    for (const auto& f : formats) parsed.push_back(parse_report_format(f));
    return report_files(a, parsed);
}

}  // namespace brec
