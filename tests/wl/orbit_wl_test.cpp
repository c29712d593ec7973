// The orbit path of k-FWL / k-WL (tuples grouped into orbits of Aut(G), tuple_wl.cpp) against the
// plain path: the same distinguished, rounds and colours on CFI, strongly regular, asymmetric,
// mixed and labelled pairs, with and without round limits.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/iso/iso.hpp"
#include "common/test_graphs.hpp"
#include "common/wl_testing.hpp"
#include "wl/detail/tuple_wl.hpp"

namespace brec {
namespace {

using detail::TupleOrbitMode;
using detail::TupleOrbitUse;

/// Runs k-FWL (folklore) or k-WL on the pair in all three orbit modes and expects identical
/// results; returns the orbit use of the automatic mode.
TupleOrbitUse expect_orbit_paths_agree(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds,
                                       bool labels, const std::string& what) {
    TupleOrbitUse plain_use, always_use, auto_use;
    const WlResult plain =
        detail::run_tuple_wl(g, h, k, folklore, max_rounds, labels, 1, nullptr, TupleOrbitMode::never, &plain_use);
    const WlResult always =
        detail::run_tuple_wl(g, h, k, folklore, max_rounds, labels, 2, nullptr, TupleOrbitMode::always, &always_use);
    const WlResult automatic =
        detail::run_tuple_wl(g, h, k, folklore, max_rounds, labels, 1, nullptr, TupleOrbitMode::automatic, &auto_use);
    EXPECT_EQ(plain_use.orbits[0] + plain_use.orbits[1], 0u) << what;
    if (g.n() > 0 && g.n() == h.n()) {
        // Forced, both graphs take the orbit path, a trivial group included (one orbit per tuple).
        EXPECT_GT(always_use.orbits[0], 0u) << what;
        EXPECT_GT(always_use.orbits[1], 0u) << what;
    }
    for (const WlResult* r : {&always, &automatic}) {
        EXPECT_EQ(r->distinguished, plain.distinguished) << what;
        EXPECT_EQ(r->rounds, plain.rounds) << what;
        EXPECT_EQ(r->colours, plain.colours) << what;
    }
    return auto_use;
}

// CFI pairs: the groups are large (flips), so the automatic mode takes the orbit path once n >= 32.
TEST(OrbitReducedTupleWl, SameResultsOnCfiPairs) {
    const Graph k3 = make_complete(3), k4 = make_complete(4), k5 = make_complete(5);
    const Graph prism = make_graph(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}});
    for (const Graph* base : {&k3, &k4, &prism, &k5}) {
        const Graph a = testing::cfi_graph(*base, false), b = testing::cfi_graph(*base, true);
        const std::string what = "CFI over a base with " + std::to_string(base->n()) + " vertices";
        const TupleOrbitUse use = expect_orbit_paths_agree(a, b, 3, true, -1, false, what);
        if (a.n() >= 32) {
            EXPECT_GT(use.orbits[0], 0u) << what;
            EXPECT_LE(use.orbits[0] * 4, std::size_t{a.n()} * a.n() * a.n()) << what;
        }
        expect_orbit_paths_agree(a, b, 2, true, -1, false, what + ", 2-FWL");
        expect_orbit_paths_agree(a, b, 3, false, -1, false, what + ", 3-WL");
        for (int rounds = 0; rounds <= 3; ++rounds)
            expect_orbit_paths_agree(a, b, 3, true, rounds, false, what + ", " + std::to_string(rounds) + " rounds");
    }
    // The automatic mode on the K4 pair (n = 40, 3-FWL separates it) runs both graphs on orbits.
    const Graph a = testing::cfi_graph(k4, false), b = testing::cfi_graph(k4, true);
    const TupleOrbitUse use = expect_orbit_paths_agree(a, b, 3, true, -1, false, "CFI(K4)");
    EXPECT_GT(use.orbits[1], 0u);
    EXPECT_TRUE(detail::run_tuple_wl(a, b, 3, true, -1, false, 1).distinguished);
}

TEST(OrbitReducedTupleWl, SameResultsOnStronglyRegularPairs) {
    const Graph rook = testing::rook_4x4(), shr = testing::shrikhande();
    for (int k = 2; k <= 3; ++k)
        for (bool folklore : {true, false}) {
            const std::string what = "rook/Shrikhande k = " + std::to_string(k) + (folklore ? " FWL" : " WL");
            expect_orbit_paths_agree(rook, shr, k, folklore, -1, false, what);
            expect_orbit_paths_agree(shr, rook, k, folklore, -1, false, what + " (swapped)");
        }
    EXPECT_TRUE(detail::run_tuple_wl(rook, shr, 3, true, -1, false, 1, nullptr, TupleOrbitMode::always).distinguished);
}

// Graphs with trivial groups (one orbit per tuple when forced), pairs where only one graph has
// symmetry (the automatic mode mixes the paths), and node labels (the group then preserves them).
TEST(OrbitReducedTupleWl, SameResultsWithTrivialGroupsMixedPathsAndLabels) {
    Rng rng(7);
    for (int trial = 0; trial < 6; ++trial) {
        const Graph g = testing::random_graph(12, 0.4, rng), h = testing::random_graph(12, 0.4, rng);
        for (int k = 2; k <= 3; ++k)
            expect_orbit_paths_agree(g, h, k, true, -1, false, "random pair " + std::to_string(trial));
        expect_orbit_paths_agree(g, permute(g, rng.permutation(12)), 3, true, -1, false, "relabelling");
    }
    // CFI(K4) (40 vertices, large group) against a 3-regular graph on 40 vertices without symmetry:
    // the automatic mode runs G on orbits and H on all tuples, with one shared palette.
    const Graph cfi = testing::cfi_graph(make_complete(4), false);
    Graph asym;
    for (int tries = 0; tries < 100 && asym.n() == 0; ++tries) {
        Graph r = testing::random_regular(cfi.n(), 3, rng);
        if (automorphism_generators(r).empty()) asym = r;
    }
    ASSERT_EQ(asym.n(), cfi.n());
    ASSERT_EQ(asym.m(), cfi.m());
    for (const auto& [g, h] : {std::pair<const Graph*, const Graph*>{&cfi, &asym}, {&asym, &cfi}}) {
        const TupleOrbitUse use = expect_orbit_paths_agree(*g, *h, 3, true, -1, false, "mixed");
        EXPECT_EQ(use.orbits[0] > 0, g == &cfi);
        EXPECT_EQ(use.orbits[1] > 0, h == &cfi);
        for (int rounds = 1; rounds <= 2; ++rounds)
            expect_orbit_paths_agree(*g, *h, 3, true, rounds, false, "mixed, limited rounds");
    }
    // Labels: C_40 with periodic labels against C_40 with the labels shifted in one half; the
    // labelled groups are smaller than the plain ones but not trivial.
    std::vector<Label> la(40), lb(40);
    for (VertexId v = 0; v < 40; ++v) {
        la[v] = v % 4 == 0 ? 1 : 0;
        lb[v] = (v < 20 ? v : v + 1) % 4 == 0 ? 1 : 0;
    }
    const Graph a = testing::with_labels(make_cycle(40), la), b = testing::with_labels(make_cycle(40), lb);
    for (bool labels : {false, true}) {
        const TupleOrbitUse use =
            expect_orbit_paths_agree(a, b, 3, true, -1, labels, labels ? "labelled" : "unlabelled");
        EXPECT_GT(use.orbits[0], 0u);
    }
    TupleOrbitUse plain_use, labelled_use;
    detail::run_tuple_wl(a, a, 3, true, -1, false, 1, nullptr, TupleOrbitMode::always, &plain_use);
    detail::run_tuple_wl(a, a, 3, true, -1, true, 1, nullptr, TupleOrbitMode::always, &labelled_use);
    // D40 (order 80) acts freely on the 40*39*38 triples of distinct vertices (a reflection fixes at
    // most 2 vertices): 741 orbits; ordered pairs of distinct vertices fall into 20 orbits (their
    // distance, 1 to 20), which gives 20 orbits for each of (x,x,y), (x,y,x), (x,y,y); and (x,x,x).
    EXPECT_EQ(plain_use.orbits[0], 741u + 3 * 20 + 1);
    EXPECT_GT(labelled_use.orbits[0], plain_use.orbits[0]);
}

// BREC pairs on which the automatic mode takes the orbit path for one or both graphs: a CFI pair
// (n = 80), 4-vertex-condition and strongly regular pairs (n = 35 and 63).
TEST(OrbitReducedTupleWl, SameResultsOnBrecPairs) {
    const auto data = testing::read_brec_v3();
    std::map<PairId, const GraphPairRecord*> by_id;
    for (const auto& p : data.pairs) by_id[p.id] = &p;
    int reduced = 0;
    for (PairId id : {158, 148, 343, 375, 380}) {
        ASSERT_TRUE(by_id.count(id)) << id;
        const GraphPairRecord& p = *by_id[id];
        const TupleOrbitUse use =
            expect_orbit_paths_agree(p.a, p.b, 3, true, -1, false, "BREC pair " + std::to_string(id));
        reduced += (use.orbits[0] > 0) + (use.orbits[1] > 0);
    }
    EXPECT_GE(reduced, 8);
}

}  // namespace
}  // namespace brec
