// Whole wl / certify runs (results file, resume, summary, text) and the progress and cancellation
// of long k-FWL comparisons.
#include "brec/wl/run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pair_records.hpp"
#include "common/result_lines.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"
#include "common/test_pairs.hpp"

namespace brec {
namespace {

/// Three CFI pairs: over a star (1-WL separates), K3 (2-FWL) and K4 (3-FWL; n = 40).
PairDataset cfi_dataset() {
    PairDataset ds;
    ds.path = "cfi-test";
    const Graph star = make_graph(4, {{0, 1}, {0, 2}, {0, 3}});
    for (const auto& [id, base] : {std::pair<PairId, Graph>{7, star}, {8, make_complete(3)}, {9, make_complete(4)}})
        ds.pairs.push_back(testing::make_pair_record(id, id == 7 ? "basic" : "cfi", testing::cfi_graph(base, false),
                                                     testing::cfi_graph(base, true)));
    return ds;
}

TEST(TupleWl, ReportsEveryRoundAndStopsSoonAfterACancel) {
    const Graph a = testing::cfi_graph(make_complete(4), false), b = testing::cfi_graph(make_complete(4), true);
    const WlOptions fwl3(WlMethod::parse("3fwl"));
    RunContext ctx;
    std::vector<std::size_t> rounds;
    ctx.set_progress([&](const Progress& p) {
        EXPECT_EQ(p.total, 0u) << "a round is a step of unknown count";
        EXPECT_EQ(p.task, "3-FWL (n = 40) round");
        rounds.push_back(p.done);
    });
    const WlResult r = compare_pair(a, b, fwl3, &ctx);
    ASSERT_TRUE(r.distinguished);
    ASSERT_GE(r.rounds, 1);
    std::vector<std::size_t> want(static_cast<std::size_t>(r.rounds));
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = i + 1;
    EXPECT_EQ(rounds, want);
    // Cancelled during the first round: the comparison throws instead of finishing.
    RunContext cancelling;
    int reports = 0;
    cancelling.set_progress([&](const Progress&) {
        ++reports;
        cancelling.cancel();
    });
    EXPECT_THROW(compare_pair(a, b, fwl3, &cancelling), Cancelled);
    EXPECT_EQ(reports, 1);
    EXPECT_THROW(certify_hardness(a, b, 3, 1, &cancelling), Cancelled);
    // Without a context nothing changes.
    EXPECT_TRUE(compare_pair(a, b, fwl3).distinguished);
}

TEST(WlRun, WritesTypedRecordsResumesAndSummarises) {
    const PairDataset ds = cfi_dataset();
    const std::string out = testing::fresh_temp_file("wl_run", "wl.jsonl");
    WlRunOptions opt;
    opt.wl = WlOptions(WlMethod::parse("2fwl"));
    opt.out = out;
    opt.reliability = true;
    opt.seed = 5;
    RunContext ctx;
    const WlRunResult r = run_wl(ds, {2, 0, 1}, opt, ctx);
    ASSERT_EQ(r.records.size(), 3u);
    EXPECT_EQ(r.records[0].id, 9) << "selection order";
    EXPECT_FALSE(r.records[0].distinguished) << "K4's CFI pair needs 3-FWL";
    EXPECT_TRUE(r.records[1].distinguished);
    EXPECT_TRUE(r.records[2].distinguished);
    for (const auto& rec : r.records) {
        EXPECT_EQ(rec.method, "2fwl");
        EXPECT_TRUE(rec.reliability_checked);
        EXPECT_FALSE(rec.reliability_failure);
        EXPECT_EQ(rec.reliability_seed, 5u);
    }
    EXPECT_EQ(r.summary["command"], "wl");
    EXPECT_EQ(r.summary["dataset"], "cfi-test");
    EXPECT_EQ(r.summary["total"]["pairs"], 3);
    EXPECT_EQ(r.summary["total"]["distinguished"], 2);
    EXPECT_EQ(r.summary["categories"]["cfi"]["distinguished"], 1);
    EXPECT_EQ(r.summary["reliability_check"], true);
    EXPECT_NE(wl_run_text(r, true).find("method 2fwl on cfi-test (3 pairs"), std::string::npos) << wl_run_text(r, true);
    // The file holds exactly the typed records, in their JSON form.
    const auto lines = testing::result_lines(out);
    ASSERT_EQ(lines.size(), 3u);
    for (const auto& line : lines) {
        const WlRecord back = wl_record_from_json(nlohmann::json::parse(line), out, 1);
        const auto it =
            std::find_if(r.records.begin(), r.records.end(), [&](const WlRecord& x) { return x.id == back.id; });
        ASSERT_NE(it, r.records.end());
        EXPECT_EQ(to_json(*it), to_json(back));
    }
    // Resuming takes them over; another seed refuses the file, which stays as it was.
    opt.resume = true;
    const WlRunResult again = run_wl(ds, {0, 1, 2}, opt, ctx);
    EXPECT_EQ(again.resumed, 3u);
    EXPECT_EQ(testing::result_lines(out).size(), 3u);
    const std::string before = read_text_file(out);
    opt.seed = 6;
    EXPECT_EQ(testing::error_of([&] { run_wl(ds, {0}, opt, ctx); }),
              out +
                  ":1: a record of other settings (wl 2fwl, rounds until stable, relabeling seed 5; this run: wl "
                  "2fwl, rounds until stable, relabeling seed 6); resume with the same settings or use another "
                  "results file");
    EXPECT_EQ(read_text_file(out), before);
    // Without a reliability check, records that were checked stand for the run.
    opt.reliability = false;
    EXPECT_EQ(run_wl(ds, {0, 1, 2}, opt, ctx).resumed, 3u);
    opt.reliability = true;
    // Without resuming, the file is not overwritten; the message names no flag.
    opt.resume = false;
    EXPECT_EQ(testing::error_of([&] { run_wl(ds, {0}, opt, ctx); }),
              out + " already holds results; resume that run or remove the file");
    std::remove(out.c_str());
}

TEST(CertifyRun, LevelsPerCategoryTextAndCancellation) {
    const PairDataset ds = cfi_dataset();
    CertifyRunOptions opt;
    RunContext ctx;
    const CertifyRunResult r = run_certify(ds, {0, 1, 2}, opt, ctx);
    ASSERT_EQ(r.records.size(), 3u);
    EXPECT_EQ(r.records[0].level, "1wl");
    EXPECT_EQ(r.records[1].level, "2fwl");
    EXPECT_EQ(r.records[2].level, "3fwl");
    EXPECT_EQ(r.records[2].hardness, "4-WL (3-FWL)");
    EXPECT_EQ(r.records[2].steps.size(), 3u);
    EXPECT_EQ(r.records[2].n, 40u);
    EXPECT_EQ(r.summary["levels"]["cfi"], (nlohmann::json{{"2fwl", 1}, {"3fwl", 1}}));
    EXPECT_EQ(r.summary["total"]["distinguished"], 3);
    EXPECT_NE(certify_run_text(r).find("\ntotal         3     1             1             1       0\n"),
              std::string::npos)
        << certify_run_text(r);
    // Categories in order of appearance, not by name.
    const std::string text = certify_run_text(run_certify(ds, {1, 0}, opt, ctx));
    EXPECT_LT(text.find("\ncfi "), text.find("\nbasic ")) << text;
    opt.max_fwl = 2;
    EXPECT_EQ(run_certify(ds, {2}, opt, ctx).records[0].level, "beyond");
    EXPECT_NE(certify_run_text(run_certify(ds, {2}, opt, ctx)).find("'beyond' means beyond 2-FWL"), std::string::npos);
    // A cancelled run stops before its first pair.
    RunContext cancelled;
    cancelled.cancel();
    try {
        run_certify(ds, {0, 1, 2}, opt, cancelled);
        ADD_FAILURE() << "a cancelled run returned";
    } catch (const PairsCancelled& e) {
        EXPECT_EQ(e.kept(), 0u);
        EXPECT_TRUE(e.path().empty());
    }
}

// --tests: extra methods on every pair, typed in the record, counted in the summary, part of what
// a resumed record must match. CFI over a star is 1-WL-separable, over K3 it needs 2-FWL, over K4
// 3-FWL (Cai, Fürer, Immerman): 2-FWL separates the first two, not the third.
TEST(CertifyRun, ExtraTestsAreRecordedCountedAndResumed) {
    const PairDataset ds = cfi_dataset();
    const std::string out = testing::fresh_temp_file("certify_tests", "certify.jsonl");
    CertifyRunOptions opt;
    opt.max_fwl = 1;
    opt.out = out;
    opt.tests = {"2FWL", "swl-vs:2"};
    RunContext ctx;
    const CertifyRunResult r = run_certify(ds, {0, 1, 2}, opt, ctx);
    EXPECT_EQ(r.tests, (std::vector<std::string>{"2fwl", "swl-vs:2"}));
    ASSERT_EQ(r.records.size(), 3u);
    for (const auto& rec : r.records) {
        ASSERT_EQ(rec.tests.size(), 2u);
        EXPECT_EQ(rec.tests[0].method, "2fwl");
        EXPECT_EQ(rec.tests[1].method, "swl-vs:2");
    }
    EXPECT_TRUE(r.records[0].tests[0].distinguished);
    EXPECT_TRUE(r.records[1].tests[0].distinguished);
    EXPECT_FALSE(r.records[2].tests[0].distinguished);
    EXPECT_EQ(r.summary["tests"]["2fwl"]["separated"]["cfi"], 1);
    EXPECT_EQ(r.summary["tests"]["2fwl"]["separated"]["basic"], 1);
    EXPECT_NE(certify_run_text(r).find("pairs each test separates"), std::string::npos);
    // The records round-trip through the file.
    const auto lines = testing::result_lines(out);
    ASSERT_EQ(lines.size(), 3u);
    for (const auto& line : lines) {
        const CertifyRecord back = certify_record_from_json(nlohmann::json::parse(line), out, 1);
        const auto it =
            std::find_if(r.records.begin(), r.records.end(), [&](const CertifyRecord& x) { return x.id == back.id; });
        ASSERT_NE(it, r.records.end());
        EXPECT_EQ(to_json(back), to_json(*it));
    }
    // Resuming with the same tests takes the records over; other tests refuse the file.
    opt.resume = true;
    EXPECT_EQ(run_certify(ds, {0, 1, 2}, opt, ctx).resumed, 3u);
    opt.tests = {"2fwl"};
    EXPECT_NE(testing::error_of([&] { run_certify(ds, {0}, opt, ctx); })
                  .find(":1: a record of other settings (certify up to 1-FWL, tests 2fwl,swl-vs:2; this run: "
                        "certify up to 1-FWL, tests 2fwl)"),
              std::string::npos);
    std::remove(out.c_str());
    // A bad or repeated test is refused before anything is written.
    opt.resume = false;
    opt.tests = {"gswl:x"};
    EXPECT_THROW(run_certify(ds, {0}, opt, ctx), InvalidArgument);
    opt.tests = {"sswl", "SSWL"};
    EXPECT_THROW(run_certify(ds, {0}, opt, ctx), InvalidArgument);
    EXPECT_FALSE(file_exists(out));
}

}  // namespace
}  // namespace brec
