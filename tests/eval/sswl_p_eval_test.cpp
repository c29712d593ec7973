// SSWL+ trained on BREC pairs within its theory and on a strongly regular pair beyond it, and the
// memory limit of an evaluation run: pairs whose model estimate exceeds it are recorded as skipped,
// count as not distinguished, and stay done on resume. Small widths and q = 16 keep each run short.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "brec/core/error.hpp"
#include "brec/eval/run.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "common/result_lines.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"
#include "eval/brec_pair_fixtures.hpp"

namespace brec {
namespace {

using testing::brec_pair;

EvalOptions small_run() {
    EvalOptions o = testing::small_run("sswl_p");
    o.epochs = 5;
    return o;
}

TEST(SswlPlusTraining, SeparatesBrecPairsWithinItsTheory) {
    // Basic pair 6 (n = 10, disconnected: its unreachable pairs crash the released preprocessing),
    // Regular pair 60 (n = 10) and Extension pair 160 (n = 10): Table 2 has SSWL+ separating every
    // Basic, simple regular and Extension pair.
    for (PairId id : {6, 60, 160}) {
        const EvalRecord r = evaluate_pair(brec_pair(id), small_run(), 100);
        for (Protocol p : all_protocols()) {
            EXPECT_TRUE(r.result(p).distinguished) << to_json(r);
            EXPECT_TRUE(r.result(p).reliable) << to_json(r);
        }
    }
}

TEST(SswlPlusTraining, DoesNotSeparateTheRookGraphFromTheShrikhandeGraph) {
    // srg(16, 6, 2, 2) twice: 2-FWL-equivalent, so beyond every subgraph WL test.
    GraphPairRecord pair;
    pair.id = 1000;
    pair.category = "strongly_regular";
    pair.a = testing::rook_4x4();
    pair.b = testing::shrikhande();
    EvalOptions o = small_run();
    o.epochs = 2;
    o.layers = 2;
    const EvalRecord r = evaluate_pair(pair, o, 100);
    for (Protocol p : all_protocols()) {
        EXPECT_FALSE(r.result(p).distinguished) << to_json(r);
        EXPECT_TRUE(r.result(p).reliable) << to_json(r);
    }
}

PairDataset three_brec_pairs() {
    PairDataset ds;
    ds.path = "brec";
    for (PairId id : {0, 60, 160}) ds.pairs.push_back(brec_pair(id));
    return ds;
}

TEST(MemoryLimit, PairsAboveTheLimitAreRecordedAsSkippedAndStayDoneOnResume) {
    const PairDataset ds = three_brec_pairs();
    const std::string out = testing::fresh_temp_file("memory", "skipped.jsonl");
    EvalRunOptions run;
    run.eval = small_run();
    run.out = out;
    run.dataset = "brec";
    // The estimate of a batch of 16 graphs of 10 vertices at width 16 and 3 layers: 16 · 100 pairs
    // · 4 · 16 · (12 · 3 + 9) bytes ≈ 4.6 MB of activations. 4 MiB is below it, 64 MiB above.
    const auto need = pair_memory_estimate(ds.pairs[0], run.eval);
    ASSERT_TRUE(need.has_value());
    EXPECT_GT(*need, 4u << 20);
    EXPECT_LT(*need, 64u << 20);
    run.max_memory = 4u << 20;
    std::vector<std::string> warnings;
    RunContext ctx;
    ctx.set_log([&](LogLevel level, const std::string& msg) {
        if (level == LogLevel::warn) warnings.push_back(msg);
    });
    const auto result = run_evaluation(ds, {0, 1, 2}, run, ctx);
    ASSERT_EQ(result.runs.size(), 1u);
    ASSERT_EQ(warnings.size(), 3u);
    EXPECT_EQ(warnings[0].rfind("pair 0: sswl_p needs about ", 0), 0u) << warnings[0];
    EXPECT_NE(warnings[0].find(" MiB > --max-memory 4.0 MiB; skipped"), std::string::npos) << warnings[0];
    for (const auto& r : result.runs[0].records) {
        EXPECT_FALSE(r.skipped.empty()) << to_json(r);
        EXPECT_EQ(r.epochs, 0);
        for (Protocol p : all_protocols()) EXPECT_FALSE(r.result(p).counts());
    }
    const auto& summary = result.runs[0].summary;
    EXPECT_EQ(summary["skipped_pairs"], 3) << summary.dump();
    EXPECT_EQ(summary["total"]["distinguished"], 0) << summary.dump();
    const auto lines = testing::result_lines(out);
    ASSERT_EQ(lines.size(), 3u);
    for (const auto& line : lines) EXPECT_NE(line.find("\"skipped\":"), std::string::npos) << line;

    // Resuming keeps the skipped records as done, whatever the new limit.
    run.resume = true;
    run.max_memory = 64u << 20;
    warnings.clear();
    const auto resumed = run_evaluation(ds, {0, 1, 2}, run, ctx);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(testing::result_lines(out).size(), 3u);
    EXPECT_EQ(resumed.runs[0].summary["skipped_pairs"], 3);

    // Under a limit above the estimate the pairs run.
    const auto ran = run_evaluation(
        ds, {0},
        [&] {
            EvalRunOptions fresh = run;
            fresh.out.clear();
            fresh.resume = false;
            return fresh;
        }(),
        ctx);
    EXPECT_TRUE(ran.runs[0].records[0].skipped.empty());
    EXPECT_GT(ran.runs[0].records[0].epochs, 0);
    std::remove(out.c_str());
}

TEST(MemoryLimit, ModelsWithoutAnEstimateAlwaysRun) {
    const PairDataset ds = three_brec_pairs();
    EvalRunOptions run;
    run.eval = small_run();
    run.eval.model = "gin";
    run.eval.epochs = 1;
    run.max_memory = 1;
    EXPECT_FALSE(pair_memory_estimate(ds.pairs[0], run.eval).has_value());
    RunContext ctx;
    const auto result = run_evaluation(ds, {0}, run, ctx);
    EXPECT_TRUE(result.runs[0].records[0].skipped.empty());
    EXPECT_EQ(result.runs[0].records[0].epochs, 1);
}

}  // namespace
}  // namespace brec
