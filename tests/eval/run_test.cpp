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
#include "common/result_lines.hpp"
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

/// A record's JSON without its wall-clock fields: everything else is bitwise reproducible on CPU.
nlohmann::json without_timings(const EvalRecord& r) {
    auto j = to_json(r);
    j.erase("seconds");
    j.erase("train_seconds");
    return j;
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
    EXPECT_EQ(testing::result_lines(out).size(), 4u);
    // Without --resume an existing result file is never overwritten.
    EXPECT_THROW(run_evaluation(ds, all, run, ctx), InvalidArgument);
    EXPECT_EQ(testing::result_lines(out).size(), 4u);
    // Resuming computes only the missing (seed, pair) results.
    run.resume = true;
    const auto resumed = run_evaluation(ds, all, run, ctx);
    EXPECT_EQ(testing::result_lines(out).size(), 6u);
    // A fresh uninterrupted run gives the same records (CPU determinism) and summaries.
    EvalRunOptions fresh = small_gin_run("");
    const auto full = run_evaluation(ds, all, fresh, ctx);
    ASSERT_EQ(full.runs.size(), 2u);
    for (std::size_t s = 0; s < 2; ++s) {
        ASSERT_EQ(resumed.runs[s].records.size(), 3u);
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(without_timings(resumed.runs[s].records[i]), without_timings(full.runs[s].records[i]));
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
    EXPECT_EQ(testing::result_lines(out).size(), 6u);
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
    for (Protocol p : all_protocols()) {
        EXPECT_FALSE(rec[0].result(p).distinguished) << to_json(rec[0]);  // C6 vs 2C3: 1-WL-equivalent
        EXPECT_TRUE(rec[1].result(p).distinguished) << to_json(rec[1]);   // P4 vs star: degrees differ
        EXPECT_FALSE(rec[2].result(p).distinguished) << to_json(rec[2]);  // C8 vs 2C4
        for (const auto& r : rec) EXPECT_TRUE(r.result(p).reliable) << to_json(r);
    }
    EXPECT_EQ(rec[1].bound, "1wl");
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
    EXPECT_EQ(worse[0], "basic: distinguished 50 < 51 (hotelling)");
    EXPECT_EQ(worse[1], "basic: reliability failures 1 > 0 (hotelling)");
    // A better run is not a regression.
    old = now;
    old["categories"]["cfi"]["distinguished"] = 10;
    EXPECT_TRUE(baseline_regressions(old, now, "old.json").empty());
    EXPECT_THROW(baseline_regressions(nlohmann::json::array(), now, "old.json"), ParseError);
    old["categories"]["cfi"].erase("distinguished");
    EXPECT_THROW(baseline_regressions(old, now, "old.json"), ParseError);
}

TEST(EvalRun, JunitHasOneCasePerPairAndFailsUnreliablePairs) {
    std::vector<EvalRecord> records(2);
    records[0].id = 3;
    records[0].category = "basic";
    records[0].seconds = 0.5;
    records[0].hotelling = {1e9, 2.0, 72.34, true, true};
    records[0].brec_reference = {1e9 / 32, 2.0 / 32, 72.34, true, true};
    records[1].id = 260;
    records[1].category = "cfi";
    records[1].seconds = 1.5;
    records[1].hotelling = {80.0, 90.0, 72.34, false, false};
    records[1].brec_reference = {2.5, 2.8, 72.34, false, true};
    const std::string x = junit_xml(records, "brec eval <gin>", 2.0);
    // Under the reference protocol pair 260 is reliable: no failure.
    EXPECT_NE(junit_xml(records, "s", 2.0, Protocol::brec_reference).find("failures=\"0\""), std::string::npos);
    EXPECT_NE(x.find("brec_reference: T2_test=2.5"), std::string::npos) << x;
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

/// The scheduling of pairs over threads must not change any result: every random draw of a pair
/// comes from the pair's own generators. (Before that, LibTorch's global generator was seeded and
/// drawn from inside worker threads, and --jobs 2 changed T² values.)
class EveryModelRun : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryModelRun, JobsNeverChangeARecord) {
    PairDataset ds = tiny_dataset();
    Rng rng(3);
    for (PairId id = 3; id < 7; ++id) {  // more pairs than threads, of one size per pair
        GraphPairRecord r;
        r.id = id;
        r.category = "extension";
        r.a = testing::random_graph(7, 0.4, rng);
        r.b = testing::random_graph(7, 0.4, rng);
        ds.pairs.push_back(std::move(r));
    }
    std::vector<std::size_t> all(ds.pairs.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    EvalRunOptions run = small_gin_run("");
    run.eval.model = GetParam();
    run.seeds = {100};
    RunContext ctx;
    std::vector<nlohmann::json> first;
    for (int jobs : {1, 2, 4}) {
        run.jobs = jobs;
        const auto r = run_evaluation(ds, all, run, ctx);
        std::vector<nlohmann::json> got;
        for (const auto& rec : r.runs[0].records) got.push_back(without_timings(rec));
        if (first.empty()) {
            first = got;
            continue;
        }
        ASSERT_EQ(got.size(), first.size());
        for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], first[i]) << "jobs " << jobs;
    }
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryModelRun, ::testing::ValuesIn(model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace brec
