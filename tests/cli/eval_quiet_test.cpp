// brec eval --jobs: the same records whatever the number of jobs. brec eval --quiet: nothing on stderr for a run
// without problems, LibTorch's own one-time notices included (lgnn2's Set2Set readout takes a scatter maximum, for
// which LibTorch prints that scatter_reduce "is in beta").
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

using clitest::brec;
using clitest::Result;

TEST(EvalQuietCli, PrintsNothingOnStderr) {
    const std::string bin = BREC_BINARY;
    if (!brec::file_exists(bin.substr(0, bin.rfind('/')) + "/brec-eval")) GTEST_SKIP() << "built without LibTorch";
    const Result r = brec("eval --model lgnn2 --pairs 0 --epochs 1 --torch-threads 1 --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("lgnn2"), std::string::npos) << r.out;
}

/// The records of `brec eval --json` output without their timings (the run summary dropped).
std::vector<nlohmann::json> records_without_times(const std::string& out) {
    std::vector<nlohmann::json> rows;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        nlohmann::json j = nlohmann::json::parse(line);
        if (!j.contains("id")) continue;
        j.erase("seconds");
        j.erase("train_seconds");
        rows.push_back(j);
    }
    return rows;
}

TEST(EvalJobsCli, OneJobAndTwoJobsTrainSmallPairsAlike) {
    // Pairs of 10 vertices run single-threaded whatever --jobs; their BLAS products too (with one
    // job OpenBLAS once kept a thread per core, whose sums differ in the last bits).
    if (!clitest::have_brec_eval()) GTEST_SKIP() << "built without LibTorch";
    const Result one = brec("eval --model gin --pairs 0-3 --epochs 3 --jobs 1 --json --quiet");
    const Result two = brec("eval --model gin --pairs 0-3 --epochs 3 --jobs 2 --json --quiet");
    ASSERT_EQ(one.code, 0) << one.err;
    ASSERT_EQ(two.code, 0) << two.err;
    const auto a = records_without_times(one.out), b = records_without_times(two.out);
    ASSERT_EQ(a.size(), 4u);
    EXPECT_EQ(a, b);
}

}  // namespace
