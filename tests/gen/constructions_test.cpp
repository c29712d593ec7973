// Explicit constructions of the BREC "regular" families on their smallest instances. Every property
// is recomputed from adjacency (gen_test_util.hpp and graph/properties.hpp), never taken from the
// construction; expected numbers come from the literature or from the exhaustive counts noted next
// to them.
#include "brec/gen/constructions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "brec/core/error.hpp"
#include "brec/core/run_context.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/properties.hpp"
#include "brec/iso/iso.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"
#include "gen/gen_test_util.hpp"

namespace brec {
namespace {

using gentest::dense_srg;
using gentest::distinct_count;
using gentest::separates;
using gentest::Srg;

std::string aut(const Graph& g) { return automorphisms(g).order_text(); }

// ----- building blocks -------------------------------------------------------------------------

TEST(Constructions, CartesianProductAndUniversalVertex) {
    const Graph c4 = cartesian_product(make_complete(2), make_complete(2));
    EXPECT_TRUE(are_isomorphic(c4, make_cycle(4)));
    const Graph prism = cartesian_product(make_cycle(3), make_complete(2));
    EXPECT_EQ(prism.n(), 6u);
    EXPECT_EQ(prism.m(), 9u);
    EXPECT_TRUE(prism.is_regular());
    const Graph w = add_universal_vertex(make_cycle(5));  // the wheel W5
    EXPECT_EQ(w.n(), 6u);
    EXPECT_EQ(w.m(), 10u);
    EXPECT_EQ(w.degree(5), 5u);
    EXPECT_EQ(add_universal_vertex(Graph()).n(), 1u);
}

TEST(Constructions, SeidelSwitchingIsAnInvolution) {
    const Graph p = make_petersen();
    const std::vector<VertexId> s = {0, 2, 7};
    const Graph once = seidel_switch(p, s);
    EXPECT_FALSE(are_isomorphic(once, p));
    EXPECT_EQ(canonical_certificate(seidel_switch(once, s)), canonical_certificate(p));
    // Switching with respect to nothing or everything changes nothing.
    EXPECT_EQ(seidel_switch(p, {}).edges(), p.edges());
    std::vector<VertexId> all(p.n());
    for (VertexId v = 0; v < p.n(); ++v) all[v] = v;
    EXPECT_EQ(seidel_switch(p, all).edges(), p.edges());
    EXPECT_THROW(seidel_switch(p, {10}), InvalidArgument);
}

TEST(Constructions, LcfNotationGivesTheHeawoodGraph) {
    const Graph h = lcf_graph({5, -5}, 7);
    EXPECT_EQ(h.n(), 14u);
    EXPECT_EQ(h.m(), 21u);
    EXPECT_TRUE(h.is_regular());
    EXPECT_EQ(gentest::girth(h), 6u);
    EXPECT_TRUE(gentest::is_bipartite(h));
    const auto ia = intersection_array(h);
    ASSERT_TRUE(ia);
    EXPECT_EQ(ia->str(), "{3,2,2;1,1,3}");
    EXPECT_EQ(aut(h), "336");
    EXPECT_THROW(lcf_graph({}, 3), InvalidArgument);
}

// ----- strongly regular graphs -----------------------------------------------------------------

TEST(StronglyRegular, RookVersusShrikhande) {
    const Graph rook = rook_graph(4), shr = shrikhande_graph();
    const Srg want{16, 6, 2, 2};
    for (const Graph* g : {&rook, &shr}) {
        ASSERT_TRUE(dense_srg(*g));
        EXPECT_EQ(*dense_srg(*g), want);
        const auto p = srg_parameters(*g);
        ASSERT_TRUE(p);
        EXPECT_EQ(p->str(), "srg(16,6,2,2)");
    }
    // The textbook definitions in tests/common build the same graphs.
    EXPECT_TRUE(are_isomorphic(rook, testing::rook_4x4()));
    EXPECT_TRUE(are_isomorphic(shr, testing::shrikhande()));
    EXPECT_NE(canonical_certificate(rook), canonical_certificate(shr));
    EXPECT_EQ(aut(rook), "1152");  // (4!)^2 * 2
    EXPECT_EQ(aut(shr), "192");
    // Equal srg parameters: 1-WL and 2-FWL (= 3-WL) cannot separate them; 3-FWL can.
    EXPECT_TRUE(wl1_equivalent(rook, shr));
    EXPECT_FALSE(separates("2fwl", rook, shr));
    EXPECT_TRUE(separates("3fwl", rook, shr));
}

TEST(StronglyRegular, TriangularGraphT8VersusTheThreeChangGraphs) {
    const Graph t8 = triangular_graph(8);
    const std::vector<Graph> chang = chang_graphs();
    ASSERT_EQ(chang.size(), 3u);
    std::vector<Graph> all = chang;
    all.push_back(t8);
    for (const Graph& g : all) {
        ASSERT_TRUE(dense_srg(g));
        EXPECT_EQ(*dense_srg(g), (Srg{28, 12, 6, 4}));
        EXPECT_TRUE(wl1_equivalent(g, t8));
    }
    // srg(28,12,6,4) has exactly these four graphs (Chang 1959); automorphism group orders
    // S8 = 40320 for T(8), and 384, 360, 96 for the Chang graphs.
    EXPECT_EQ(distinct_count(all), 4u);
    EXPECT_EQ(aut(t8), "40320");
    std::multiset<std::string> orders;
    for (const Graph& g : chang) orders.insert(aut(g));
    EXPECT_EQ(orders, (std::multiset<std::string>{"384", "360", "96"}));
    EXPECT_FALSE(separates("2fwl", t8, chang[0]));
    EXPECT_EQ(triangular_graph(5).n(), 10u);  // T(5) = complement of the Petersen graph
    EXPECT_TRUE(are_isomorphic(triangular_graph(5), complement(make_petersen())));
}

TEST(StronglyRegular, GodsilMcKaySwitchingOfT8GivesOnlyChangGraphs) {
    const Graph t8 = triangular_graph(8);
    const auto sets = gm4_sets(t8);
    ASSERT_FALSE(sets.empty());
    std::set<std::string> reachable;
    for (const Graph& g : chang_graphs()) reachable.insert(canonical_certificate(g).bytes);
    reachable.insert(canonical_certificate(t8).bytes);
    std::size_t new_graphs = 0;
    for (const auto& c : sets) {
        const Graph s = gm4_switch(t8, c);
        ASSERT_TRUE(dense_srg(s));
        EXPECT_EQ(*dense_srg(s), (Srg{28, 12, 6, 4}));
        const std::string cert = canonical_certificate(s).bytes;
        EXPECT_TRUE(reachable.count(cert));
        new_graphs += cert != canonical_certificate(t8).bytes;
    }
    EXPECT_GT(new_graphs, 0u);
}

/// The GM4 definition checked directly: C induces a regular graph and every vertex outside has 0, 2
/// or 4 neighbours in C.
bool is_gm4_set(const Graph& g, const std::array<VertexId, 4>& c) {
    std::set<std::size_t> inner;
    for (VertexId x : c) {
        std::size_t d = 0;
        for (VertexId y : c) d += g.has_edge(x, y);
        inner.insert(d);
    }
    if (inner.size() != 1) return false;
    for (VertexId v = 0; v < g.n(); ++v) {
        if (std::find(c.begin(), c.end(), v) != c.end()) continue;
        std::size_t d = 0;
        for (VertexId y : c) d += g.has_edge(v, y);
        if (d % 2 != 0) return false;
    }
    return true;
}

TEST(StronglyRegular, GodsilMcKaySetsMatchTheirDefinitionAndKeepParameters) {
    Rng rng(7);
    const auto sts = steiner_triple_system(15, rng);
    ASSERT_TRUE(sts);
    const Graph g = block_graph(*sts);
    ASSERT_EQ(*dense_srg(g), (Srg{35, 18, 9, 9}));
    const auto sets = gm4_sets(g);
    // Brute force over all 4-sets agrees with the bitset search.
    std::size_t brute = 0;
    for (VertexId a = 0; a < g.n(); ++a)
        for (VertexId b = a + 1; b < g.n(); ++b)
            for (VertexId c = b + 1; c < g.n(); ++c)
                for (VertexId d = c + 1; d < g.n(); ++d) brute += is_gm4_set(g, {a, b, c, d});
    EXPECT_EQ(sets.size(), brute);
    for (std::size_t i = 0; i < sets.size() && i < 40; ++i) {
        EXPECT_TRUE(is_gm4_set(g, sets[i]));
        const Graph s = gm4_switch(g, sets[i]);
        ASSERT_TRUE(dense_srg(s)) << i;
        EXPECT_EQ(*dense_srg(s), (Srg{35, 18, 9, 9}));
    }
}

TEST(StronglyRegular, LatinSquareGraphs) {
    std::size_t count4 = 0, count5 = 0;
    for_each_reduced_latin_square(4, [&](const LatinSquare&) { return ++count4, true; });
    std::vector<Graph> ls5;
    for_each_reduced_latin_square(5, [&](const LatinSquare& s) {
        ++count5;
        // Independent Latin check: every symbol once per row and column.
        for (int i = 0; i < 5; ++i) {
            std::set<int> row(s[i].begin(), s[i].end()), col;
            for (int j = 0; j < 5; ++j) col.insert(s[j][i]);
            EXPECT_EQ(row.size(), 5u);
            EXPECT_EQ(col.size(), 5u);
        }
        ls5.push_back(latin_square_graph(s));
        return true;
    });
    EXPECT_EQ(count4, 4u);  // reduced Latin squares: 1, 1, 1, 4, 56, 9408 (OEIS A000315)
    EXPECT_EQ(count5, 56u);
    for (const Graph& g : ls5) EXPECT_EQ(*dense_srg(g), (Srg{25, 12, 5, 6}));  // srg(n^2, 3(n-1), n, 6)
    EXPECT_EQ(distinct_count(ls5), 2u);
    // The cyclic square gives Paley(25).
    LatinSquare cyclic(5, std::vector<int>(5));
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c) cyclic[r][c] = (r + c) % 5;
    EXPECT_TRUE(are_isomorphic(latin_square_graph(cyclic), paley_graph(25)));
    // The visitor can stop the enumeration.
    std::size_t seen = 0;
    for_each_reduced_latin_square(6, [&](const LatinSquare&) { return ++seen < 10; });
    EXPECT_EQ(seen, 10u);
    EXPECT_THROW(latin_square_graph({{0, 1}, {1}}), InvalidArgument);
    EXPECT_THROW(for_each_reduced_latin_square(10, [](const LatinSquare&) { return true; }), InvalidArgument);
}

TEST(StronglyRegular, LatinSquaresOfOrderSixGiveTwelveGraphs) {
    std::size_t count = 0;
    std::set<std::string> certs;
    for_each_reduced_latin_square(6, [&](const LatinSquare& s) {
        ++count;
        certs.insert(canonical_certificate(latin_square_graph(s)).bytes);
        return true;
    });
    EXPECT_EQ(count, 9408u);
    // 12 main classes of Latin squares of order 6, each a different srg(36,15,6,6).
    EXPECT_EQ(certs.size(), 12u);
}

TEST(StronglyRegular, PaleyGraphs) {
    const Graph p9 = paley_graph(9), p13 = paley_graph(13), p25 = paley_graph(25), p29 = paley_graph(29);
    EXPECT_EQ(*dense_srg(p9), (Srg{9, 4, 1, 2}));
    EXPECT_TRUE(are_isomorphic(p9, rook_graph(3)));
    EXPECT_EQ(*dense_srg(p13), (Srg{13, 6, 2, 3}));
    EXPECT_EQ(*dense_srg(p25), (Srg{25, 12, 5, 6}));
    EXPECT_EQ(*dense_srg(p29), (Srg{29, 14, 6, 7}));
    for (const Graph* g : {&p9, &p13, &p25, &p29})
        EXPECT_TRUE(are_isomorphic(*g, complement(*g)));  // self-complementary
    EXPECT_EQ(aut(p29), "406");                           // q (q-1) / 2
    EXPECT_EQ(aut(p25), "600");                           // q (q-1) / 2 * 2 (Frobenius)
    for (std::uint32_t q : {7u, 21u, 45u}) EXPECT_THROW(paley_graph(q), InvalidArgument) << q;
}

TEST(StronglyRegular, SteinerTripleSystemsAndTheirBlockGraphs) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        Rng rng(seed);
        const auto fano = steiner_triple_system(7, rng);
        ASSERT_TRUE(fano);
        EXPECT_EQ(fano->size(), 7u);
        EXPECT_TRUE(gentest::is_2_design(*fano, 7, 3, 1));
        // The Fano plane is unique: its incidence graph is the Heawood graph.
        EXPECT_TRUE(are_isomorphic(incidence_graph(*fano, 7), lcf_graph({5, -5}, 7)));
        const auto sts9 = steiner_triple_system(9, rng);
        ASSERT_TRUE(sts9);
        EXPECT_TRUE(gentest::is_2_design(*sts9, 9, 3, 1));
        EXPECT_EQ(*dense_srg(block_graph(*sts9)), (Srg{12, 9, 6, 9}));  // AG(2,3): K_{3,3,3,3}
        const auto sts13 = steiner_triple_system(13, rng);
        ASSERT_TRUE(sts13);
        EXPECT_TRUE(gentest::is_2_design(*sts13, 13, 3, 1));
        const Graph b13 = block_graph(*sts13);
        EXPECT_EQ(*dense_srg(b13), (Srg{26, 15, 8, 9}));
        EXPECT_EQ(*dense_srg(complement(b13)), (Srg{26, 10, 3, 4}));
        const auto sts15 = steiner_triple_system(15, rng);
        ASSERT_TRUE(sts15);
        EXPECT_TRUE(gentest::is_2_design(*sts15, 15, 3, 1));
        EXPECT_EQ(*dense_srg(block_graph(*sts15)), (Srg{35, 18, 9, 9}));
    }
    // Same seed, same system.
    Rng r1(42), r2(42);
    EXPECT_EQ(steiner_triple_system(15, r1), steiner_triple_system(15, r2));
    const BlockList pg = projective_space_pg32_triples();
    EXPECT_TRUE(gentest::is_2_design(pg, 15, 3, 1));
    const Graph bpg = block_graph(pg);
    EXPECT_EQ(*dense_srg(bpg), (Srg{35, 18, 9, 9}));
    EXPECT_EQ(aut(bpg), "40320");
    EXPECT_TRUE(four_vertex_constants(bpg).has_value());  // PG(3,2)'s block graph has the condition
    EXPECT_THROW(steiner_triple_system(8, r1), InvalidArgument);
    Rng r3(1);
    EXPECT_FALSE(steiner_triple_system(15, r3, 3));  // step budget too small
}

TEST(StronglyRegular, TwoGraphClosureReachesAllSrg25AndSrg26) {
    RunContext ctx;
    ctx.set_threads(2);
    const TwoGraphClosure c = two_graph_closure(ctx);
    // All 15 srg(25,12,5,6) and all 10 srg(26,10,3,4) (Paulus 1973).
    EXPECT_EQ(c.srg25.size(), 15u);
    EXPECT_EQ(c.srg26.size(), 10u);
    EXPECT_EQ(distinct_count(c.srg25), 15u);
    EXPECT_EQ(distinct_count(c.srg26), 10u);
    for (const Graph& g : c.srg25) EXPECT_EQ(*dense_srg(g), (Srg{25, 12, 5, 6}));
    for (const Graph& g : c.srg26) EXPECT_EQ(*dense_srg(g), (Srg{26, 10, 3, 4}));
    // Paley(25) is among them; the result does not depend on the thread count.
    std::set<std::string> certs;
    for (const Graph& g : c.srg25) certs.insert(canonical_certificate(g).bytes);
    EXPECT_TRUE(certs.count(canonical_certificate(paley_graph(25)).bytes));
    RunContext one;
    const TwoGraphClosure c1 = two_graph_closure(one);
    ASSERT_EQ(c1.srg25.size(), c.srg25.size());
    for (std::size_t i = 0; i < c.srg25.size(); ++i) EXPECT_EQ(c1.srg25[i].edges(), c.srg25[i].edges());
}

// ----- 4-vertex condition ----------------------------------------------------------------------

TEST(FourVertexCondition, SymplecticGraphSp62) {
    const Graph sp = symplectic_graph(3);
    EXPECT_EQ(*dense_srg(sp), (Srg{63, 30, 13, 15}));
    const auto f = four_vertex_constants(sp);
    ASSERT_TRUE(f);
    EXPECT_EQ(*f, std::make_pair(30u, 45u));
    EXPECT_EQ(gentest::dense_four_vertex(sp), (std::make_pair(30L, 45L)));
    EXPECT_EQ(aut(sp), "1451520");  // |Sp(6,2)|
    EXPECT_EQ(gm4_sets(sp).size(), 4725u);
    EXPECT_EQ(*dense_srg(symplectic_graph(2)), (Srg{15, 6, 1, 3}));
    EXPECT_THROW(symplectic_graph(0), InvalidArgument);
}

TEST(FourVertexCondition, BitsetCountAgreesWithTheDenseReference) {
    std::vector<Graph> graphs = {rook_graph(4),   shrikhande_graph(), triangular_graph(8),
                                 paley_graph(13), make_petersen(),    symplectic_graph(3)};
    for (const Graph& g : chang_graphs()) graphs.push_back(g);
    const Graph sp = symplectic_graph(3);
    const auto sets = gm4_sets(sp);
    for (std::size_t i = 0; i < sets.size(); i += 300) graphs.push_back(gm4_switch(sp, sets[i]));
    Rng rng(3);
    for (int i = 0; i < 5; ++i) graphs.push_back(testing::random_regular(12, 4, rng));
    // More than 64 vertices: adjacency rows of two words.
    graphs.push_back(triangular_graph(12));
    graphs.push_back(paley_graph(73));
    graphs.push_back(make_graph(70, {{0, 69}, {1, 68}, {2, 67}}));
    std::size_t yes = 0, no = 0;
    for (const Graph& g : graphs) {
        const auto got = four_vertex_constants(g);
        const auto want = gentest::dense_four_vertex(g);
        ASSERT_EQ(got.has_value(), want.has_value()) << g.n();
        if (got) {
            EXPECT_EQ(static_cast<long>(got->first), want->first);
            EXPECT_EQ(static_cast<long>(got->second), want->second);
        }
        (got ? yes : no) += 1;
    }
    EXPECT_GT(yes, 0u);
    EXPECT_GT(no, 0u);
    // Sanity of the expectations: the rook's graph has the condition, the Shrikhande graph not with
    // the same constants (it is locally a hexagon, the rook's graph locally two triangles).
    EXPECT_NE(four_vertex_constants(rook_graph(4)), four_vertex_constants(shrikhande_graph()));
}

// ----- distance-regular graphs -----------------------------------------------------------------

TEST(DistanceRegular, GeneralizedHexagonAndItsDual) {
    const Graph cage = tutte_12_cage();
    EXPECT_EQ(cage.n(), 126u);
    EXPECT_TRUE(cage.is_regular());
    EXPECT_EQ(cage.degree(0), 3u);
    EXPECT_EQ(gentest::girth(cage), 12u);
    EXPECT_TRUE(gentest::is_bipartite(cage));
    const auto [a, b] = generalized_hexagon_pair();
    ASSERT_EQ(a.n(), 63u);
    ASSERT_EQ(b.n(), 63u);
    const auto ia = intersection_array(a), ib = intersection_array(b);
    ASSERT_TRUE(ia && ib);
    EXPECT_EQ(ia->str(), "{6,4,4;1,1,3}");
    EXPECT_EQ(*ia, *ib);
    EXPECT_NE(canonical_certificate(a), canonical_certificate(b));
    EXPECT_EQ(aut(a), "12096");  // G2(2)
    EXPECT_EQ(aut(b), "12096");
    EXPECT_TRUE(wl1_equivalent(a, b));
    EXPECT_FALSE(separates("2fwl", a, b));
}

TEST(DistanceRegular, IncidenceGraphsOfSymmetricDesigns) {
    // PG(3,2) points versus planes from the Singer difference set.
    const BlockList pg = cyclic_design({0, 1, 2, 4, 5, 8, 10}, 15);
    EXPECT_TRUE(gentest::is_2_design(pg, 15, 7, 3));
    const Graph gpg = incidence_graph(pg, 15);
    EXPECT_EQ(intersection_array(gpg)->str(), "{7,6,4;1,3,7}");
    EXPECT_EQ(aut(gpg), "40320");
    // Random 2-(15,7,3) designs: there are 5 designs up to isomorphism, and 4 incidence graphs (a
    // design and its dual have isomorphic incidence graphs).
    std::vector<Graph> graphs{gpg};
    for (std::uint64_t seed = 1; seed <= 40 && distinct_count(graphs) < 2; ++seed) {
        Rng rng(seed);
        const auto d = random_symmetric_design(15, 7, 3, rng);
        if (!d) continue;
        EXPECT_TRUE(gentest::is_2_design(*d, 15, 7, 3));
        graphs.push_back(incidence_graph(*d, 15));
    }
    ASSERT_GE(distinct_count(graphs), 2u);
    const Graph& other = graphs.back();
    EXPECT_EQ(*intersection_array(other), *intersection_array(gpg));
    EXPECT_TRUE(wl1_equivalent(other, gpg));
    EXPECT_FALSE(separates("2fwl", other, gpg));
    // Biplanes 2-(16,6,2) and their complements 2-(16,10,6).
    Rng rng(5);
    const auto biplane = random_symmetric_design(16, 6, 2, rng);
    ASSERT_TRUE(biplane);
    EXPECT_TRUE(gentest::is_2_design(*biplane, 16, 6, 2));
    EXPECT_EQ(intersection_array(incidence_graph(*biplane, 16))->str(), "{6,5,4;1,2,6}");
    const BlockList co = complement_design(*biplane, 16);
    EXPECT_TRUE(gentest::is_2_design(co, 16, 10, 6));
    EXPECT_EQ(intersection_array(incidence_graph(co, 16))->str(), "{10,9,4;1,6,10}");
    EXPECT_THROW(random_symmetric_design(16, 6, 3, rng),
                 InvalidArgument);  // lambda (v-1) != k (k-1)
    EXPECT_THROW(incidence_graph({{0, 20}}, 16), InvalidArgument);
}

TEST(DistanceRegular, TaylorGraphOfARegularTwoGraph) {
    // The complement of an STS(13) block graph is srg(26,10,3,4) with n = 2 (2k - lambda - mu), so
    // it lies in a regular two-graph and its Taylor double cover is distance-regular.
    Rng rng(11);
    const auto sts = steiner_triple_system(13, rng);
    ASSERT_TRUE(sts);
    const Graph t = taylor_double_cover(complement(block_graph(*sts)));
    EXPECT_EQ(t.n(), 52u);
    const auto ia = intersection_array(t);
    ASSERT_TRUE(ia);
    EXPECT_EQ(ia->str(), "{25,12,1;1,12,25}");
}

TEST(DistanceRegular, HammingVersusDoob) {
    const Graph h = hamming_graph(3, 4), d = shrikhande_times_k4();
    EXPECT_EQ(h.n(), 64u);
    EXPECT_EQ(d.n(), 64u);
    const auto ih = intersection_array(h), id = intersection_array(d);
    ASSERT_TRUE(ih && id);
    EXPECT_EQ(ih->str(), "{9,6,3;1,2,3}");
    EXPECT_EQ(*ih, *id);
    EXPECT_NE(canonical_certificate(h), canonical_certificate(d));
    EXPECT_TRUE(wl1_equivalent(h, d));
    EXPECT_EQ(aut(h), "82944");  // (4!)^3 * 3!
    EXPECT_THROW(hamming_graph(0, 4), InvalidArgument);
}

// ----- extension constructions -----------------------------------------------------------------

TEST(Extension, CycleVersusTwoCyclesWithAVirtualNode) {
    for (VertexId l = 3; l <= 9; ++l) {
        const Graph one = add_universal_vertex(make_cycle(2 * l));
        const Graph two = add_universal_vertex(disjoint_union(make_cycle(l), make_cycle(l)));
        EXPECT_EQ(one.n(), 2 * l + 1);
        EXPECT_NE(canonical_certificate(one), canonical_certificate(two)) << l;
        EXPECT_TRUE(wl1_equivalent(one, two)) << l;
        EXPECT_TRUE(separates("2fwl", one, two)) << l;
    }
}

}  // namespace
}  // namespace brec
