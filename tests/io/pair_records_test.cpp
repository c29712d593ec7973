#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pair_records.hpp"
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

TEST(PairRecords, RefusesToOverwriteAndResumesWhatTheFilterKeeps) {
    const std::string path = temp_file("a.jsonl");
    {
        PairRecords r(path, false);
        r.add(0, 1, {{"id", 1}, {"method", "1wl"}});
        r.add(0, 2, {{"id", 2}, {"method", "2fwl"}});
        r.add(7, 2, {{"id", 2}, {"seed", 7}, {"method", "1wl"}});
    }
    EXPECT_EQ(read_jsonl_lines(path).size(), 3u);
    EXPECT_THROW(PairRecords(path, false), InvalidArgument);
    // Resuming needs a file to resume from; memory-only records are fine without --resume.
    EXPECT_EQ(error_of([] { PairRecords("", true); }), "resuming needs a results file");
    try {
        PairRecords(path, false);
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(e.problem(), ResultsFileError::Problem::would_overwrite);
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << "the library names no flag: " << e.what();
    }
    EXPECT_NO_THROW(PairRecords("", false));
    EXPECT_EQ(read_jsonl_lines(path).size(), 3u) << "a refused run must not touch the file";
    { std::ofstream(path, std::ios::app) << "{\"id\": 3, \"meth"; }  // torn line of an interrupted run
    PairRecords r(path, true, [](const nlohmann::json& j, std::size_t) { return j["method"] == "1wl"; });
    EXPECT_EQ(r.loaded(), 2u);
    EXPECT_TRUE(r.contains(0, 1));
    EXPECT_FALSE(r.contains(0, 2));
    EXPECT_TRUE(r.contains(7, 2)) << "the run of a record is its seed";
    r.add(0, 3, {{"id", 3}, {"method", "1wl"}});
    const auto lines = read_jsonl_lines(path);
    ASSERT_EQ(lines.size(), 4u) << "the torn line is dropped, the new record appended on a clean line";
    EXPECT_EQ(nlohmann::json::parse(lines.back())["id"], 3);
    std::remove(path.c_str());
}

TEST(PairRecords, CorruptLinesAndFilterRefusalsAreErrors) {
    const std::string path = temp_file("b.jsonl");
    { std::ofstream(path) << "{\"id\": 1}\nnot json\n{\"id\": 2}\n"; }
    try {
        PairRecords r(path, true);
        ADD_FAILURE() << "a corrupt middle line was accepted";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(":2"), std::string::npos) << e.what();
    }
    { std::ofstream(path) << "{\"id\": \"x\"}\n"; }
    EXPECT_THROW(PairRecords(path, true), ParseError);
    { std::ofstream(path) << "{\"id\": 1}\n"; }
    auto refuse = [](const nlohmann::json&, std::size_t line) -> bool {
        throw InvalidArgument("line " + std::to_string(line) + " made with other settings");
    };
    EXPECT_THROW(PairRecords(path, true, refuse), InvalidArgument);
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

TEST(PairRecords, ALastRecordWithoutItsNewlineIsKeptAndEndedBeforeAppending) {
    const std::string path = temp_file("c.jsonl");
    { std::ofstream(path) << "{\"id\": 1}\n\n{\"id\": 2}"; }
    {
        PairRecords r(path, true);
        EXPECT_EQ(r.loaded(), 2u);
        r.add(0, 3, {{"id", 3}});
    }
    const auto lines = read_jsonl_lines(path);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(nlohmann::json::parse(lines[1])["id"], 2);
    EXPECT_EQ(nlohmann::json::parse(lines[2])["id"], 3);
    // A torn last line is cut off the file itself, not only skipped.
    { std::ofstream(path, std::ios::app) << "{\"id\": 4, \"x"; }
    {
        PairRecords r(path, true);
        EXPECT_EQ(r.loaded(), 3u);
    }
    EXPECT_EQ(read_text_file(path).back(), '\n');
    EXPECT_EQ(read_text_file(path).find("\"x"), std::string::npos);
    std::remove(path.c_str());
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
    EXPECT_EQ(read_jsonl_lines(path).size(), 3u) << "every finished record is in the file, whole";
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
    EXPECT_EQ(read_jsonl_lines(path).size(), 3u);
    std::remove(path.c_str());
}

TEST(RepairJsonlTail, CutsATornLineAndEndsAnUnterminatedRecord) {
    const std::string path = temp_file("tail.jsonl");
    const std::string whole = "{\"id\": 1}\n{\"id\": 2}\n";
    // A record killed in the middle of its write: cut off, whole lines untouched.
    { std::ofstream(path, std::ios::binary) << whole << "{\"id\": 3, \"val"; }
    repair_jsonl_tail(path);
    EXPECT_EQ(read_text_file(path), whole);
    // Killed between a record and its newline: the record is whole and keeps its place.
    { std::ofstream(path, std::ios::binary) << whole << "{\"id\": 3}"; }
    repair_jsonl_tail(path);
    EXPECT_EQ(read_text_file(path), whole + "{\"id\": 3}\n");
    // Appending after the repair starts a line of its own.
    { std::ofstream(path, std::ios::binary | std::ios::app) << "{\"id\": 4}\n"; }
    EXPECT_EQ(read_jsonl_lines(path).size(), 4u);
    // Nothing to repair: a file ending with its newline, an empty file, a missing file.
    repair_jsonl_tail(path);
    EXPECT_EQ(split_lines(read_text_file(path)).size(), 4u);
    { std::ofstream(path, std::ios::binary | std::ios::trunc); }
    repair_jsonl_tail(path);
    EXPECT_EQ(read_text_file(path), "");
    // A first line torn: the file becomes empty.
    { std::ofstream(path, std::ios::binary) << "{\"id\""; }
    repair_jsonl_tail(path);
    EXPECT_EQ(read_text_file(path), "");
    std::remove(path.c_str());
    repair_jsonl_tail(path);
    EXPECT_FALSE(file_exists(path));
}

}  // namespace
}  // namespace brec
