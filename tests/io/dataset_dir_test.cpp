// The generated-dataset directory: pairs.tsv and meta.json written all or nothing, directories the
// writer created removed again when it fails, nothing foreign ever deleted, and errors that name
// the output directory.
#include "brec/io/dataset_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
    const std::string d = testing::temp_path("dsdir", name);
    fs::remove_all(d);
    return d;
}

std::vector<GraphPairRecord> two_pairs() {
    std::vector<GraphPairRecord> out(2);
    out[0].id = 0;
    out[0].category = "regular";
    out[0].a = make_cycle(6);
    out[0].b = disjoint_union(make_cycle(3), make_cycle(3));
    out[1].id = 1;
    out[1].category = "basic";
    out[1].a = make_path(4);
    out[1].b = make_graph(4, {{0, 1}, {0, 2}, {0, 3}});
    return out;
}

/// Names in a directory (sorted).
std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(DatasetDir, WritesBothFilesThatReadBack) {
    const std::string dir = fresh_dir("ok") + "/nested/deeper";
    {
        DatasetDirWriter w(dir);
        EXPECT_TRUE(w.created());
        w.commit(two_pairs(), {{"seed", 7}}, "made by a test\nsecond line");
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"meta.json", "pairs.tsv"}));
    const PairDataset back = read_pair_file(dir + "/pairs.tsv");
    ASSERT_EQ(back.pairs.size(), 2u);
    EXPECT_EQ(back.pairs[0].category, "regular");
    EXPECT_EQ(back.pairs[1].b, make_graph(4, {{0, 1}, {0, 2}, {0, 3}}));
    const std::string text = read_text_file(dir + "/pairs.tsv");
    EXPECT_EQ(text.rfind("# made by a test\n# second line\n# columns:", 0), 0u) << text;
    EXPECT_EQ(read_text_file(dir + "/meta.json"), "{\n \"seed\": 7\n}\n");
}

TEST(DatasetDir, AWriterThatNeverCommitsLeavesNoDirectoryItCreated) {
    const std::string top = fresh_dir("abandoned");
    const std::string dir = top + "/a/b";
    {
        DatasetDirWriter w(dir);
        EXPECT_TRUE(fs::is_directory(dir));
    }  // e.g. the generation threw
    EXPECT_FALSE(fs::exists(top)) << "every directory the writer created is removed";
    // An existing directory is never removed, even when empty.
    fs::create_directories(top);
    {
        DatasetDirWriter w(top);
        EXPECT_FALSE(w.created());
    }
    EXPECT_TRUE(fs::is_directory(top));
}

TEST(DatasetDir, FailureWhileCommittingLeavesNeitherFile) {
    // meta.json cannot be renamed into place (a non-empty directory holds the name): pairs.tsv,
    // renamed first, must be removed again, and no temporary file may remain.
    const std::string dir = fresh_dir("meta_blocked");
    fs::create_directories(dir + "/meta.json/keep");
    write_text_file_atomic(dir + "/other.txt", "mine\n");
    {
        DatasetDirWriter w(dir);
        try {
            w.commit(two_pairs(), {{"seed", 1}}, "");
            FAIL() << "commit succeeded";
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find("meta.json"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"meta.json", "other.txt"}));
    EXPECT_TRUE(fs::is_directory(dir + "/meta.json/keep")) << "foreign content is untouched";
    EXPECT_EQ(read_text_file(dir + "/other.txt"), "mine\n");
}

TEST(DatasetDir, ARefusedCommitInACreatedDirectoryLeavesNothing) {
    const std::string dir = fresh_dir("bad_category");
    auto pairs = two_pairs();
    pairs[1].category = "tab\there";
    {
        DatasetDirWriter w(dir);
        try {
            w.commit(pairs, {{"seed", 1}}, "");
            FAIL() << "commit succeeded";
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("pair 1 has category"), std::string::npos) << e.what();
        }
        EXPECT_TRUE(listing(dir).empty());
    }
    EXPECT_FALSE(fs::exists(dir));
}

TEST(DatasetDir, BadDirectoriesAreIoErrorsThatNameTheOutputDirectory) {
    const std::string file = testing::fresh_temp_file("dsdir", "plain_file");
    write_text_file_atomic(file, "x\n");
    const auto message = [](const std::string& dir) { return testing::error_of([&] { DatasetDirWriter w(dir); }); };
    EXPECT_EQ(message(file), "output directory " + file + " exists and is not a directory");
    const std::string below = message(file + "/sub");
    EXPECT_EQ(below.rfind("cannot create output directory " + file + "/sub: ", 0), 0u) << below;
    EXPECT_EQ(read_text_file(file), "x\n");
    for (const std::string& m : {message(file), below}) EXPECT_EQ(m.find("--"), std::string::npos) << m;
}

}  // namespace
}  // namespace brec
