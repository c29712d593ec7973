#pragma once
// Helpers shared by the CLI test files: run the built `brec` binary (BREC_BINARY) with a command
// line, capture exit code, stdout and stderr, and check the one-line error contract: bad input exits 2 with one line
// naming the file, line and problem.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "brec/io/files.hpp"
#include "common/temp_cleanup.hpp"

namespace clitest {

struct Result {
    int code = -1;
    std::string out;
    std::string err;
};

/// A path in the test temp directory, unique per process and test suite (so that suites in one
/// program never see each other's files).
inline std::string temp_path(const std::string& name) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string suite = info ? info->test_suite_name() : "none";
    std::replace(suite.begin(), suite.end(), '/', '_');  // "Prefix/Suite" of parameterized tests
    return ::testing::TempDir() + "brec_" + suite + "_" + std::to_string(::getpid()) + "_" + name;
}

/// Runs `brec ARGS` through the shell; stdout is captured through a pipe, stderr through a file.
inline Result brec(const std::string& args) {
    const std::string err_file = temp_path("stderr.txt");
    const std::string cmd = std::string(BREC_BINARY) + " " + args + " 2>" + err_file;
    Result r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = brec::file_exists(err_file) ? brec::read_text_file(err_file) : "";
    return r;
}

/// Writes `content` (bytes as given) to a temp file and returns its path.
inline std::string write_file(const std::string& name, const std::string& content) {
    const std::string path = temp_path(name);
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

/// The last non-empty line of stdout parsed as JSON (the summary object).
inline nlohmann::json last_json_line(const std::string& out) {
    const auto end = out.find_last_not_of('\n');
    const auto start = out.rfind('\n', end);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    return nlohmann::json::parse(out.substr(from, end + 1 - from));
}

/// Exit code 2 and exactly one stderr line "brec: error: ..." containing `needle`.
inline void expect_one_line_error(const Result& r, const std::string& needle) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr was: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr was: " << r.err;
    EXPECT_EQ(r.err.rfind("brec: error: ", 0), 0u) << r.err;
}

}  // namespace clitest
