// End-to-end tests of `brec export` and `brec rpc`: the export directory appears whole or not at
// all, embeddings are judged into the records and summary `brec eval` writes (brec report reads
// them), and bad input is one line naming the file, exit code 2, nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"
#include "common/result_lines.hpp"

namespace {

namespace fs = std::filesystem;
using clitest::brec;
using clitest::expect_one_line_error;
using clitest::last_json_line;
using clitest::Result;
using clitest::temp_path;
using clitest::write_embeddings;

std::string fresh(const std::string& name) {
    const std::string p = temp_path(name);
    fs::remove_all(p);
    return p;
}

TEST(ExportCli, WritesTheDirectoryWholeOrNotAtAll) {
    const std::string dir = fresh("export");
    const Result r = brec("export --pairs 0-2,160 --q 20 --seed 7 --out " + dir + " --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = last_json_line(r.out);
    EXPECT_EQ(s["pairs"], 4);
    EXPECT_EQ(s["graphs"], 320);
    EXPECT_EQ(s["seed"], 7);
    for (const char* f : {"manifest.json", "pair_0.g6", "pair_0.npz", "pair_160.g6", "pair_160.npz"})
        EXPECT_TRUE(brec::file_exists(dir + "/" + f)) << f;
    EXPECT_EQ(brec::split_lines(brec::read_text_file(dir + "/pair_160.g6")).size(), 80u);
    expect_one_line_error(brec("export --pairs 0 --out " + dir), "exists and is not an empty directory");
    const std::string bad = fresh("export_bad");
    expect_one_line_error(brec("export --pairs 999 --out " + bad), "999");
    EXPECT_FALSE(fs::exists(bad));
    expect_one_line_error(brec("export --pairs 0"), "--out");
    const Result help = brec("export --help");
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("Example: brec export"), std::string::npos);
}

TEST(RpcCli, JudgesEmbeddingsIntoEvalRecordsThatReportReads) {
    const std::string dir = fresh("rpc");
    ASSERT_EQ(brec("export --pairs 0-2,160 --q 20 --out " + dir + " --quiet").code, 0);
    write_embeddings(dir, 4, 1.0);
    const std::string out = fresh("rpc.jsonl");
    const Result r = brec("rpc --embeddings " + dir + " --model-name shifted --out " + out + " --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = last_json_line(r.out);
    EXPECT_EQ(s["command"], "rpc");
    EXPECT_EQ(s["model"], "shifted");
    EXPECT_EQ(s["seed"], 100);
    EXPECT_EQ(s["total"]["pairs"], 4);
    EXPECT_EQ(s["total"]["distinguished"], 4);  // a constant shift between G and H, no noise
    EXPECT_EQ(s["protocols"]["brec_reference"]["total"]["distinguished"], 0);  // S = 0, no noise floor
    const auto lines = brec::testing::result_lines(out);
    ASSERT_EQ(lines.size(), 4u);
    const auto rec = nlohmann::json::parse(lines[0]);
    EXPECT_EQ(rec["model"], "shifted");
    EXPECT_TRUE(rec.contains("protocols"));
    EXPECT_EQ(nlohmann::json::parse(brec::read_text_file(out + ".summary.json"))["total"], s["total"]);
    // brec report reads the summary as it reads brec eval's.
    const Result rep = brec("report " + out + ".summary.json --format json --quiet");
    ASSERT_EQ(rep.code, 0) << rep.err;
    EXPECT_NE(rep.out.find("shifted"), std::string::npos) << rep.out;

    // The same top-level shape as brec eval's summary and records (when brec-eval is built).
    if (!brec::file_exists(fs::path(BREC_BINARY).parent_path().string() + "/brec-eval")) return;
    const Result e = brec("eval --model gin --pairs 0-2,160 --q 20 --epochs 1 --torch-threads 1 --json --quiet");
    ASSERT_EQ(e.code, 0) << e.err;
    const auto es = last_json_line(e.out);
    for (auto it = es.begin(); it != es.end(); ++it) EXPECT_TRUE(s.contains(it.key())) << "summary lacks " << it.key();
    for (auto it = s.begin(); it != s.end(); ++it)
        EXPECT_TRUE(es.contains(it.key())) << "summary has extra " << it.key();
    const auto er = nlohmann::json::parse(brec::split_lines(e.out).front());
    for (auto it = er.begin(); it != er.end(); ++it)  // no "bound": embeddings have no proven bound
        EXPECT_TRUE(rec.contains(it.key()) || it.key() == "bound") << "record lacks " << it.key();
}

TEST(RpcCli, BadEmbeddingsAreOneLineNamingTheFileAndWriteNothing) {
    const std::string dir = fresh("rpc_bad");
    ASSERT_EQ(brec("export --pairs 0,1 --q 20 --out " + dir + " --quiet").code, 0);
    write_embeddings(dir, 4, 0.0);
    const std::string out = fresh("rpc_bad.jsonl");
    brec::write_text_file_atomic(dir + "/pair_1.npy", brec::format_npy_float32(std::vector<float>(40, 0.f), {10, 4}));
    expect_one_line_error(brec("rpc --embeddings " + dir + " --out " + out), dir + "/pair_1.npy: shape [10, 4]");
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out + ".summary.json"));
    fs::remove(dir + "/pair_1.npy");
    expect_one_line_error(brec("rpc --embeddings " + dir + " --out " + out), "missing: pair 1");
    expect_one_line_error(brec("rpc --embeddings " + fresh("nowhere")), "nowhere");
    expect_one_line_error(brec("rpc --pairs 0"), "");
    EXPECT_FALSE(fs::exists(out));
}

}  // namespace
