// End-to-end tests of `brec generate` and `brec show`: byte-identical output for a seed whatever
// --jobs, output that the other commands read back, bad arguments that exit 2 with one line and
// leave no files, and an SVG with one circle per vertex of both graphs.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "cli/cli_util.hpp"

namespace {

// Using-declarations (not a using-directive): the function brec() must be found before namespace
// brec.
using clitest::brec;
using clitest::expect_one_line_error;
using clitest::last_json_line;
using clitest::Result;
using clitest::temp_path;
using clitest::write_file;
namespace fs = std::filesystem;

const std::string kBrecPairs = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";

std::size_t occurrences(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

/// A fresh (non-existing) directory path.
std::string fresh_dir(const std::string& name) {
    const std::string d = temp_path(name);
    fs::remove_all(d);
    return d;
}

bool has_outputs(const std::string& dir) {
    return brec::file_exists(dir + "/pairs.tsv") || brec::file_exists(dir + "/meta.json");
}

TEST(CliGenerate, HelpOfGenerateAndShowEndsWithAnExample) {
    const Result g = brec("generate --help");
    EXPECT_EQ(g.code, 0);
    for (const char* s :
         {"--out", "--seed", "--category", "--pairs", "--jobs", "--cfi-fwl3-max", "Example: brec generate"})
        EXPECT_NE(g.out.find(s), std::string::npos) << s;
    const Result s = brec("show --help");
    EXPECT_EQ(s.code, 0);
    for (const char* t : {"--svg", "--dataset", "Example: brec show"}) EXPECT_NE(s.out.find(t), std::string::npos) << t;
}

TEST(CliGenerate, SameSeedGivesByteIdenticalFilesForAnyJobs) {
    const std::string d1 = fresh_dir("gen1"), d2 = fresh_dir("gen2"), d3 = fresh_dir("gen3");
    const Result r1 =
        brec("generate --out " + d1 + " --seed 4 --category regular,cfi --pairs 12 --cfi-fwl3-max 40 --jobs 1 --quiet");
    ASSERT_EQ(r1.code, 0) << r1.err;
    EXPECT_EQ(r1.err, "") << "--quiet must silence progress and info lines";
    EXPECT_NE(r1.out.find("12 pairs written to"), std::string::npos) << r1.out;
    const Result r2 =
        brec("generate --out " + d2 + " --seed 4 --category regular,cfi --pairs 12 --cfi-fwl3-max 40 --jobs 2 -q");
    ASSERT_EQ(r2.code, 0) << r2.err;
    for (const char* f : {"/pairs.tsv", "/meta.json"}) {
        const std::string a = brec::read_text_file(d1 + f), b = brec::read_text_file(d2 + f);
        EXPECT_FALSE(a.empty());
        EXPECT_EQ(a, b) << f;
    }
    const Result r3 = brec("generate --out " + d3 + " --seed 5 --category regular,cfi --pairs 12 --cfi-fwl3-max 40 -q");
    ASSERT_EQ(r3.code, 0) << r3.err;
    EXPECT_NE(brec::read_text_file(d1 + "/pairs.tsv"), brec::read_text_file(d3 + "/pairs.tsv"));
    // Without --quiet the progress goes to stderr, never to stdout.
    const std::string d4 = fresh_dir("gen4");
    const Result loud = brec("generate --out " + d4 + " --seed 4 --category regular --pairs 3");
    ASSERT_EQ(loud.code, 0) << loud.err;
    EXPECT_NE(loud.err.find("brec: info: generating regular"), std::string::npos) << loud.err;
    EXPECT_EQ(loud.out.find("brec: info"), std::string::npos);
}

TEST(CliGenerate, MoleculesWriteATuDatasetThatDedupReadsWithItsCopies) {
    const std::string d = fresh_dir("molecules") + "/MOL";
    fs::create_directories(fs::path(d).parent_path());
    const Result g = brec("generate --molecules 300 --out " + d + " --seed 2 --json -q");
    ASSERT_EQ(g.code, 0) << g.err;
    const auto s = last_json_line(g.out);
    EXPECT_EQ(s["kind"], "molecules");
    EXPECT_EQ(s["graphs"], 300);
    EXPECT_FALSE(fs::exists(d + "/pairs.tsv"));
    const Result r = brec("dedup " + d + " --json -q");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = last_json_line(r.out);
    EXPECT_EQ(j["graphs"], 300);
    // Every copy shares its molecule's topology: at most 300 - copies orbits.
    EXPECT_LE(j["orbits"]["total_including_trivial"].get<int>(), 300 - s["copies"].get<int>());
    EXPECT_GT(s["copies"].get<int>(), 50);
}

TEST(CliGenerate, OutputReadsBackWithInfoAndWl) {
    const std::string d = fresh_dir("readback");
    const Result g = brec("generate --out " + d + " --seed 1 --category regular,distance_regular --pairs 6 -q --json");
    ASSERT_EQ(g.code, 0) << g.err;
    const auto s = last_json_line(g.out);
    EXPECT_EQ(s["command"], "generate");
    EXPECT_EQ(s["pairs"], 6);
    const Result info = brec("info --json --dataset " + d + "/pairs.tsv");
    ASSERT_EQ(info.code, 0) << info.err;
    const auto j = last_json_line(info.out);
    EXPECT_EQ(j["pairs"], 6);
    EXPECT_EQ(j["categories"]["regular"]["pairs"].get<int>() + j["categories"]["distance_regular"]["pairs"].get<int>(),
              6);
    EXPECT_TRUE(j["isomorphic_pairs"].empty());
    EXPECT_TRUE(j["repeated_graphs"].empty());
    const Result wl = brec("wl --method 1wl --json --dataset " + d + "/pairs.tsv");
    ASSERT_EQ(wl.code, 0) << wl.err;
    const auto w = last_json_line(wl.out);
    EXPECT_EQ(w["total"]["pairs"], 6);
    EXPECT_EQ(w["total"]["distinguished"], 0);  // every generated pair is 1-WL-equivalent
    const auto meta = nlohmann::json::parse(brec::read_text_file(d + "/meta.json"));
    EXPECT_EQ(meta["seed"], 1);
    EXPECT_EQ(meta["pairs"].size(), 6u);
}

TEST(CliGenerate, BadArgumentsExitTwoWithOneLineAndNoFiles) {
    const std::string d = fresh_dir("bad");
    expect_one_line_error(brec("generate --out " + d + " --pairs -1"),
                          "--pairs: must be a whole number >= 1, got '-1'");
    expect_one_line_error(brec("generate --out " + d + " --pairs 0"), "--pairs: must be a whole number >= 1, got '0'");
    expect_one_line_error(brec("generate --out " + d + " --category frobnicate"), "unknown category 'frobnicate'");
    expect_one_line_error(brec("generate --out " + d + " --jobs 0"), "--jobs");
    expect_one_line_error(brec("generate --seed 1"), "--out");
    EXPECT_FALSE(fs::exists(d)) << "bad arguments must not create the output directory";
    // A file where the directory should be, a directory below a file, a place nobody may write.
    const std::string file = write_file("plain_file", "x\n");
    expect_one_line_error(brec("generate --out " + file + " --category regular --pairs 1"), "not a directory");
    expect_one_line_error(brec("generate --out " + file + "/sub --category regular --pairs 1"), "cannot create");
    expect_one_line_error(brec("generate --out /proc/brec_generate_test --category regular --pairs 1"),
                          "cannot create");
    EXPECT_EQ(brec::read_text_file(file), "x\n");
    // A category that cannot supply the count: the message says how many exist; nothing is left.
    const Result many = brec("generate --out " + d + " --category regular --pairs 1000 -q");
    expect_one_line_error(many, "at most 93");
    EXPECT_FALSE(has_outputs(d));
    EXPECT_FALSE(fs::exists(d)) << "a failed run must not leave the directory it created";
}

TEST(CliShow, DrawsBothGraphsOfAPair) {
    const auto pairs = brec::read_pair_file(kBrecPairs).pairs;
    for (const long id : {0L, 110L, 260L}) {
        const brec::GraphPairRecord* rec = nullptr;
        for (const auto& p : pairs)
            if (p.id == id) rec = &p;
        ASSERT_NE(rec, nullptr);
        const std::string svg = temp_path("pair" + std::to_string(id) + ".svg");
        const Result r = brec("show " + std::to_string(id) + " --svg " + svg);
        ASSERT_EQ(r.code, 0) << r.err;
        const std::string text = brec::read_text_file(svg);
        EXPECT_EQ(text.rfind("<?xml", 0), 0u);
        EXPECT_EQ(occurrences(text, "<svg "), 1u);
        EXPECT_EQ(occurrences(text, "</svg>"), 1u);
        EXPECT_EQ(occurrences(text, "<circle "), rec->a.n() + rec->b.n()) << id;
        EXPECT_EQ(occurrences(text, "<line "), rec->a.m() + rec->b.m()) << id;
        EXPECT_EQ(occurrences(text, "<"), occurrences(text, ">"));
        EXPECT_NE(r.out.find("pair " + std::to_string(id) + " (" + rec->category + ")"), std::string::npos) << r.out;
        EXPECT_NE(text.find("pair " + std::to_string(id) + " (" + rec->category + ")"), std::string::npos);
    }
}

TEST(CliShow, CaptionUsesGeneratedMetadata) {
    const std::string d = fresh_dir("showmeta");
    ASSERT_EQ(brec("generate --out " + d + " --seed 2 --category cfi --pairs 2 --cfi-fwl3-max 40 -q").code, 0);
    const std::string svg = temp_path("cfi.svg");
    const Result r = brec("show 0 --dataset " + d + "/pairs.tsv --svg " + svg);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("hardness"), std::string::npos) << r.out;
    EXPECT_NE(brec::read_text_file(svg).find("treewidth"), std::string::npos);
}

TEST(CliShow, BadArgumentsExitTwoWithOneLineAndNoFile) {
    const std::string svg = temp_path("never.svg");
    expect_one_line_error(brec("show 9999 --svg " + svg), "pair 9999 does not exist");
    EXPECT_FALSE(brec::file_exists(svg));
    expect_one_line_error(brec("show 0"), "--svg");
    expect_one_line_error(brec("show -3 --svg " + svg), "must be a whole number >= 0, got '-3'");
    expect_one_line_error(brec("show 0 --svg /no/such/dir/x.svg"), "/no/such/dir/x.svg");
    expect_one_line_error(brec("show 0 --dataset /no/such.tsv --svg " + svg), "/no/such.tsv");
    EXPECT_FALSE(brec::file_exists(svg));
}

}  // namespace
