// The results store's policy, once for every command that writes a results file: a record of other
// settings and a broken line that is not the last are refused with one line naming the file and
// the line (exit 2), an existing file is never overwritten without --resume, and in every case the
// file is left byte for byte as it was; a file of the same settings resumes.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using clitest::brec;
using clitest::expect_one_line_error;
using clitest::Result;

struct StoreCase {
    const char* name;
    bool torch;           ///< the command runs in brec-eval
    const char* prepare;  ///< brec command lines (';'-separated) making the inputs, or ""
    const char* run;      ///< the command; DIR stands for the case's directory
    const char* other;    ///< the same command with other settings
    const char* results;  ///< the results file, relative to DIR
    /// Files a complete run also writes (','-separated, relative to DIR), or "".
    const char* products;
    /// Extra preparation in C++ (the embeddings `brec rpc` judges).
    std::function<void(const std::string& dir)> extra;
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

void PrintTo(const StoreCase& c, std::ostream* os) { *os << c.name; }

class ResultsStoreCli : public ::testing::TestWithParam<StoreCase> {};

TEST_P(ResultsStoreCli, RefusesOtherSettingsAndBrokenLinesLeavingTheFileAsItWas) {
    const StoreCase& c = GetParam();
    if (c.torch && !clitest::have_brec_eval()) GTEST_SKIP() << "built without LibTorch";
    const std::string dir = clitest::temp_path(c.name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto in_dir = [&](const std::string& s) {
        return replace_all(replace_all(s, "DIR", dir), "SRC", BREC_SOURCE_DIR) + " --quiet";
    };
    std::string prepare = c.prepare;
    for (std::size_t start = 0; start < prepare.size();) {
        const std::size_t end = std::min(prepare.find(';', start), prepare.size());
        const Result r = brec(in_dir(prepare.substr(start, end - start)));
        ASSERT_EQ(r.code, 0) << prepare.substr(start, end - start) << ": " << r.err;
        start = end + 1;
    }
    if (c.extra) c.extra(dir);
    const std::string file = dir + "/" + c.results;
    const Result first = brec(in_dir(c.run));
    ASSERT_EQ(first.code, 0) << first.err;
    const std::string products = c.products;
    for (std::size_t start = 0; start < products.size();) {
        const std::size_t end = std::min(products.find(',', start), products.size());
        const std::string product = dir + "/" + products.substr(start, end - start);
        EXPECT_TRUE(brec::file_exists(product)) << product;
        if (product.size() > 4 && product.compare(product.size() - 4, 4, ".svg") == 0) {
            EXPECT_NE(brec::read_text_file(product).find("<svg"), std::string::npos) << product;
        }
        start = end + 1;
    }
    const std::string whole = brec::read_text_file(file);
    const auto lines = brec::split_lines(whole);
    ASSERT_GE(lines.size(), 3u) << "too few records to break a middle one";

    // Without --resume the file is never overwritten.
    expect_one_line_error(brec(in_dir(c.run)), "--resume");
    EXPECT_EQ(brec::read_text_file(file), whole);
    // A record of other settings: one line naming the file and the first record.
    expect_one_line_error(brec(in_dir(c.other) + " --resume"), file + ":1: a record of other settings (");
    EXPECT_EQ(brec::read_text_file(file), whole);
    // A broken middle line (half a record): one line naming the file and line 2.
    std::string broken = lines[0] + "\n" + lines[1].substr(0, lines[1].size() / 2) + "\n";
    for (std::size_t k = 2; k < lines.size(); ++k) broken += lines[k] + "\n";
    brec::write_text_file_atomic(file, broken);
    expect_one_line_error(brec(in_dir(c.run) + " --resume"), file + ":2: not a JSON object");
    EXPECT_EQ(brec::read_text_file(file), broken);
    // The same settings resume: nothing is left to do, nothing is written.
    brec::write_text_file_atomic(file, whole);
    const Result again = brec(in_dir(c.run) + " --resume");
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(brec::read_text_file(file), whole);
    fs::remove_all(dir);
}

const char* kAttackData =
    "count --generate er --graphs 300 --seed 0 --out DIR/data;"
    "attack train --data DIR/data --model gin --pattern triangle --seeds 0 --epochs 30 --patience 10 --out DIR/models";

INSTANTIATE_TEST_SUITE_P(
    EveryCommand, ResultsStoreCli,
    ::testing::Values(
        StoreCase{"wl",
                  false,
                  "",
                  "wl --pairs 0-5 --out DIR/r.jsonl",
                  "wl --method 2fwl --pairs 0-5 --out DIR/r.jsonl",
                  "r.jsonl",
                  "",
                  {}},
        StoreCase{"certify",
                  false,
                  "",
                  "certify --pairs 0-5 --out DIR/r.jsonl",
                  "certify --pairs 0-5 --tests gswl --out DIR/r.jsonl",
                  "r.jsonl",
                  "",
                  {}},
        StoreCase{"eval",
                  true,
                  "",
                  "eval --model gin --pairs 0-3 --seeds 1 --epochs 2 --out DIR/r.jsonl",
                  "eval --model gin --pairs 0-3 --seeds 1 --epochs 3 --out DIR/r.jsonl",
                  "r.jsonl",
                  "r.jsonl.summary.json",
                  {}},
        StoreCase{"rpc", false, "export --pairs 0-2 --q 20 --out DIR/emb",
                  "rpc --embeddings DIR/emb --model-name m --out DIR/r.jsonl",
                  "rpc --embeddings DIR/emb --model-name m --alpha 0.01 --out DIR/r.jsonl", "r.jsonl",
                  "r.jsonl.summary.json",
                  [](const std::string& dir) { clitest::write_embeddings(dir + "/emb", 4, 1.0); }},
        StoreCase{"classify",
                  false,
                  "",
                  "classify SRC/datasets/tu/MUTAG --model vh --seeds 0 --folds 3 --out DIR/r.jsonl",
                  "classify SRC/datasets/tu/MUTAG --model vh --seeds 0 --folds 4 --out DIR/r.jsonl",
                  "r.jsonl",
                  "",
                  {}},
        StoreCase{"attack_run",
                  true,
                  kAttackData,
                  "attack run --data DIR/data --models DIR/models --model gin --seeds 0 --graphs 4 --budgets 1,2 "
                  "--out DIR/r.jsonl",
                  "attack run --data DIR/data --models DIR/models --model gin --seeds 0 --graphs 4 --budgets 1,3 "
                  "--out DIR/r.jsonl",
                  "r.jsonl",
                  "r.jsonl.summary.json,r.jsonl.csv,r.jsonl.svg",
                  {}},
        StoreCase{"attack_ood",
                  true,
                  "count --generate er --graphs 200 --seed 0 --out DIR/in;"
                  "count --generate er-ood --graphs 200 --seed 0 --out DIR/ood",
                  "attack ood --in DIR/in --ood DIR/ood --out DIR/o --seeds 0 --epochs 2 --patience 1",
                  "attack ood --in DIR/in --ood DIR/ood --out DIR/o --seeds 0 --epochs 3 --patience 1",
                  "o/ood.jsonl",
                  "o/ood.csv",
                  {}}),
    [](const ::testing::TestParamInfo<StoreCase>& info) { return std::string(info.param.name); });

}  // namespace
