#include "brec/report/report.hpp"

#include <filesystem>
#include <optional>

#include "brec/core/error.hpp"
#include "brec/io/file_set.hpp"
#include "brec/io/files.hpp"
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

/// The request's model list as JSON; null when it has none or it does not parse (no paper rows).
nlohmann::json model_list_json(const ReportRequest& request) {
    return request.model_list.empty() ? nlohmann::json() : nlohmann::json::parse(request.model_list, nullptr, false);
}

/// The board page of a report.
std::string board_page(const ReportRequest& request, const ResultSet& results, const ReportAnalysis& analysis,
                       std::vector<std::string>& notes) {
    const auto pairs = page_pairs(results, request.html_dataset, notes);
    const auto certificate = page_certificate(request, results);
    BoardPageInput page;
    page.analysis = &analysis;
    page.pairs = pairs ? &*pairs : nullptr;
    page.certificate = certificate ? &*certificate : nullptr;
    page.model_list = model_list_json(request);
    return board_page_html(page);
}

}  // namespace

void complete_report_request(ReportRequest& request, bool printed) {
    if (request.board_table && !request.certificate.empty())
        throw InvalidArgument("--board-table and --certificate are two views; give one of them");
    if (request.board_table && !request.formats.empty())
        throw InvalidArgument("--board-table is one Markdown table: drop --format");
    if (printed) {
        if (request.formats.empty()) request.formats = {ReportFormat::markdown};
        if (request.formats.size() != 1)
            throw InvalidArgument("without --out, give exactly one --format (md, latex or json)");
        request.figures = false;  // printed: no figure is drawn
    }
    if (!request.model_list.empty() && !request.uses_model_list())
        throw InvalidArgument(
            "--models gives the bounds and paper rows of --certificate, --html or --board-table; give one of them");
}

ReportOutput make_report(const ReportRequest& request) {
    ResultReader reader(request.read);
    for (const auto& path : request.inputs) reader.add_file(path);
    const ResultSet results = reader.finish();
    // The certificate view needs no statistics; the statistics and the page do.
    std::optional<ReportAnalysis> analysis;
    if (request.certificate.empty() || request.html) analysis = analyse_results(results, request.statistics);
    ReportOutput out;
    if (!request.certificate.empty()) {
        out = certificate_report(request, results);
    } else if (request.board_table) {
        BoardPageInput table;
        table.analysis = &*analysis;
        table.model_list = model_list_json(request);
        out.notes = analysis->notes;
        out.files.push_back({"board.md", board_table_markdown(table)});
    } else {
        out.notes = analysis->notes;
        out.files = report_files(*analysis, request.formats, request.figures);
    }
    if (request.html) out.html = board_page(request, results, *analysis, out.notes);
    return out;
}

std::vector<std::string> write_report(const ReportOutput& report, const std::string& dir, const std::string& html) {
    std::vector<std::string> written;
    if (!html.empty()) {
        write_text_file_atomic(html, report.html);
        written.push_back(html);
    }
    if (dir.empty()) return written;
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& [name, content] : report.files) files.emplace_back(name, content);
    for (auto& path : write_files_atomic(dir, files)) written.push_back(std::move(path));
    return written;
}

}  // namespace brec
