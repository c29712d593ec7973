// brec eval --quiet: nothing on stderr for a run without problems, LibTorch's own one-time
// notices included (lgnn2's Set2Set readout takes a scatter maximum, for which LibTorch prints
// that scatter_reduce "is in beta").
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
