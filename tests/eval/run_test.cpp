// Whole evaluation runs: resume, settings fingerprints, the multi-seed protocol, the baseline
// regression check and JUnit output.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/eval/run.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using namespace brec::testing;

/// Three tiny pairs: C6 vs 2C3 (1-WL-equivalent), P4 vs star K1,3 (1-WL separates them), and
/// C8 vs 2C4.
PairDataset tiny_dataset() {
    PairDataset ds;
    ds.path = "tiny";
    auto add = [&](PairId id, const std::string& cat, Graph a, Graph b) {
        GraphPairRecord r;
        r.id = id;
        r.category = cat;
        r.a = std::move(a);
        r.b = std::move(b);
        ds.pairs.push_back(std::move(r));
    };
    add(0, "basic", make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3)));
    add(1, "basic", make_path(4), make_graph(4, {{0, 1}, {0, 2}, {0, 3}}));
    add(2, "extension", make_cycle(8), disjoint_union(make_cycle(4), make_cycle(4)));
    return ds;
}

EvalRunOptions small_gin_run(const std::string& out) {
    EvalRunOptions run;
    run.eval.model = "gin";
    run.eval.q = 8;
    run.eval.out_dim = 4;
    run.eval.layers = 2;
    run.eval.hidden = 8;
    run.eval.batch = 8;
    run.eval.epochs = 2;
    run.eval.device = "cpu";
    run.eval.torch_threads = 1;
    run.seeds = {100, 200};
    run.out = out;
    run.dataset = "tiny";
    return run;
}

std::string temp_file(const std::string& name) { return fresh_temp_file("run", name); }

TEST(EvalRun, SettingsIdFollowsTheSettingsThatDecideResultsOnly) {
    EvalOptions a;
    EvalOptions b = a;
    EXPECT_EQ(settings_id(a), settings_id(b));
    EXPECT_EQ(settings_id(a).size(), 16u);
    b.device = "cuda";
    b.kernel = "torch";
    b.torch_threads = 7;
    EXPECT_EQ(settings_id(a), settings_id(b)) << "devices and threads do not change what is measured";
    b.q = 40;
    EXPECT_NE(settings_id(a), settings_id(b));
    b = a;
    b.epochs = 20;  // the ppgn default made explicit: same resolved settings
    EXPECT_EQ(settings_id(a), settings_id(b));
    b.epochs = 3;
    EXPECT_NE(settings_id(a), settings_id(b));
    b = a;
    b.relative_noise = 0;
    EXPECT_NE(settings_id(a), settings_id(b));
    EXPECT_EQ(evaluation_settings(a)["lr"].get<double>(), 1e-4);
}

TEST(EvalRun, ResumeSkipsFinishedPairsAndRefusesToMixSettings) {
    const PairDataset ds = tiny_dataset();
    const std::vector<std::size_t> all{0, 1, 2};
    const std::string out = temp_file("resume.jsonl");
    RunContext ctx;
    // Interrupted run: only pair 0 and 1 of both seeds.
    EvalRunOptions run = small_gin_run(out);
    run_evaluation(ds, {0, 1}, run, ctx);
    EXPECT_EQ(read_jsonl_lines(out).size(), 4u);
    // Without --resume an existing result file is never overwritten.
    EXPECT_THROW(run_evaluation(ds, all, run, ctx), InvalidArgument);
    EXPECT_EQ(read_jsonl_lines(out).size(), 4u);
    // Resuming computes only the missing (seed, pair) results.
    run.resume = true;
    const auto resumed = run_evaluation(ds, all, run, ctx);
    EXPECT_EQ(read_jsonl_lines(out).size(), 6u);
    // A fresh uninterrupted run gives the same records (CPU determinism) and summaries.
    EvalRunOptions fresh = small_gin_run("");
    const auto full = run_evaluation(ds, all, fresh, ctx);
    ASSERT_EQ(full.runs.size(), 2u);
    for (std::size_t s = 0; s < 2; ++s) {
        ASSERT_EQ(resumed.runs[s].records.size(), 3u);
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(resumed.runs[s].records[i]["t2_test"], full.runs[s].records[i]["t2_test"]);
            EXPECT_EQ(resumed.runs[s].records[i]["t2_reliability"], full.runs[s].records[i]["t2_reliability"]);
        }
        EXPECT_EQ(resumed.runs[s].summary["categories"], full.runs[s].summary["categories"]);
    }
    // Resuming with other settings would mix two experiments.
    run.eval.epochs = 3;
    try {
        run_evaluation(ds, all, run, ctx);
        ADD_FAILURE() << "resume with other settings was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("other settings"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(out + ":1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(read_jsonl_lines(out).size(), 6u);
    std::remove(out.c_str());
}

TEST(EvalRun, GinSeparatesOnlyThePairThatOneWlSeparates) {
    EvalRunOptions run = small_gin_run("");
    run.seeds = {100};
    // Train all epochs: GIN's inner BatchNorm (momentum 0.1, as in the reference) needs steps
    // before its running statistics, used in eval mode, resemble the batch statistics.
    run.eval.epochs = 20;
    run.eval.loss_threshold = 0.0;
    run.eval.lr = 1e-2;
    RunContext ctx;
    const auto r = run_evaluation(tiny_dataset(), {0, 1, 2}, run, ctx);
    const auto& rec = r.runs[0].records;
    EXPECT_FALSE(rec[0]["distinguished"].get<bool>()) << rec[0].dump();  // C6 vs 2C3: 1-WL-equivalent
    EXPECT_TRUE(rec[1]["distinguished"].get<bool>()) << rec[1].dump();   // P4 vs star: degrees differ
    EXPECT_FALSE(rec[2]["distinguished"].get<bool>()) << rec[2].dump();  // C8 vs 2C4
    for (const auto& j : rec) EXPECT_TRUE(j["reliable"].get<bool>()) << j.dump();
    EXPECT_EQ(r.summary["total"]["distinguished"], 1);
    EXPECT_EQ(r.summary["total"]["pairs"], 3);
    EXPECT_EQ(r.best_reliable, 0u);
}

TEST(EvalRun, BaselineRegressionsNameTheCategory) {
    const nlohmann::json now = {{"categories",
                                 {{"basic", {{"pairs", 60}, {"distinguished", 50}, {"reliability_failures", 1}}},
                                  {"cfi", {{"pairs", 100}, {"distinguished", 20}, {"reliability_failures", 0}}}}}};
    nlohmann::json old = now;
    EXPECT_TRUE(baseline_regressions(old, now, "old.json").empty());
    old["categories"]["basic"]["distinguished"] = 51;
    old["categories"]["cfi"]["reliability_failures"] = 0;
    old["categories"]["basic"]["reliability_failures"] = 0;
    old["categories"]["regular"] = {{"pairs", 50}, {"distinguished", 50}, {"reliability_failures", 0}};  // not run now
    const auto worse = baseline_regressions(old, now, "old.json");
    ASSERT_EQ(worse.size(), 2u);
    EXPECT_EQ(worse[0], "basic: distinguished 50 < 51");
    EXPECT_EQ(worse[1], "basic: reliability failures 1 > 0");
    // A better run is not a regression.
    old = now;
    old["categories"]["cfi"]["distinguished"] = 10;
    EXPECT_TRUE(baseline_regressions(old, now, "old.json").empty());
    EXPECT_THROW(baseline_regressions(nlohmann::json::array(), now, "old.json"), ParseError);
    old["categories"]["cfi"].erase("distinguished");
    EXPECT_THROW(baseline_regressions(old, now, "old.json"), ParseError);
}

TEST(EvalRun, JunitHasOneCasePerPairAndFailsUnreliablePairs) {
    std::vector<nlohmann::json> records = {
        {{"id", 3}, {"category", "basic"}, {"distinguished", true}, {"reliable", true}, {"seconds", 0.5},
         {"t2_test", 1e9}, {"t2_reliability", 2.0}, {"threshold", 72.34}},
        {{"id", 260}, {"category", "cfi"}, {"distinguished", false}, {"reliable", false}, {"seconds", 1.5},
         {"t2_test", 80.0}, {"t2_reliability", 90.0}, {"threshold", 72.34}}};
    const std::string x = junit_xml(records, "brec eval <gin>", 2.0);
    EXPECT_NE(x.find("<testsuite name=\"brec eval &lt;gin&gt;\" tests=\"2\" failures=\"1\""), std::string::npos) << x;
    EXPECT_NE(x.find("classname=\"brec.basic\" name=\"pair 3 distinguished\""), std::string::npos) << x;
    EXPECT_NE(x.find("classname=\"brec.cfi\" name=\"pair 260 not distinguished\""), std::string::npos) << x;
    std::size_t cases = 0, failures = 0;
    for (std::size_t p = x.find("<testcase"); p != std::string::npos; p = x.find("<testcase", p + 1)) ++cases;
    for (std::size_t p = x.find("<failure"); p != std::string::npos; p = x.find("<failure", p + 1)) ++failures;
    EXPECT_EQ(cases, 2u);
    EXPECT_EQ(failures, 1u);
    EXPECT_EQ(x.rfind("</testsuite>\n"), x.size() - 13);
}

}  // namespace
}  // namespace brec
