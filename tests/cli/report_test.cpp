// End-to-end tests of `brec report` and `brec stats`: the files a report directory gets, shard
// merging, and bad input (exit code 2, one line naming file and line, nothing written).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

using clitest::brec;
using clitest::expect_one_line_error;
using clitest::Result;
using clitest::temp_path;
using clitest::write_file;

const std::string kData = std::string(BREC_SOURCE_DIR) + "/tests/data/";

/// A fresh (absent) directory path for --out.
std::string fresh_dir(const std::string& name) {
    const std::string dir = temp_path(name);
    std::filesystem::remove_all(dir);
    return dir;
}

TEST(ReportCli, HelpDocumentsInputsJsonShapeAndExample) {
    const Result r = brec("report --help");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* s :
         {"task,model,seed,value[,direction]", "JSONL", "--shard i/N", "summary", "\"cells\"", "\"comparisons\"",
          "\"friedman\"", "cd.svg", "categories.svg", "--format", "--out", "Example: brec report"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(ReportCli, FixtureGivesMarkdownLatexJsonAndCdDiagram) {
    const std::string dir = fresh_dir("fixture");
    const Result r = brec("report " + kData + "report_fixture.csv --out " + dir + " --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* f : {"report.md", "report.tex", "report.json", "cd.svg"})
        EXPECT_TRUE(brec::file_exists(dir + "/" + f)) << f;
    EXPECT_FALSE(brec::file_exists(dir + "/categories.svg"));  // not BREC results
    const std::string md = brec::read_text_file(dir + "/report.md");
    for (const char* s : {"## Per-cell results", "## Pairwise comparisons per task", "## Ranks across tasks",
                          "![Critical-difference diagram](cd.svg)", "## Appendix: per-seed values"})
        EXPECT_NE(md.find(s), std::string::npos) << s;
    const std::string tex = brec::read_text_file(dir + "/report.tex");
    EXPECT_NE(tex.find("\\begin{tabular}"), std::string::npos);
    EXPECT_NE(tex.find("\\bottomrule"), std::string::npos);
    const auto j = nlohmann::json::parse(brec::read_text_file(dir + "/report.json"));
    EXPECT_EQ(j["command"], "report");
    EXPECT_EQ(j["cells"].size(), 40u);  // 10 tasks x 4 models
    EXPECT_EQ(j["comparisons"].size(), 10u);
    // k = 4, N = 10, α = 0.05: q = 2.569 (Demšar 2006, Table 5a), CD = 2.569 · √(20/60) = 1.48.
    EXPECT_NEAR(j["friedman"]["cd"].get<double>(), 1.48, 0.005);
    const std::string svg = brec::read_text_file(dir + "/cd.svg");
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_NE(svg.find("CD = 1.48"), std::string::npos);
    // Without --out: one format to stdout, nothing else.
    const Result latex = brec("report " + kData + "report_fixture.csv --format latex --quiet");
    ASSERT_EQ(latex.code, 0) << latex.err;
    EXPECT_EQ(latex.out, tex);
    const Result json = brec("report " + kData + "report_fixture.csv --format json --quiet");
    ASSERT_EQ(json.code, 0) << json.err;
    EXPECT_EQ(nlohmann::json::parse(json.out), j);
    EXPECT_EQ(brec("report " + kData + "report_fixture.csv --format md,json").code,
              2);  // needs --out
}

TEST(ReportCli, EvalShardsMergeIntoTheUnshardedResult) {
    const std::string sharded = fresh_dir("sharded"), whole = fresh_dir("whole");
    const Result a =
        brec("report " + kData + "report_eval_ppgn_shard0.jsonl " + kData + "report_eval_ppgn_shard1.jsonl " + kData +
             "report_eval_gin.jsonl --format json --out " + sharded + " --quiet");
    ASSERT_EQ(a.code, 0) << a.err;
    const Result b = brec("report " + kData + "report_eval_ppgn_full.jsonl " + kData +
                          "report_eval_gin.jsonl --format json --out " + whole + " --quiet");
    ASSERT_EQ(b.code, 0) << b.err;
    // BREC results also get the per-category bar chart.
    for (const auto& dir : {sharded, whole})
        for (const char* f : {"report.json", "cd.svg", "categories.svg"})
            EXPECT_TRUE(brec::file_exists(dir + "/" + f)) << f;
    auto strip = [](nlohmann::json j) {
        j.erase("inputs");
        for (auto& c : j["cells"])
            for (auto& v : c["values"]) v.erase("source");
        return j;
    };
    const auto js = nlohmann::json::parse(brec::read_text_file(sharded + "/report.json"));
    const auto jw = nlohmann::json::parse(brec::read_text_file(whole + "/report.json"));
    EXPECT_EQ(strip(js), strip(jw));
    EXPECT_EQ(js["tasks"], nlohmann::json::array({"Basic", "Regular", "CFI"}));
}

TEST(ReportCli, ProtocolChoosesTheCellsAndBothAreShown) {
    // The fixtures' counts by hand: ppgn distinguishes 2 basic pairs under hotelling (one more is
    // unreliable) and 1 under brec_reference; in all 4 and 2 pairs.
    const std::string both =
        kData + "report_eval_both_ppgn.jsonl " + kData + "report_eval_both_gin.jsonl --format json --quiet";
    auto basic_ppgn = [](const nlohmann::json& j) {
        for (const auto& c : j["cells"])
            if (c["task"] == "Basic" && c["model"] == "ppgn") return c["mean"].get<double>();
        return -1.0;
    };
    const Result h = brec("report " + both);
    ASSERT_EQ(h.code, 0) << h.err;
    const auto jh = nlohmann::json::parse(h.out);
    EXPECT_EQ(jh["protocol"], "hotelling");
    EXPECT_EQ(basic_ppgn(jh), 2.0);
    const Result r = brec("report " + both + " --protocol brec_reference");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto jr = nlohmann::json::parse(r.out);
    EXPECT_EQ(jr["protocol"], "brec_reference");
    EXPECT_EQ(basic_ppgn(jr), 1.0);
    // Both show both protocols' totals.
    for (const auto& j : {jh, jr}) {
        EXPECT_EQ(j["protocols"]["hotelling"]["ppgn"]["total"]["distinguished"], 4.0);
        EXPECT_EQ(j["protocols"]["brec_reference"]["ppgn"]["total"]["distinguished"], 2.0);
    }
    const Result md = brec("report " + kData + "report_eval_both_ppgn.jsonl --quiet");
    ASSERT_EQ(md.code, 0) << md.err;
    EXPECT_NE(md.out.find("## Both RPC protocols"), std::string::npos);
    // Records from before both protocols were recorded cannot be read as brec_reference.
    const std::string out = fresh_dir("never_protocol");
    const std::string legacy = kData + "report_eval_gin.jsonl";
    expect_one_line_error(brec("report " + legacy + " --protocol brec_reference --out " + out),
                          legacy + ":1: no brec_reference decision");
    EXPECT_FALSE(std::filesystem::exists(out));
    expect_one_line_error(brec("report " + legacy + " --protocol t2"), "--protocol");
}

TEST(ReportCli, CertificateView) {
    // By hand from the fixtures: ppgn (bound 2-FWL) fails pair 61 within its bound and
    // distinguishes pair 300 (4-WL) beyond it; gin (bound 1-WL) distinguishes pair 1 (3-WL).
    const std::string results = kData + "report_eval_both_ppgn.jsonl " + kData +
                                "report_eval_both_gin.jsonl --certificate " + kData + "report_certify.jsonl";
    const Result r = brec("report " + results + " --format json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["view"], "certificate");
    ASSERT_EQ(j["runs"].size(), 2u);
    EXPECT_EQ(j["runs"][0]["failed_within_bound"][0]["id"], 61);
    EXPECT_EQ(j["runs"][0]["distinguished_beyond_bound"][0]["id"], 300);
    EXPECT_EQ(j["runs"][1]["distinguished_beyond_bound"][0]["id"], 1);
    const Result md = brec("report " + results + " --protocol brec_reference --quiet");
    ASSERT_EQ(md.code, 0) << md.err;
    EXPECT_NE(md.out.find("| ppgn | 3-WL (2-FWL) | 0 / 0 | 2 / 4 | 0 / 1 | 0 / 1 | 2 / 4 |"), std::string::npos)
        << md.out;
    // A directory gets the view's two documents and nothing else.
    const std::string dir = fresh_dir("certificate");
    ASSERT_EQ(brec("report " + results + " --out " + dir + " --quiet").code, 0);
    EXPECT_TRUE(brec::file_exists(dir + "/certificate.md"));
    EXPECT_TRUE(brec::file_exists(dir + "/certificate.json"));
    EXPECT_FALSE(brec::file_exists(dir + "/report.md"));
    EXPECT_FALSE(brec::file_exists(dir + "/cd.svg"));
    // The view has no LaTeX form and no statistics options; a bad certificate names its line.
    const std::string never = fresh_dir("never_certificate");
    expect_one_line_error(brec("report " + results + " --format latex --out " + never),
                          "the certificate view has a Markdown and a JSON form, no LaTeX");
    expect_one_line_error(brec("report " + results + " --bootstrap"), "--bootstrap");
    const std::string bad = write_file("bad_certify.jsonl",
                                       "{\"id\":0,\"category\":\"basic\",\"level\":\"2fwl\"}\n"
                                       "{\"id\":1,\"category\":\"basic\",\"level\":\"9wl\"}\n");
    expect_one_line_error(
        brec("report " + kData + "report_eval_both_ppgn.jsonl --certificate " + bad + " --out " + never),
        bad + ":2: \"level\" must be 1wl, 2fwl, 3fwl or beyond, got '9wl'");
    EXPECT_FALSE(std::filesystem::exists(never));
}

TEST(ReportCli, BadInputIsOneLineErrorAndWritesNothing) {
    const std::string out = fresh_dir("never");
    struct Case {
        std::string name, content, needle;
    };
    const Case cases[] = {
        {"missing_column.csv", "task,model,seed,value\nacc,gin,1,0.5\nacc,gin,2\n",
         ":3: expected task,model,seed,value[,direction] but found 3 fields"},
        {"not_numeric.csv", "acc,gin,1,0.5\nacc,gin,2,high\n", ":2: value must be a finite number, found 'high'"},
        {"bad_seed.csv", "acc,gin,x,0.5\n", ":1: seed must be a non-negative integer, found 'x'"},
        {"twice.csv", "acc,gin,1,0.5\nacc,gin,1,0.5\n", ":2: task 'acc', model 'gin', seed 1 given twice"},
        {"empty.csv", "", ": empty file: expected CSV rows or JSON results"},
        {"blank.jsonl", "\n\n", ": empty file"},
        {"bad.jsonl",
         "{\"model\":\"m\",\"seed\":1,\"id\":0,\"category\":\"basic\",\"distinguished\":true}\n[1,"
         "2]\n{}\n",
         ":2: not a JSON object (a broken record)"},
    };
    for (const auto& c : cases) {
        const std::string path = write_file(c.name, c.content);
        // A good file before the bad one: still nothing is written.
        const Result r = brec("report " + kData + "report_fixture.csv " + path + " --out " + out);
        expect_one_line_error(r, path + c.needle);
        EXPECT_TRUE(r.out.empty()) << c.name << ": " << r.out;
        EXPECT_FALSE(std::filesystem::exists(out)) << c.name;
    }
    expect_one_line_error(brec("report " + kData + "report_fixture.csv --format html --out " + out),
                          "unknown report format 'html' (expected md, latex or json)");
    expect_one_line_error(brec("report " + kData + "report_fixture.csv --format md,pdf"),
                          "unknown report format 'pdf'");
    expect_one_line_error(brec("report /no/such/results.csv --out " + out), "/no/such/results.csv");
    expect_one_line_error(brec("report --out " + out), "results is required");
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(StatsCli, ThresholdAndCriticalDifference) {
    Result r = brec("stats threshold --q 32 --d 16 --alpha 0.05");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "72.3380\n");  // (q−1)d/(q−d) · F_{16,16}(0.95) = 31 · 2.3335 = 72.34
    r = brec("stats threshold --q 32 --d 16 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NEAR(nlohmann::json::parse(r.out)["threshold"].get<double>(), 72.3379924515, 1e-8);
    r = brec("stats cd --k 4 --n 10 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_NEAR(j["cd"].get<double>(), 1.48, 0.005);
    EXPECT_NEAR(j["q_alpha"].get<double>(), 2.569, 0.001);  // Demšar (2006), Table 5(a)
    expect_one_line_error(brec("stats threshold --q 16 --d 16"), "q > d");
    EXPECT_EQ(brec("stats threshold --help").code, 0);
    EXPECT_NE(brec("stats threshold --help").out.find("Example: brec stats threshold"), std::string::npos);
}

}  // namespace
