// A board directory as a report input: counted like its records files, and refused, with one line
// naming the file (and line), when a record or file is not what its manifest describes, or when
// boards of different datasets are merged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "brec/core/error.hpp"
#include "brec/io/board_manifest.hpp"
#include "brec/io/files.hpp"
#include "brec/report/results.hpp"
#include "board_fixture.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;
using testing::error_of;

/// A board of GIN on the six records of the fixture (seed 100, settings "fixture"), pairs 0-2,
/// 60-61, 300 of a board of 0-2, 60-61, 300, 360 whose pair 360 was not run.
struct Board {
    std::string dir;
    BoardManifest manifest;

    explicit Board(const std::string& name, const std::string& sha = std::string(64, 'a'))
        : manifest(testing::fixture_manifest(sha)) {
        dir = testing::fixture_board(name, manifest);
    }
    void save() const { write_board_manifest(dir, manifest); }
    std::string error() const {
        return error_of([&] {
            ResultReader reader;
            reader.add_file(dir);
        });
    }
};

TEST(BoardInput, CountsTheRecordsItsManifestDescribes) {
    const Board board("ok");
    ResultReader reader;
    reader.add_file(board.dir);
    const ResultSet set = reader.finish();
    ASSERT_EQ(set.runs.size(), 1u);
    EXPECT_EQ(set.runs[0].model, "gin");
    EXPECT_EQ(set.runs[0].pairs.size(), 6u);
    EXPECT_EQ(set.inputs, std::vector<std::string>{board.dir + "/gin.jsonl"});
    EXPECT_TRUE(board.error().empty());
}

TEST(BoardInput, RecordsTheManifestDoesNotDescribeAreRefused) {
    Board board("records");
    board.manifest.models[0].settings_id = "other";
    board.save();
    EXPECT_EQ(board.error(), board.dir +
                                 "/gin.jsonl:1: pair 0 seed 100 has settings fixture but the manifest says "
                                 "gin ran with other (" +
                                 board.dir + "/manifest.json)");
    board.manifest.models[0].settings_id = "fixture";
    board.manifest.seeds = {200};
    board.save();
    EXPECT_NE(board.error().find("gin.jsonl:1: pair 0 seed 100: the manifest has no seed 100"), std::string::npos);
    board.manifest.seeds = {100};
    board.manifest.models[0].pairs = parse_id_ranges("0-2,60-61");
    board.save();
    EXPECT_NE(board.error().find("gin.jsonl:6: pair 300 seed 100: pair 300 is not in the board's pairs"),
              std::string::npos);
    board.manifest.models[0].pairs = parse_id_ranges("0-2,60-61,300");
    board.manifest.models[0].not_run = {{100, parse_id_ranges("61")}};
    board.save();
    EXPECT_NE(board.error().find("gin.jsonl:5: pair 61 seed 100: the manifest says it was not run"), std::string::npos);
    board.manifest.models[0].not_run.clear();
    board.manifest.models[0].name = "ppgn";
    board.save();
    EXPECT_NE(board.error().find("gin.jsonl:1: a record of model gin in the file of ppgn"), std::string::npos);
}

TEST(BoardInput, FilesTheManifestDoesNotDescribeAreRefused) {
    Board board("files");
    board.manifest.models[0].records = 7;
    board.save();
    EXPECT_EQ(board.error(), board.dir +
                                 "/manifest.json: says gin.jsonl holds 7 records, but it holds 6 (an "
                                 "interrupted run? brec board run --resume updates it)");
    board.manifest.models[0].records = 6;
    board.save();
    fs::copy_file(board.dir + "/gin.jsonl", board.dir + "/extra.jsonl");
    EXPECT_EQ(board.error(), board.dir + "/extra.jsonl: a results file that the board's manifest does not name");
    fs::remove(board.dir + "/extra.jsonl");
    std::ofstream(board.dir + "/manifest.json") << "{\"format\": \"brec board manifest\"}";
    EXPECT_NE(board.error().find("manifest.json: manifest field 'version' is missing"), std::string::npos);
    fs::remove(board.dir + "/manifest.json");
    EXPECT_NE(board.error().find("without a board manifest"), std::string::npos);
}

TEST(BoardInput, BoardsOfDifferentDatasetsAreMergedOnlyWhenAsked) {
    const Board a("data_a"), same("data_same"), b("data_b", std::string(64, 'b'));
    ResultReader ok;
    ok.add_file(a.dir);
    ok.add_file(same.dir);  // the same data: its records merge like shards
    EXPECT_EQ(ok.finish().runs[0].pairs.size(), 6u);
    const std::string error = error_of([&] {
        ResultReader reader;
        reader.add_file(a.dir);
        reader.add_file(b.dir);
    });
    EXPECT_EQ(error, b.dir + "/manifest.json: a board of dataset pairs.tsv (SHA-256 bbbbbbbbbbbb...), but " + a.dir +
                         " is of another (SHA-256 aaaaaaaaaaaa...): counts of different pairs (--mixed-datasets "
                         "merges them)");
    ResultReadOptions mixed;
    mixed.mixed_datasets = true;
    ResultReader reader(mixed);
    reader.add_file(a.dir);
    reader.add_file(b.dir);
    EXPECT_EQ(reader.finish().runs.size(), 1u);
}

}  // namespace
}  // namespace brec
