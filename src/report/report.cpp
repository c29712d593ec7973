#include "brec/report/report.hpp"

#include <filesystem>
#include <optional>

#include "brec/core/error.hpp"
#include "brec/io/sha256.hpp"
#include "brec/report/board_page.hpp"
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

/// The pairs to draw on the board page: the boards' dataset if its file still has the manifest's
/// SHA-256, else `fallback` if that one has it; without a board, `fallback` as it is.
std::optional<PairDataset> page_pairs(const ResultSet& results, const std::string& fallback,
                                      std::vector<std::string>& notes) {
    if (results.boards.empty()) {
        if (fallback.empty()) return std::nullopt;
        return read_pair_file(fallback);
    }
    const BoardManifest& m = results.boards.front().second;
    for (const std::string& path : {m.dataset, fallback})
        if (!path.empty() && std::filesystem::is_regular_file(path) && sha256_file(path) == m.dataset_sha256)
            return read_pair_file(path);
    notes.push_back("the board page draws no pairs: neither " + m.dataset +
                    (fallback.empty() ? std::string() : " nor " + fallback) + " has the board's SHA-256");
    return std::nullopt;
}

/// The certificates of the board page: --certificate, else the first board's certify.jsonl.
std::optional<Certificate> page_certificate(const ReportRequest& request, const ResultSet& results) {
    if (!request.certificate.empty()) return read_certificate(request.certificate);
    for (const auto& [dir, manifest] : results.boards)
        if (std::filesystem::is_regular_file(dir + "/certify.jsonl")) return read_certificate(dir + "/certify.jsonl");
    return std::nullopt;
}

}  // namespace

ReportOutput make_report(const ReportRequest& request) {
    ResultReader reader(request.read);
    for (const auto& path : request.inputs) reader.add_file(path);
    const ResultSet results = reader.finish();
    ReportOutput out;
    if (!request.certificate.empty() && !request.html) return certificate_report(request, results);
    const ReportAnalysis analysis = analyse_results(results, request.statistics);
    out.notes = analysis.notes;
    if (request.html) {
        const auto pairs = page_pairs(results, request.html_dataset, out.notes);
        const auto certificate = page_certificate(request, results);
        BoardPageInput page;
        page.analysis = &analysis;
        page.pairs = pairs ? &*pairs : nullptr;
        page.certificate = certificate ? &*certificate : nullptr;
        if (!request.model_list.empty()) page.model_list = nlohmann::json::parse(request.model_list, nullptr, false);
        out.html = board_page_html(page);
    }
    if (!request.certificate.empty()) {
        ReportOutput view = certificate_report(request, results);
        view.html = std::move(out.html);
        return view;
    }
    out.files = report_files(analysis, request.formats, request.figures);
    return out;
}

}  // namespace brec
