#include "brec/count/patterns.hpp"

#include <gtest/gtest.h>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

std::uint64_t total(const PatternCounts& c, Pattern p) { return c.total[static_cast<int>(p)]; }

TEST(PatternCounts, EmptyAndTinyGraphs) {
    const auto empty = count_patterns(Graph());
    for (auto x : empty.total) EXPECT_EQ(x, 0u);
    const auto single = count_patterns(make_complete(1));
    for (auto x : single.total) EXPECT_EQ(x, 0u);
}

TEST(PatternCounts, CompleteGraphK4HasOneCliqueAndFourTriangles) {
    const auto c = count_patterns(make_complete(4));
    EXPECT_EQ(total(c, Pattern::clique4), 1u);
    EXPECT_EQ(total(c, Pattern::triangle), 4u);
    EXPECT_EQ(total(c, Pattern::path2), 0u);  // induced: every 3-set of K4 is a triangle
    EXPECT_EQ(total(c, Pattern::diamond), 0u);
    for (VertexId v = 0; v < 4; ++v) EXPECT_EQ(c.per_node[v][static_cast<int>(Pattern::triangle)], 3u);
}

TEST(PatternCounts, CyclesAndPaths) {
    const auto c4 = count_patterns(make_cycle(4));
    EXPECT_EQ(total(c4, Pattern::cycle4), 1u);
    EXPECT_EQ(total(c4, Pattern::path2), 4u);
    const auto c6 = count_patterns(make_cycle(6));
    EXPECT_EQ(total(c6, Pattern::path3), 6u);
    EXPECT_EQ(total(c6, Pattern::cycle4), 0u);
    const auto p5 = count_patterns(make_path(5));
    EXPECT_EQ(total(p5, Pattern::path2), 3u);
    EXPECT_EQ(total(p5, Pattern::path3), 2u);
}

TEST(PatternCounts, PetersenHasNoTrianglesOrFourCycles) {
    const auto c = count_patterns(make_petersen());
    EXPECT_EQ(total(c, Pattern::triangle), 0u);
    EXPECT_EQ(total(c, Pattern::cycle4), 0u);
    EXPECT_EQ(total(c, Pattern::path2), 30u);  // 10 vertices x C(3,2)
    EXPECT_EQ(total(c, Pattern::star3), 10u);  // 10 vertices x C(3,3)
}

// Each 4-vertex pattern on its own: exactly one occurrence of itself, and its 3-vertex subsets.
// This pins the normalisation factors of the edge iteration pattern by pattern.
TEST(PatternCounts, EachPatternTemplateContainsItselfOnce) {
    struct Case {
        Pattern p;
        std::vector<Edge> edges;
        std::uint64_t triangles, paths;
    };
    const std::vector<Case> cases = {
        {Pattern::path3, {{0, 1}, {1, 2}, {2, 3}}, 0, 2},
        {Pattern::star3, {{0, 1}, {0, 2}, {0, 3}}, 0, 3},
        {Pattern::cycle4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 0, 4},
        {Pattern::tailed_triangle, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}, 1, 2},
        {Pattern::diamond, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}}, 2, 2},
        {Pattern::clique4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}, 4, 0},
    };
    for (const auto& c : cases) {
        const auto counts = count_patterns(make_graph(4, c.edges));
        for (int p = kNumPatterns3; p < kNumPatterns; ++p)
            EXPECT_EQ(counts.total[p], p == static_cast<int>(c.p) ? 1u : 0u) << pattern_name(c.p);
        EXPECT_EQ(total(counts, Pattern::triangle), c.triangles) << pattern_name(c.p);
        EXPECT_EQ(total(counts, Pattern::path2), c.paths) << pattern_name(c.p);
        for (VertexId v = 0; v < 4; ++v) EXPECT_EQ(counts.per_node[v][static_cast<int>(c.p)], 1u);
    }
}

TEST(PatternCounts, MatchesBruteForceOnLargerSparseAndDenseGraphs) {
    Rng rng(5);
    for (const auto& [n, p] : std::vector<std::pair<VertexId, double>>{{40, 0.05}, {40, 0.15}, {30, 0.5}, {25, 0.9}}) {
        const Graph g = testing::random_graph(n, p, rng);
        const auto fast = count_patterns(g), slow = count_patterns_brute_force(g);
        EXPECT_EQ(fast.total, slow.total) << "n=" << n << " p=" << p;
        EXPECT_EQ(fast.per_node, slow.per_node) << "n=" << n << " p=" << p;
    }
}

TEST(PatternCounts, MatchesBruteForceOnRandomGraphs) {
    Rng rng(20261122);
    for (int trial = 0; trial < 60; ++trial) {
        const VertexId n = static_cast<VertexId>(4 + rng.below(14));
        const double p = 0.1 + 0.8 * rng.uniform();
        const Graph g = testing::random_graph(n, p, rng);
        const auto fast = count_patterns(g, 4);
        const auto slow = count_patterns_brute_force(g, 4);
        ASSERT_EQ(fast.total, slow.total) << "n=" << n << " p=" << p;
        ASSERT_EQ(fast.per_node, slow.per_node) << "n=" << n << " p=" << p;
        const auto fast3 = count_patterns(g, 3);
        EXPECT_EQ(fast3.total[0], slow.total[0]);
        EXPECT_EQ(fast3.total[1], slow.total[1]);
        EXPECT_EQ(fast3.total[static_cast<int>(Pattern::clique4)], 0u);
    }
}

TEST(PatternCounts, InvariantUnderRelabeling) {
    Rng rng(7);
    const Graph g = testing::random_graph(15, 0.4, rng);
    const auto perm = rng.permutation(g.n());
    const auto a = count_patterns(g), b = count_patterns(permute(g, perm));
    EXPECT_EQ(a.total, b.total);
    for (VertexId v = 0; v < g.n(); ++v) EXPECT_EQ(a.per_node[v], b.per_node[perm[v]]);
}

TEST(PatternCounts, NamesRoundTripAndUnknownNameIsRejected) {
    for (int p = 0; p < kNumPatterns; ++p)
        EXPECT_EQ(parse_pattern(pattern_name(static_cast<Pattern>(p))), static_cast<Pattern>(p));
    try {
        parse_pattern("pentagon");
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown pattern 'pentagon'"), std::string::npos);
    }
}

}  // namespace
}  // namespace brec
