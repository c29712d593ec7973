// describe_pairs (what `brec info` reports) on a small hand-made pair dataset whose every number is
// known: sizes and parameter labels per category, repeated graphs, isomorphic pairs, and the JSON
// and text forms.
#include "brec/dedup/dataset_info.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "brec/graph/graph.hpp"
#include "common/test_graphs.hpp"
#include "common/test_pairs.hpp"

namespace brec {
namespace {

/// The 3-cube Q3: vertices adjacent when their labels differ in one bit. Distance-regular,
/// intersection array {3,2,1;1,2,3}.
Graph cube() {
    std::vector<Edge> e;
    for (VertexId v = 0; v < 8; ++v)
        for (VertexId bit = 1; bit < 8; bit <<= 1)
            if ((v ^ bit) > v) e.emplace_back(v, v ^ bit);
    return make_graph(8, e);
}

/// The Wagner graph: the 8-cycle plus its 4 long diagonals. Cubic, diameter 2, not strongly
/// regular (vertices at distance 2 share 1 or 2 neighbours) nor distance-regular.
Graph wagner() {
    std::vector<Edge> e;
    for (VertexId v = 0; v < 8; ++v) e.emplace_back(v, (v + 1) % 8);
    for (VertexId v = 0; v < 4; ++v) e.emplace_back(v, v + 4);
    GraphBuilder b(8);
    for (auto [u, v] : e) b.add_edge(u, v);
    return b.build();
}

Graph paw() { return make_graph(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}); }
Graph k33() { return make_graph(6, {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}}); }
/// The triangular prism C3 x K2: cubic, triangle edges lie in one triangle, rungs in none.
Graph prism() { return make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {0, 3}, {1, 4}, {2, 5}}); }

/// Six pairs: ids 1-2 basic (K4 vs K4 relabelled: an isomorphic pair; the paw vs P4), 3
/// strongly_regular (rook 4x4 vs Shrikhande), 4-5 regular (cube vs Wagner, prism vs K3,3), 6 cfi
/// (C4 vs P4 relabelled: 6b repeats 2b; only one side regular). The fewest edges of basic and cfi
/// are on side b of a pair, in basic of its second pair.
PairDataset dataset() {
    PairDataset ds;
    ds.path = "hand.tsv";
    ds.pairs.push_back(testing::make_pair_record(1, "basic", make_complete(4),
                                                 make_graph(4, {{3, 2}, {3, 1}, {3, 0}, {2, 1}, {2, 0}, {1, 0}})));
    ds.pairs.push_back(testing::make_pair_record(2, "basic", paw(), make_path(4)));
    ds.pairs.push_back(testing::make_pair_record(3, "strongly_regular", testing::rook_4x4(), testing::shrikhande()));
    ds.pairs.push_back(testing::make_pair_record(4, "regular", cube(), wagner()));
    ds.pairs.push_back(testing::make_pair_record(5, "regular", prism(), k33()));
    ds.pairs.push_back(testing::make_pair_record(6, "cfi", make_cycle(4),
                                                 make_graph(4, {{2, 0}, {0, 3}, {3, 1}})));  // the path 2-0-3-1
    return ds;
}

const CategoryInfo& category(const DatasetInfo& info, const std::string& name) {
    for (const auto& c : info.categories)
        if (c.name == name) return c;
    throw std::runtime_error("no category " + name);
}

DatasetInfo describe_all(int threads = 1) {
    RunContext ctx;
    ctx.set_threads(threads);
    return describe_pairs(dataset(), {0, 1, 2, 3, 4, 5}, ctx);
}

TEST(DescribePairs, SizesAndParametersPerCategory) {
    const DatasetInfo info = describe_all();
    EXPECT_EQ(info.path, "hand.tsv");
    EXPECT_EQ(info.pairs, 6u);
    EXPECT_EQ(info.graphs, 12u);
    ASSERT_EQ(info.categories.size(), 4u);
    EXPECT_EQ(info.categories[0].name, "basic");  // order of first appearance
    EXPECT_EQ(info.categories[1].name, "strongly_regular");
    EXPECT_EQ(info.categories[2].name, "regular");
    EXPECT_EQ(info.categories[3].name, "cfi");

    const CategoryInfo& basic = category(info, "basic");
    EXPECT_EQ(basic.pairs, 2u);
    EXPECT_EQ(basic.first_id, 1u);
    EXPECT_EQ(basic.last_id, 2u);
    EXPECT_EQ(basic.min_n, 4u);
    EXPECT_EQ(basic.max_n, 4u);
    EXPECT_EQ(basic.min_m, 3u);  // P4
    EXPECT_EQ(basic.max_m, 6u);  // K4
    EXPECT_EQ(basic.connected_graphs, 4u);
    EXPECT_EQ(basic.regular_graphs, 2u);  // the two K4
    // K4 is complete: neither strongly regular (k = n - 1) nor distance-regular of diameter >= 3.
    EXPECT_EQ(basic.parameters, (std::map<std::string, std::size_t>{{"(n,k)=(4,3)", 1}}));

    const CategoryInfo& srg = category(info, "strongly_regular");
    EXPECT_EQ(srg.pairs, 1u);
    EXPECT_EQ(srg.min_n, 16u);
    EXPECT_EQ(srg.max_n, 16u);
    EXPECT_EQ(srg.min_m, 48u);  // 16 * 6 / 2
    EXPECT_EQ(srg.max_m, 48u);
    EXPECT_EQ(srg.connected_graphs, 2u);
    EXPECT_EQ(srg.regular_graphs, 2u);
    // 16 vertices: the 4-vertex constants are reported only above 16.
    EXPECT_EQ(srg.parameters, (std::map<std::string, std::size_t>{{"srg(16,6,2,2)", 1}}));

    const CategoryInfo& reg = category(info, "regular");
    EXPECT_EQ(reg.pairs, 2u);
    EXPECT_EQ(reg.first_id, 4u);
    EXPECT_EQ(reg.last_id, 5u);
    EXPECT_EQ(reg.min_n, 6u);
    EXPECT_EQ(reg.max_n, 8u);
    EXPECT_EQ(reg.min_m, 9u);
    EXPECT_EQ(reg.max_m, 12u);
    EXPECT_EQ(reg.connected_graphs, 4u);
    EXPECT_EQ(reg.regular_graphs, 4u);
    // Mixed labels show both sides: the cube is distance-regular (diameter 3), Wagner is not; K3,3
    // is srg(6,3,0,3), the prism is not.
    EXPECT_EQ(reg.parameters, (std::map<std::string, std::size_t>{{"drg{3,2,1;1,2,3} | (n,k)=(8,3)", 1},
                                                                  {"(n,k)=(6,3) | srg(6,3,0,3)", 1}}));

    const CategoryInfo& cfi = category(info, "cfi");
    EXPECT_EQ(cfi.pairs, 1u);
    EXPECT_EQ(cfi.min_m, 3u);  // side b
    EXPECT_EQ(cfi.max_m, 4u);
    EXPECT_EQ(cfi.connected_graphs, 2u);
    EXPECT_EQ(cfi.regular_graphs, 1u);  // C4, not P4
    // Only the regular side has a label: C4 = K2,2 is srg(4,2,0,2). (How the empty side shows in
    // the mixed label is left open here.)
    ASSERT_EQ(cfi.parameters.size(), 1u);
    const std::string label = cfi.parameters.begin()->first;
    EXPECT_EQ(label.rfind("srg(4,2,0,2)", 0), 0u) << label;
    EXPECT_EQ(cfi.parameters.begin()->second, 1u);
}

TEST(DescribePairs, RepeatedGraphsAndIsomorphicPairs) {
    for (int threads : {1, 3}) {
        const DatasetInfo info = describe_all(threads);
        ASSERT_EQ(info.repeated.size(), 2u) << threads;
        // K4 as both sides of pair 1; P4 as 2b and relabelled as 6b. Sorted by occurrences.
        EXPECT_EQ(info.repeated[0].occurrences, (std::vector<std::pair<PairId, char>>{{1, 'a'}, {1, 'b'}}));
        EXPECT_EQ(info.repeated[1].occurrences, (std::vector<std::pair<PairId, char>>{{2, 'b'}, {6, 'b'}}));
        EXPECT_EQ(info.isomorphic_pairs, (std::vector<PairId>{1}));
        EXPECT_EQ(info.warnings,
                  (std::vector<std::string>{"the same graph (up to isomorphism) occurs 2 times: pairs 1a, 1b",
                                            "the same graph (up to isomorphism) occurs 2 times: pairs 2b, 6b",
                                            "pair 1: its two graphs are isomorphic"}));
    }
    // Only the selected pairs count: without pair 6 (index 5), 2b is no longer repeated.
    RunContext ctx;
    const DatasetInfo some = describe_pairs(dataset(), {0, 1, 3}, ctx);
    EXPECT_EQ(some.pairs, 3u);
    ASSERT_EQ(some.repeated.size(), 1u);
    EXPECT_EQ(some.repeated[0].occurrences, (std::vector<std::pair<PairId, char>>{{1, 'a'}, {1, 'b'}}));
    EXPECT_EQ(some.categories.size(), 2u);
    EXPECT_EQ(category(some, "regular").pairs, 1u);
    EXPECT_EQ(category(some, "regular").max_n, 8u);
}

TEST(DescribePairs, ProgressAndCancellation) {
    RunContext ctx;
    std::vector<std::size_t> done;
    ctx.set_progress([&](const Progress& p) {
        EXPECT_EQ(p.task, "info");
        EXPECT_EQ(p.total, 6u);
        done.push_back(p.done);
    });
    describe_pairs(dataset(), {0, 1, 2, 3, 4, 5}, ctx);
    EXPECT_EQ(done, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6}));
    RunContext cancelled;
    cancelled.cancel();
    EXPECT_THROW(describe_pairs(dataset(), {0, 1}, cancelled), Cancelled);
}

TEST(DescribePairs, JsonAndText) {
    const DatasetInfo info = describe_all();
    const nlohmann::json j = to_json(info);
    EXPECT_EQ(j["command"], "info");
    EXPECT_EQ(j["dataset"], "hand.tsv");
    EXPECT_EQ(j["pairs"], 6);
    EXPECT_EQ(j["graphs"], 12);
    EXPECT_EQ(j["categories"].size(), 4u);
    EXPECT_EQ(j["categories"]["regular"], nlohmann::json::parse(R"js({
        "pairs": 2, "ids": [4, 5], "nodes": [6, 8], "edges": [9, 12], "connected_graphs": 4,
        "regular_graphs": 4,
        "parameters": {"(n,k)=(6,3) | srg(6,3,0,3)": 1, "drg{3,2,1;1,2,3} | (n,k)=(8,3)": 1}})js"));
    EXPECT_EQ(j["categories"]["cfi"]["edges"], nlohmann::json::parse("[3, 4]"));
    EXPECT_EQ(j["categories"]["cfi"]["regular_graphs"], 1);
    EXPECT_EQ(j["repeated_graphs"], nlohmann::json::parse(R"([["1a", "1b"], ["2b", "6b"]])"));
    EXPECT_EQ(j["isomorphic_pairs"], nlohmann::json::parse("[1]"));

    const std::string text = dataset_info_text(info);
    EXPECT_EQ(text.rfind("dataset: hand.tsv\n6 pairs, 12 graphs\n", 0), 0u) << text;
    // The table row of basic: ids, pairs, node and edge ranges, connected and regular of 2 * pairs.
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream cells(line);
        std::vector<std::string> row;
        for (std::string c; cells >> c;) row.push_back(c);
        if (row.size() == 7) rows[row[0]] = row;
    }
    EXPECT_EQ(rows["basic"], (std::vector<std::string>{"basic", "1-2", "2", "4-4", "3-6", "4/4", "2/4"})) << text;
    EXPECT_EQ(rows["cfi"], (std::vector<std::string>{"cfi", "6-6", "1", "4-4", "3-4", "2/2", "1/2"})) << text;
    EXPECT_NE(text.find("  strongly_regular:\n    srg(16,6,2,2) x1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nrepeated graphs: 2\n  1a 1b\n  2b 6b\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace brec
