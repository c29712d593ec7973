// The board manifest: a full round trip through its file, and a ParseError naming the field for
// every broken part of it.
#include "brec/io/board_manifest.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "brec/core/error.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

BoardManifest example() {
    BoardManifest m;
    m.dataset = "datasets/brec/brec_v3_pairs.tsv";
    m.dataset_sha256 = std::string(64, 'c');
    m.dataset_pairs = 400;
    m.subset = "paper";
    m.seeds = {100, 200};
    m.max_cost_seconds = 600;
    BoardModel gin;
    gin.name = "gin";
    gin.settings_id = "0123456789abcdef";
    gin.settings = {{"model", "gin"}, {"epochs", 20}};
    gin.file = "gin.jsonl";
    gin.pairs = parse_id_ranges("0-399");
    gin.not_run = {{100, parse_id_ranges("360-399")}, {200, parse_id_ranges("380")}};
    gin.records = 759;
    gin.estimated_seconds = 1234.5;
    gin.not_run_estimated_seconds = 99.25;
    m.models = {gin};
    BoardSegment s;
    s.started = "2026-11-27T18:00:00Z";
    s.ended = "2026-11-27T19:00:00Z";
    s.brec_version = "0.1.0";
    s.git_commit = "fd4dc93";
    s.host = "vm";
    s.cpu = "AMD EPYC";
    s.cores = 2;
    s.device = "cuda:0";
    s.gpu = "NVIDIA H100";
    s.jobs = 2;
    s.tasks = 759;
    s.wall_seconds = 3600.5;
    s.cpu_seconds = 7000.25;
    m.segments = {s, s};
    return m;
}

TEST(BoardManifest, RoundTripsThroughItsFile) {
    const std::string dir = testing::temp_path("board_manifest", "dir");
    std::filesystem::create_directories(dir);
    const BoardManifest m = example();
    write_board_manifest(dir, m);
    const BoardManifest back = read_board_manifest(dir);
    EXPECT_EQ(to_json(back), to_json(m));
    EXPECT_EQ(back.models[0].not_run.at(200).str(), "380");
    EXPECT_EQ(back.models[0].pairs.count(), 400u);
    EXPECT_EQ(to_json(back)["models"][0]["not_run"]["100"], "360-399");
    EXPECT_EQ(back.segments[1].gpu, "NVIDIA H100");
    EXPECT_EQ(back.find("gin")->records, 759u);
    EXPECT_EQ(back.find("ppgn"), nullptr);
}

TEST(BoardManifest, BrokenFieldsAreNamed) {
    const auto error = [](const std::function<void(nlohmann::json&)>& edit) {
        nlohmann::json j = to_json(example());
        edit(j);
        return error_of([&] { board_manifest_from_json(j, "m.json"); });
    };
    EXPECT_EQ(error([](auto& j) { j["format"] = "other"; }),
              "m.json: manifest field 'format' is not 'brec board manifest'");
    EXPECT_EQ(error([](auto& j) { j["dataset"].erase("sha256"); }),
              "m.json: manifest field 'dataset.sha256' is missing");
    EXPECT_EQ(error([](auto& j) { j["subset"] = "some"; }),
              "m.json: manifest field 'subset' is neither 'paper' nor 'all'");
    EXPECT_EQ(error([](auto& j) { j["models"][0]["records"] = "many"; }),
              "m.json: manifest field 'models[0].records' has the wrong type");
    EXPECT_EQ(error([](auto& j) { j["models"][0]["file"] = "../x.jsonl"; }),
              "m.json: manifest field 'models[0].file' must name a file of the directory");
    EXPECT_EQ(error([](auto& j) {
                  j["models"][0]["not_run"] = {{"x1", "3"}};
              }),
              "m.json: manifest field 'models[0].not_run' must map seeds to pair ids (\"100\": \"360-399\")");
    EXPECT_EQ(error([](auto& j) { j["models"][0]["pairs"] = "0-9,7-3"; }),
              "m.json: manifest field 'models[0].pairs' is not a list of pair ids like \"0-59,260\": '0-9,7-3'");
    EXPECT_EQ(error([](auto& j) {
                  j["models"][0]["not_run"] = {{"100", "x"}};
              }),
              "m.json: manifest field 'models[0].not_run' is not a list of pair ids like \"0-59,260\": 'x'");
    EXPECT_EQ(error([](auto& j) { j["models"].push_back(j["models"][0]); }),
              "m.json: manifest field 'models' names model gin twice");
    EXPECT_EQ(error([](auto& j) { j["segments"][1].erase("cpu_seconds"); }),
              "m.json: manifest field 'segments[1].cpu_seconds' is missing");
}

}  // namespace
}  // namespace brec
