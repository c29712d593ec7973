#include "brec/report/report.hpp"

#include "brec/core/error.hpp"
#include "brec/report/certificate.hpp"

namespace brec {
namespace {

ReportOutput certificate_report(const ReportRequest& request, const ResultSet& results) {
    const Certificate certificate = read_certificate(request.certificate);
    const TightBounds tight =
        request.model_list.empty() ? TightBounds{} : parse_tight_bounds(request.model_list, request.model_list_source);
    const CertificateView view = certificate_view(results, certificate, tight);
    ReportOutput out;
    out.notes = results.notes;
    out.notes.insert(out.notes.end(), view.notes.begin(), view.notes.end());
    const std::vector<ReportFormat> forms = request.formats.empty()
                                                ? std::vector<ReportFormat>{ReportFormat::markdown, ReportFormat::json}
                                                : request.formats;
    for (const ReportFormat f : forms) {
        if (f == ReportFormat::latex)
            throw InvalidArgument("the certificate view has a Markdown and a JSON form, no LaTeX");
        if (f == ReportFormat::markdown)
            out.files.push_back({"certificate.md", certificate_markdown(view)});
        else
            out.files.push_back({"certificate.json", certificate_json(view).dump(1) + "\n"});
    }
    return out;
}

}  // namespace

ReportOutput make_report(const ReportRequest& request) {
    ResultReader reader(request.read);
    for (const auto& path : request.inputs) reader.add_file(path);
    const ResultSet results = reader.finish();
    if (!request.certificate.empty()) return certificate_report(request, results);
    const ReportAnalysis analysis = analyse_results(results, request.statistics);
    ReportOutput out;
    out.notes = analysis.notes;
    out.files = report_files(analysis, request.formats, request.figures);
    return out;
}

}  // namespace brec
