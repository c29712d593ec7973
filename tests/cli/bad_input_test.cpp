// The bad-input table (tests/cli/bad_input.tsv): every subcommand of `brec --help` given the
// inputs a new user gets wrong (out-of-range and malformed flag values, missing, unreadable and
// malformed files, a directory for a file, an existing results file, a full disk, a file name
// that is not UTF-8). Each row runs the binary once in a fresh directory of fixtures and checks
// the exit code, the stderr line, and that nothing was written: no file appeared, none changed.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

namespace fs = std::filesystem;

/// One row of the table.
struct Row {
    std::string name;    ///< test name (letters, digits, '_')
    std::string needs;   ///< "-" or comma-separated: torch, unreadable, full, tmpfs
    std::string args;    ///< the command line after `brec`, with placeholders
    int code = 2;        ///< expected exit code
    std::string needle;  ///< stderr must contain this ("-": nothing required)
    bool one_line = true;
    std::string absent;  ///< this path must not exist afterwards ("-": none)
    int line = 0;        ///< line in bad_input.tsv
};

/// gtest prints a row by its name (not as bytes).
void PrintTo(const Row& row, std::ostream* os) { *os << row.name; }

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> cols;
    std::size_t start = 0;
    for (;;) {
        const auto tab = line.find('\t', start);
        cols.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) return cols;
        start = tab + 1;
    }
}

std::vector<Row> load_rows() {
    const std::string path = std::string(BREC_SOURCE_DIR) + "/tests/cli/bad_input.tsv";
    std::ifstream in(path);
    std::vector<Row> rows;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line[0] == '#') continue;
        const auto c = split_tabs(line);
        Row r;
        r.line = number;
        if (c.size() != 7) {
            r.name = "malformed_table_line_" + std::to_string(number);
            r.code = -1;
            rows.push_back(r);
            continue;
        }
        r.name = c[0];
        r.needs = c[1];
        r.args = c[2];
        r.code = std::atoi(c[3].c_str());
        r.needle = c[4];
        r.one_line = c[5] == "1";
        r.absent = c[6];
        rows.push_back(r);
    }
    if (rows.empty()) rows.push_back(Row{"table_missing", "-", "", -1, path, true, "-", 0});
    return rows;
}

void write(const std::string& path, const std::string& content) { std::ofstream(path, std::ios::binary) << content; }

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

/// Every file and directory under `dir` with its content ("<dir>" for directories, "<unreadable>"
/// where it cannot be read).
std::map<std::string, std::string> snapshot(const std::string& dir) {
    std::map<std::string, std::string> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string p = it->path().string();
        if (it->is_directory(ec)) {
            files[p] = "<dir>";
            continue;
        }
        std::ifstream in(p, std::ios::binary);
        if (!in) {
            files[p] = "<unreadable>";
            continue;
        }
        std::ostringstream ss;
        ss << in.rdbuf();
        files[p] = ss.str();
    }
    return files;
}

// The first two BREC pairs (10 vertices each), and graph6 lines of them.
constexpr const char* kPairs = "# two pairs\n0\tbasic\tICZJvZsNg\tICrbut{{W\n1\tbasic\tICZJvZsNg\tICrbut{{W\n";
constexpr const char* kGraph6 = "ICZJvZsNg\nICrbut{{W\n";

class BadInput : public ::testing::TestWithParam<Row> {
protected:
    void SetUp() override {
        dir_ = clitest::temp_path(GetParam().name);
        fs::remove_all(dir_);
        fs::create_directories(dir_ + "/adir");
        write(dir_ + "/pairs.tsv", kPairs);
        // Line 3: a graph6 string with a character outside '?'..'~'.
        write(dir_ + "/bad_pairs.tsv", "# x\n0\tbasic\tICZJvZsNg\tICrbut{{W\n2\tbasic\tICZJv sNg\tICrbut{{W\n");
        write(dir_ + "/graphs.g6", kGraph6);
        write(dir_ + "/bad.g6", "ICZJvZsNg\nIC!!\n");
        write(dir_ + "/existing.jsonl", "keep me\n");
        write(dir_ + "/bad.csv", "task,model,seed,value\nt,m,zero,1\n");
        write(dir_ + "/bad.jsonl", "{\"command\":\"wl\"}\n{not json\n{\"command\":\"wl\"}\n");
        write(dir_ + "/labels.txt", "1\nx\n");
        write(dir_ + "/bad.json", "{\"graphs\": [{\"n\": 3, \"edges\": [[0, 7]]}]}\n");
        write(dir_ + "/bad.el", "n 3\n0 1\n1 9\n");
        write(dir_ + "/empty.txt", "");
        write(dir_ + "/scores.csv", "t1,a,0,1\nt1,a,1,2\nt1,b,0,3\nt1,b,1,4\nt2,a,0,1\nt2,a,1,2\nt2,b,0,3\nt2,b,1,5\n");
        write(dir_ + "/\xff\xfe.tsv", kPairs);  // a name that is not UTF-8
        write(dir_ + "/unreadable.tsv", kPairs);
        chmod((dir_ + "/unreadable.tsv").c_str(), 0);
        before_ = snapshot(dir_);
    }

    void TearDown() override {
        if (!mount_.empty()) {
            umount2(mount_.c_str(), MNT_DETACH);
            fs::remove(mount_);
        }
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    /// A full file system at mount_ (a 64 KiB tmpfs filled to the last byte), or "" when this
    /// process may not mount one.
    std::string full_tmpfs() {
        mount_ = dir_ + "_full";
        fs::create_directories(mount_);
        if (mount("brec_full", mount_.c_str(), "tmpfs", 0, "size=64k") != 0) {
            fs::remove(mount_);
            mount_.clear();
            return "";
        }
        FILE* f = std::fopen((mount_ + "/filler").c_str(), "wb");
        const std::string block(4096, 'x');
        while (f && std::fwrite(block.data(), 1, block.size(), f) == block.size() && std::fflush(f) == 0) {
        }
        if (f) std::fclose(f);
        FILE* probe = std::fopen((mount_ + "/probe").c_str(), "wb");
        const bool full = probe && (std::fputc('x', probe) == EOF || std::fflush(probe) != 0);
        if (probe) std::fclose(probe);
        std::remove((mount_ + "/probe").c_str());
        return full ? mount_ : "";
    }

    std::string dir_;
    std::string mount_;
    std::map<std::string, std::string> before_;
};

TEST_P(BadInput, OneLineErrorAndNothingWritten) {
    const Row& row = GetParam();
    ASSERT_NE(row.code, -1) << "bad_input.tsv:" << row.line << ": " << row.name << " (needs 7 tab-separated columns)";
    const std::string needs = "," + row.needs + ",";
    const std::string bin = BREC_BINARY;
    if (needs.find(",torch,") != std::string::npos && !brec::file_exists(bin.substr(0, bin.rfind('/')) + "/brec-eval"))
        GTEST_SKIP() << "built without LibTorch";
    if (needs.find(",unreadable,") != std::string::npos) {
        std::ifstream probe(dir_ + "/unreadable.tsv");
        if (probe) GTEST_SKIP() << "a file of mode 000 is readable here (running as root): no unreadable file";
    }
    std::string full_dir;  // a directory on a full file system
    std::string full_file;
    if (needs.find(",full,") != std::string::npos || needs.find(",tmpfs,") != std::string::npos) {
        full_dir = full_tmpfs();
        if (!full_dir.empty()) {
            full_file = full_dir + "/out";
        } else if (needs.find(",tmpfs,") == std::string::npos && brec::file_exists("/dev/full")) {
            full_file = "/dev/full";  // writes fail with ENOSPC
        } else {
            GTEST_SKIP() << "cannot mount a small tmpfs here and the row needs a full directory";
        }
    }
    const auto full_before = full_dir.empty() ? std::map<std::string, std::string>{} : snapshot(full_dir);

    auto expand = [&](std::string s) {
        s = replace_all(s, "{T}", dir_);
        s = replace_all(s, "{SRC}", BREC_SOURCE_DIR);
        s = replace_all(s, "{FULLDIR}", full_dir);
        s = replace_all(s, "{FULL}", full_file);
        s = replace_all(s, "{NONUTF8}", "\xff\xfe");
        return s;
    };
    const clitest::Result r = clitest::brec(expand(row.args));
    const std::string where = "bad_input.tsv:" + std::to_string(row.line) + ": brec " + expand(row.args);
    EXPECT_EQ(r.code, row.code) << where << "\nstderr: " << r.err;
    if (row.needle != "-") {
        EXPECT_NE(r.err.find(expand(row.needle)), std::string::npos) << where << "\nstderr: " << r.err;
    }
    if (row.one_line) {
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << where << "\nstderr: " << r.err;
        EXPECT_EQ(r.err.rfind("brec: error: ", 0), 0u) << where << "\nstderr: " << r.err;
    }
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << where << "\nstderr: " << r.err;
    if (row.absent != "-") {
        EXPECT_FALSE(fs::exists(expand(row.absent))) << where;
    }
    if (row.code != 0) {
        // Nothing partial: no file appeared (temporary files included) and none changed.
        const auto after = snapshot(dir_);
        for (const auto& [path, content] : after) {
            const auto was = before_.find(path);
            if (was == before_.end()) {
                ADD_FAILURE() << where << "\nleft behind: " << path;
            } else {
                EXPECT_TRUE(was->second == content) << where << "\nchanged: " << path;
            }
        }
        for (const auto& [path, content] : before_) EXPECT_TRUE(after.count(path)) << where << "\nremoved: " << path;
        if (!full_dir.empty()) {
            EXPECT_EQ(snapshot(full_dir).size(), full_before.size()) << where << "\nleft behind";
        }
        if (full_file == "/dev/full") {
            struct stat st {};
            EXPECT_TRUE(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) << "/dev/full was replaced";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Table, BadInput, ::testing::ValuesIn(load_rows()),
                         [](const ::testing::TestParamInfo<Row>& info) { return info.param.name; });

}  // namespace
