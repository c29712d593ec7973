#include "brec/wl/wl.hpp"

#include <gtest/gtest.h>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pairs.hpp"
#include "common/test_graphs.hpp"
#include "common/wl_testing.hpp"

namespace brec {
namespace {

using testing::separates;
using testing::two_triangles;

TEST(WlMethodNames, ParseAndName) {
    EXPECT_EQ(WlMethod::parse("1wl").kind, WlKind::wl1);
    EXPECT_EQ(WlMethod::parse("3WL").kind, WlKind::kwl);
    EXPECT_EQ(WlMethod::parse("3wl").k, 3);
    EXPECT_EQ(WlMethod::parse("2fwl").kind, WlKind::kfwl);
    EXPECT_EQ(WlMethod::parse("kfwl:3").k, 3);
    EXPECT_EQ(WlMethod::parse("n:2").kind, WlKind::nk);
    EXPECT_EQ(WlMethod::parse("n:2").k, 2);
    for (const char* m : {"1wl", "2wl", "3wl", "1fwl", "2fwl", "3fwl", "spd", "gd", "s3", "s4", "n:1", "m1"})
        EXPECT_EQ(WlMethod::parse(WlMethod::parse(m).name()).name(), WlMethod::parse(m).name()) << m;
}

TEST(WlMethodNames, UnknownMethodListsTheKnownOnes) {
    try {
        WlMethod::parse("5wlx");
        FAIL();
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown WL method '5wlx'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("2fwl"), std::string::npos);
    }
    EXPECT_THROW(compare_pair(make_cycle(3), make_cycle(3), WlOptions(WlMethod::parse("kfwl:4"))), InvalidArgument);
}

TEST(ColorRefinement, TinyCases) {
    EXPECT_FALSE(separates("1wl", Graph(), Graph()));
    EXPECT_FALSE(separates("1wl", make_complete(1), make_complete(1)));
    EXPECT_TRUE(separates("1wl", make_complete(1), make_complete(2)));
    EXPECT_TRUE(separates("1wl", make_path(3), make_cycle(3)));
    const auto r = compare_pair(make_path(4), make_graph(4, {{0, 1}, {0, 2}, {0, 3}}), WlOptions());
    EXPECT_TRUE(r.distinguished);  // path vs star: degree histograms differ after one round
    EXPECT_EQ(r.rounds, 1);
}

TEST(ColorRefinement, CannotSeparateC6FromTwoTriangles) {
    const auto r = compare_pair(make_cycle(6), two_triangles(), WlOptions());
    EXPECT_FALSE(r.distinguished);
    EXPECT_EQ(r.rounds, 1);  // stable after one round: all vertices keep one colour
    // 2-FWL sees the triangles.
    EXPECT_TRUE(separates("2fwl", make_cycle(6), two_triangles()));
    EXPECT_TRUE(separates("3wl", make_cycle(6), two_triangles()));
}

// The round limit: 2-FWL needs R rounds to separate the CFI pair over K3; with R - 1 rounds it
// must not, and it must report exactly R - 1 rounds.
TEST(WlRounds, RoundLimitCutsRefinementShort) {
    const Graph a = testing::cfi_graph(make_complete(3), false), b = testing::cfi_graph(make_complete(3), true);
    const auto full = compare_pair(a, b, WlOptions(WlMethod::parse("2fwl")));
    ASSERT_TRUE(full.distinguished);
    ASSERT_GE(full.rounds, 2);
    const auto cut = compare_pair(a, b, WlOptions(WlMethod::parse("2fwl")).rounds(full.rounds - 1));
    EXPECT_FALSE(cut.distinguished);
    EXPECT_EQ(cut.rounds, full.rounds - 1);
    const auto exact = compare_pair(a, b, WlOptions(WlMethod::parse("2fwl")).rounds(full.rounds));
    EXPECT_TRUE(exact.distinguished);
    // 1-WL on two paths: P9 vs P4 + P5 differ in the degree histogram at once (round 0 has one
    // colour, round 1 sees the end points), while P9 vs C9 + ... : P9 and the 9-cycle are told apart
    // after one round as well; a long path against a cycle plus path needs more rounds.
    const Graph p12 = make_path(12);
    const Graph c6p6 = disjoint_union(make_cycle(6), make_path(6));
    // Same degree histogram (2 end points, 10 inner vertices); the end points of P6 are at distance
    // 5 from each other, those of P12 at 11: 1-WL needs several rounds to see it.
    const auto r = compare_pair(p12, c6p6, WlOptions());
    EXPECT_TRUE(r.distinguished);
    EXPECT_GE(r.rounds, 3);
    EXPECT_FALSE(compare_pair(p12, c6p6, WlOptions().rounds(r.rounds - 1)).distinguished);
}

TEST(ColorRefinement, RoundLimitStopsEarly) {
    // Paths of length 9 and a path 8 + isolated... : use P7 vs P3+P4 is separated by degree; use
    // two long paths differing only far from the ends: P10 vs (P5 + P5 joined differently) is
    // overkill; check that a round limit of 0 sees only the initial colours.
    const Graph p = make_path(7);
    const Graph q = disjoint_union(make_path(3), make_path(4));
    EXPECT_TRUE(separates("1wl", p, q));
    EXPECT_FALSE(compare_pair(p, make_cycle(7), WlOptions(WlMethod::parse("1wl")).rounds(0)).distinguished);
    const auto r = compare_pair(p, q, WlOptions(WlMethod::parse("1wl")).rounds(1));
    EXPECT_LE(r.rounds, 1);
}

TEST(ColorRefinement, EveryOfficialBrecPairIsIndistinguishable) {
    const auto ds = testing::read_brec_v3();
    ASSERT_EQ(ds.pairs.size(), 400u);
    for (const auto& p : ds.pairs) EXPECT_FALSE(separates("1wl", p.a, p.b)) << "pair " << p.id;
}

TEST(ColorRefinement, RefineSingleGraphIsInvariant) {
    Rng rng(3);
    const Graph g = testing::random_graph(20, 0.2, rng);
    const auto perm = rng.permutation(g.n());
    const auto a = refine_1wl(g), b = refine_1wl(permute(g, perm));
    for (VertexId v = 0; v < g.n(); ++v) EXPECT_EQ(a[v], b[perm[v]]);
    EXPECT_THROW(refine_1wl(g, {1, 2}), InvalidArgument);
}

// Known relations of the hierarchy on random small pairs: 1-WL = 2-WL, k-WL = (k-1)-FWL, and
// 1-FWL (with atomic types) = 1-WL. Pairs mix random graphs with equal (n, m) and random regular
// graphs of equal degree, so both outcomes occur often.
TEST(WlHierarchy, KnownEquivalencesOnRandomPairs) {
    Rng rng(42);
    int separated_by_2fwl = 0, not_separated_by_2fwl = 0, separated_by_1wl = 0;
    for (int trial = 0; trial < 240; ++trial) {
        Graph g, h;
        const VertexId n = static_cast<VertexId>(6 + rng.below(5));
        if (trial % 2 == 0) {
            const std::uint32_t d = (n % 2 == 0) ? 3 : 4;
            g = testing::random_regular(n, d, rng);
            h = testing::random_regular(n, d, rng);
        } else {
            g = testing::random_graph(n, 0.4, rng);
            h = testing::random_graph(n, 0.4, rng);
        }
        const bool w1 = separates("1wl", g, h);
        EXPECT_EQ(w1, separates("2wl", g, h)) << "1-WL vs 2-WL, trial " << trial;
        EXPECT_EQ(w1, separates("1fwl", g, h)) << "1-WL vs 1-FWL, trial " << trial;
        const bool f2 = separates("2fwl", g, h);
        EXPECT_EQ(f2, separates("3wl", g, h)) << "3-WL vs 2-FWL, trial " << trial;
        if (trial % 8 == 0) {
            EXPECT_TRUE(!f2 || separates("3fwl", g, h)) << "3-FWL weaker than 2-FWL";
        }
        EXPECT_TRUE(!w1 || f2) << "2-FWL must be at least as strong as 1-WL";
        separated_by_1wl += w1;
        separated_by_2fwl += f2;
        not_separated_by_2fwl += !f2;
    }
    // Both outcomes must occur, or the test proves nothing.
    EXPECT_GT(separated_by_2fwl, 20);
    EXPECT_GT(not_separated_by_2fwl, 5);
    EXPECT_GT(separated_by_1wl, 20);
}

TEST(WlHierarchy, RookGraphVersusShrikhande) {
    const Graph rook = testing::rook_4x4(), shr = testing::shrikhande();
    ASSERT_EQ(rook.m(), 48u);
    ASSERT_EQ(shr.m(), 48u);
    EXPECT_FALSE(separates("1wl", rook, shr));
    EXPECT_FALSE(separates("2fwl", rook, shr));  // both srg(16,6,2,2): 2-FWL sees only parameters
    EXPECT_FALSE(separates("3wl", rook, shr));
    EXPECT_TRUE(separates("3fwl", rook, shr));
    EXPECT_TRUE(separates("n:1", rook, shr));   // neighbourhoods: 2 triangles vs a 6-cycle
    EXPECT_FALSE(separates("spd", rook, shr));  // both have diameter 2 with identical SPD profile
}

// CFI theory (Cai, Fürer, Immerman 1992; Dawar & Richerby; Neuen 2023): (k-1)-FWL (= k-WL)
// distinguishes the untwisted from the twisted CFI graph over a connected base graph B iff
// tw(B) <= k-1, i.e. 2-FWL separates CFI pairs over bases of treewidth 2 and 3-FWL those of
// treewidth <= 3; 1-WL separates none of these (all bases here have treewidth >= 2).
TEST(WlHierarchy, CfiPairsFollowTreewidth) {
    const Graph k3 = make_complete(3), c5 = make_cycle(5), k4 = make_complete(4), k5 = make_complete(5);
    for (const Graph* base : {&k3, &c5}) {  // treewidth 2
        const Graph a = testing::cfi_graph(*base, false), b = testing::cfi_graph(*base, true);
        EXPECT_FALSE(separates("1wl", a, b));
        EXPECT_TRUE(separates("2fwl", a, b));
    }
    {  // K4: treewidth 3
        const Graph a = testing::cfi_graph(k4, false), b = testing::cfi_graph(k4, true);
        ASSERT_EQ(a.n(), 40u);  // 4 * (2^2 + 2*3)
        EXPECT_FALSE(separates("1wl", a, b));
        EXPECT_FALSE(separates("2fwl", a, b));
        EXPECT_TRUE(separates("3fwl", a, b));
        EXPECT_EQ(certify_hardness(a, b).level, Hardness::fwl3);
    }
    {  // K5: treewidth 4
        const Graph a = testing::cfi_graph(k5, false), b = testing::cfi_graph(k5, true);
        ASSERT_EQ(a.n(), 80u);
        EXPECT_FALSE(separates("2fwl", a, b));
        EXPECT_FALSE(separates("3fwl", a, b));
        EXPECT_EQ(certify_hardness(a, b).level, Hardness::beyond);
    }
    const Graph a = testing::cfi_graph(k3, false), b = testing::cfi_graph(k3, true);
    EXPECT_EQ(certify_hardness(a, b).level, Hardness::fwl2);
}

// More base graphs. The lower bound (Dawar & Richerby 2007) and the upper bound (k-FWL determines
// homomorphism counts from every graph of treewidth <= k, Dvořák 2010 / Dell, Grohe, Rattan 2018,
// and the counts from B itself differ, Roberson 2022) give: for a connected base graph B, k-FWL
// separates the CFI pair over B iff tw(B) <= k. So: a tree (treewidth 1) is separated already by
// 1-WL, the 8-cycle (treewidth 2) by 2-FWL but not 1-WL, and K_{3,3} and the triangular prism
// (treewidth 3) by 3-FWL but not by 2-FWL (= 3-WL).
TEST(WlHierarchy, CfiPairsOverMoreBaseGraphs) {
    const Graph star = make_graph(4, {{0, 1}, {0, 2}, {0, 3}});
    {
        const Graph a = testing::cfi_graph(star, false), b = testing::cfi_graph(star, true);
        EXPECT_TRUE(separates("1wl", a, b));
        EXPECT_TRUE(separates("2fwl", a, b));
    }
    {
        const Graph a = testing::cfi_graph(make_cycle(8), false), b = testing::cfi_graph(make_cycle(8), true);
        EXPECT_FALSE(separates("1wl", a, b));
        EXPECT_TRUE(separates("2fwl", a, b));
    }
    std::vector<Edge> k33, prism = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}};
    for (VertexId i = 0; i < 3; ++i)
        for (VertexId j = 3; j < 6; ++j) k33.emplace_back(i, j);
    for (const Graph& base : {make_graph(6, k33), make_graph(6, prism)}) {
        const Graph a = testing::cfi_graph(base, false), b = testing::cfi_graph(base, true);
        ASSERT_EQ(a.n(), 60u);  // 6 vertices of degree 3: 2*3 + 4 vertices each
        EXPECT_FALSE(separates("1wl", a, b));
        EXPECT_FALSE(separates("2fwl", a, b));
        EXPECT_FALSE(separates("3wl", a, b));
        EXPECT_TRUE(separates("3fwl", a, b));
    }
}

class NoMethodSeparatesRelabelings : public ::testing::TestWithParam<std::string> {};

TEST_P(NoMethodSeparatesRelabelings, RandomGraphs) {
    Rng rng(99);
    for (int trial = 0; trial < 12; ++trial) {
        const Graph g = testing::random_graph(static_cast<VertexId>(5 + rng.below(8)), 0.35, rng);
        const Graph h = permute(g, rng.permutation(g.n()));
        if (GetParam() == "gd" && !is_connected(g)) continue;
        EXPECT_FALSE(separates(GetParam(), g, h)) << GetParam() << " trial " << trial;
    }
}

INSTANTIATE_TEST_SUITE_P(AllMethods, NoMethodSeparatesRelabelings,
                         ::testing::Values("1wl", "2wl", "3wl", "1fwl", "2fwl", "3fwl", "spd", "gd", "s3", "s4", "n:1",
                                           "n:2", "m1"),
                         [](const auto& info) {
                             std::string s = info.param;
                             for (char& c : s)
                                 if (c == ':') c = '_';
                             return s;
                         });

// The benchmark's reliability check on real data: a graph of every category against a random
// relabeling of itself is never separated (cheap methods on all categories, 2-FWL on small ones).
TEST(NoMethodSeparatesRelabelings, OfficialBrecGraphs) {
    Rng rng(2024);
    // 20 pairs across all categories.
    for (const auto& r : testing::brec_relabellings(rng, testing::PairSide::b, 20, 7)) {
        for (const char* m : {"1wl", "spd", "s3", "s4", "n:1", "m1"})
            EXPECT_FALSE(separates(m, r.graph, r.relabelled)) << m << " pair " << r.id;
        if (is_connected(r.graph)) {
            EXPECT_FALSE(separates("gd", r.graph, r.relabelled)) << "gd pair " << r.id;
        }
        if (r.graph.n() <= 40) {
            EXPECT_FALSE(separates("2fwl", r.graph, r.relabelled)) << "2fwl pair " << r.id;
        }
    }
}

TEST(Baselines, SubgraphCountsSeparateC6FromTwoTriangles) {
    EXPECT_TRUE(separates("s3", make_cycle(6), two_triangles()));
    EXPECT_TRUE(separates("spd", make_cycle(6), two_triangles()));
    EXPECT_TRUE(separates("m1", make_cycle(6), two_triangles()));
    EXPECT_TRUE(separates("n:1", make_cycle(6), two_triangles()));
}

TEST(Baselines, ResistanceDistanceNeedsConnectedGraphs) {
    EXPECT_THROW(separates("gd", make_cycle(6), two_triangles()), Unsupported);
    // Connected but 1-WL-equivalent: two non-isomorphic 3-regular graphs on 8 vertices
    // (the cube Q3 and the Wagner graph / Möbius ladder M8); resistance distances differ.
    std::vector<Edge> cube, wagner;
    for (VertexId v = 0; v < 8; ++v)
        for (int bit = 0; bit < 3; ++bit) {
            const VertexId w = v ^ (1u << bit);
            if (v < w) cube.emplace_back(v, w);
        }
    for (VertexId v = 0; v < 8; ++v) {
        wagner.emplace_back(v, (v + 1) % 8);
        if (v < 4) wagner.emplace_back(v, v + 4);
    }
    const Graph q3 = make_graph(8, cube), m8 = make_graph(8, wagner);
    EXPECT_FALSE(separates("1wl", q3, m8));
    EXPECT_TRUE(separates("gd", q3, m8));
}

}  // namespace
}  // namespace brec
