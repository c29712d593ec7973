// The board page from a hand-made board: the counts per group and protocol, the paper's row from a
// model list, the upper and tight bounds from a certificate, the matrix data, the provenance, and
// nothing referenced outside the page. (tests/html checks the page in a real browser.)
#include "brec/report/board_page.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "brec/io/board_manifest.hpp"
#include "brec/io/files.hpp"
#include "brec/report/results.hpp"
#include "board_fixture.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

/// The fixture board, with a segment to show and a model that has no record yet: PPGN on pairs
/// 0-2, of which 2 is not run.
std::string fixture_board() {
    BoardManifest m = testing::fixture_manifest();
    BoardModel ppgn;
    ppgn.name = "ppgn";
    ppgn.settings_id = "later";
    ppgn.file = "ppgn.jsonl";
    ppgn.pairs = parse_id_ranges("0-2");
    ppgn.not_run = {{100, parse_id_ranges("2")}};
    m.models.push_back(ppgn);
    BoardSegment s;
    s.host = "testhost";
    s.git_commit = "0123456789abcdef";
    m.segments = {s};
    return testing::fixture_board("page", m);
}

/// A certify record: its level, and whether GIN's tight bound (1wl here) separates it.
std::string certify_line(int id, const char* category, const char* level, bool tight) {
    return std::string("{\"id\":") + std::to_string(id) + ",\"category\":\"" + category + "\",\"level\":\"" + level +
           "\",\"hardness\":\"" + level +
           "\",\"max_fwl\":3,\"n\":10,\"seconds\":0,\"steps\":[],\"tests\":[{\"method\":"
           "\"1wl\",\"distinguished\":" +
           (tight ? "true" : "false") + ",\"rounds\":1,\"seconds\":0}]}\n";
}

std::string cell(const std::string& page, const std::string& task, const std::string& protocol,
                 const std::string& model = "gin") {
    const std::regex re("data-model=\"" + model + "\" data-task=\"" + task + "\" data-protocol=\"" + protocol +
                        "\">([^<]*)<");
    std::smatch m;
    return std::regex_search(page, m, re) ? m[1].str() : "(none)";
}

TEST(BoardPage, CountsBoundsMatrixAndProvenance) {
    ResultReader reader;
    reader.add_file(fixture_board());
    const ReportAnalysis analysis = analyse_results(reader.finish());
    // Pairs 0 and 1 are 1-WL pairs, 2 is beyond; GIN's tight bound separates 1 only.
    const Certificate certificate =
        parse_certificate(certify_line(0, "basic", "1wl", false) + certify_line(1, "basic", "1wl", true) +
                              certify_line(2, "basic", "2fwl", false) + certify_line(60, "regular", "3fwl", false) +
                              certify_line(61, "regular", "beyond", false) + certify_line(300, "cfi", "2fwl", false) +
                              certify_line(360, "four_vertex_condition", "3fwl", false),
                          "certify.jsonl");
    BoardPageInput in;
    in.analysis = &analysis;
    in.certificate = &certificate;
    in.model_list = nlohmann::json::parse(
        R"([{"name": "gin", "bound": "1wl", "tight_bound": "1wl", "paper": {"basic": 0, "regular": 0,
            "extension": 0, "cfi": 0, "total": 0}}])");
    const std::string page = board_page_html(in);
    EXPECT_EQ(cell(page, "Basic", "hotelling"), "1");
    EXPECT_EQ(cell(page, "Basic", "brec_reference"), "0");
    EXPECT_EQ(cell(page, "Total", "hotelling"), "1");
    EXPECT_EQ(cell(page, "basic", "hotelling"), "1");
    EXPECT_EQ(cell(page, "Regular", "hotelling"), "0");
    EXPECT_EQ(cell(page, "Basic", "paper"), "0");
    EXPECT_EQ(cell(page, "Basic", "upper"), "2");  // the 1-WL pairs 0 and 1
    EXPECT_EQ(cell(page, "Basic", "tight"), "1");
    EXPECT_EQ(cell(page, "Total", "upper"), "2");
    EXPECT_EQ(cell(page, "Regular", "upper"), "0");
    // The matrix data: pairs 0-2, 60, 61, 300, 360 in order; 360 not run.
    EXPECT_NE(page.find("\"states\":{\"brec_reference\":\"nnunnnx\",\"hotelling\":\"nsnnnnx\"}"), std::string::npos);
    // PPGN has a row though it has no record yet: no counts, its pairs pending or not run.
    EXPECT_EQ(cell(page, "Basic", "hotelling", "ppgn"), "–");
    EXPECT_EQ(cell(page, "basic", "brec_reference", "ppgn"), "–");
    EXPECT_NE(page.find("\"states\":{\"brec_reference\":\"--x    \",\"hotelling\":\"--x    \"}"), std::string::npos);
    EXPECT_NE(page.find("<td class=\"num\">0</td><td class=\"num\">0 / 0</td><td class=\"num\">0</td><td "
                        "class=\"num\">1</td><td class=\"num\">2</td></tr>"),
              std::string::npos);  // ppgn: run 0, unreliable 0 / 0, skipped 0, not run 1, pending 2
    EXPECT_NE(page.find("testhost"), std::string::npos);
    EXPECT_NE(page.find("<code>0123456789ab</code>"), std::string::npos);
    // Self-contained: no src, href, url() or @import, and no URL but the SVG namespace.
    EXPECT_FALSE(std::regex_search(page, std::regex(R"(\b(src|href)\s*=|url\(|@import)")));
    const std::string stripped = std::regex_replace(page, std::regex("http://www\\.w3\\.org/2000/svg"), "");
    EXPECT_EQ(stripped.find("http"), std::string::npos);
}

TEST(BoardPage, MarkdownTableCountsAndCoverage) {
    // The fixture's records, each taking half an hour: 3 CPU hours in all.
    const std::string dir = fixture_board();
    std::string records = read_text_file(dir + "/gin.jsonl");
    records = std::regex_replace(records, std::regex("\"seconds\": 1\\.5"), "\"seconds\": 1800");
    write_text_file_atomic(dir + "/gin.jsonl", records);
    ResultReader reader;
    reader.add_file(dir);
    const ReportAnalysis analysis = analyse_results(reader.finish());
    BoardPageInput in;
    in.analysis = &analysis;
    in.model_list = nlohmann::json::parse(
        R"([{"name": "gin", "paper": {"basic": 1, "regular": 2, "extension": 3, "cfi": 4, "total": 10}}])");
    const std::string table = board_table_markdown(in);
    // GIN: Basic pair 1 separated under hotelling, pair 2 unreliable under brec_reference; no
    // Extension, SR or DR pair; 4-vertex pair 360 not run. PPGN: Basic 0-2, none run yet, 2 not run.
    EXPECT_NE(table.find("| `gin` | 1 / 0 | 0 / 0 | — | — | 0 / 0 | – | — | 1 / 0 (6 of 7) | 1/2/3/4 (10) | 6 / 7 | 1 "
                         "| 0 | 0 / 1 | 3.00 |\n"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("| `ppgn` | – | — | — | — | — | — | — | – | – | 0 / 3 | 1 | 2 | 0 / 0 | 0.00 |\n"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("| total | | | | | | | | | | 6 / 10 | 2 | 2 | 0 / 1 | 3.00 |\n"), std::string::npos) << table;
    EXPECT_EQ(table.rfind("| model | Basic | Regular | SR | Extension | CFI | 4-vertex | DR | Total |", 0), 0u);
}

TEST(BoardPage, RecordsWithoutPairsAreRefused) {
    ResultReader reader;
    reader.add_text("task,model,seed,value\nA,m,1,0.5\n", "scores.csv");
    const ReportAnalysis analysis = analyse_results(reader.finish());
    BoardPageInput in;
    in.analysis = &analysis;
    EXPECT_THROW(board_page_html(in), InvalidArgument);
}

}  // namespace
}  // namespace brec
