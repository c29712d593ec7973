// The all-or-nothing directory writer: a new directory appears whole at commit() and not before, a
// writer that never commits leaves nothing (no staging directory, no directory it created), an
// existing directory is merged into without touching foreign files, and each policy option
// (replace_empty, create_parents, create_now, undo_partial_merge, label) does what it says.
#include "brec/io/dir_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
    const std::string d = testing::temp_path("dirw", name);
    fs::remove_all(d);
    return d;
}

/// Names in a directory (sorted), hidden and temporary ones included.
std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// Entries next to `dir` whose name starts with dir's name (a staging directory left behind).
std::vector<std::string> siblings_of(const std::string& dir) {
    std::vector<std::string> out;
    const std::string stem = fs::path(dir).filename().string();
    for (const auto& e : fs::directory_iterator(fs::path(dir).parent_path())) {
        const std::string name = e.path().filename().string();
        if (name != stem && name.rfind(stem, 0) == 0) out.push_back(name);
    }
    return out;
}

TEST(AtomicDirWriter, ANewDirectoryAppearsWholeAtCommit) {
    const std::string top = fresh_dir("new");
    const std::string dir = top + "/a/b";
    {
        AtomicDirWriter w(dir);
        w.write("one.txt", "1\n");
        write_text_file_atomic(w.path("two.bin"), std::string("\0\xff", 2));
        EXPECT_FALSE(fs::exists(dir)) << "nothing is visible before commit()";
        w.commit();
        EXPECT_EQ(w.final_path("one.txt"), dir + "/one.txt");
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"one.txt", "two.bin"}));
    EXPECT_EQ(read_text_file(dir + "/one.txt"), "1\n");
    EXPECT_EQ(read_text_file(dir + "/two.bin"), std::string("\0\xff", 2));
    EXPECT_TRUE(siblings_of(dir).empty()) << "no staging directory is left";
}

TEST(AtomicDirWriter, AWriterThatNeverCommitsLeavesNothing) {
    const std::string top = fresh_dir("abandoned");
    {
        AtomicDirWriter w(top + "/a/b");
        w.write("one.txt", "1\n");
        EXPECT_TRUE(fs::is_directory(top + "/a")) << "the parent holds the staging directory";
    }  // e.g. the computation threw
    EXPECT_FALSE(fs::exists(top)) << "the staging directory and every parent it created are removed";
    // A writer that stages nothing creates nothing.
    { AtomicDirWriter w(top + "/c"); }
    EXPECT_FALSE(fs::exists(top));
}

TEST(AtomicDirWriter, MergeReplacesFilesOfTheSameNameAndKeepsTheRest) {
    const std::string dir = fresh_dir("merge");
    fs::create_directories(dir + "/sub");
    write_text_file_atomic(dir + "/keep.txt", "mine\n");
    write_text_file_atomic(dir + "/report.md", "old\n");
    {
        AtomicDirWriter w(dir);
        w.write("report.md", "new\n");
        w.write("table.tsv", "a\tb\n");
        EXPECT_EQ(read_text_file(dir + "/report.md"), "old\n") << "replaced only at commit()";
        w.commit();
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"keep.txt", "report.md", "sub", "table.tsv"}));
    EXPECT_EQ(read_text_file(dir + "/report.md"), "new\n");
    EXPECT_EQ(read_text_file(dir + "/keep.txt"), "mine\n");
    EXPECT_TRUE(siblings_of(dir).empty());
}

TEST(AtomicDirWriter, AnAbandonedMergeChangesNothing) {
    const std::string dir = fresh_dir("merge_abandoned");
    fs::create_directories(dir);
    write_text_file_atomic(dir + "/report.md", "old\n");
    {
        AtomicDirWriter w(dir);
        w.write("report.md", "new\n");
        w.write("more.txt", "x\n");
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"report.md"})) << "no staging directory is left inside";
    EXPECT_EQ(read_text_file(dir + "/report.md"), "old\n");
}

TEST(AtomicDirWriter, ANameTakenByADirectoryFailsBeforeAnyFileMoves) {
    const std::string dir = fresh_dir("taken");
    fs::create_directories(dir + "/b.txt/keep");
    write_text_file_atomic(dir + "/a.txt", "old\n");
    AtomicDirWriter w(dir);
    w.write("a.txt", "new\n");
    w.write("b.txt", "new\n");
    EXPECT_EQ(testing::error_of([&] { w.commit(); }), "cannot write " + dir + "/b.txt: it is a directory");
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"a.txt", "b.txt"}));
    EXPECT_EQ(read_text_file(dir + "/a.txt"), "old\n");
    EXPECT_TRUE(fs::is_directory(dir + "/b.txt/keep")) << "foreign content is untouched";
}

/// Merges a.txt ("new") and b.txt (staged by path() but never written, so that its rename fails
/// after a.txt has moved) into a directory holding a.txt ("old"); returns its files afterwards.
std::vector<std::string> merge_failing_half_way(const std::string& dir, bool undo) {
    fs::create_directories(dir);
    write_text_file_atomic(dir + "/a.txt", "old\n");
    AtomicDirWriter w(dir, AtomicDirOptions().set_undo_partial_merge(undo));
    w.write("a.txt", "new\n");
    w.path("b.txt");
    const std::string message = testing::error_of([&] { w.commit(); });
    EXPECT_EQ(message.rfind("cannot write " + dir + "/b.txt: ", 0), 0u) << message;
    return listing(dir);
}

TEST(AtomicDirWriter, UndoPartialMergeRemovesTheFilesAlreadyMoved) {
    const std::string undone = fresh_dir("undo");
    EXPECT_TRUE(merge_failing_half_way(undone, true).empty()) << "the moved a.txt is removed again";
    const std::string kept = fresh_dir("no_undo");
    EXPECT_EQ(merge_failing_half_way(kept, false), (std::vector<std::string>{"a.txt"}));
    EXPECT_EQ(read_text_file(kept + "/a.txt"), "new\n") << "without undo the moved file stays";
}

TEST(AtomicDirWriter, ReplaceEmptyAcceptsOnlyAMissingOrEmptyDirectory) {
    const ExistingDir replace = ExistingDir::replace_empty;
    const std::string full = fresh_dir("replace_full");
    fs::create_directories(full + "/inner");
    const std::string refused = full + " exists and is not an empty directory; choose a new directory or remove it";
    try {
        AtomicDirWriter w(full, AtomicDirOptions().set_existing(replace));
        FAIL() << "a non-empty directory was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()), refused);
    }
    EXPECT_TRUE(fs::is_directory(full + "/inner"));
    const std::string file = testing::fresh_temp_file("dirw", "replace_file");
    write_text_file_atomic(file, "x\n");
    EXPECT_THROW({ AtomicDirWriter w(file, AtomicDirOptions().set_existing(replace)); }, InvalidArgument);
    EXPECT_EQ(read_text_file(file), "x\n");

    const std::string empty = fresh_dir("replace_empty");
    fs::create_directories(empty);
    AtomicDirWriter w(empty, AtomicDirOptions().set_existing(replace));
    w.write("manifest.json", "{}\n");
    EXPECT_TRUE(listing(empty).empty()) << "staged next to the target, not inside it";
    w.commit();
    EXPECT_EQ(listing(empty), (std::vector<std::string>{"manifest.json"}));
    EXPECT_TRUE(siblings_of(empty).empty());
}

TEST(AtomicDirWriter, WithoutCreateParentsTheParentMustExist) {
    const std::string top = fresh_dir("no_parents");
    const AtomicDirOptions opt = AtomicDirOptions().set_create_parents(false);
    EXPECT_EQ(testing::error_of([&] { AtomicDirWriter w(top + "/a/b", opt); }),
              "cannot create output directory " + top + "/a/b: directory " + top + "/a does not exist");
    const std::string file = testing::fresh_temp_file("dirw", "parent_file");
    write_text_file_atomic(file, "x\n");
    EXPECT_EQ(testing::error_of([&] { AtomicDirWriter w(file + "/b", opt); }),
              "cannot create output directory " + file + "/b: " + file + " is not a directory");
    EXPECT_FALSE(fs::exists(top));
    // With the parent in place the same options work.
    fs::create_directories(top);
    AtomicDirWriter w(top + "/a", opt);
    w.write("x.txt", "x");
    w.commit();
    EXPECT_EQ(read_text_file(top + "/a/x.txt"), "x");
}

TEST(AtomicDirWriter, CreateNowMakesTheDirectoryAtOnceAndRemovesItUnlessCommitted) {
    const std::string top = fresh_dir("now");
    const AtomicDirOptions now = AtomicDirOptions().set_create_now(true);
    {
        AtomicDirWriter w(top + "/a/b", now);
        EXPECT_TRUE(w.created());
        EXPECT_TRUE(fs::is_directory(top + "/a/b")) << "a bad path fails before any long computation";
        EXPECT_TRUE(listing(top + "/a/b").empty()) << "nothing is staged yet";
        w.write("x.txt", "x");
    }
    EXPECT_FALSE(fs::exists(top)) << "everything the writer created is removed";
    {
        AtomicDirWriter w(top + "/a", now);
        w.write("x.txt", "x");
        w.commit();
    }
    EXPECT_EQ(listing(top + "/a"), (std::vector<std::string>{"x.txt"}));
    {
        AtomicDirWriter w(top + "/a", now);
        EXPECT_FALSE(w.created()) << "it existed";
    }
    EXPECT_EQ(listing(top + "/a"), (std::vector<std::string>{"x.txt"})) << "an existing directory is kept";
}

TEST(AtomicDirWriter, ATargetThatIsAFileIsAnIoErrorNamingIt) {
    const std::string file = testing::fresh_temp_file("dirw", "target_file");
    write_text_file_atomic(file, "x\n");
    try {
        AtomicDirWriter w(file);
        FAIL() << "a file was accepted as the output directory";
    } catch (const IoError& e) {
        EXPECT_EQ(std::string(e.what()), "output directory " + file + " exists and is not a directory");
    }
    EXPECT_EQ(testing::error_of([&] { AtomicDirWriter w(file, AtomicDirOptions().set_label("report directory")); }),
              "report directory " + file + " exists and is not a directory");
    // Below a file: the directory cannot be created, and the reason is given.
    const std::string below = testing::error_of([&] {
        AtomicDirWriter w(file + "/sub");
        w.write("a.txt", "a");
    });
    EXPECT_EQ(below.rfind("cannot create output directory " + file + "/sub: ", 0), 0u) << below;
    EXPECT_GT(below.size(), ("cannot create output directory " + file + "/sub: ").size());
    EXPECT_EQ(read_text_file(file), "x\n");
}

TEST(AtomicDirWriter, BadFileNamesAreIoErrorsNamingThePath) {
    const std::string dir = fresh_dir("names");
    {
        AtomicDirWriter w(dir);
        for (const std::string bad : {"sub/a.txt", "", ".."}) {
            const std::string message = testing::error_of([&] { w.write(bad, "x"); });
            EXPECT_EQ(message.rfind("cannot write " + dir + "/" + bad + ": not a plain file name", 0), 0u) << message;
        }
        EXPECT_THROW(w.path("a/b"), IoError);
    }
    EXPECT_FALSE(fs::exists(dir));
}

TEST(AtomicDirWriter, CommitIsOnceAndNothingStagedGivesAnEmptyDirectory) {
    const std::string dir = fresh_dir("once");
    AtomicDirWriter w(dir);
    w.commit();
    EXPECT_TRUE(fs::is_directory(dir));
    EXPECT_TRUE(listing(dir).empty());
    EXPECT_THROW(w.commit(), Error);
    EXPECT_THROW(w.write("late.txt", "x"), Error);
    EXPECT_TRUE(listing(dir).empty());
}

TEST(AtomicDirWriter, FilesMayBeStagedFromSeveralThreads) {
    const std::string dir = fresh_dir("threads");
    AtomicDirWriter w(dir, AtomicDirOptions().set_existing(ExistingDir::replace_empty));
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&w, t] {
            for (int i = 0; i < 25; ++i) w.write("f" + std::to_string(t * 25 + i), std::to_string(i));
        });
    for (auto& th : threads) th.join();
    w.commit();
    EXPECT_EQ(listing(dir).size(), 100u);
    EXPECT_EQ(read_text_file(dir + "/f57"), "7");
}

TEST(MakeDirectories, CreatesMissingParentsAndNamesTheReason) {
    const std::string top = fresh_dir("mkdirs");
    make_directories(top + "/a/b/");
    EXPECT_TRUE(fs::is_directory(top + "/a/b"));
    EXPECT_NO_THROW(make_directories(top + "/a/b")) << "an existing directory is fine";
    write_text_file_atomic(top + "/file", "x\n");
    const std::string message = testing::error_of([&] { make_directories(top + "/file/sub"); });
    EXPECT_EQ(message.rfind("cannot create directory " + top + "/file/sub: ", 0), 0u) << message;
    EXPECT_GT(message.size(), ("cannot create directory " + top + "/file/sub: ").size());
    EXPECT_THROW(make_directories(top + "/file"), IoError);
    fs::remove_all(top);
}

}  // namespace
}  // namespace brec
