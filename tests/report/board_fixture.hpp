#pragma once
// A hand-made board of the report tests: the GIN records of tests/data/report_eval_both_gin.jsonl
// (seed 100, settings "fixture"; pairs 0-2, 60-61, 300) under a manifest of pairs 0-2, 60-61, 300,
// 360 whose pair 360 was not run.
#include <filesystem>
#include <string>

#include "brec/io/board_manifest.hpp"
#include "common/test_util.hpp"

namespace brec::testing {

inline BoardManifest fixture_manifest(const std::string& sha = std::string(64, 'a')) {
    BoardManifest m;
    m.dataset = "pairs.tsv";
    m.dataset_sha256 = sha;
    m.dataset_pairs = 400;
    m.subset = "all";
    m.seeds = {100};
    BoardModel gin;
    gin.name = "gin";
    gin.settings_id = "fixture";
    gin.settings = {{"model", "gin"}};
    gin.file = "gin.jsonl";
    gin.pairs = parse_id_ranges("0-2,60-61,300,360");
    gin.not_run = {{100, parse_id_ranges("360")}};
    gin.records = 6;
    m.models.push_back(gin);
    return m;
}

/// A fresh directory `name` holding the fixture's records and `manifest`.
inline std::string fixture_board(const std::string& name, const BoardManifest& manifest = fixture_manifest()) {
    namespace fs = std::filesystem;
    const std::string dir = temp_path("board", name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(std::string(BREC_SOURCE_DIR) + "/tests/data/report_eval_both_gin.jsonl", dir + "/gin.jsonl");
    write_board_manifest(dir, manifest);
    return dir;
}

}  // namespace brec::testing
