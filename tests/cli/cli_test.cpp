// End-to-end tests of the brec binary: exit codes, one-line errors, JSON summaries, resume.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"
#include "common/result_lines.hpp"

namespace {

// Using-declarations (not a using-directive): the function brec() must be found before namespace brec.
using clitest::brec;
using clitest::expect_one_line_error;
using clitest::last_json_line;
using clitest::Result;
using clitest::temp_path;
using clitest::write_file;

TEST(Cli, HelpExitsZeroAndListsCommands) {
    const Result r = brec("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* c : {"info", "convert", "wl", "certify", "generate", "eval", "report", "dedup", "count"})
        EXPECT_NE(r.out.find(c), std::string::npos) << c;
    EXPECT_EQ(brec("wl --help").code, 0);
    EXPECT_EQ(brec("certify --help").code, 0);
    EXPECT_EQ(brec("").code, 2);  // a subcommand is required
    EXPECT_EQ(brec("frobnicate").code, 2);
}

TEST(Cli, HelpListsOneLinePerCommandAndTheDetailsStayWithTheCommand) {
    const Result r = brec("--help");
    ASSERT_EQ(r.code, 0);
    const auto at = r.out.find("Subcommands:\n");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::istringstream list(r.out.substr(at + 13));
    std::vector<std::string> names;
    for (std::string line; std::getline(list, line);) {
        if (line.empty()) continue;
        ASSERT_EQ(line.rfind("  ", 0), 0u) << "a continuation line: '" << line << "'";
        ASSERT_NE(line[2], ' ') << "a continuation line: '" << line << "'";
        names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"info", "convert", "wl", "certify", "generate", "show", "eval", "attack",
                                        "board", "report", "stats", "dedup", "classify", "count", "export", "rpc"}));
    // The long description moved to the command's own help.
    const Result wl = brec("wl --help");
    EXPECT_EQ(wl.code, 0);
    EXPECT_NE(wl.out.find("spd (shortest-path-distance WL)"), std::string::npos) << wl.out;
    EXPECT_EQ(r.out.find("spd (shortest-path-distance WL)"), std::string::npos);
    const Result generate = brec("generate --help");
    EXPECT_NE(generate.out.find("Default composition = BREC v3"), std::string::npos) << generate.out;
}

TEST(Cli, EvalHandsTheWholeCommandLineToBrecEval) {
    const std::string bin = BREC_BINARY;
    if (!brec::file_exists(bin.substr(0, bin.rfind('/')) + "/brec-eval")) GTEST_SKIP() << "built without LibTorch";
    // Global flags before `eval` and `--help` after it: brec-eval parses both.
    const Result help = brec("--log-level warn eval --help");
    EXPECT_EQ(help.code, 0) << help.err;
    EXPECT_NE(help.out.find("--model"), std::string::npos) << help.out;
    const Result bad = brec("-v eval --no-such-flag");
    expect_one_line_error(bad, "--no-such-flag");
}

TEST(Cli, ResumeNeedsAResultsFileAndNeverOverwrites) {
    expect_one_line_error(brec("certify --pairs 0 --resume"), "--resume requires --out");
    const std::string out = temp_path("resume.jsonl");
    std::remove(out.c_str());
    ASSERT_EQ(brec("wl --pairs 0-2 --quiet --out " + out).code, 0);
    expect_one_line_error(brec("wl --pairs 0-2 --quiet --out " + out),
                          "--out " + out + " already holds results; pass --resume");
    const Result again = brec("wl --pairs 0-4 --quiet --json --resume --out " + out);
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(brec::testing::result_lines(out).size(), 5u) << "pairs 0-2 were not recomputed";
    EXPECT_EQ(last_json_line(again.out)["total"]["pairs"], 5);
    std::remove(out.c_str());
}

TEST(Cli, InfoReportsTheShippedBrecDataset) {
    const Result r = brec("info --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = last_json_line(r.out);
    EXPECT_EQ(j["pairs"], 400);
    EXPECT_EQ(j["graphs"], 800);
    const auto& c = j["categories"];
    EXPECT_EQ(c.size(), 7u);
    EXPECT_EQ(c["basic"]["pairs"], 60);
    EXPECT_EQ(c["regular"]["pairs"], 50);
    EXPECT_EQ(c["strongly_regular"]["pairs"], 50);
    EXPECT_EQ(c["extension"]["pairs"], 100);
    EXPECT_EQ(c["cfi"]["pairs"], 100);
    EXPECT_EQ(c["four_vertex_condition"]["pairs"], 20);
    EXPECT_EQ(c["distance_regular"]["pairs"], 20);
    EXPECT_EQ(c["basic"]["nodes"], nlohmann::json::array({10, 10}));
    EXPECT_EQ(c["cfi"]["nodes"], nlohmann::json::array({18, 198}));
    EXPECT_EQ(c["four_vertex_condition"]["nodes"], nlohmann::json::array({63, 63}));
    EXPECT_EQ(c["four_vertex_condition"]["parameters"]["srg(63,30,13,15) 4vtx(30,45)"], 20);
    // Node ranges and id ranges of all seven categories (checked against networkx).
    const std::pair<const char*, std::array<int, 4>> expected[] = {{"basic", {10, 10, 0, 59}},
                                                                   {"regular", {7, 10, 60, 109}},
                                                                   {"strongly_regular", {16, 35, 110, 159}},
                                                                   {"extension", {10, 19, 160, 259}},
                                                                   {"cfi", {18, 198, 260, 359}},
                                                                   {"four_vertex_condition", {63, 63, 360, 379}},
                                                                   {"distance_regular", {30, 63, 380, 399}}};
    for (const auto& [name, v] : expected) {
        EXPECT_EQ(c[name]["nodes"], nlohmann::json::array({v[0], v[1]})) << name;
        EXPECT_EQ(c[name]["ids"], nlohmann::json::array({v[2], v[3]})) << name;
    }
    EXPECT_EQ(j["command"], "info");
    EXPECT_TRUE(j["isomorphic_pairs"].empty());
    // The official set repeats two graphs (found by canonical certificates); info warns.
    EXPECT_EQ(j["repeated_graphs"].size(), 2u);
    EXPECT_NE(r.err.find("occurs 2 times"), std::string::npos);
    const Result table = brec("info");
    EXPECT_EQ(table.code, 0);
    EXPECT_NE(table.out.find("400 pairs, 800 graphs"), std::string::npos);
}

TEST(Cli, MalformedInputsGiveOneLineErrorsAndExitCode2) {
    const std::string truncated = write_file("trunc.tsv", "0\tbasic\tICZJvZsNg\tICrbut{\n");
    expect_one_line_error(brec("info " + truncated), truncated + ":1:");
    expect_one_line_error(brec("info " + truncated), "truncated");
    const std::string badchar = write_file("badchar.tsv", "# x\n0\tbasic\tICZJv!sNg\tICrbut{{W\n");
    expect_one_line_error(brec("wl --dataset " + badchar), badchar + ":2:");
    const std::string columns = write_file("cols.tsv", "0\tbasic\tICZJvZsNg\n");
    expect_one_line_error(brec("info " + columns), "expected 4 tab-separated columns");
    const std::string negative = write_file("neg.tsv", "-4\tbasic\tICZJvZsNg\tICrbut{{W\n");
    expect_one_line_error(brec("info " + negative), "negative");
    const std::string empty = write_file("empty.tsv", "");
    expect_one_line_error(brec("info " + empty), "no pairs found");
    expect_one_line_error(brec("info /nonexistent/pairs.tsv"), "cannot open /nonexistent/pairs.tsv");
    expect_one_line_error(brec("wl --method bogus"), "unknown WL method 'bogus'");
    expect_one_line_error(brec("wl --method 7wl"), "got k = 7");
    expect_one_line_error(brec("wl --category banana"), "unknown category 'banana'");
    expect_one_line_error(brec("wl --pairs 9-3"), "reversed");
    expect_one_line_error(brec("certify --pairs 1000"), "id 1000 is not in");
    // A wide range (a fuzzing reproducer: 70 million ids took 4 s and 1 GB) names the first id the
    // dataset lacks.
    expect_one_line_error(brec("wl --pairs 0-70981333"), "--pairs: id 400 is not in");
    EXPECT_EQ(brec("wl --jobs 0").code, 2);
}

TEST(Cli, WlSummaryJsonHasTheDocumentedShape) {
    const Result r = brec("wl --method 1wl --json --quiet --jobs 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = last_json_line(r.out);
    EXPECT_EQ(s["command"], "wl");
    EXPECT_EQ(s["method"], "1wl");
    EXPECT_EQ(s["total"]["pairs"], 400);
    EXPECT_EQ(s["total"]["distinguished"], 0);
    for (const char* g : {"Basic", "Regular", "Extension", "CFI"}) EXPECT_TRUE(s["groups"].contains(g)) << g;
    EXPECT_EQ(s["groups"]["Regular"]["pairs"], 140);
    // One JSON object per pair before the summary.
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 401);
    const Result f = brec("wl --method 2fwl --json --quiet --category Basic,cfi --reliability");
    ASSERT_EQ(f.code, 0) << f.err;
    const auto s2 = last_json_line(f.out);
    EXPECT_EQ(s2["categories"]["basic"]["distinguished"], 60);
    EXPECT_EQ(s2["categories"]["cfi"]["distinguished"], 60);
    EXPECT_EQ(s2["total"]["reliability_failures"], 0);
}

TEST(Cli, CertifyResumesWithoutRecomputingAndGivesTheSameSummary) {
    const std::string out = temp_path("certify.jsonl");
    std::remove(out.c_str());
    const Result fresh = brec("certify --pairs 100-109,260-265 --max-fwl 2 --json --quiet");
    ASSERT_EQ(fresh.code, 0) << fresh.err;
    const Result part = brec("certify --pairs 100-104 --max-fwl 2 --quiet --out " + out);
    ASSERT_EQ(part.code, 0) << part.err;
    // Simulate an interruption: a torn last line.
    { std::ofstream(out, std::ios::app) << "{\"id\": 105, \"lev"; }
    const Result resumed = brec("certify --pairs 100-109,260-265 --max-fwl 2 --json --quiet --resume --out " + out);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    auto a = last_json_line(fresh.out), b = last_json_line(resumed.out);
    EXPECT_EQ(a["levels"], b["levels"]);
    EXPECT_EQ(a["total"], b["total"]);
    EXPECT_EQ(a["levels"]["cfi"]["2fwl"], 6);
    EXPECT_EQ(a["levels"]["regular"]["2fwl"], 10);
}

}  // namespace

namespace {

TEST(Cli, ConvertRoundTripsAndWritesNoPartialOutput) {
    const std::string brec_tsv = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";
    const std::string s6 = temp_path("brec.s6"), back = temp_path("back.tsv");
    ASSERT_EQ(brec("convert " + brec_tsv + " --to sparse6 --out " + s6).code, 0);
    const Result r = brec("convert " + s6 + " --to pairs --out " + back + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(last_json_line(r.out)["graphs"], 800);
    const Result info = brec("info --json " + back);
    EXPECT_EQ(last_json_line(info.out)["pairs"], 400);
    // A malformed input line: exit 2, one line naming file and line, and no output file.
    const std::string bad = write_file("bad.g6", "C~\nC~~\n");
    const std::string out = temp_path("never.tsv");
    expect_one_line_error(brec("convert " + bad + " --to pairs --out " + out), bad + ":2:");
    EXPECT_FALSE(brec::file_exists(out));
    const std::string tu_bad = temp_path("tu_bad");
    std::system(("mkdir -p " + tu_bad + " && printf '1, 2, 3\\n' > " + tu_bad + "/Q_A.txt && printf '1\\n1\\n' > " +
                 tu_bad + "/Q_graph_indicator.txt")
                    .c_str());
    expect_one_line_error(brec("convert " + tu_bad + " --to graph6 --out " + out), "Q_A.txt:1: expected 2 columns");
    std::system(("printf '1, 5\\n' > " + tu_bad + "/Q_A.txt").c_str());
    expect_one_line_error(brec("convert " + tu_bad + " --to graph6 --out " + out), "node id 5 out of range");
    EXPECT_FALSE(brec::file_exists(out));
    expect_one_line_error(brec("convert /no/such/file.g6 --to tu --out " + out), "cannot open /no/such/file.g6");
    EXPECT_EQ(brec("convert " + brec_tsv + " --to xml --out " + out).code, 2);
}

}  // namespace
