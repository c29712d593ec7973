#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/report/analysis.hpp"
#include "brec/report/render.hpp"
#include "brec/report/results.hpp"

namespace brec {
namespace {

const std::string kData = std::string(BREC_SOURCE_DIR) + "/tests/data/";

ResultSet from_text(const std::string& text, const std::string& name = "mem.csv", bool fine = false) {
    ResultReader r(ResultReadOptions{fine});
    r.add_text(text, name);
    return r.finish();
}

/// The message of the ParseError thrown by reading text ("" if none).
std::string parse_error(const std::string& text, const std::string& name = "bad.csv") {
    try {
        from_text(text, name);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "";
}

const ResultRecord& find(const ResultSet& rs, const std::string& task, const std::string& model, std::uint64_t seed) {
    for (const auto& r : rs.records)
        if (r.task == task && r.model == model && r.seed == seed) return r;
    throw std::runtime_error("no record " + task + "/" + model);
}

TEST(ResultCsv, ParsesHeaderQuotesCommentsAndDirections) {
    const auto rs = from_text(
        "# comment\n"
        "task,model,seed,value,direction\n"
        "acc,gin,1,0.5\n"
        "\n"
        "acc, \"ppgn, v2\" ,1,0.75,max\n"
        "mae,gin,1,2.5,min\n"
        "mae,gin,2,1.5\n");
    EXPECT_EQ(rs.records.size(), 4u);
    EXPECT_EQ(rs.tasks, (std::vector<std::string>{"acc", "mae"}));
    EXPECT_EQ(rs.models, (std::vector<std::string>{"gin", "ppgn, v2"}));
    EXPECT_DOUBLE_EQ(find(rs, "acc", "ppgn, v2", 1).value, 0.75);
    EXPECT_FALSE(find(rs, "mae", "gin", 2).higher_is_better);  // direction of the task applies to every row
    EXPECT_TRUE(find(rs, "acc", "gin", 1).higher_is_better);
    EXPECT_EQ(find(rs, "acc", "gin", 1).source, "mem.csv:3");
    EXPECT_FALSE(rs.brec);
}

TEST(ResultCsv, BadRowsNameFileAndLine) {
    EXPECT_EQ(parse_error("task,model,seed,value\nacc,gin,1\n"),
              "bad.csv:2: expected task,model,seed,value[,direction] but found 3 fields");
    EXPECT_EQ(parse_error("acc,gin,-1,0.5\n"), "bad.csv:1: seed must be a non-negative integer, found '-1'");
    EXPECT_EQ(parse_error("acc,gin,1,0.5x\n"), "bad.csv:1: value must be a finite number, found '0.5x'");
    EXPECT_EQ(parse_error("acc,gin,1,nan\n"), "bad.csv:1: value must be a finite number, found 'nan'");
    EXPECT_EQ(parse_error("acc,gin,1,0.5,up\n"), "bad.csv:1: direction must be max or min, found 'up'");
    EXPECT_EQ(parse_error("acc,gin,1,0.5,max\nacc,gin,2,0.5,min\n"), "bad.csv:2: task 'acc' has direction max at bad.csv:1");
    EXPECT_EQ(parse_error("acc,\"gin,1,0.5\n"), "bad.csv:1: unterminated double quote");
    EXPECT_EQ(parse_error("acc,\"gin\"x,1,0.5\n"), "bad.csv:1:10: unexpected text after a closing double quote");
    EXPECT_NE(parse_error("acc,gin,1,0.5\nacc,gin,1,0.6\n").find("given twice (also at bad.csv:1)"), std::string::npos);
    EXPECT_EQ(parse_error("\n\n"), "bad.csv: empty file: expected CSV rows or JSON results");
}

// Per-pair eval records: four basic pairs and one cfi pair, one of them unreliable.
const std::string kShardA =
    R"({"model":"ppgn","seed":100,"id":0,"category":"basic","distinguished":true,"reliable":true}
{"model":"ppgn","seed":100,"id":1,"category":"basic","distinguished":true,"reliable":false}
{"model":"ppgn","seed":100,"id":2,"category":"basic","distinguished":false,"reliable":true}
)";
const std::string kShardB =
    R"({"model":"ppgn","seed":100,"id":2,"category":"basic","distinguished":false,"reliable":true}
{"model":"ppgn","seed":100,"id":3,"category":"basic","distinguished":true,"reliable":true}
{"model":"ppgn","seed":100,"id":260,"category":"cfi","distinguished":true,"reliable":true}
)";

TEST(ResultJson, PerPairShardsAreMergedAndDeduplicated) {
    ResultReader r;
    r.add_text(kShardA, "a.jsonl");
    r.add_text(kShardB, "b.jsonl");
    const auto rs = r.finish();
    EXPECT_TRUE(rs.brec);
    EXPECT_EQ(rs.tasks, (std::vector<std::string>{"Basic", "CFI"}));
    ASSERT_EQ(rs.records.size(), 2u);
    const auto& basic = find(rs, "Basic", "ppgn", 100);
    EXPECT_EQ(basic.pairs, 4);                 // id 2 counted once
    EXPECT_DOUBLE_EQ(basic.value, 2.0);        // id 1 is distinguished but unreliable
    EXPECT_EQ(basic.reliability_failures, 1);
    EXPECT_EQ(basic.source, "a.jsonl:1-3; b.jsonl:2");
    EXPECT_DOUBLE_EQ(find(rs, "CFI", "ppgn", 100).value, 1.0);
}

TEST(ResultJson, ConflictingDuplicateNamesBothPlaces) {
    ResultReader r;
    r.add_text(kShardA, "a.jsonl");
    try {
        r.add_text("\n" + std::string(R"({"model":"ppgn","seed":100,"id":2,"category":"basic","distinguished":true,"reliable":true})"),
                   "c.jsonl");
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), "c.jsonl:2: pair 2 of model ppgn seed 100 conflicts with the record at a.jsonl:3");
    }
}

TEST(ResultJson, SummariesAndWlRecords) {
    // A pretty-printed summary.json (several lines), then the same summary again: counted once.
    const std::string summary = R"({
 "command": "wl", "method": "3fwl", "seed": 0,
 "categories": {"basic": {"pairs": 60, "distinguished": 60, "reliability_failures": 0},
                "regular": {"pairs": 50, "distinguished": 50, "reliability_failures": 0},
                "strongly_regular": {"pairs": 50, "distinguished": 0, "reliability_failures": 0},
                "cfi": {"pairs": 100, "distinguished": 60, "reliability_failures": 0}},
 "groups": {}, "total": {}
})";
    ResultReader r(ResultReadOptions{false});
    r.add_text(summary, "wl.summary.json");
    r.add_text(summary, "copy.json");
    // wl per-pair records: model from "method", seed from "reliability_seed".
    r.add_text(R"({"id":0,"category":"basic","method":"1wl","distinguished":false,"reliability_failure":false,"reliability_seed":7}
{"id":1,"category":"basic","method":"1wl","distinguished":true,"reliability_failure":true,"reliability_seed":7}
)",
               "wl.jsonl");
    const auto rs = r.finish();
    EXPECT_EQ(rs.models, (std::vector<std::string>{"3fwl", "1wl"}));
    EXPECT_EQ(rs.tasks, (std::vector<std::string>{"Basic", "Regular", "CFI"}));
    const auto& reg = find(rs, "Regular", "3fwl", 0);
    EXPECT_EQ(reg.pairs, 100);
    EXPECT_DOUBLE_EQ(reg.value, 50.0);
    EXPECT_EQ(reg.source, "wl.summary.json:1");
    const auto& wl = find(rs, "Basic", "1wl", 7);
    EXPECT_DOUBLE_EQ(wl.value, 0.0);
    EXPECT_EQ(wl.reliability_failures, 1);
    // Fine categories on request.
    EXPECT_EQ(from_text(summary, "s.json", true).tasks,
              (std::vector<std::string>{"basic", "regular", "strongly_regular", "cfi"}));
}

TEST(ResultJson, ShardSummariesAreSummedAndPerPairRecordsWin) {
    ResultReader r;
    r.add_text(R"({"model":"gin","seed":1,"shard":"0/2","categories":{"basic":{"pairs":30,"distinguished":3,"reliability_failures":1}}}
{"model":"gin","seed":1,"shard":"1/2","categories":{"basic":{"pairs":30,"distinguished":4,"reliability_failures":0}}}
{"model":"ppgn","seed":100,"categories":{"basic":{"pairs":60,"distinguished":60,"reliability_failures":0}}}
)",
               "s.jsonl");
    r.add_text(kShardA, "a.jsonl");
    const auto rs = r.finish();
    const auto& gin = find(rs, "Basic", "gin", 1);
    EXPECT_EQ(gin.pairs, 60);
    EXPECT_DOUBLE_EQ(gin.value, 7.0);
    EXPECT_EQ(gin.reliability_failures, 1);
    EXPECT_EQ(find(rs, "Basic", "ppgn", 100).pairs, 3);  // the per-pair records, not the summary
    ASSERT_FALSE(rs.notes.empty());
    EXPECT_NE(rs.notes[0].find("summary object(s) at s.jsonl:3"), std::string::npos);
}

TEST(ResultJson, TornLastLineIsSkippedOtherBadLinesAreErrors) {
    const auto rs = from_text(kShardA + R"({"model":"ppgn","seed":100,"id":9,"categ)", "torn.jsonl");
    EXPECT_EQ(find(rs, "Basic", "ppgn", 100).pairs, 3);
    ASSERT_EQ(rs.notes.size(), 1u);
    EXPECT_EQ(rs.notes[0], "torn.jsonl:4: torn last line skipped (interrupted run?)");
    EXPECT_EQ(parse_error("{\"id\":1}\nnot json\n{\"id\":2}\n", "x.jsonl"), "x.jsonl:1: expected a summary object (with "
                                                                         "\"categories\") or a per-pair record (with \"id\" "
                                                                         "and \"distinguished\")");
    EXPECT_EQ(parse_error(kShardA + "not json\n" + kShardA, "x.jsonl"), "x.jsonl:4: expected one JSON object per line");
    EXPECT_EQ(parse_error(R"({"id":1,"category":"basic","distinguished":true})", "x.jsonl"),
              "x.jsonl:1: no \"model\" or \"method\" field to name the model");
    EXPECT_EQ(parse_error(R"({"model":"m","seed":-3,"id":1,"category":"basic","distinguished":true})", "x.jsonl"),
              "x.jsonl:1: \"seed\" must be a non-negative integer");
    EXPECT_EQ(parse_error(R"({"model":"m","categories":{"basic":{"pairs":2,"distinguished":3,"reliability_failures":0}}})",
                          "x.json"),
              "x.json:1: category 'basic' distinguishes more pairs than it has");
}

TEST(Analysis, CellsTestsAndHolmOnTheFixture) {
    const auto rs = read_results({kData + "report_fixture.csv"});
    ASSERT_EQ(rs.tasks.size(), 10u);
    ASSERT_EQ(rs.models.size(), 4u);
    const auto a = analyse_results(rs);
    ASSERT_EQ(a.cells.size(), 40u);
    for (const auto& c : a.cells) {
        ASSERT_EQ(c.values.size(), 5u);
        const auto t = t_interval(c.values);
        EXPECT_DOUBLE_EQ(c.t.mean, t.mean);
        EXPECT_DOUBLE_EQ(c.t.half_width, t.half_width);
    }
    ASSERT_EQ(a.comparisons.size(), 10u);
    for (const auto& tc : a.comparisons) {
        ASSERT_EQ(tc.rows.size(), 6u);  // 4 models: 6 pairs
        std::vector<double> pt, pw;
        for (const auto& r : tc.rows) {
            pt.push_back(r.t.p_value);
            pw.push_back(r.wilcoxon.p_value);
            EXPECT_TRUE(r.wilcoxon.exact);
            EXPECT_EQ(r.n, 5);
            EXPECT_GE(r.t_holm, r.t.p_value);
        }
        const auto ht = holm_adjust(pt), hw = holm_adjust(pw);
        for (std::size_t i = 0; i < tc.rows.size(); ++i) {
            EXPECT_DOUBLE_EQ(tc.rows[i].t_holm, ht[i]);
            EXPECT_DOUBLE_EQ(tc.rows[i].wilcoxon_holm, hw[i]);
        }
    }
    // With 5 seeds the smallest two-sided exact Wilcoxon p is 2/32: never below 0.05, so the
    // agreement column can only say "neither" or "t only".
    for (const auto& tc : a.comparisons)
        for (const auto& r : tc.rows) EXPECT_TRUE(r.agreement == "neither" || r.agreement == "t only") << r.agreement;
    // k = 4 models over N = 10 tasks: CD = 1.48 (SPEC §6).
    ASSERT_TRUE(a.ranks.available);
    EXPECT_NEAR(a.ranks.cd, 1.48, 0.005);
    EXPECT_NEAR(a.ranks.q_alpha, 2.569, 1e-3);
    double sum = 0;
    for (double r : a.ranks.friedman.mean_ranks) sum += r;
    EXPECT_NEAR(sum, 10.0, 1e-12);  // mean ranks of 4 models sum to 1+2+3+4
}

TEST(Analysis, DirectionRespectedInRanksAndBetterColumn) {
    const auto rs = from_text(
        "acc,a,1,0.9\nacc,a,2,0.8\nacc,b,1,0.7\nacc,b,2,0.6\n"
        "err,a,1,0.1,min\nerr,a,2,0.2,min\nerr,b,1,0.3,min\nerr,b,2,0.5,min\n");
    const auto a = analyse_results(rs);
    ASSERT_TRUE(a.ranks.available);
    EXPECT_EQ(a.ranks.ranks[0], (std::vector<double>{1, 2}));
    EXPECT_EQ(a.ranks.ranks[1], (std::vector<double>{1, 2}));  // lower error is better
    EXPECT_EQ(a.comparisons[0].rows[0].better, "a");
    EXPECT_EQ(a.comparisons[1].rows[0].better, "a");
    EXPECT_NEAR(a.comparisons[1].rows[0].mean_difference, -0.25, 1e-12);
    EXPECT_NEAR(a.ranks.friedman.chi2, 2.0, 1e-12);  // 12·2/(2·3)·(1 + 4 − 4.5) = 2
}

TEST(Analysis, MissingCellsAndSingleSeeds) {
    // Model c lacks task t2 and has a single seed: no interval, no tests, t2 left out of Friedman.
    const auto rs = from_text("t1,a,1,1\nt1,a,2,2\nt1,b,1,3\nt1,b,2,5\nt1,c,1,4\nt2,a,1,1\nt2,a,2,1\nt2,b,1,2\nt2,b,2,2\n"
                              "t3,a,1,1\nt3,b,1,2\nt3,c,1,0\n");
    const auto a = analyse_results(rs);
    EXPECT_EQ(a.cell("t1", "c")->t.half_width, 0.0);
    EXPECT_EQ(a.cell("t2", "c"), nullptr);
    const auto& t1 = a.comparisons[0];
    ASSERT_EQ(t1.rows.size(), 3u);
    EXPECT_TRUE(t1.rows[0].testable);          // a vs b: 2 shared seeds
    EXPECT_FALSE(t1.rows[1].testable);         // a vs c: 1 shared seed
    EXPECT_EQ(t1.rows[1].agreement, "n/a");
    // t2: a and b have constant, different values: differences are constant, t is infinite.
    EXPECT_EQ(a.comparisons[1].rows[0].t.p_value, 0.0);
    EXPECT_EQ(a.ranks.tasks, (std::vector<std::string>{"t1", "t3"}));
    bool noted = false;
    for (const auto& n : a.notes) noted = noted || n.find("left out: t2") != std::string::npos;
    EXPECT_TRUE(noted);
    // JSON of an infinite t statistic is null, not an invalid number.
    const auto j = report_json(a);
    EXPECT_TRUE(j["comparisons"][1]["rows"][0]["t"].is_null());
    EXPECT_NO_THROW(nlohmann::json::parse(j.dump()));
    EXPECT_THROW(analyse_results(rs, ReportOptions{1.5}), InvalidArgument);
}

TEST(Analysis, BootstrapIsSeededAndPerCell) {
    const auto rs = read_results({kData + "report_fixture.csv"});
    ReportOptions o;
    o.bootstrap = true;
    o.resamples = 2000;
    const auto a = analyse_results(rs, o), b = analyse_results(rs, o);
    for (std::size_t i = 0; i < a.cells.size(); ++i) {
        EXPECT_TRUE(a.cells[i].has_bootstrap);
        EXPECT_DOUBLE_EQ(a.cells[i].bootstrap.half_width, b.cells[i].bootstrap.half_width);
        EXPECT_GT(a.cells[i].bootstrap.half_width, 0.0);
        EXPECT_LT(a.cells[i].bootstrap.half_width, a.cells[i].t.half_width);  // 5 seeds: bootstrap is narrower
    }
}

TEST(CdCliques, MaximalRunsBelowCd) {
    // Sorted ranks 1.0, 1.5, 2.4, 3.6, 4.0 with CD 1.48: {0,1,2}, {2,3}, {3,4}.
    const std::vector<double> r = {2.4, 1.0, 4.0, 1.5, 3.6};
    const auto c = cd_cliques(r, 1.48);
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0], (std::vector<int>{1, 3, 0}));
    EXPECT_EQ(c[1], (std::vector<int>{0, 4}));
    EXPECT_EQ(c[2], (std::vector<int>{4, 2}));
    EXPECT_TRUE(cd_cliques({1.0, 3.0}, 1.0).empty());  // far apart: no clique
    EXPECT_EQ(cd_cliques({1.0, 2.0, 3.0}, 5.0).size(), 1u);
}

/// Structural check of generated SVG: a single root, balanced elements, every text escaped.
void expect_well_formed_svg(const std::string& svg) {
    ASSERT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    int depth = 0;
    for (std::size_t i = 0; i < svg.size(); ++i) {
        if (svg[i] != '<') continue;
        const std::size_t end = svg.find('>', i);
        ASSERT_NE(end, std::string::npos);
        const std::string tag = svg.substr(i, end - i + 1);
        if (tag[1] == '/') --depth;
        else if (tag[tag.size() - 2] != '/') ++depth;
        ASSERT_GE(depth, 0) << tag;
        i = end;
    }
    EXPECT_EQ(depth, 0);
}

TEST(Svg, CdDiagramAndBarChart) {
    const auto a = analyse_results(read_results({kData + "report_fixture.csv"}));
    const std::string svg = cd_diagram_svg(a.ranks.models, a.ranks.friedman.mean_ranks, a.ranks.cd, a.ranks.cliques, "t<1>");
    expect_well_formed_svg(svg);
    for (const auto& m : a.ranks.models) EXPECT_NE(svg.find(">" + m + "</text>"), std::string::npos) << m;
    EXPECT_NE(svg.find("CD = 1.48"), std::string::npos);
    EXPECT_NE(svg.find("t&lt;1&gt;"), std::string::npos);
    EXPECT_THROW(cd_diagram_svg({"a"}, {1.0}, 1.0, {}), InvalidArgument);
    expect_well_formed_svg(category_chart_svg(a));

    ResultReader r;
    r.add_file(kData + "report_eval_ppgn_shard0.jsonl");
    r.add_file(kData + "report_eval_ppgn_shard1.jsonl");
    r.add_file(kData + "report_eval_gin.jsonl");
    const auto b = analyse_results(r.finish());
    const std::string bars = category_chart_svg(b);
    expect_well_formed_svg(bars);
    EXPECT_NE(bars.find("% of pairs distinguished"), std::string::npos);
    EXPECT_NE(bars.find("Basic (10)"), std::string::npos);
}

TEST(Render, MarkdownLatexJsonAgree) {
    const auto a = analyse_results(read_results({kData + "report_fixture.csv"}));
    const std::string md = report_markdown(a), tex = report_latex(a);
    const auto j = report_json(a);
    EXPECT_NE(md.find("| zinc\\_mae | min |"), std::string::npos);
    EXPECT_NE(md.find("CD = q_α · √(k(k+1)/(6N)) = 1.48"), std::string::npos);
    EXPECT_NE(md.find("report\\_fixture.csv:3 |"), std::string::npos);  // per-seed values traceable
    EXPECT_NE(tex.find("zinc\\_mae"), std::string::npos);
    EXPECT_NE(tex.find("\\toprule"), std::string::npos);
    EXPECT_EQ(j["cells"].size(), 40u);
    EXPECT_EQ(j["cells"][0]["values"].size(), 5u);
    EXPECT_NEAR(j["friedman"]["cd"].get<double>(), a.ranks.cd, 0);
    EXPECT_EQ(j["comparisons"][0]["rows"].size(), 6u);
    // Every per-seed number of the JSON is one of the CSV's.
    const auto rs = read_results({kData + "report_fixture.csv"});
    std::size_t values = 0;
    for (const auto& c : j["cells"]) values += c["values"].size();
    EXPECT_EQ(values, rs.records.size());
    EXPECT_THROW(report_files(a, {"html"}), InvalidArgument);
}

#ifdef BREC_BINARY
int run_brec(const std::string& args, std::string* out = nullptr) {
    const std::string log = ::testing::TempDir() + "brec_report_test.log";
    const int rc = std::system((std::string(BREC_BINARY) + " " + args + " > " + log + " 2>&1").c_str());
    if (out) {
        std::ifstream in(log);
        std::stringstream ss;
        ss << in.rdbuf();
        *out = ss.str();
    }
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(ReportCli, EndToEndOnFixture) {
    if (!std::filesystem::exists(BREC_BINARY)) GTEST_SKIP() << "brec binary not built";
    const std::string dir = ::testing::TempDir() + "brec_report_e2e";
    std::filesystem::remove_all(dir);
    std::string out;
    ASSERT_EQ(run_brec("report " + kData + "report_fixture.csv --out " + dir + " --quiet", &out), 0) << out;
    for (const char* f : {"report.md", "report.tex", "report.json", "cd.svg"})
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
    EXPECT_FALSE(std::filesystem::exists(dir + "/categories.svg"));  // not BREC results
    std::ifstream in(dir + "/report.json");
    const auto j = nlohmann::json::parse(in);
    EXPECT_NEAR(j["friedman"]["cd"].get<double>(), 1.48, 0.005);
    // BREC per-pair shards: categories chart too; stdout gets Markdown without --out.
    ASSERT_EQ(run_brec("report " + kData + "report_eval_ppgn_shard0.jsonl " + kData + "report_eval_ppgn_shard1.jsonl " +
                           kData + "report_eval_gin.jsonl --format md --quiet",
                       &out),
              0)
        << out;
    EXPECT_NE(out.find("| Basic (10) | max |"), std::string::npos) << out;
    // Bad input: exit 2, one-line error naming file and line, no output directory.
    const std::string bad = ::testing::TempDir() + "brec_report_bad.csv";
    std::ofstream(bad) << "task,model,seed,value\nacc,gin,1,0.5\nacc,gin,x,0.5\n";
    const std::string bad_dir = ::testing::TempDir() + "brec_report_bad_out";
    std::filesystem::remove_all(bad_dir);
    EXPECT_EQ(run_brec("report " + bad + " --out " + bad_dir, &out), 2);
    EXPECT_EQ(out, "brec: error: " + bad + ":3: seed must be a non-negative integer, found 'x'\n");
    EXPECT_FALSE(std::filesystem::exists(bad_dir));
}

TEST(StatsCli, ThresholdAndCriticalDifference) {
    if (!std::filesystem::exists(BREC_BINARY)) GTEST_SKIP() << "brec binary not built";
    std::string out;
    ASSERT_EQ(run_brec("stats threshold --q 32 --d 16 --alpha 0.05", &out), 0) << out;
    EXPECT_EQ(out, "72.3380\n");
    ASSERT_EQ(run_brec("stats cd --k 4 --n 10 --json", &out), 0) << out;
    const auto j = nlohmann::json::parse(out);
    EXPECT_NEAR(j["cd"].get<double>(), 1.48, 0.005);
    EXPECT_NEAR(j["q_alpha"].get<double>(), 2.569, 0.001);
    EXPECT_EQ(run_brec("stats threshold --q 16 --d 16", &out), 2);  // q must exceed d
}
#endif

}  // namespace
}  // namespace brec
