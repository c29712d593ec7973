// brec eval --max-memory: a pair whose model needs more memory is skipped with one line on stderr
// and recorded as skipped (counted as not distinguished); --resume keeps it done. Bad sizes are in
// bad_input.tsv.
#include <gtest/gtest.h>

#include <string>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"
#include "common/result_lines.hpp"

namespace {

using clitest::brec;
using clitest::Result;
using clitest::temp_path;

TEST(MaxMemoryCli, SkipsRecordsAndResumesPairsAboveTheLimit) {
    const std::string bin = BREC_BINARY;
    if (!brec::file_exists(bin.substr(0, bin.rfind('/')) + "/brec-eval")) GTEST_SKIP() << "built without LibTorch";
    const std::string out = temp_path("skipped.jsonl");
    std::remove(out.c_str());
    const std::string args = "eval --model sswl_p --pairs 0,160 --torch-threads 1 --out " + out;
    const Result r = brec(args + " --max-memory 1M");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("pair 0: sswl_p needs about "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" > --max-memory 1.0 MiB; skipped"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("pair 160: sswl_p needs about "), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("2 pairs skipped, counted as not distinguished"), std::string::npos) << r.out;
    const auto lines = brec::testing::result_lines(out);
    ASSERT_EQ(lines.size(), 2u);
    for (const auto& line : lines) EXPECT_NE(line.find("\"skipped\":\"sswl_p needs about "), std::string::npos) << line;

    const Result again = brec(args + " --resume --max-memory 8G");
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(again.err.find("needs about"), std::string::npos) << again.err;  // nothing estimated again
    EXPECT_EQ(brec::testing::result_lines(out).size(), 2u);
    std::remove(out.c_str());
}

}  // namespace
