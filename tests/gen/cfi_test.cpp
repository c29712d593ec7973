// CFI graphs and exact treewidth: sizes from the formula, agreement with the independent textbook
// construction in tests/common, and the WL hierarchy of Cai-Fürer-Immerman / Dawar-Richerby:
// (k-1)-FWL separates CFI(B) from its twist iff tw(B) <= k-1.
#include "brec/gen/cfi.hpp"

#include <gtest/gtest.h>

#include "brec/core/error.hpp"
#include "brec/gen/constructions.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/iso/iso.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"
#include "gen/gen_test_util.hpp"

namespace brec {
namespace {

using gentest::separates;

Graph complete_bipartite(VertexId a, VertexId b) {
    std::vector<Edge> e;
    for (VertexId i = 0; i < a; ++i)
        for (VertexId j = 0; j < b; ++j) e.push_back({i, a + j});
    return make_graph(a + b, e);
}

Graph grid(VertexId r, VertexId c) { return cartesian_product(make_path(r), make_path(c)); }

TEST(Treewidth, KnownValues) {
    EXPECT_EQ(treewidth(Graph()), 0u);
    EXPECT_EQ(treewidth(make_graph(3, {})), 0u);
    EXPECT_EQ(treewidth(make_path(6)), 1u);
    EXPECT_EQ(treewidth(make_cycle(7)), 2u);
    for (VertexId n = 2; n <= 8; ++n) EXPECT_EQ(treewidth(make_complete(n)), n - 1) << n;
    EXPECT_EQ(treewidth(complete_bipartite(3, 3)), 3u);
    EXPECT_EQ(treewidth(complete_bipartite(2, 5)), 2u);
    EXPECT_EQ(treewidth(grid(3, 3)), 3u);
    EXPECT_EQ(treewidth(grid(4, 4)), 4u);
    EXPECT_EQ(treewidth(make_petersen()), 4u);
    EXPECT_THROW(treewidth(make_cycle(21)), InvalidArgument);
}

TEST(Cfi, SizesFollowTheFormula) {
    // sum_v (2^(d-1) + 2d) vertices, sum_v d 2^(d-1) + 2|E| edges: per base vertex of degree d,
    // 2^(d-1) middle vertices of degree d and 2d end vertices, plus two edges per base edge.
    const std::vector<std::pair<Graph, std::uint64_t>> cases = {
        {make_complete(3), 18},         {make_complete(4), 40},  {make_cycle(5), 30},   {make_complete(5), 80},
        {complete_bipartite(3, 3), 60}, {make_complete(6), 156}, {make_petersen(), 100}};
    for (const auto& [base, n] : cases) {
        EXPECT_EQ(cfi_size(base), n);
        for (bool twisted : {false, true}) {
            const Graph g = cfi_graph(base, twisted);
            EXPECT_EQ(g.n(), n);
            std::uint64_t m = 2 * base.m();
            for (VertexId v = 0; v < base.n(); ++v) m += base.degree(v) * (std::uint64_t{1} << (base.degree(v) - 1));
            EXPECT_EQ(g.m(), m);
        }
    }
}

TEST(Cfi, MatchesTheTextbookConstruction) {
    for (const Graph& base : {make_complete(3), make_complete(4), complete_bipartite(2, 3), make_petersen()})
        for (bool twisted : {false, true})
            EXPECT_TRUE(are_isomorphic(cfi_graph(base, twisted), testing::cfi_graph(base, twisted)));
}

TEST(Cfi, OnlyTheParityOfTwistsMatters) {
    // The diamond (K4 minus {2,3}) is not edge-transitive. Relabelling it moves the twisted edge 0
    // from the middle edge {0,1} to a side edge; for a connected base the result is isomorphic.
    const Graph diamond = make_graph(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}});
    const Permutation perm = {2, 0, 1, 3};  // old side edge {1,2} becomes the new edge {0,1}
    const Graph moved = permute(diamond, perm);
    ASSERT_TRUE(moved.has_edge(0, 1));
    EXPECT_EQ(moved.degree(0) + moved.degree(1), 5u);  // a side edge: degrees 3 and 2
    EXPECT_TRUE(are_isomorphic(cfi_graph(diamond, true), cfi_graph(moved, true)));
    EXPECT_TRUE(are_isomorphic(cfi_graph(diamond, false), cfi_graph(moved, false)));
    EXPECT_FALSE(are_isomorphic(cfi_graph(diamond, false), cfi_graph(moved, true)));
}

TEST(Cfi, OverK3IsTwoCyclesVersusOneAndTwoFwlSeparatesIt) {
    const Graph a = cfi_graph(make_complete(3), false), b = cfi_graph(make_complete(3), true);
    ASSERT_EQ(a.n(), 18u);
    EXPECT_TRUE(a.is_regular());
    EXPECT_EQ(a.degree(0), 2u);
    std::uint32_t ca = 0, cb = 0;
    connected_components(a, &ca);
    connected_components(b, &cb);
    EXPECT_EQ(ca, 2u);  // two 9-cycles
    EXPECT_EQ(cb, 1u);  // one 18-cycle
    EXPECT_TRUE(are_isomorphic(b, make_cycle(18)));
    EXPECT_TRUE(wl1_equivalent(a, b));
    EXPECT_TRUE(separates("2fwl", a, b));  // tw(K3) = 2
    const auto h = certify_hardness(a, b);
    EXPECT_EQ(h.level, Hardness::fwl2);
}

TEST(Cfi, OverK4NeedsThreeFwl) {
    const Graph a = cfi_graph(make_complete(4), false), b = cfi_graph(make_complete(4), true);
    ASSERT_EQ(a.n(), 40u);
    EXPECT_NE(canonical_certificate(a), canonical_certificate(b));
    EXPECT_TRUE(wl1_equivalent(a, b));
    EXPECT_FALSE(separates("2fwl", a, b));  // tw(K4) = 3 > 2
    EXPECT_TRUE(separates("3fwl", a, b));   // tw(K4) = 3 <= 3
}

TEST(Cfi, TreewidthTwoBasesAreSeparatedByTwoFwl) {
    for (const Graph& base : {make_cycle(5), make_cycle(6), complete_bipartite(2, 3)}) {
        ASSERT_EQ(treewidth(base), 2u);
        const Graph a = cfi_graph(base, false), b = cfi_graph(base, true);
        EXPECT_NE(canonical_certificate(a), canonical_certificate(b));
        EXPECT_TRUE(wl1_equivalent(a, b));
        EXPECT_TRUE(separates("2fwl", a, b));
    }
    // tw(K3,3) = 3: 2-FWL fails.
    EXPECT_FALSE(
        separates("2fwl", cfi_graph(complete_bipartite(3, 3), false), cfi_graph(complete_bipartite(3, 3), true)));
}

TEST(Cfi, BadBaseGraphsAreRejected) {
    EXPECT_THROW(cfi_graph(make_graph(3, {}), false), InvalidArgument);        // no edges
    EXPECT_THROW(cfi_graph(make_graph(3, {{0, 1}}), false), InvalidArgument);  // isolated vertex 2
    try {
        cfi_graph(make_graph(4, {{0, 1}, {1, 2}}), true);
        FAIL();
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("vertex 3 has degree 0"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace brec
