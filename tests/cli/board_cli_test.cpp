// brec board run end to end on real BREC pairs: the records are brec eval's (same settings id, same
// decisions and T² for a pair and seed), run cheapest first; the manifest holds the dataset's
// SHA-256 (as coreutils' sha256sum computes it), the subset, seeds, settings and one segment per
// run; a board is never overwritten, is continued with --resume (another seed, a cost rule that
// leaves tasks out as "not run"), refuses other data, and brec report reads it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"
#include "common/result_lines.hpp"

namespace {

using clitest::brec;
using clitest::Result;
using clitest::temp_path;
using nlohmann::json;

std::string sha256sum(const std::string& path) {
    FILE* p = popen(("sha256sum '" + path + "'").c_str(), "r");
    char buf[65] = {};
    const std::size_t n = p ? fread(buf, 1, 64, p) : 0;
    if (p) pclose(p);
    return std::string(buf, n);
}

std::vector<json> records(const std::string& path) {
    std::vector<json> out;
    for (const std::string& line : brec::testing::result_lines(path)) out.push_back(json::parse(line));
    return out;
}

json manifest_of(const std::string& dir) { return json::parse(brec::read_text_file(dir + "/manifest.json")); }

TEST(BoardCli, RunsResumesAndReports) {
    if (!clitest::have_brec_eval()) GTEST_SKIP() << "built without LibTorch";
    const std::string dir = temp_path("board");
    std::filesystem::remove_all(dir);
    const std::string args = "board run --models gin,ppgn --pairs 0-3,60,61 --torch-threads 1 -q --out " + dir;
    Result r = brec(args + " -j 1");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("board " + dir + ": 12 tasks run, 0 skipped for memory, 0 done before, 0 not run", 0), 0u)
        << r.out;
    json m = manifest_of(dir);
    const std::string dataset = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";
    EXPECT_EQ(m["dataset"]["sha256"], sha256sum(dataset));
    EXPECT_EQ(m["dataset"]["pairs"], 400);
    EXPECT_EQ(m["subset"], "paper");
    EXPECT_EQ(m["seeds"], json::array({100}));
    ASSERT_EQ(m["models"].size(), 2u);
    ASSERT_EQ(m["segments"].size(), 1u);
    const json& segment = m["segments"][0];
    EXPECT_EQ(segment["device"], "cpu");
    EXPECT_EQ(segment["tasks"], 12);
    EXPECT_FALSE(segment["ended"].get<std::string>().empty());
    EXPECT_GE(segment["git_commit"].get<std::string>().size(), 7u);

    // Cheapest first: with one job, each file's records follow the estimated costs.
    std::map<std::pair<std::string, int>, double> cost;
    for (const json& c : records(dir + "/costs.jsonl")) cost[{c["model"], c["id"]}] = c["seconds"];
    EXPECT_EQ(cost.size(), 12u);
    for (const std::string model : {"gin", "ppgn"}) {
        const auto lines = records(dir + "/" + model + ".jsonl");
        ASSERT_EQ(lines.size(), 6u);
        for (std::size_t i = 1; i < lines.size(); ++i)
            EXPECT_LE((cost[{model, lines[i - 1]["id"]}]), (cost[{model, lines[i]["id"]}]));
    }
    // A board record is brec eval's record of the same pair and seed.
    const std::string eval_out = temp_path("eval_ppgn.jsonl");
    std::remove(eval_out.c_str());
    ASSERT_EQ(brec("eval --model ppgn --pairs 60 --torch-threads 1 -q --out " + eval_out).code, 0);
    const json single = records(eval_out).at(0);
    for (const json& record : records(dir + "/ppgn.jsonl"))
        if (record["id"] == 60) {
            EXPECT_EQ(record["settings_id"], single["settings_id"]);
            EXPECT_EQ(record["protocols"], single["protocols"]);
            EXPECT_EQ(record["settings_id"], m["models"][1]["settings_id"]);
        }

    // Never overwritten; continued with --resume on a second seed, PPGN left out by the rule.
    r = brec(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "brec: error: " + dir + " holds a board (manifest.json): add --resume to continue it\n");
    double ppgn_cheapest = 1e9;
    for (const auto& [key, seconds] : cost)
        if (key.first == "ppgn") ppgn_cheapest = std::min(ppgn_cheapest, seconds);
    r = brec(args + " --resume --seeds 100,200 -j 2 --max-cost " + std::to_string(ppgn_cheapest * 0.99));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("6 tasks run, 0 skipped for memory, 12 done before, 6 not run"), std::string::npos) << r.out;
    m = manifest_of(dir);
    EXPECT_EQ(m["seeds"], json::array({100, 200}));
    EXPECT_EQ(m["segments"].size(), 2u);
    EXPECT_EQ(m["models"][0]["records"], 12);
    EXPECT_EQ(m["models"][1]["not_run"], json({{"200", "0-3,60-61"}}));
    EXPECT_EQ(records(dir + "/ppgn.jsonl").size(), 6u);

    // A run of one model on another pair adds it to the board; the other model's entry stays.
    r = brec("board run --models gin --pairs 100 --seeds 100,200 -q --resume --out " + dir);
    ASSERT_EQ(r.code, 0) << r.err;
    m = manifest_of(dir);
    EXPECT_EQ(m["models"][0]["pairs"], "0-3,60-61,100");
    EXPECT_EQ(m["models"][0]["records"], 14);
    EXPECT_EQ(m["models"][1]["not_run"], json({{"200", "0-3,60-61"}}));
    EXPECT_EQ(m["segments"].size(), 3u);

    // Another dataset is refused; brec report reads the board.
    const std::string other = clitest::write_file("other_pairs.tsv", brec::read_text_file(dataset) + "\n");
    r = brec(args + " --resume --dataset " + other);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(" is a board of " + dataset), std::string::npos) << r.err;
    r = brec("report " + dir + " --format json");
    ASSERT_EQ(r.code, 0) << r.err;
    const json report = json::parse(r.out);
    EXPECT_EQ(report["models"], json::array({"gin", "ppgn"}));
}

}  // namespace
