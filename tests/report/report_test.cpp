#include "brec/report/report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/report/analysis.hpp"
#include "brec/report/figures.hpp"
#include "brec/report/render.hpp"
#include "brec/report/results.hpp"
#include "common/test_util.hpp"

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
    EXPECT_EQ(find(rs, "acc", "gin", 1).source.str(), "mem.csv:3");
    EXPECT_FALSE(rs.brec);
}

TEST(ResultCsv, BadRowsNameFileAndLine) {
    EXPECT_EQ(parse_error("task,model,seed,value\nacc,gin,1\n"),
              "bad.csv:2: expected task,model,seed,value[,direction] but found 3 fields");
    EXPECT_EQ(parse_error("acc,gin,-1,0.5\n"), "bad.csv:1: seed must be a non-negative integer, found '-1'");
    EXPECT_EQ(parse_error("acc,gin,1,0.5x\n"), "bad.csv:1: value must be a finite number, found '0.5x'");
    EXPECT_EQ(parse_error("acc,gin,1,nan\n"), "bad.csv:1: value must be a finite number, found 'nan'");
    EXPECT_EQ(parse_error("acc,gin,1,0.5,up\n"), "bad.csv:1: direction must be max or min, found 'up'");
    EXPECT_EQ(parse_error("acc,gin,1,0.5,max\nacc,gin,2,0.5,min\n"),
              "bad.csv:2: task 'acc' has direction max at bad.csv:1");
    EXPECT_EQ(parse_error("acc,\"gin,1,0.5\n"), "bad.csv:1: unterminated double quote");
    EXPECT_EQ(parse_error("acc,\"gin\"x,1,0.5\n"), "bad.csv:1:10: unexpected text after a closing double quote");
    EXPECT_EQ(parse_error("acc,gin,1,0.5\n# c\nacc,gin,1,0.6\n"),
              "bad.csv:3: task 'acc', model 'gin', seed 1 given twice (also at bad.csv:1)");
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
    EXPECT_EQ(basic.pairs, 4);           // id 2 counted once
    EXPECT_DOUBLE_EQ(basic.value, 2.0);  // id 1 is distinguished but unreliable
    EXPECT_EQ(basic.reliability_failures, 1);
    EXPECT_EQ(basic.source.str(), "a.jsonl:1-3; b.jsonl:2");
    EXPECT_DOUBLE_EQ(find(rs, "CFI", "ppgn", 100).value, 1.0);
}

TEST(ResultJson, ConflictingDuplicateNamesBothPlaces) {
    ResultReader r;
    r.add_text(kShardA, "a.jsonl");
    try {
        r.add_text(
            "\n" + std::string(
                       R"({"model":"ppgn","seed":100,"id":2,"category":"basic","distinguished":true,"reliable":true})"),
            "c.jsonl");
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "c.jsonl:2: pair 2 of model ppgn seed 100 conflicts with the record at a.jsonl:3");
    }
}

TEST(ResultJson, RunsOfOneModelWithOtherSettingsAreRefusedUnlessMixedSettings) {
    auto record = [](const std::string& model, int seed, int id, const std::string& settings) {
        std::string r = R"({"model":")" + model + R"(","seed":)" + std::to_string(seed) + R"(,"id":)" +
                        std::to_string(id) +
                        R"(,"category":"basic","n":10,"protocols":{"hotelling":{"t2_test":90.0,"t2_reliability":1.0,)"
                        R"("threshold":72.3,"distinguished":true,"reliable":true}})";
        if (!settings.empty()) r += R"(,"settings_id":")" + settings + "\"";
        return r + "}\n";
    };
    // Two seeds of gin with one settings id, a record without one (older files), and ppgn with
    // another id: all merge.
    ResultReader ok;
    ok.add_text(record("gin", 100, 0, "aaaa") + record("gin", 100, 1, ""), "a.jsonl");
    ok.add_text(record("gin", 200, 0, "aaaa") + record("ppgn", 100, 0, "bbbb"), "b.jsonl");
    EXPECT_EQ(ok.finish().records.size(), 3u);
    // gin with another settings id: refused, naming both records.
    ResultReader refused;
    refused.add_text(record("gin", 100, 0, "aaaa"), "a.jsonl");
    const std::string e = testing::error_of([&] { refused.add_text(record("gin", 200, 0, "cccc"), "c.jsonl"); });
    EXPECT_EQ(e.rfind("c.jsonl:1: model gin was run with settings cccc here but aaaa at a.jsonl:1", 0), 0u) << e;
    EXPECT_NE(e.find("--mixed-settings"), std::string::npos) << e;
    ResultReadOptions mixed;
    mixed.mixed_settings = true;
    ResultReader merged(mixed);
    merged.add_text(record("gin", 100, 0, "aaaa"), "a.jsonl");
    merged.add_text(record("gin", 200, 0, "cccc"), "c.jsonl");
    EXPECT_EQ(merged.finish().records.size(), 2u);
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
    r.add_text(
        R"({"id":0,"category":"basic","method":"1wl","distinguished":false,"reliability_failure":false,"reliability_seed":7}
{"id":1,"category":"basic","method":"1wl","distinguished":true,"reliability_failure":true,"reliability_seed":7}
)",
        "wl.jsonl");
    const auto rs = r.finish();
    EXPECT_EQ(rs.models, (std::vector<std::string>{"3fwl", "1wl"}));
    EXPECT_EQ(rs.tasks, (std::vector<std::string>{"Basic", "Regular", "CFI"}));
    const auto& reg = find(rs, "Regular", "3fwl", 0);
    EXPECT_EQ(reg.pairs, 100);
    EXPECT_DOUBLE_EQ(reg.value, 50.0);
    EXPECT_EQ(reg.source.str(), "wl.summary.json:1");
    const auto& wl = find(rs, "Basic", "1wl", 7);
    EXPECT_DOUBLE_EQ(wl.value, 0.0);
    EXPECT_EQ(wl.reliability_failures, 1);
    // Fine categories on request.
    EXPECT_EQ(from_text(summary, "s.json", true).tasks,
              (std::vector<std::string>{"basic", "regular", "strongly_regular", "cfi"}));
}

TEST(ResultJson, ShardSummariesAreSummedAndPerPairRecordsWin) {
    ResultReader r;
    r.add_text(
        R"({"model":"gin","seed":1,"shard":"0/2","categories":{"basic":{"pairs":30,"distinguished":3,"reliability_failures":1}}}
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
    EXPECT_NE(rs.notes[0].find("disagree with the per-pair records"), std::string::npos);
    // A summary that agrees with the records (as `brec wl --json` prints after them) is silent:
    // kShardA has 3 basic pairs, 1 distinguished and reliable, 1 reliability failure.
    ResultReader agreeing;
    agreeing.add_text(
        kShardA +
            R"({"model":"ppgn","seed":100,"categories":{"basic":{"pairs":3,"distinguished":1,"reliability_failures":1}}})",
        "run.jsonl");
    EXPECT_TRUE(agreeing.finish().notes.empty());
}

TEST(ResultJson, TornLastLineIsSkippedOtherBadLinesAreErrors) {
    const auto rs = from_text(kShardA + R"({"model":"ppgn","seed":100,"id":9,"categ)", "torn.jsonl");
    EXPECT_EQ(find(rs, "Basic", "ppgn", 100).pairs, 3);
    ASSERT_EQ(rs.notes.size(), 1u);
    EXPECT_EQ(rs.notes[0], "torn.jsonl:4: torn last line skipped (a run still writing, or interrupted)");
    EXPECT_EQ(parse_error("{\"id\":1}\nnot json\n{\"id\":2}\n", "x.jsonl"),
              "x.jsonl:1: expected a summary object (with "
              "\"categories\") or a per-pair record (with \"id\" "
              "and \"distinguished\")");
    EXPECT_EQ(parse_error(kShardA + "not json\n" + kShardA, "x.jsonl"),
              "x.jsonl:4: not a JSON object (a broken record)");
    EXPECT_EQ(parse_error(R"({"id":1,"category":"basic","distinguished":true})", "x.jsonl"),
              "x.jsonl:1: no \"model\" or \"method\" field to name the model");
    EXPECT_EQ(parse_error(R"({"model":"m","seed":-3,"id":1,"category":"basic","distinguished":true})", "x.jsonl"),
              "x.jsonl:1: \"seed\" must be a non-negative integer");
    EXPECT_EQ(
        parse_error(R"({"model":"m","categories":{"basic":{"pairs":2,"distinguished":3,"reliability_failures":0}}})",
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
    // k = 4 models over N = 10 tasks: q_0.05 = 2.569 (Demšar 2006, Table 5a), CD = 2.569 · √(20/60)
    // = 1.48.
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

TEST(Analysis, TasksCarryDirectionAndBestModelsOnce) {
    // err is "min" on its second row only: the direction applies to the whole task. Means: acc
    // a 0.85, b 0.65 (a best); err a 0.15, b 0.15 (a tie: both best).
    const auto a =
        analyse_results(from_text("acc,a,1,0.9\nacc,a,2,0.8\nacc,b,1,0.7\nacc,b,2,0.6\n"
                                  "err,a,1,0.1\nerr,a,2,0.2,min\nerr,b,1,0.2\nerr,b,2,0.1\n"));
    ASSERT_EQ(a.tasks.size(), 2u);
    EXPECT_TRUE(a.task("acc").higher_is_better);
    EXPECT_FALSE(a.task("err").higher_is_better);
    EXPECT_EQ(a.comparisons[1].higher_is_better, false);
    EXPECT_EQ(a.task("acc").best, (std::vector<std::string>{"a"}));
    EXPECT_EQ(a.task("err").best, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(a.task("acc").label(), "acc");  // not BREC: no pair count
    EXPECT_THROW(a.task("nope"), InvalidArgument);
    // Mean ranks a 1.25, b 1.75: a first.
    EXPECT_EQ(a.ranks.order, (std::vector<int>{0, 1}));
    EXPECT_EQ(rank_order({2.5, 1.0, 2.5, 0.5}), (std::vector<int>{3, 1, 0, 2}));  // ties stable
}

TEST(Analysis, MissingCellsAndSingleSeeds) {
    // Model c lacks task t2 and has a single seed: no interval, no tests, t2 left out of Friedman.
    const auto rs = from_text(
        "t1,a,1,1\nt1,a,2,2\nt1,b,1,3\nt1,b,2,5\nt1,c,1,4\nt2,a,1,1\nt2,a,2,1\nt2,b,1,2\nt2,b,2,2\n"
        "t3,a,1,1\nt3,b,1,2\nt3,c,1,0\n");
    const auto a = analyse_results(rs);
    EXPECT_EQ(a.cell("t1", "c")->t.half_width, 0.0);
    EXPECT_EQ(a.cell("t2", "c"), nullptr);
    const auto& t1 = a.comparisons[0];
    ASSERT_EQ(t1.rows.size(), 3u);
    EXPECT_TRUE(t1.rows[0].testable);   // a vs b: 2 shared seeds
    EXPECT_FALSE(t1.rows[1].testable);  // a vs c: 1 shared seed
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
    EXPECT_EQ(j["comparisons"][1]["rows"][0]["p_t"], 0.0);
    EXPECT_DOUBLE_EQ(j["comparisons"][1]["rows"][0]["mean_difference"].get<double>(), -1.0);
    // t1, a vs b by hand: differences a - b = (-2, -3), mean -2.5, sd 0.7071, t = -2.5 / (0.7071 /
    // sqrt(2)) = -5 on 1 df, p = 1 - 2 atan(5) / pi = 0.125666; dz = -2.5 / 0.7071 = -3.5355. The
    // exact Wilcoxon test of two negative differences: W+ = 0, p = 2 * P(W+ <= 0) = 2 / 4.
    const auto& ab = j["comparisons"][0]["rows"][0];
    EXPECT_EQ(ab["a"], "a");
    EXPECT_EQ(ab["b"], "b");
    EXPECT_EQ(ab["n"], 2);
    EXPECT_EQ(ab["better"], "b");  // higher is better, and b's values are higher
    EXPECT_NEAR(ab["mean_difference"].get<double>(), -2.5, 1e-12);
    EXPECT_NEAR(ab["t"].get<double>(), -5.0, 1e-9);
    EXPECT_NEAR(ab["p_t"].get<double>(), 1.0 - 2.0 * std::atan(5.0) / std::acos(-1.0), 1e-9);
    EXPECT_NEAR(ab["dz"].get<double>(), -2.5 / std::sqrt(0.5), 1e-9);
    EXPECT_EQ(ab["w_plus"], 0.0);
    EXPECT_EQ(ab["wilcoxon_n"], 2);
    EXPECT_NEAR(ab["p_w"].get<double>(), 0.5, 1e-12);
    EXPECT_FALSE(j["comparisons"][0]["rows"][1].contains("t"));  // a vs c: not testable
    // Friedman over t1 and t3 (t2 lacks c). Ranks, higher mean first: t1 means a 1.5, b 4, c 4
    // give (3, 1.5, 1.5); t3 means a 1, b 2, c 0 give (2, 1, 3). Mean ranks 2.5, 1.25, 2.25;
    // chi2 = 12 N / (k (k+1)) * (sum R^2 - k (k+1)^2 / 4) = 2 * (12.875 - 12) = 1.75 on 2 df,
    // p = exp(-1.75 / 2). With the tie correction 1 - (2^3 - 2) / (N k (k^2 - 1)) = 1 - 6 / 48:
    // chi2 = 2, p = exp(-1). k = 3: q_0.05 = 2.343 (Demšar 2006, Table 5a), CD = q * sqrt(12 / 12).
    const auto& f = j["friedman"];
    ASSERT_TRUE(f["available"].get<bool>());
    EXPECT_EQ(f["tasks"], nlohmann::json::array({"t1", "t3"}));
    EXPECT_NEAR(f["mean_ranks"]["a"].get<double>(), 2.5, 1e-12);
    EXPECT_NEAR(f["mean_ranks"]["b"].get<double>(), 1.25, 1e-12);
    EXPECT_NEAR(f["mean_ranks"]["c"].get<double>(), 2.25, 1e-12);
    EXPECT_EQ(f["ranks"]["t1"], nlohmann::json::array({3.0, 1.5, 1.5}));
    EXPECT_EQ(f["ranks"]["t3"], nlohmann::json::array({2.0, 1.0, 3.0}));
    EXPECT_NEAR(f["chi2"].get<double>(), 1.75, 1e-12);
    EXPECT_EQ(f["df"], 2);
    EXPECT_NEAR(f["p_value"].get<double>(), std::exp(-0.875), 1e-9);
    EXPECT_NEAR(f["chi2_ties"].get<double>(), 2.0, 1e-12);
    EXPECT_NEAR(f["p_value_ties"].get<double>(), std::exp(-1.0), 1e-9);
    EXPECT_NEAR(f["q_alpha"].get<double>(), 2.343, 1e-3);
    EXPECT_NEAR(f["cd"].get<double>(), 2.343, 1e-3);
    // One seed: no interval (null in JSON, the value alone in Markdown). Half-widths by hand:
    // qt(0.975, 1) = 12.7062 times s / sqrt(2) with s = 0.7071 (a) and 1.4142 (b).
    const double hw_a = 12.7062047 * std::sqrt(0.5) / std::sqrt(2.0), hw_b = 12.7062047;
    std::size_t checked = 0;
    for (const auto& c : j["cells"]) {
        if (c["task"] == "t1" && c["model"] == "c") {
            EXPECT_EQ(c["n"], 1);
            EXPECT_TRUE(c["half_width"].is_null());
            EXPECT_TRUE(c["lower"].is_null());
            EXPECT_TRUE(c["upper"].is_null());
            EXPECT_EQ(c["mean"], 4.0);
            EXPECT_EQ(c["values"], nlohmann::json::parse(R"([{"seed":1,"value":4.0,"source":"mem.csv:5"}])"));
            ++checked;
        }
        if (c["task"] == "t1" && c["model"] == "a") {
            EXPECT_EQ(c["n"], 2);
            EXPECT_NEAR(c["mean"].get<double>(), 1.5, 1e-12);
            EXPECT_NEAR(c["half_width"].get<double>(), hw_a, 1e-6);
            EXPECT_NEAR(c["lower"].get<double>(), 1.5 - hw_a, 1e-6);
            EXPECT_NEAR(c["upper"].get<double>(), 1.5 + hw_a, 1e-6);
            ++checked;
        }
        if (c["task"] == "t1" && c["model"] == "b") {
            EXPECT_NEAR(c["mean"].get<double>(), 4.0, 1e-12);
            EXPECT_NEAR(c["half_width"].get<double>(), hw_b, 1e-6);
            ++checked;
        }
        if (c["task"] == "t2" && c["model"] == "b") {  // constant values: a zero-width interval
            EXPECT_EQ(c["mean"], 2.0);
            EXPECT_EQ(c["half_width"], 0.0);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 4u);
    EXPECT_EQ(j["cells"].size(), 8u);  // 3 + 2 + 3 (model c lacks t2)
    const std::string md = report_markdown(a);
    EXPECT_NE(md.find("| t1 | max | 1.50 ± 6.35 (2) | **4.00 ± 12.71** (2) | **4.00** (1) |"), std::string::npos) << md;
    EXPECT_NE(md.find("n/a: fewer than two seeds shared by A and B"), std::string::npos);
    EXPECT_THROW(analyse_results(rs, ReportOptions{1.5}), InvalidArgument);
}

TEST(Analysis, NotesWhenTheWilcoxonTestCannotReject) {
    // Exact two-sided Wilcoxon p >= 2 / 2^n: with n = 5 seeds that is 0.0625 >= 0.05, with 6 it is
    // 0.03125 (any table of the signed-rank null distribution).
    auto csv = [](int seeds) {
        std::string t;
        for (int s = 1; s <= seeds; ++s)
            t += "acc,a," + std::to_string(s) + ",0." + std::to_string(50 + s) + "\nacc,b," + std::to_string(s) +
                 ",0." + std::to_string(30 + 2 * s) + "\n";
        return t;
    };
    auto has_note = [](const ReportAnalysis& a) {
        for (const auto& n : a.notes)
            if (n.find("cannot reject") != std::string::npos) return true;
        return false;
    };
    const auto five = analyse_results(from_text(csv(5)));
    EXPECT_TRUE(has_note(five));
    EXPECT_DOUBLE_EQ(five.comparisons[0].rows[0].wilcoxon.p_value, 0.0625);
    const auto six = analyse_results(from_text(csv(6)));
    EXPECT_FALSE(has_note(six));
    EXPECT_DOUBLE_EQ(six.comparisons[0].rows[0].wilcoxon.p_value, 0.03125);
    EXPECT_EQ(six.comparisons[0].rows[0].agreement, "both");
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
        EXPECT_LT(a.cells[i].bootstrap.half_width,
                  a.cells[i].t.half_width);  // 5 seeds: bootstrap is narrower
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
        if (tag[1] == '/')
            --depth;
        else if (tag[tag.size() - 2] != '/')
            ++depth;
        ASSERT_GE(depth, 0) << tag;
        i = end;
    }
    EXPECT_EQ(depth, 0);
}

/// Value of attribute `name` in the first element of `svg` whose opening tag contains `marker`.
double attr(const std::string& svg, const std::string& marker, const std::string& name, std::size_t from = 0) {
    const std::size_t at = svg.find(marker, from);
    if (at == std::string::npos) throw std::runtime_error("no element with " + marker);
    const std::size_t start = svg.rfind('<', at), end = svg.find('>', at);
    const std::string tag = svg.substr(start, end - start);
    const std::size_t a = tag.find(" " + name + "=\"");
    if (a == std::string::npos) throw std::runtime_error("no attribute " + name + " in " + tag);
    return std::stod(tag.substr(a + name.size() + 3));
}

std::size_t count(const std::string& s, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t i = s.find(needle); i != std::string::npos; i = s.find(needle, i + 1)) ++n;
    return n;
}

/// Checks a CD diagram against its inputs: structure, labels, CD bar and clique bars in axis units.
void expect_cd_diagram(const std::string& svg, const std::vector<std::string>& models, const std::vector<double>& ranks,
                       double cd, const std::vector<std::vector<int>>& cliques) {
    expect_well_formed_svg(svg);
    EXPECT_NE(svg.find("viewBox=\"0 0 "), std::string::npos);
    const double width = attr(svg, "<svg", "width");
    // One label per model, each holding the name once.
    EXPECT_EQ(count(svg, "class=\"model\""), models.size());
    for (const auto& m : models) EXPECT_EQ(count(svg, ">" + xml_escape(m) + "<"), 1u) << m;
    // Axis from rank 1 to rank k: one rank unit in pixels.
    const int k = static_cast<int>(models.size());
    const double x1 = attr(svg, "class=\"axis\"", "x1"), x2 = attr(svg, "class=\"axis\"", "x2");
    const double unit = (x2 - x1) / (k - 1);
    // The CD scale bar starts at rank 1 and is CD rank units long (rounding: 2 decimals in pixels).
    EXPECT_NEAR(attr(svg, "class=\"cd-bar\"", "x1"), x1, 0.01);
    EXPECT_NEAR((attr(svg, "class=\"cd-bar\"", "x2") - x1) / unit, cd, 0.02 / unit);
    EXPECT_LE(attr(svg, "class=\"cd-bar\"", "x2"), width);
    // One bar per clique from its best to its worst mean rank (4 px caps each side).
    ASSERT_EQ(count(svg, "class=\"clique\""), cliques.size());
    std::size_t pos = 0;
    for (const auto& c : cliques) {
        pos = svg.find("class=\"clique\"", pos);
        double lo = 1e9, hi = -1e9;
        for (int m : c)
            lo = std::min(lo, ranks[static_cast<std::size_t>(m)]),
            hi = std::max(hi, ranks[static_cast<std::size_t>(m)]);
        EXPECT_NEAR(attr(svg, "class=\"clique\"", "x1", pos), x1 + (lo - 1) * unit - 4, 0.02);
        EXPECT_NEAR(attr(svg, "class=\"clique\"", "x2", pos), x1 + (hi - 1) * unit + 4, 0.02);
        ++pos;
    }
}

TEST(Svg, CdDiagramOfTheFixture) {
    const auto a = analyse_results(read_results({kData + "report_fixture.csv"}));
    const auto& r = a.ranks;
    const std::string svg = cd_diagram_svg(r.models, r.friedman.mean_ranks, r.cd, r.cliques, "t<1>");
    expect_cd_diagram(svg, r.models, r.friedman.mean_ranks, r.cd, r.cliques);
    EXPECT_NE(svg.find("CD = 1.48"), std::string::npos);
    EXPECT_NE(svg.find("t&lt;1&gt;"), std::string::npos);
    // Mean ranks i2_gnn 1.6, kp_gnn 1.7, ppgn 2.8, gin 3.9 with CD 1.48 (computed by hand from the
    // per-task ranks): the maximal groups spanning less than CD are {i2_gnn, kp_gnn, ppgn} (1.2)
    // and {ppgn, gin} (1.1); kp_gnn–gin (2.2) differ.
    ASSERT_EQ(r.cliques.size(), 2u);
    auto names = [&](const std::vector<int>& c) {
        std::vector<std::string> n;
        for (int m : c) n.push_back(r.models[static_cast<std::size_t>(m)]);
        return n;
    };
    EXPECT_EQ(names(r.cliques[0]), (std::vector<std::string>{"i2_gnn", "kp_gnn", "ppgn"}));
    EXPECT_EQ(names(r.cliques[1]), (std::vector<std::string>{"ppgn", "gin"}));
    EXPECT_THROW(cd_diagram_svg({"a"}, {1.0}, 1.0, {}), InvalidArgument);
    EXPECT_THROW(cd_diagram_svg({"a", "b"}, {1.0, 2.0}, 0.0, {}), InvalidArgument);
    EXPECT_THROW(cd_diagram_svg({"a", "b"}, {1.0, 2.0}, 1.0, {{0, 2}}), InvalidArgument);
}

TEST(Svg, CdDiagramEdgeCases) {
    // CD longer than the axis (k = 2, CD = 3): the bar keeps its true length.
    expect_cd_diagram(cd_diagram_svg({"a", "b"}, {1.2, 1.8}, 3.0, {{0, 1}}), {"a", "b"}, {1.2, 1.8}, 3.0, {{0, 1}});
    // Many models with long, escaped names, tied ranks and overlapping cliques.
    const std::vector<std::string> m = {"gin", "a<b & c", "graphormer_with_a_very_long_name", "x", "y", "z", "w"};
    const std::vector<double> r = {7.0, 1.5, 1.5, 3.0, 4.25, 5.0, 5.75};
    const auto c = cd_cliques(r, 2.0);
    expect_cd_diagram(cd_diagram_svg(m, r, 2.0, c), m, r, 2.0, c);
    // Labels are placed inside the drawing: the longest label's estimated width fits on its side.
    const std::string svg = cd_diagram_svg(m, r, 2.0, c);
    EXPECT_GT(attr(svg, "class=\"axis\"", "x1"),
              0.62 * 14 * std::string("graphormer_with_a_very_long_name (1.50)").size());
}

TEST(Svg, CategoryChartForBrecEvalResults) {
    ResultReader r;
    r.add_file(kData + "report_eval_ppgn_shard0.jsonl");
    r.add_file(kData + "report_eval_ppgn_shard1.jsonl");
    r.add_file(kData + "report_eval_gin.jsonl");
    const auto b = analyse_results(r.finish());
    ASSERT_TRUE(b.results.brec);
    const std::string bars = category_chart_svg(b);
    expect_well_formed_svg(bars);
    EXPECT_NE(bars.find("viewBox=\"0 0 "), std::string::npos);
    EXPECT_NE(bars.find("% of pairs distinguished"), std::string::npos);
    for (const char* t : {"Basic (10)", "Regular (10)", "CFI (10)"}) EXPECT_NE(bars.find(t), std::string::npos) << t;
    // One bar per cell, one legend entry per model.
    EXPECT_EQ(count(bars, "class=\"bar\""), b.cells.size());
    EXPECT_EQ(count(bars, "class=\"legend\""), b.results.models.size());
    // Every mark stays inside the drawing (error bars of a share are cut at 0 % and 100 %).
    const double height = attr(bars, "<svg", "height");
    for (std::size_t i = bars.find(" y"); i != std::string::npos; i = bars.find(" y", i + 1)) {
        if (bars.compare(i, 4, " y=\"") != 0 && bars.compare(i, 5, " y1=\"") != 0 && bars.compare(i, 5, " y2=\"") != 0)
            continue;
        const double y = std::stod(bars.substr(bars.find('"', i) + 1));
        EXPECT_GE(y, 0.0);
        EXPECT_LE(y, height);
    }
    // report_files adds it for BREC results only.
    bool has = false;
    for (const auto& [name, content] : report_files(b, {"md"})) has = has || name == "categories.svg";
    EXPECT_TRUE(has);
    const auto csv = analyse_results(read_results({kData + "report_fixture.csv"}));
    for (const auto& [name, content] : report_files(csv, {"md"})) EXPECT_NE(name, "categories.svg");
    expect_well_formed_svg(category_chart_svg(csv));  // also drawable for other results
}

/// The report JSON without the parts that name input files (inputs and per-value sources).
nlohmann::json without_sources(nlohmann::json j) {
    j.erase("inputs");
    for (auto& c : j["cells"])
        for (auto& v : c["values"]) v.erase("source");
    return j;
}

TEST(Shards, TwoShardFilesGiveTheReportOfOneUnshardedFile) {
    // report_eval_ppgn_full.jsonl is the unsharded run (90 pairs x seeds); the two shard files
    // split it (with six records present in both, as after a requeued job).
    const auto full =
        analyse_results(read_results({kData + "report_eval_ppgn_full.jsonl", kData + "report_eval_gin.jsonl"}));
    const auto shards =
        analyse_results(read_results({kData + "report_eval_ppgn_shard0.jsonl", kData + "report_eval_ppgn_shard1.jsonl",
                                      kData + "report_eval_gin.jsonl"}));
    const auto reversed =
        analyse_results(read_results({kData + "report_eval_gin.jsonl", kData + "report_eval_ppgn_shard1.jsonl",
                                      kData + "report_eval_ppgn_shard0.jsonl"}));
    EXPECT_EQ(without_sources(report_json(full)), without_sources(report_json(shards)));
    // File order changes the model order only: the cells are the same.
    ASSERT_EQ(reversed.cells.size(), full.cells.size());
    for (const auto& c : full.cells) {
        const ReportCell* o = reversed.cell(c.task, c.model);
        ASSERT_NE(o, nullptr);
        EXPECT_EQ(o->values, c.values);
        EXPECT_EQ(o->pairs, c.pairs);
        EXPECT_EQ(o->reliability_failures, c.reliability_failures);
    }
    // The sources name both shard files.
    const ReportCell* basic = shards.cell("Basic", "ppgn");
    ASSERT_NE(basic, nullptr);
    EXPECT_NE(basic->sources[0].str().find("report_eval_ppgn_shard0.jsonl:"), std::string::npos);
    EXPECT_NE(basic->sources[0].str().find("report_eval_ppgn_shard1.jsonl:"), std::string::npos);
}

TEST(Shards, DuplicatesAreCountedOnceConflictsAreErrors) {
    // The same file twice (a shard passed twice, or a shard and the unsharded file): every pair
    // counted once, the result unchanged.
    const auto once = analyse_results(read_results({kData + "report_eval_ppgn_full.jsonl"}));
    const auto twice =
        analyse_results(read_results({kData + "report_eval_ppgn_full.jsonl", kData + "report_eval_ppgn_full.jsonl",
                                      kData + "report_eval_ppgn_shard0.jsonl"}));
    EXPECT_EQ(without_sources(report_json(once)), without_sources(report_json(twice)));
    // The same pair and seed with a different outcome: an error naming both places.
    ResultReader r;
    r.add_file(kData + "report_eval_ppgn_full.jsonl");
    try {
        r.add_text(
            R"({"model": "ppgn", "seed": 100, "id": 0, "category": "basic", "distinguished": false, "reliable": true})",
            "other.jsonl");
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), "other.jsonl:1: pair 0 of model ppgn seed 100 conflicts with the record at " +
                                             kData + "report_eval_ppgn_full.jsonl:1");
    }
}

TEST(Render, OnlyTheWrittenFilesAreDrawn) {
    const auto a = analyse_results(read_results({kData + "report_fixture.csv"}));
    const auto files = report_files(a, {ReportFormat::json});
    ASSERT_EQ(files.size(), 2u);  // the document and the CD diagram; not BREC: no category chart
    EXPECT_EQ(files[0].name, "report.json");
    EXPECT_EQ(files[0].content, render_report(a, ReportFormat::json));
    EXPECT_EQ(files[1].name, "cd.svg");
    EXPECT_EQ(files[1].content, cd_diagram_svg(a));
    // No format given: all three documents.
    EXPECT_EQ(report_files(a, std::vector<ReportFormat>{}).size(), 4u);
    EXPECT_EQ(parse_report_formats("md,,tex,json"),
              (std::vector<ReportFormat>{ReportFormat::markdown, ReportFormat::latex, ReportFormat::json}));
    try {
        parse_report_formats("md,pdf");
        FAIL() << "no error";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()), "unknown report format 'pdf' (expected md, latex or json)");
    }
    // Without ranks there is no CD diagram to draw.
    const auto one = analyse_results(from_text("acc,a,1,0.5\n"));
    EXPECT_THROW(cd_diagram_svg(one), InvalidArgument);
    EXPECT_EQ(report_files(one, {ReportFormat::markdown}).size(), 1u);
}

TEST(MakeReport, OneCallRendersWhatIsAskedFor) {
    auto names = [](const ReportOutput& o) {
        std::vector<std::string> n;
        for (const auto& f : o.files) n.push_back(f.name);
        return n;
    };
    ReportRequest req;
    req.inputs = {kData + "report_eval_both_ppgn.jsonl", kData + "report_eval_both_gin.jsonl"};
    EXPECT_EQ(names(make_report(req)),
              (std::vector<std::string>{"report.md", "report.tex", "report.json", "cd.svg", "categories.svg"}));
    req.formats = {ReportFormat::json};
    req.figures = false;
    const auto printed = make_report(req);
    EXPECT_EQ(names(printed), (std::vector<std::string>{"report.json"}));
    EXPECT_EQ(nlohmann::json::parse(printed.files[0].content)["protocol"], "hotelling");
    req.read.protocol = Protocol::brec_reference;
    EXPECT_EQ(nlohmann::json::parse(make_report(req).files[0].content)["protocol"], "brec_reference");
    // The certificate view instead of the statistics.
    req.certificate = kData + "report_certify.jsonl";
    req.formats.clear();
    EXPECT_EQ(names(make_report(req)), (std::vector<std::string>{"certificate.md", "certificate.json"}));
    req.formats = {ReportFormat::latex};
    EXPECT_THROW(make_report(req), InvalidArgument);
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
    EXPECT_NEAR(j["friedman"]["cd"].get<double>(), 1.48, 0.005);  // by hand: see CellsTestsAndHolmOnTheFixture
    for (const char* key :
         {"mean_ranks", "ranks", "chi2", "df", "p_value", "chi2_ties", "p_value_ties", "q_alpha", "cliques"})
        EXPECT_TRUE(j["friedman"].contains(key)) << key;
    EXPECT_EQ(j["comparisons"][0]["rows"].size(), 6u);
    // Every per-seed number of the JSON is one of the CSV's.
    const auto rs = read_results({kData + "report_fixture.csv"});
    std::size_t values = 0;
    for (const auto& c : j["cells"]) values += c["values"].size();
    EXPECT_EQ(values, rs.records.size());
    EXPECT_THROW(report_files(a, {"html"}), InvalidArgument);
}

}  // namespace
}  // namespace brec
