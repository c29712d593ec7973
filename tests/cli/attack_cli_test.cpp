// brec attack: forwarded to brec-eval; bad input is one line on stderr, exit 2, and no output.
#include <gtest/gtest.h>

#include <string>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

using clitest::brec;
using clitest::have_brec_eval;
using clitest::Result;
using clitest::temp_path;

TEST(AttackCli, HelpHasAnExample) {
    if (!have_brec_eval()) GTEST_SKIP() << "built without LibTorch";
    const Result r = brec("attack train --help");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("Example: "), std::string::npos) << r.out;
}

TEST(AttackCli, BadInputIsOneLineExit2AndWritesNothing) {
    if (!have_brec_eval()) GTEST_SKIP() << "built without LibTorch";
    const std::string out = temp_path("attack_cli_out.jsonl");
    const std::string models = temp_path("attack_cli_models");
    for (const std::string& args :
         {"attack run --data /nonexistent --models " + models + " --out " + out,
          "attack run --data /nonexistent --models " + models + " --space sideways --out " + out,
          "attack run --data /nonexistent --models " + models + " --budgets 1,0 --out " + out,
          "attack train --data /nonexistent --model sun --out " + models,
          "attack train --data /nonexistent --out " + models}) {
        const Result r = brec(args);
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": " << r.err;
        EXPECT_EQ(r.err.rfind("brec: error: ", 0), 0u) << r.err;
        EXPECT_FALSE(brec::file_exists(out));
        EXPECT_FALSE(brec::file_exists(models));
    }
}

}  // namespace
