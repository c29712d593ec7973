// brec count: formats, per-node rows, pattern selection, atomic --out, bad input; and the counting
// datasets of --generate (sizes, split proportions, exact labels, determinism across --jobs).
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "cli/cli_util.hpp"

namespace {

using clitest::brec;
using clitest::Result;
using clitest::temp_path;
using clitest::write_file;

/// K4 then the 4-cycle then the star K1,3 as graph6 lines.
std::string fixture() {
    using namespace brec;
    return to_graph6(make_complete(4)) + "\n" + to_graph6(make_cycle(4)) + "\n" +
           to_graph6(make_graph(4, {{0, 1}, {0, 2}, {0, 3}})) + "\n";
}

std::vector<std::vector<std::string>> tsv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::istringstream cols(line);
        for (std::string c; std::getline(cols, c, '\t');) cells.push_back(c);
        rows.push_back(cells);
    }
    return rows;
}

TEST(CountCli, JsonLinesHoldEveryPatternPerGraph) {
    const std::string in = write_file("three.g6", fixture());
    const Result r = brec("count " + in + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<nlohmann::json> objs;
    for (std::string line; std::getline(lines, line);) objs.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(objs.size(), 3u);
    EXPECT_EQ(objs[0]["graph"], "0");
    EXPECT_EQ(objs[0]["n"], 4);
    EXPECT_EQ(objs[0]["m"], 6);
    EXPECT_EQ(objs[0]["counts"]["4-clique"], 1);
    EXPECT_EQ(objs[0]["counts"]["triangle"], 4);
    EXPECT_EQ(objs[0]["counts"]["2-path"], 0);
    EXPECT_EQ(objs[0]["counts"]["3-star-noninduced"], 4);
    EXPECT_EQ(objs[0]["counts"].size(), 9u);
    EXPECT_EQ(objs[1]["counts"]["4-cycle"], 1);
    EXPECT_EQ(objs[1]["counts"]["2-path"], 4);
    EXPECT_EQ(objs[2]["counts"]["3-star"], 1);
    EXPECT_EQ(objs[2]["counts"]["3-star-noninduced"], 1);
    EXPECT_FALSE(objs[0].contains("per_node"));
    const Result pn = brec("count " + in + " --json --per-node --patterns triangle,3-star");
    ASSERT_EQ(pn.code, 0) << pn.err;
    const auto first = nlohmann::json::parse(pn.out.substr(0, pn.out.find('\n')));
    EXPECT_EQ(first["counts"].size(), 2u);
    EXPECT_EQ(first["per_node"]["triangle"], nlohmann::json::array({3, 3, 3, 3}));
    const auto last = clitest::last_json_line(pn.out);
    EXPECT_EQ(last["per_node"]["3-star"], nlohmann::json::array({1, 1, 1, 1}));
}

TEST(CountCli, TsvAndTableAgreeAndPerNodeHasOneRowPerNode) {
    const std::string in = write_file("three.g6", fixture());
    const Result tsv = brec("count " + in + " --tsv --patterns 4-cycle,triangle");
    ASSERT_EQ(tsv.code, 0) << tsv.err;
    const auto rows = tsv_rows(tsv.out);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"graph", "n", "m", "4-cycle", "triangle"}));
    EXPECT_EQ(rows[1], (std::vector<std::string>{"0", "4", "6", "0", "4"}));
    EXPECT_EQ(rows[2], (std::vector<std::string>{"1", "4", "4", "1", "0"}));
    const Result pn = brec("count " + in + " --tsv --per-node --patterns 3-star-noninduced");
    ASSERT_EQ(pn.code, 0) << pn.err;
    const auto node_rows = tsv_rows(pn.out);
    ASSERT_EQ(node_rows.size(), 13u);  // header + 3 graphs x 4 nodes
    EXPECT_EQ(node_rows[0], (std::vector<std::string>{"graph", "node", "3-star-noninduced"}));
    EXPECT_EQ(node_rows[9], (std::vector<std::string>{"2", "0", "1"}));  // the star's centre
    const Result table = brec("count " + in);
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("chordal-cycle"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("3-star-noninduced"), std::string::npos) << table.out;
    EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 5) << table.out;  // header, rule, 3 rows
}

TEST(CountCli, OutWritesTheSameCountsAtomically) {
    const std::string in = write_file("three.g6", fixture());
    const std::string out = temp_path("counts.jsonl");
    const Result r = brec("count " + in + " --json --out " + out);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wrote " + out), std::string::npos) << r.out;
    const std::string text = brec::read_text_file(out);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
    EXPECT_EQ(clitest::last_json_line(text)["counts"]["3-star"], 1);
}

TEST(CountCli, BadInputIsOneLineErrorWithFileAndLineAndNoOutputFile) {
    const std::string in = write_file("bad.g6", fixture() + "C~\n!!!bad\n");
    const std::string out = temp_path("never.tsv");
    const Result r = brec("count " + in + " --tsv --out " + out);
    clitest::expect_one_line_error(r, "bad.g6");
    EXPECT_NE(r.err.find("bad.g6:5:"), std::string::npos) << r.err;  // file:line:column
    EXPECT_FALSE(brec::file_exists(out));
    clitest::expect_one_line_error(brec("count " + in + " --patterns pentagon"), "unknown pattern 'pentagon'");
    clitest::expect_one_line_error(brec("count " + temp_path("missing.g6")), "missing.g6");
    clitest::expect_one_line_error(brec("count"), "give a graph file");
    clitest::expect_one_line_error(brec("count --generate er"), "needs --out");
    clitest::expect_one_line_error(brec("count --generate ba --out x"), "--generate");
}

std::map<std::string, std::string> dataset_files(const std::string& dir) {
    std::map<std::string, std::string> files;
    for (const char* f : {"graphs.g6", "counts.tsv", "train.txt", "validation.txt", "test.txt", "meta.json"})
        files[f] = brec::read_text_file(dir + "/" + f);
    return files;
}

std::size_t lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(CountCli, GeneratedDatasetsAreIdenticalForAnyJobsAndSplit30To50) {
    const std::string a = temp_path("sbm_j1"), b = temp_path("sbm_j2"), c = temp_path("sbm_seed2");
    ASSERT_EQ(brec("count --generate sbm --graphs 300 --seed 7 --jobs 1 --quiet --out " + a).code, 0);
    const Result rb = brec("count --generate sbm --graphs 300 --seed 7 --jobs 2 --json --out " + b);
    ASSERT_EQ(rb.code, 0) << rb.err;
    ASSERT_EQ(brec("count --generate sbm --graphs 300 --seed 8 --jobs 2 --quiet --out " + c).code, 0);
    const auto fa = dataset_files(a), fb = dataset_files(b), fc = dataset_files(c);
    EXPECT_EQ(fa, fb);
    EXPECT_NE(fa.at("graphs.g6"), fc.at("graphs.g6"));
    EXPECT_EQ(lines(fa.at("graphs.g6")), 300u);
    EXPECT_EQ(lines(fa.at("train.txt")), 90u);
    EXPECT_EQ(lines(fa.at("validation.txt")), 60u);
    EXPECT_EQ(lines(fa.at("test.txt")), 150u);
    const auto summary = clitest::last_json_line(rb.out);
    EXPECT_EQ(summary["graphs"], 300);
    EXPECT_NEAR(summary["mean_edges"].get<double>(), 70.5, 3.0);  // 40.5 inside + 30 between blocks
    // The labels are the counts of brec count on the written graphs, line by line.
    const Result counted = brec("count " + a + "/graphs.g6 --tsv");
    ASSERT_EQ(counted.code, 0) << counted.err;
    const auto want = tsv_rows(counted.out), got = tsv_rows(fa.at("counts.tsv"));
    ASSERT_EQ(want.size(), got.size());
    EXPECT_EQ(got[0][0], "id");
    EXPECT_EQ(got[0][1], "split");
    for (std::size_t i = 1; i < got.size(); ++i) {
        EXPECT_EQ(got[i][2], "30");
        EXPECT_EQ(std::vector<std::string>(got[i].begin() + 2, got[i].end()),
                  std::vector<std::string>(want[i].begin() + 1, want[i].end()));
    }
}

TEST(CountCli, ErDatasetsHaveTheOriginalSizes) {
    const std::string dir = temp_path("er"), ood = temp_path("er_ood");
    ASSERT_EQ(brec("count --generate er --jobs 2 --quiet --out " + dir).code, 0);
    ASSERT_EQ(brec("count --generate er-ood --graphs 500 --quiet --out " + ood).code, 0);
    const auto f = dataset_files(dir), g = dataset_files(ood);
    EXPECT_EQ(lines(f.at("graphs.g6")), 5000u);
    EXPECT_EQ(lines(f.at("train.txt")), 1500u);
    EXPECT_EQ(lines(f.at("validation.txt")), 1000u);
    EXPECT_EQ(lines(f.at("test.txt")), 2500u);
    const auto meta = nlohmann::json::parse(f.at("meta.json")), meta_ood = nlohmann::json::parse(g.at("meta.json"));
    EXPECT_EQ(meta["parameters"]["p"], 0.4);
    EXPECT_EQ(meta["parameters"]["n"], 10);
    EXPECT_NEAR(meta["mean_edges"].get<double>(), 18.0, 0.5);  // 45 pairs x 0.4
    EXPECT_EQ(meta_ood["parameters"]["p"], 0.8);
    EXPECT_NEAR(meta_ood["mean_edges"].get<double>(), 36.0, 1.0);
    // Every id is in exactly one split file.
    std::vector<int> seen(5000, 0);
    for (const char* s : {"train.txt", "validation.txt", "test.txt"}) {
        std::istringstream in(f.at(s));
        for (int id; in >> id;) ++seen.at(static_cast<std::size_t>(id));
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 5000);
}

}  // namespace
