#include "brec/io/collection.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <functional>

#include "brec/core/error.hpp"
#include "brec/io/graph6.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

const std::string kData = std::string(BREC_SOURCE_DIR) + "/tests/data/";
const std::string kBrec = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";

std::string tmp(const std::string& name) { return ::testing::TempDir() + "brec_coll_" + std::to_string(::getpid()) + "_" + name; }

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Npy, ReadsUnicodeAndByteArraysOfGraph6) {
    const auto brec = read_pair_file(kBrec);
    // Fixtures written by numpy: the first three official pairs, as a (6,) '<U' array and a
    // (3, 2) '|S' array.
    const auto u = read_npy_strings(kData + "brec_first3_U.npy");
    EXPECT_EQ(u.shape, (std::vector<std::size_t>{6}));
    EXPECT_EQ(u.values[0], to_graph6(brec.pairs[0].a));
    const auto s = read_npy_strings(kData + "brec_first3_S.npy");
    EXPECT_EQ(s.shape, (std::vector<std::size_t>{3, 2}));
    EXPECT_EQ(s.values, u.values);
    const GraphCollection c = read_npy_pairs(kData + "brec_first3_S.npy");
    ASSERT_EQ(c.pair_ids.size(), 3u);
    EXPECT_EQ(c.graphs[5], brec.pairs[2].b);
    EXPECT_NE(error_of([&] { read_npy_strings(kData + "objects.npy"); }).find("astype(str)"), std::string::npos);
    EXPECT_NE(error_of([&] { read_npy_strings(kBrec); }).find("bad magic"), std::string::npos);
    EXPECT_NE(error_of([&] { read_npy_pairs(kData + "brec_first3_U.npy", 4); }).find("do not split"), std::string::npos);
}

TEST(EdgeLists, RoundTripAndErrors) {
    Rng rng(1);
    std::vector<Graph> graphs{testing::random_graph(7, 0.4, rng), GraphBuilder(3).build(), make_petersen()};
    for (bool one_based : {false, true}) {
        const std::string path = tmp(one_based ? "one.el" : "zero.el");
        std::ofstream(path) << format_edge_lists(graphs, one_based);
        EXPECT_EQ(read_edge_lists(path, one_based), graphs);
    }
    const std::string single = tmp("single.el");
    std::ofstream(single) << "# a path\n0 1\n1 2\n";
    EXPECT_EQ(read_edge_lists(single), std::vector<Graph>{make_path(3)});
    const std::string bad = tmp("bad.el");
    std::ofstream(bad) << "0 1\n1 x\n";
    EXPECT_NE(error_of([&] { read_edge_lists(bad); }).find("bad.el:2: expected integer vertex ids"), std::string::npos);
    std::ofstream(bad) << "n 2\n0 5\n";
    EXPECT_NE(error_of([&] { read_edge_lists(bad); }).find("out of range"), std::string::npos);
    std::ofstream(bad) << "1 0\n0 -1\n";
    EXPECT_NE(error_of([&] { read_edge_lists(bad); }).find(":2: negative vertex id"), std::string::npos);
}

TEST(Collections, PairsThroughEveryFormatComeBackIdentical) {
    const GraphCollection brec = read_collection(kBrec, GraphFormat::pairs);
    ASSERT_EQ(brec.graphs.size(), 800u);
    for (GraphFormat f : {GraphFormat::graph6, GraphFormat::sparse6, GraphFormat::edgelist, GraphFormat::tu}) {
        const std::string path = tmp("all_" + format_name(f));
        write_collection(path, f, brec);
        EXPECT_EQ(detect_format(path), f == GraphFormat::graph6 ? GraphFormat::graph6 : f) << format_name(f);
        const GraphCollection back = read_collection(path, f);
        EXPECT_EQ(back.graphs, brec.graphs) << format_name(f);
    }
    const std::string json = tmp("brec.json");
    write_collection(json, GraphFormat::json, brec);
    const auto j = nlohmann::json::parse(std::ifstream(json));
    EXPECT_EQ(j["pairs"].size(), 400u);
    EXPECT_EQ(j["pairs"][0]["a"]["n"], 10);
    EXPECT_EQ(parse_format("s6"), GraphFormat::sparse6);
    EXPECT_THROW(parse_format("xml"), InvalidArgument);
}

}  // namespace
}  // namespace brec
