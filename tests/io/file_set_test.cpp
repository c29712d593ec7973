// A set of files written into one directory all or none: every file with its exact content and the
// paths in order, missing parents created, foreign files kept; a write that fails part-way (a file
// size limit stands in for a full disk, which root cannot be refused otherwise) leaves none of the
// files, no temporary file and none of the directories it created; and IoErrors that name the path.
#include "brec/io/file_set.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;
using Files = std::vector<std::pair<std::string, std::string>>;

std::string fresh_dir(const std::string& name) {
    const std::string d = testing::temp_path("fileset", name);
    fs::remove_all(d);
    return d;
}

/// Names in a directory (sorted), temporary files included.
std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// While alive, no file of this process may grow beyond `bytes`: a write past it fails with EFBIG
/// (SIGXFSZ is ignored), as a write to a full disk fails with ENOSPC.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &old_);
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit lower = old_;
        lower.rlim_cur = bytes;
        ok_ = setrlimit(RLIMIT_FSIZE, &lower) == 0;
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, old_handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool ok() const { return ok_; }

private:
    rlimit old_{};
    void (*old_handler_)(int) = SIG_DFL;
    bool ok_ = false;
};

/// The message of the IoError that writing `files` into `dir` under a 4 KiB file size limit
/// throws ("" when none is thrown; "no limit" when the limit could not be set).
std::string write_under_limit(const std::string& dir, const Files& files) {
    FileSizeLimit limit(4096);
    if (!limit.ok()) return "no limit";
    try {
        write_files_atomic(dir, files);
    } catch (const IoError& e) {
        return e.what();
    }
    return "";
}

const std::string kTooBig(64 * 1024, 'y');

TEST(FileSet, WritesEveryFileIntoNewNestedDirectoriesAndReturnsThePathsInOrder) {
    const std::string top = fresh_dir("ok");
    const std::string dir = top + "/nested/deeper";
    const Files files = {{"report.md", "# Report\n\nline two\n"}, {"data.json", "{\"a\": 1}\n"}, {"empty.txt", ""}};
    const std::vector<std::string> paths = write_files_atomic(dir, files);
    EXPECT_EQ(paths, (std::vector<std::string>{dir + "/report.md", dir + "/data.json", dir + "/empty.txt"}));
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"data.json", "empty.txt", "report.md"}))
        << "no temporary file is left";
    EXPECT_EQ(read_text_file(dir + "/report.md"), "# Report\n\nline two\n");
    EXPECT_EQ(read_text_file(dir + "/data.json"), "{\"a\": 1}\n");
    EXPECT_EQ(read_text_file(dir + "/empty.txt"), "");
    EXPECT_EQ(fs::file_size(dir + "/empty.txt"), 0u);
}

TEST(FileSet, ContentIsWrittenByteForByte) {
    const std::string dir = fresh_dir("bytes");
    const std::string bytes("a\0b\r\n\xff\n", 7);  // a NUL, a CR LF, a byte above 127, no final text line
    write_files_atomic(dir, {{"blob.bin", bytes}, {"big.txt", kTooBig}});
    EXPECT_EQ(read_text_file(dir + "/blob.bin"), bytes);
    EXPECT_EQ(fs::file_size(dir + "/blob.bin"), 7u);
    EXPECT_EQ(read_text_file(dir + "/big.txt"), kTooBig);
}

TEST(FileSet, AnExistingDirectoryKeepsItsOtherFilesAndGetsTheNewContent) {
    const std::string dir = fresh_dir("existing");
    fs::create_directories(dir + "/sub");
    write_text_file_atomic(dir + "/keep.txt", "mine\n");
    write_text_file_atomic(dir + "/report.md", "old report\n");
    write_text_file_atomic(dir + "/sub/inner.txt", "inner\n");
    const auto paths = write_files_atomic(dir, {{"report.md", "new report\n"}, {"table.tsv", "a\tb\n"}});
    EXPECT_EQ(paths, (std::vector<std::string>{dir + "/report.md", dir + "/table.tsv"}));
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"keep.txt", "report.md", "sub", "table.tsv"}));
    EXPECT_EQ(read_text_file(dir + "/report.md"), "new report\n") << "a file of the same name is replaced";
    EXPECT_EQ(read_text_file(dir + "/table.tsv"), "a\tb\n");
    EXPECT_EQ(read_text_file(dir + "/keep.txt"), "mine\n");
    EXPECT_EQ(read_text_file(dir + "/sub/inner.txt"), "inner\n");
}

TEST(FileSet, NoFilesStillCreatesTheDirectory) {
    const std::string dir = fresh_dir("none") + "/a";
    EXPECT_TRUE(write_files_atomic(dir, {}).empty());
    EXPECT_TRUE(fs::is_directory(dir));
    EXPECT_TRUE(listing(dir).empty());
}

TEST(FileSet, AFailedWriteLeavesNoFileAndNoDirectoryItCreated) {
    const std::string top = fresh_dir("full");
    const std::string dir = top + "/a/b";
    const std::string message =
        write_under_limit(dir, {{"first.txt", "fits\n"}, {"big.txt", kTooBig}, {"last.txt", "never\n"}});
    if (message == "no limit") GTEST_SKIP() << "cannot lower RLIMIT_FSIZE here";
    EXPECT_EQ(message.rfind("cannot write " + dir + "/big.txt", 0), 0u) << message;
    EXPECT_FALSE(fs::exists(top)) << "every directory it created is removed again";
}

TEST(FileSet, AFailedWriteWithATrailingSlashRemovesTheDirectoriesItCreated) {
    const std::string top = fresh_dir("slash");
    const std::string message = write_under_limit(top + "/a/", {{"first.txt", "fits\n"}, {"big.txt", kTooBig}});
    if (message == "no limit") GTEST_SKIP() << "cannot lower RLIMIT_FSIZE here";
    EXPECT_NE(message.find("big.txt"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(top));
}

TEST(FileSet, AFailedWriteKeepsAnExistingParentAndRemovesOnlyWhatItCreated) {
    const std::string top = fresh_dir("parent");
    fs::create_directories(top);
    write_text_file_atomic(top + "/keep.txt", "mine\n");
    const std::string message = write_under_limit(top + "/new/leaf", {{"first.txt", "fits\n"}, {"big.txt", kTooBig}});
    if (message == "no limit") GTEST_SKIP() << "cannot lower RLIMIT_FSIZE here";
    EXPECT_NE(message.find("big.txt"), std::string::npos) << message;
    EXPECT_EQ(listing(top), (std::vector<std::string>{"keep.txt"}));
    EXPECT_EQ(read_text_file(top + "/keep.txt"), "mine\n");
}

TEST(FileSet, AFailedWriteInAnExistingDirectoryChangesNothingThere) {
    const std::string dir = fresh_dir("existing_full");
    fs::create_directories(dir);
    write_text_file_atomic(dir + "/report.md", "old report\n");
    write_text_file_atomic(dir + "/keep.txt", "mine\n");
    const std::string message = write_under_limit(dir, {{"report.md", "new report\n"}, {"big.txt", kTooBig}});
    if (message == "no limit") GTEST_SKIP() << "cannot lower RLIMIT_FSIZE here";
    EXPECT_NE(message.find(dir + "/big.txt"), std::string::npos) << message;
    EXPECT_TRUE(fs::is_directory(dir)) << "a directory it did not create is never removed";
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"keep.txt", "report.md"})) << "no temporary file is left";
    EXPECT_EQ(read_text_file(dir + "/report.md"), "old report\n") << "no file is replaced unless all were written";
    EXPECT_EQ(read_text_file(dir + "/keep.txt"), "mine\n");
}

TEST(FileSet, ANameTakenByADirectoryFailsBeforeAnyFileIsReplaced) {
    const std::string dir = fresh_dir("taken");
    fs::create_directories(dir + "/table.tsv/keep");
    write_text_file_atomic(dir + "/report.md", "old report\n");
    try {
        write_files_atomic(dir, {{"report.md", "new report\n"}, {"table.tsv", "a\tb\n"}, {"after.txt", "x\n"}});
        FAIL() << "a directory in the way was overwritten";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(dir + "/table.tsv"), std::string::npos) << e.what();
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"report.md", "table.tsv"}));
    EXPECT_EQ(read_text_file(dir + "/report.md"), "old report\n");
    EXPECT_TRUE(fs::is_directory(dir + "/table.tsv/keep")) << "foreign content is untouched";
}

TEST(FileSet, ANameInAMissingSubdirectoryFailsAndLeavesNothing) {
    const std::string top = fresh_dir("no_subdir");
    const std::string dir = top + "/out";
    try {
        write_files_atomic(dir, {{"first.txt", "1\n"}, {"missing/second.txt", "2\n"}});
        FAIL() << "wrote into a directory that does not exist";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(dir + "/missing/second.txt"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(top));
}

TEST(FileSet, ADirectoryThatIsAFileIsAnIoErrorNamingIt) {
    const std::string file = testing::fresh_temp_file("fileset", "plain_file");
    write_text_file_atomic(file, "x\n");
    EXPECT_EQ(testing::error_of([&] {
                  write_files_atomic(file, {{"a.txt", "a"}});
              }),
              "cannot write to " + file + ": it exists and is not a directory");
    EXPECT_THROW(write_files_atomic(file, {{"a.txt", "a"}}), IoError);
    const std::string below = testing::error_of([&] { write_files_atomic(file + "/sub", {{"a.txt", "a"}}); });
    EXPECT_EQ(below.rfind("cannot create directory " + file + "/sub: ", 0), 0u) << below;
    EXPECT_GT(below.size(), ("cannot create directory " + file + "/sub: ").size()) << "the reason is given";
    EXPECT_TRUE(fs::is_regular_file(file));
    EXPECT_EQ(read_text_file(file), "x\n");
}

}  // namespace
}  // namespace brec
