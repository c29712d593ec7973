// `brec eval --model torchscript:FILE` end to end: a module that breaks the interface is one line
// naming what is wrong, exit code 2, and no output file; the run itself is a normal eval run.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using clitest::brec;
using clitest::expect_one_line_error;
using clitest::last_json_line;
using clitest::Result;
using clitest::temp_path;

const std::string kDir = std::string(BREC_SOURCE_DIR) + "/tests/data/torchscript/";

bool have_eval() { return brec::file_exists(fs::path(BREC_BINARY).parent_path().string() + "/brec-eval"); }

TEST(TorchScriptCli, BrokenModulesAreOneLineAndWriteNothing) {
    if (!have_eval()) GTEST_SKIP() << "built without LibTorch";
    const std::string out = temp_path("ts.jsonl");
    const std::string common =
        " --pairs 0,1 --q 8 --out-dim 4 --quiet --out " + out + " --junit " + out + ".xml --model torchscript:" + kDir;
    const std::pair<const char*, const char*> cases[] = {
        {"bad_no_forward.pt", "has no forward method"},
        {"bad_three_arguments.pt", "forward takes 3 arguments"},
        {"bad_tensor_count.pt", "'num_graphs' is Tensor; expected int"},
        {"bad_tuple.pt", "expected one Tensor"},
        {"bad_width_8.pt", "forward returned shape [4, 8] for 4 graphs; expected [4, 4]"},
        {"bad_nan.pt", "NaN"},
        {"bad_not_torchscript.pt", "is not a TorchScript module"},
        {"missing.pt", "cannot open"}};
    for (const auto& [file, message] : cases) {
        SCOPED_TRACE(file);
        expect_one_line_error(brec("eval" + common + file), message);
        EXPECT_FALSE(fs::exists(out));
        EXPECT_FALSE(fs::exists(out + ".xml"));
    }
    // The default d = 16 against a module of width 4.
    expect_one_line_error(brec("eval --pairs 0 --quiet --model torchscript:" + kDir + "gin_d4.pt"), "expected [4, 16]");
    // BREC pairs have no node labels.
    expect_one_line_error(
        brec("eval --pairs 0 --q 8 --out-dim 4 --input-features label --model torchscript:" + kDir + "gin_d4.pt"),
        "need node labels");
    expect_one_line_error(brec("eval --pairs 0 --input-features degree --model gin"), "are for a user's module");
}

TEST(TorchScriptCli, RunsLikeABuiltInModelAndResumesOnlyTheSameModule) {
    if (!have_eval()) GTEST_SKIP() << "built without LibTorch";
    const std::string model = " --model torchscript:" + kDir +
                              "gin_d4.pt --q 8 --out-dim 4 --epochs 2 --torch-threads 1 --device cpu --quiet";
    const Result full = brec("eval --pairs 0-3 --json" + model);
    ASSERT_EQ(full.code, 0) << full.err;
    const auto s = last_json_line(full.out);
    EXPECT_EQ(s["total"]["pairs"], 4);
    EXPECT_EQ(s["total"]["distinguished"], 0);  // a 1-WL-bounded module on Basic pairs
    EXPECT_EQ(s["total"]["reliability_failures"], 0);
    EXPECT_EQ(s["settings"]["module_hash"].get<std::string>().size(), 16u);
    const std::string out = temp_path("ts_resume.jsonl");
    fs::remove(out);
    ASSERT_EQ(brec("eval --pairs 0-1 --out " + out + model).code, 0);
    const Result resumed = brec("eval --pairs 0-3 --json --resume --out " + out + model);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_EQ(last_json_line(resumed.out)["protocols"], s["protocols"]);
    // Another module under the same file name is another experiment: resuming is refused.
    const std::string copy = temp_path("module.pt");
    fs::copy_file(kDir + "gin_d4.pt", copy, fs::copy_options::overwrite_existing);
    const std::string out2 = temp_path("ts_other.jsonl");
    fs::remove(out2);
    const std::string by_copy =
        " --model torchscript:" + copy + " --q 8 --out-dim 4 --epochs 2 --torch-threads 1 --quiet";
    ASSERT_EQ(brec("eval --pairs 0 --out " + out2 + by_copy).code, 0);
    fs::copy_file(kDir + "gin_dropout_d4.pt", copy, fs::copy_options::overwrite_existing);
    expect_one_line_error(brec("eval --pairs 0-1 --resume --out " + out2 + by_copy), "other settings");
    const Result listed = brec("eval --list-models");
    EXPECT_NE(listed.out.find("torchscript:FILE"), std::string::npos);
    const Result help = brec("eval --help");
    EXPECT_NE(help.out.find("--input-features"), std::string::npos);
    EXPECT_NE(help.out.find("num_graphs: int"), std::string::npos);
}

}  // namespace
