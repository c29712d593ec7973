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
#include <vector>

#include "brec/io/files.hpp"
#include "brec/io/npy_numeric.hpp"
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

/// Whether brec-eval (the LibTorch half of the CLI) was built next to brec.
inline bool have_brec_eval() {
    const std::string bin = BREC_BINARY;
    return brec::file_exists(bin.substr(0, bin.rfind('/')) + "/brec-eval");
}

/// Writes pair_ID.npy for every pair of a `brec export` directory: rows of G's and H's graphs get
/// the vector (1, 2, ..., d) + (row is H ? shift : 0); reliability rows get (1, ..., d).
inline void write_embeddings(const std::string& dir, int d, double shift) {
    const auto m = nlohmann::json::parse(brec::read_text_file(dir + "/manifest.json"));
    const std::size_t rows = m["rows_per_pair"].get<std::size_t>(), q2 = rows / 2;
    for (const auto& p : m["pairs"]) {
        std::vector<float> v;
        for (std::size_t i = 0; i < rows; ++i)
            for (int j = 0; j < d; ++j) v.push_back(static_cast<float>(1 + j + (i < q2 && i % 2 ? shift : 0.0)));
        brec::write_text_file_atomic(dir + "/" + p["embeddings"].get<std::string>(),
                                     brec::format_npy_float32(v, {rows, static_cast<std::size_t>(d)}));
    }
}

/// Exit code 2 and exactly one stderr line "brec: error: ..." containing `needle`.
inline void expect_one_line_error(const Result& r, const std::string& needle) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr was: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr was: " << r.err;
    EXPECT_EQ(r.err.rfind("brec: error: ", 0), 0u) << r.err;
}

}  // namespace clitest
