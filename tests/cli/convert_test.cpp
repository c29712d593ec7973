// End-to-end tests of `brec convert` and of the exit-code contract for malformed inputs
// (the contract of every command): exit 2, one line on stderr naming file, line and what was expected, no output.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "brec/io/collection.hpp"
#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

// Using-declarations (not a using-directive): the function brec() must be found before namespace brec.
using clitest::brec;
using clitest::expect_one_line_error;
using clitest::last_json_line;
using clitest::Result;
using clitest::temp_path;
using clitest::write_file;

const std::string kSrc = BREC_SOURCE_DIR;
const std::string kBrec = kSrc + "/datasets/brec/brec_v3_pairs.tsv";

TEST(CliConvert, HelpDocumentsFormatsFlagsAndAnExample) {
    const Result r = brec("convert --help");
    EXPECT_EQ(r.code, 0);
    for (const char* s : {"graph6", "sparse6", "edgelist", "pairs", "tu", "json", "npy", "--relabelings", "--one-based",
                          "--loops", "--duplicates", "--tu-name", "--json", "Example: brec convert"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    expect_one_line_error(brec("convert " + kBrec + " --out x.g6"), "--to is required");
    EXPECT_EQ(brec("convert " + kBrec + " --to xml --out x").code, 2);
    EXPECT_EQ(brec("convert " + kBrec + " --to npy --out x.npy").code, 2);
}

TEST(CliConvert, OfficialPairsRoundTripThroughEveryFormat) {
    const std::string dir = temp_path("fmt");
    ::mkdir(dir.c_str(), 0755);
    const std::string ref = brec::read_text_file(kBrec);
    const brec::GraphCollection want = brec::read_collection(kBrec, brec::GraphFormat::pairs);
    for (const std::string to : {"graph6", "sparse6", "edgelist", "tu", "json"}) {
        const std::string mid = dir + "/brec_" + to + (to == "tu" ? "" : "." + to);
        const Result a = brec("convert " + kBrec + " --to " + to + " --out " + mid + " --json");
        ASSERT_EQ(a.code, 0) << to << ": " << a.err;
        const auto s = last_json_line(a.out);
        EXPECT_EQ(s["command"], "convert");
        EXPECT_EQ(s["from"], "pairs");
        EXPECT_EQ(s["to"], to);
        EXPECT_EQ(s["graphs"], 800);
        EXPECT_EQ(s["pairs"], 400);
        EXPECT_EQ(s["nodes"], nlohmann::json::array({7, 198}));
        const std::string back = dir + "/back_" + to + ".tsv";
        const Result b =
            brec("convert " + mid + " --to pairs --out " + back + (to == "edgelist" ? " --from edgelist" : ""));
        ASSERT_EQ(b.code, 0) << to << ": " << b.err;
        const auto got = brec::read_collection(back, brec::GraphFormat::pairs);
        EXPECT_EQ(got.graphs, want.graphs) << to;
        if (to == "json") {
            EXPECT_EQ(got.categories, want.categories);
        }
    }
}

TEST(CliConvert, ReadsTheBrecAuthorsNpyFiles) {
    const std::string npy = kSrc + "/tests/data/npy/";
    const std::string out = temp_path("from_npy.tsv");
    const Result r = brec("convert " + npy +
                          "relabelled_R4.npy --relabelings 4 --npy-category basic --to pairs --out " + out + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(last_json_line(r.out)["pairs"], 3);
    const auto got = brec::read_pair_file(out);
    const auto official = brec::read_pair_file(kBrec);
    ASSERT_EQ(got.pairs.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(got.pairs[i].a, official.pairs[i].a);
        EXPECT_EQ(got.pairs[i].b, official.pairs[i].b);
        EXPECT_EQ(got.pairs[i].category, "basic");
    }
    const Result rows = brec("convert " + npy + "pairs_rows_S_v1.npy --npy-first-id 60 --to pairs --out " + out);
    ASSERT_EQ(rows.code, 0) << rows.err;
    EXPECT_EQ(brec::read_pair_file(out).pairs[2].id, 62);
    expect_one_line_error(brec("convert " + npy + "objects.npy --to pairs --out " + temp_path("never.tsv")),
                          "astype(str)");
    expect_one_line_error(
        brec("convert " + npy + "relabelled_R4.npy --relabelings 3 --to pairs --out " + temp_path("never.tsv")),
        "check --relabelings");
    EXPECT_FALSE(brec::file_exists(temp_path("never.tsv")));
}

TEST(CliConvert, EdgeListOptionsAndWarnings) {
    const std::string el = write_file("dups.el", "# 1-based\n1 2\n2 1\n2 3\n3 3\n");
    const std::string out = temp_path("dups.g6");
    expect_one_line_error(brec("convert " + el + " --one-based --to graph6 --out " + out),
                          el + ":5: self-loop at vertex 3");
    expect_one_line_error(brec("convert " + el + " --one-based --loops drop --to graph6 --out " + out),
                          el + ":3: duplicate edge {1,2} (first listed on line 2)");
    EXPECT_FALSE(brec::file_exists(out));
    const Result ok =
        brec("convert " + el + " --one-based --duplicates drop --loops drop --to graph6 --out " + out + " --json");
    ASSERT_EQ(ok.code, 0) << ok.err;
    const auto s = last_json_line(ok.out);
    EXPECT_EQ(s["duplicate_edges_dropped"], 1);
    EXPECT_EQ(s["self_loops_dropped"], 1);
    EXPECT_NE(ok.err.find("dropped 1 self-loops and 1 duplicate edges"), std::string::npos) << ok.err;
    EXPECT_EQ(brec::read_text_file(out), "Bg\n");  // the path 0-1-2
    // --quiet silences warnings; the table output names the conversion.
    const Result q =
        brec("convert " + el + " --one-based --duplicates drop --loops drop --to sparse6 --out " + out + " -q");
    EXPECT_EQ(q.code, 0);
    EXPECT_TRUE(q.err.empty()) << q.err;
    EXPECT_NE(q.out.find("converted 1 graphs from edgelist"), std::string::npos) << q.out;
}

TEST(CliConvert, MultiColumnTuLabelsSurviveTuAndJsonRoundTrips) {
    const std::string tu = temp_path("multicol");
    std::system(("rm -rf '" + tu + "'").c_str());
    ::mkdir(tu.c_str(), 0755);
    const std::string node_rows = "0, 2\n1, 0\n0, 3\n1, 0\n", edge_rows = "4, 1\n4, 1\n4, 9\n4, 9\n";
    std::ofstream(tu + "/MC_A.txt") << "1, 2\n2, 1\n3, 4\n4, 3\n";
    std::ofstream(tu + "/MC_graph_indicator.txt") << "1\n1\n2\n2\n";
    std::ofstream(tu + "/MC_graph_labels.txt") << "0\n1\n";
    std::ofstream(tu + "/MC_node_labels.txt") << "0,2\n1 0\n0, 3\n1, 0\n";
    std::ofstream(tu + "/MC_edge_labels.txt") << edge_rows;
    // TU -> JSON -> TU and TU -> TU keep every column.
    const std::string json = temp_path("multicol.json"), back = temp_path("multicol_back"),
                      copy = temp_path("multicol_copy");
    std::system(("rm -rf '" + back + "' '" + copy + "'").c_str());
    ASSERT_EQ(brec("convert " + tu + " --to json --out " + json).code, 0);
    EXPECT_EQ(nlohmann::json::parse(brec::read_text_file(json))["node_label_rows"],
              nlohmann::json::parse("[[0, 2], [1, 0], [0, 3]]"));
    ASSERT_EQ(brec("convert " + json + " --to tu --tu-name MC --out " + back).code, 0);
    ASSERT_EQ(brec("convert " + tu + " --to tu --tu-name MC --out " + copy).code, 0);
    for (const std::string& dir : {back, copy}) {
        SCOPED_TRACE(dir);
        EXPECT_EQ(brec::read_text_file(dir + "/MC_node_labels.txt"), node_rows);
        EXPECT_EQ(brec::read_text_file(dir + "/MC_edge_labels.txt"), edge_rows);
        EXPECT_EQ(brec::read_text_file(dir + "/MC_graph_labels.txt"), "0\n1\n");
    }
}

TEST(CliConvert, MalformedInputsExitTwoWithOneLineAndNoOutput) {
    const std::string out = temp_path("never_written.g6");
    struct Case {
        std::string name, content, needle;
    };
    const Case cases[] = {
        {"trunc.g6", "C~\nICZJvZs\n", ":2:"},
        {"trunc2.g6", "C~\nICZJvZs\n", "truncated"},
        {"badchar.g6", "C~\nC!\n", ":2:2: bad character in graph6 data"},
        {"bad.s6", ":Fa@x\x01\n", "bad character in sparse6 data"},
        {"cols.tsv", "0\tbasic\tC~\n", ":1: expected 4 tab-separated columns"},
        {"empty.g6", "", "empty"},
        {"empty.tsv", "", "no pairs found"},
        {"bad.json", "{\"graphs\": [", "invalid JSON"},
        {"range.el", "n 3\n0 7\n", ":2: vertex id 7 out of range for 'n 3'"},
        {"neg.el", "0 -2\n", ":1: vertex id -2 is below 0"},
        // Fuzzing reproducers: a number beyond the range of a double (nlohmann's out_of_range used to
        // escape as "internal error", exit 1) and '|S0' items that no byte count bounds.
        {"overflow.json", "{\"graphs\":[{\"n\":4.4e444400,\"edges\":[]}]}", ":1:"},
        {"overflow2.json", "{\"graphs\":[{\"n\":4.4e444400,\"edges\":[]}]}", "number overflow parsing '4.4e444400'"},
        {"abort.json", brec::read_text_file(kSrc + "/tests/fuzz/corpus/json/json-abort.bin"), ":1:"},
        {"zero.npy", brec::read_text_file(kSrc + "/tests/fuzz/corpus/npy/npy-huge-alloc.bin"), "has items of width 0"},
    };
    for (const Case& c : cases) {
        const std::string in = write_file(c.name, c.content);
        SCOPED_TRACE(c.name);
        const Result r = brec("convert " + in + " --to graph6 --out " + out);
        expect_one_line_error(r, c.needle);
        if (c.needle[0] == ':') {
            EXPECT_NE(r.err.find(in + c.needle), std::string::npos) << r.err;
        }
        EXPECT_FALSE(brec::file_exists(out));
    }
    // TU: wrong column count and node id out of range, named with file and line.
    const std::string tu = temp_path("tu_bad");
    ::mkdir(tu.c_str(), 0755);
    std::ofstream(tu + "/Q_A.txt") << "1, 2, 3\n";
    std::ofstream(tu + "/Q_graph_indicator.txt") << "1\n1\n";
    expect_one_line_error(brec("convert " + tu + " --to graph6 --out " + out), "Q_A.txt:1:");
    std::ofstream(tu + "/Q_A.txt") << "1, 2\n2, 9\n";
    expect_one_line_error(brec("convert " + tu + " --to graph6 --out " + out), "Q_A.txt:2:");
    expect_one_line_error(brec("convert " + tu + " --to graph6 --out " + out), "out of range");
    EXPECT_FALSE(brec::file_exists(out));
    // A graph label beyond the int64 range (a fuzzing reproducer) is not an integer, not undefined behaviour.
    std::ofstream(tu + "/Q_A.txt") << "1, 2\n2, 1\n";
    std::ofstream(tu + "/Q_graph_labels.txt") << "6.66667e+24\n";
    expect_one_line_error(brec("convert " + tu + " --to json --out " + out),
                          "Q_graph_labels.txt:1: graph label '6.66667e+24' is not an integer");
    std::ofstream(tu + "/Q_graph_labels.txt") << "99999999999999999999\n";
    expect_one_line_error(brec("convert " + tu + " --to json --out " + out),
                          "Q_graph_labels.txt:1: graph label "
                          "'99999999999999999999' is out of range");
    EXPECT_FALSE(brec::file_exists(out));
    std::remove((tu + "/Q_graph_labels.txt").c_str());
    std::ofstream(tu + "/Q_A.txt") << "1, 2\n2, 9\n";
    // A TU output that fails leaves no directory behind.
    const std::string tu_out = temp_path("tu_never");
    expect_one_line_error(brec("convert " + tu + " --to tu --out " + tu_out), "out of range");
    EXPECT_FALSE(brec::file_exists(tu_out));
    // Missing files and directories that are not datasets.
    expect_one_line_error(brec("convert /no/such/file.g6 --to tu --out " + out), "cannot open /no/such/file.g6");
    expect_one_line_error(brec("convert /no/such/file --to tu --out " + out), "cannot open /no/such/file");
    expect_one_line_error(brec("convert " + kSrc + "/tests/data/npy --to graph6 --out " + out), "not a TU dataset");
    // An odd number of graphs cannot become pairs.
    expect_one_line_error(brec("convert " + write_file("odd.g6", "C~\nC~\nC~\n") + " --to pairs --out " + out),
                          "even number of graphs");
    // An unwritable output: exit 2, nothing left.
    expect_one_line_error(brec("convert " + kBrec + " --to graph6 --out /no/such/dir/out.g6"),
                          "cannot write /no/such/dir/out.g6");
}

}  // namespace
