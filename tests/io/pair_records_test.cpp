#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pair_records.hpp"
#include "common/result_lines.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using namespace brec::testing;

std::string temp_file(const std::string& name) { return fresh_temp_file("records", name); }

PairDataset paths_dataset() {
    PairDataset ds;
    for (PairId id = 0; id < 5; ++id) {
        GraphPairRecord r;
        r.id = 10 + id;
        r.category = "basic";
        r.a = make_path(static_cast<VertexId>(3 + (id * 3) % 5));  // sizes 3, 6, 4, 7, 5
        r.b = r.a;
        ds.pairs.push_back(std::move(r));
    }
    return ds;
}

TEST(PairRecords, KeysRecordsByTheirSeedAndIdAndRefusesOtherSettings) {
    const std::string path = temp_file("a.jsonl");
    {
        PairRecords r(path, false);
        r.add(0, 1, {{"id", 1}, {"method", "1wl"}});
        r.add(7, 2, {{"id", 2}, {"seed", 7}, {"method", "1wl"}});
    }
    const ResultsSettings one_wl("1wl", [](const nlohmann::json& j, std::int64_t) { return j.value("method", ""); });
    PairRecords r(path, true, one_wl);
    EXPECT_EQ(r.loaded(), 2u);
    EXPECT_TRUE(r.contains(0, 1));
    EXPECT_FALSE(r.contains(0, 2));
    EXPECT_TRUE(r.contains(7, 2)) << "the run of a record is its seed";
    EXPECT_EQ(r.at(7, 2)["method"], "1wl");
    r.add(0, 3, {{"id", 3}, {"method", "1wl"}});
    EXPECT_EQ(result_lines(path).size(), 3u);
    const ResultsSettings two_fwl("2fwl", one_wl.of);
    EXPECT_EQ(error_of([&] { PairRecords(path, true, two_fwl); }),
              path +
                  ":1: a record of other settings (1wl; this run: 2fwl); resume with the same settings or use "
                  "another results file");
    std::remove(path.c_str());
}

TEST(PairRecords, ARecordWithoutAnIntegerIdIsAnError) {
    const std::string path = temp_file("b.jsonl");
    { std::ofstream(path) << "{\"id\": 1}\n{\"id\": \"x\"}\n"; }
    try {
        PairRecords r(path, true);
        ADD_FAILURE() << "a record without an integer id was accepted";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 2);
        EXPECT_EQ(e.source(), path);
    }
    std::remove(path.c_str());
}

TEST(PairRecords, ComputesOnlyMissingPairsLargestFirst) {
    const PairDataset ds = paths_dataset();
    PairRecords r("", false);
    r.add(0, 13, {{"id", 13}, {"n", -1}});
    std::vector<VertexId> order;
    RunContext ctx;
    compute_missing_pairs(ds, {0, 1, 2, 3, 4}, 0, 1, r, "test", ctx, [&](const GraphPairRecord& p) {
        order.push_back(p.a.n());
        return nlohmann::json{{"id", p.id}, {"n", p.a.n()}};
    });
    EXPECT_EQ(order, (std::vector<VertexId>{6, 5, 4, 3})) << "pair 13 (n = 7) was already done";
    EXPECT_EQ(r.at(0, 13)["n"], -1);
    EXPECT_EQ(r.at(0, 11)["n"], 6);
    EXPECT_EQ(r.size(), 5u);
    // A failing pair stops the run with its exception; results finished before stay.
    PairRecords partial("", false);
    EXPECT_THROW(compute_missing_pairs(ds, {0, 1, 2, 3, 4}, 1, 2, partial, "test", ctx,
                                       [&](const GraphPairRecord& p) -> nlohmann::json {
                                           if (p.id == 10) throw std::runtime_error("boom");
                                           return {{"id", p.id}};
                                       }),
                 std::runtime_error);
    EXPECT_FALSE(partial.contains(1, 10));
    EXPECT_GE(partial.size(), 1u);
}

TEST(PairRecords, CancelledContextStopsAndKeepsFinishedRecords) {
    const PairDataset ds = paths_dataset();
    const std::string path = temp_file("d.jsonl");
    std::remove(path.c_str());
    // Already cancelled: nothing is computed, the records of the file stay.
    {
        PairRecords r(path, false);
        r.add(0, 13, {{"id", 13}});
        RunContext ctx;
        ctx.cancel();
        int calls = 0;
        try {
            compute_missing_pairs(ds, {0, 1, 2, 3, 4}, 0, 2, r, "test", ctx, [&](const GraphPairRecord& p) {
                ++calls;
                return nlohmann::json{{"id", p.id}};
            });
            ADD_FAILURE() << "a cancelled run returned normally";
        } catch (const PairsCancelled& e) {
            EXPECT_EQ(e.kept(), 1u);
            EXPECT_EQ(e.path(), path);
        }
        EXPECT_EQ(calls, 0);
    }
    // Cancelled while the second pair runs: it finishes and is kept, no third pair starts.
    {
        PairRecords r(path, true);
        RunContext ctx;
        std::vector<PairId> started;
        EXPECT_THROW(compute_missing_pairs(ds, {0, 1, 2, 3, 4}, 0, 1, r, "test", ctx,
                                           [&](const GraphPairRecord& p) {
                                               started.push_back(p.id);
                                               if (started.size() == 2) ctx.cancel();
                                               return nlohmann::json{{"id", p.id}};
                                           }),
                     PairsCancelled);
        EXPECT_EQ(started, (std::vector<PairId>{11, 14})) << "largest first; pair 13 was done";
        EXPECT_EQ(r.size(), 3u);
    }
    EXPECT_EQ(result_lines(path).size(), 3u) << "every finished record is in the file, whole";
    // A pair that stops on the cancellation itself is dropped; its partner thread's pair is not.
    {
        PairRecords r(path, true);
        EXPECT_EQ(r.loaded(), 3u);
        RunContext ctx;
        EXPECT_THROW(compute_missing_pairs(ds, {0, 1, 2, 3, 4}, 0, 2, r, "test", ctx,
                                           [&](const GraphPairRecord& p) -> nlohmann::json {
                                               ctx.cancel();
                                               ctx.throw_if_cancelled();
                                               return {{"id", p.id}};
                                           }),
                     PairsCancelled);
        EXPECT_EQ(r.size(), 3u);
    }
    EXPECT_EQ(result_lines(path).size(), 3u);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace brec
