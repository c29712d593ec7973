#include "brec/count/flip.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "count/count_reference.hpp"

namespace brec {
namespace {

using testing::family_graph;
using testing::reference_counts;

/// Size of a random graph of the sweeps: mostly small (the reference is O(n^4)), some up to 40.
VertexId sweep_size(int trial, Rng& rng) {
    if (trial % 50 == 0) return static_cast<VertexId>(26 + rng.below(15));
    if (trial % 10 == 0) return static_cast<VertexId>(13 + rng.below(13));
    return static_cast<VertexId>(rng.below(13));
}

// The counter against the independent reference on 2,000 graphs of four families.
TEST(CountSweep, CountsMatchReferenceOnThousandsOfRandomGraphs) {
    Rng rng(424242);
    std::array<std::uint64_t, kNumCounts> seen{};
    for (int trial = 0; trial < 2000; ++trial) {
        const Graph g = family_graph(trial, sweep_size(trial, rng), rng);
        const auto ref = reference_counts(g);
        const auto fast = count_patterns(g);
        ASSERT_EQ(fast.total, ref.counts.total) << "trial " << trial << " n=" << g.n() << " m=" << g.m();
        ASSERT_EQ(fast.per_node, ref.counts.per_node) << "trial " << trial << " n=" << g.n();
        const auto totals_only = count_patterns(g, 4, false);
        ASSERT_EQ(totals_only.total, ref.counts.total) << "totals only, trial " << trial;
        ASSERT_TRUE(totals_only.per_node.empty());
        for (int p = 0; p < kNumCounts; ++p) seen[p] += fast.total[p];
    }
    // Every pattern occurred, so no column was compared as all zeros only.
    for (int p = 0; p < kNumCounts; ++p) EXPECT_GT(seen[p], 100u) << pattern_name(static_cast<Pattern>(p));
}

TEST(CountSweep, InstanceListsMatchReference) {
    Rng rng(77);
    for (int trial = 0; trial < 600; ++trial) {
        const Graph g = family_graph(trial, sweep_size(trial, rng), rng);
        const auto ref = reference_counts(g);
        for (int p = 0; p < kNumPatterns; ++p) {
            const InstanceList list = list_instances(g, static_cast<Pattern>(p));
            ASSERT_EQ(list.size, p < kNumPatterns3 ? 3 : 4);
            ASSERT_EQ(list.count(), ref.instances[p].size())
                << pattern_name(static_cast<Pattern>(p)) << " trial " << trial;
            for (std::size_t i = 0; i < list.count(); ++i)
                ASSERT_EQ(std::vector<VertexId>(list[i].begin(), list[i].end()), ref.instances[p][i]);
        }
    }
}

TEST(CountSweep, NonInducedStarOnSmallGraphs) {
    // K4: every vertex is the centre of one star on the 3 others; each vertex is in all 4.
    const auto k4 = count_patterns(make_complete(4));
    const int star = static_cast<int>(Pattern::star3_noninduced);
    EXPECT_EQ(k4.total[star], 4u);
    for (VertexId v = 0; v < 4; ++v) EXPECT_EQ(k4.per_node[v][star], 4u);
    EXPECT_EQ(k4.total[static_cast<int>(Pattern::star3)], 0u);
    // K1,4: C(4,3) = 4 stars at the centre; each leaf is in C(3,2) = 3 of them.
    const auto s = count_patterns(make_graph(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}}));
    EXPECT_EQ(s.total[star], 4u);
    EXPECT_EQ(s.per_node[0][star], 4u);
    EXPECT_EQ(s.per_node[1][star], 3u);
    // max_size 3 leaves the 4-vertex counts at zero.
    EXPECT_EQ(count_patterns(make_complete(5), 3).total[star], 0u);
}

TEST(CountSweep, ListingRejectsTheNonInducedStar) {
    try {
        list_instances(make_complete(4), Pattern::star3_noninduced);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("3-star-noninduced"), std::string::npos);
    }
}

/// Checks flip_delta of {u,v} against a full recount of the flipped graph, per graph and per node.
void expect_delta_matches_recount(const Graph& g, const PatternCounts& before, VertexId u, VertexId v,
                                  FlipWorkspace& ws) {
    const Graph h = flip_edge(g, u, v);
    ASSERT_NE(g.has_edge(u, v), h.has_edge(u, v));
    const PatternCounts after = count_patterns(h);
    const CountDelta d = flip_delta(g, u, v, ws);
    EXPECT_EQ(d.added, !g.has_edge(u, v));
    PatternCounts updated = before;
    apply_delta(updated, d);
    ASSERT_EQ(updated.total, after.total) << "flip {" << u << "," << v << "} n=" << g.n();
    ASSERT_EQ(updated.per_node, after.per_node) << "flip {" << u << "," << v << "} n=" << g.n();
    const auto totals = flip_total_delta(g, u, v, ws);
    ASSERT_EQ(totals, d.total);
    // Only vertices with a change are listed, in increasing order.
    ASSERT_TRUE(std::is_sorted(d.vertices.begin(), d.vertices.end()));
    for (std::size_t i = 0; i < d.vertices.size(); ++i)
        ASSERT_NE(before.per_node[d.vertices[i]], after.per_node[d.vertices[i]]);
}

// Every pair of every graph flipped (additions and deletions), all patterns, per node and graph.
TEST(FlipDelta, EveryFlipMatchesFullRecount) {
    Rng rng(99);
    FlipWorkspace ws;
    std::size_t additions = 0, deletions = 0;
    for (int trial = 0; trial < 1500; ++trial) {
        const VertexId n = static_cast<VertexId>(2 + rng.below(11));
        const Graph g = family_graph(trial, n, rng);
        const PatternCounts before = count_patterns(g);
        for (VertexId u = 0; u < g.n(); ++u)
            for (VertexId v = u + 1; v < g.n(); ++v) {
                (g.has_edge(u, v) ? deletions : additions) += 1;
                expect_delta_matches_recount(g, before, u, v, ws);
                if (::testing::Test::HasFatalFailure()) return;
            }
    }
    EXPECT_GT(additions, 20000u);
    EXPECT_GT(deletions, 10000u);
}

TEST(FlipDelta, SampledFlipsOnLargerGraphsAndChainsStayExact) {
    Rng rng(2024);
    FlipWorkspace ws;
    for (int trial = 0; trial < 40; ++trial) {
        Graph g = family_graph(trial, static_cast<VertexId>(20 + rng.below(21)), rng);
        if (g.n() < 2) continue;
        PatternCounts counts = count_patterns(g);
        // A chain of 25 flips, each applied to the running counts: errors would accumulate.
        for (int step = 0; step < 25; ++step) {
            const VertexId u = static_cast<VertexId>(rng.below(g.n()));
            VertexId v = static_cast<VertexId>(rng.below(g.n() - 1));
            if (v >= u) ++v;
            expect_delta_matches_recount(g, counts, u, v, ws);
            if (::testing::Test::HasFatalFailure()) return;
            apply_delta(counts, flip_delta(g, u, v, ws));
            g = flip_edge(g, u, v);
        }
        const auto recount = count_patterns(g);
        EXPECT_EQ(counts.total, recount.total);
        EXPECT_EQ(counts.per_node, recount.per_node);
    }
}

// The update of Campi et al.: recount the ego-net of u of radius diameter(p), taken in the graph
// that has the edge, before and after the flip. Our delta must equal it for every pattern, and
// radius diameter - 1 must be wrong somewhere (the radius is tight).
TEST(FlipDelta, EgoNetUpdateOfRadiusDiameterAgrees) {
    Rng rng(5150);
    FlipWorkspace ws;
    std::array<bool, kNumCounts> smaller_radius_failed{};
    for (int trial = 0; trial < 150; ++trial) {
        const Graph g = family_graph(trial, static_cast<VertexId>(5 + rng.below(10)), rng);
        if (g.n() < 2) continue;
        for (int k = 0; k < 6; ++k) {
            const VertexId u = static_cast<VertexId>(rng.below(g.n()));
            VertexId v = static_cast<VertexId>(rng.below(g.n() - 1));
            if (v >= u) ++v;
            const Graph h = flip_edge(g, u, v);
            const Graph& with_edge = g.has_edge(u, v) ? g : h;
            const CountDelta d = flip_delta(g, u, v, ws);
            for (int p = 0; p < kNumCounts; ++p) {
                const auto pattern = static_cast<Pattern>(p);
                for (int shrink = 0; shrink <= 1; ++shrink) {
                    const auto radius = static_cast<std::uint32_t>(pattern_diameter(pattern) - shrink);
                    const auto ego = ego_vertices(with_edge, u, radius);
                    const auto c_before = count_patterns(induced_subgraph(g, ego)).total[p];
                    const auto c_after = count_patterns(induced_subgraph(h, ego)).total[p];
                    const auto ego_delta = static_cast<std::int64_t>(c_after) - static_cast<std::int64_t>(c_before);
                    if (shrink == 0)
                        ASSERT_EQ(ego_delta, d.total[p]) << pattern_name(pattern) << " flip {" << u << "," << v << "}";
                    else if (ego_delta != d.total[p])
                        smaller_radius_failed[p] = true;
                }
            }
        }
    }
    for (int p = 0; p < kNumCounts; ++p)
        if (pattern_diameter(static_cast<Pattern>(p)) > 1) {
            EXPECT_TRUE(smaller_radius_failed[p]) << pattern_name(static_cast<Pattern>(p));
        }
}

// flip_instances against the difference of the listings before and after; admissibility against
// full recounts and listings.
TEST(FlipDelta, InstancesAndAdmissibilityMatchListings) {
    Rng rng(31337);
    FlipWorkspace ws;
    std::size_t count_preserving = 0, subgraph_preserving = 0, checked = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const Graph g = family_graph(trial, static_cast<VertexId>(3 + rng.below(9)), rng);
        const PatternCounts cg = count_patterns(g);
        for (VertexId u = 0; u < g.n(); ++u)
            for (VertexId v = u + 1; v < g.n(); ++v) {
                const Graph h = flip_edge(g, u, v);
                const PatternCounts ch = count_patterns(h);
                for (int p = 0; p < kNumCounts; ++p) {
                    const auto pattern = static_cast<Pattern>(p);
                    const FlipAdmissibility a = flip_admissibility(g, u, v, pattern, ws);
                    const auto delta = static_cast<std::int64_t>(ch.total[p]) - static_cast<std::int64_t>(cg.total[p]);
                    ASSERT_EQ(a.delta, delta);
                    ASSERT_EQ(a.count_preserving, delta == 0);
                    ++checked;
                    count_preserving += a.count_preserving;
                    subgraph_preserving += a.subgraph_preserving;
                    if (!is_induced(pattern)) {
                        ASSERT_EQ(a.subgraph_preserving, delta == 0);  // every star through the edge changes
                        continue;
                    }
                    const InstanceList lg = list_instances(g, pattern), lh = list_instances(h, pattern);
                    ASSERT_EQ(a.subgraph_preserving, lg == lh) << pattern_name(pattern);
                    if (a.subgraph_preserving) {
                        ASSERT_TRUE(a.count_preserving);
                    }
                    const FlipInstances fi = flip_instances(g, u, v, pattern, ws);
                    std::set<std::vector<VertexId>> sg, sh;
                    for (std::size_t i = 0; i < lg.count(); ++i) sg.insert({lg[i].begin(), lg[i].end()});
                    for (std::size_t i = 0; i < lh.count(); ++i) sh.insert({lh[i].begin(), lh[i].end()});
                    std::vector<std::vector<VertexId>> gone, made;
                    std::set_difference(sg.begin(), sg.end(), sh.begin(), sh.end(), std::back_inserter(gone));
                    std::set_difference(sh.begin(), sh.end(), sg.begin(), sg.end(), std::back_inserter(made));
                    ASSERT_EQ(fi.destroyed.count(), gone.size());
                    ASSERT_EQ(fi.created.count(), made.size());
                    for (std::size_t i = 0; i < gone.size(); ++i)
                        ASSERT_EQ(std::vector<VertexId>(fi.destroyed[i].begin(), fi.destroyed[i].end()), gone[i]);
                    for (std::size_t i = 0; i < made.size(); ++i)
                        ASSERT_EQ(std::vector<VertexId>(fi.created[i].begin(), fi.created[i].end()), made[i]);
                }
            }
    }
    // Both outcomes occur, so the checks are not vacuous.
    EXPECT_GT(count_preserving, 100u);
    EXPECT_LT(count_preserving, checked);
    EXPECT_GT(subgraph_preserving, 50u);
    EXPECT_LT(subgraph_preserving, count_preserving);
}

TEST(FlipDelta, HandBuiltCases) {
    // Adding the chord of a 4-cycle: the cycle becomes a diamond, two paths become triangles.
    const Graph c4 = make_cycle(4);
    const CountDelta d = flip_delta(c4, 0, 2);
    EXPECT_TRUE(d.added);
    EXPECT_EQ(d.total[static_cast<int>(Pattern::cycle4)], -1);
    EXPECT_EQ(d.total[static_cast<int>(Pattern::diamond)], 1);
    EXPECT_EQ(d.total[static_cast<int>(Pattern::triangle)], 2);
    EXPECT_EQ(d.total[static_cast<int>(Pattern::path2)], -2);
    // Deleting it again is the exact opposite.
    const CountDelta back = flip_delta(flip_edge(c4, 0, 2), 2, 0);
    EXPECT_FALSE(back.added);
    for (int p = 0; p < kNumCounts; ++p) EXPECT_EQ(back.total[p], -d.total[p]);
    // Joining two disjoint edges: the only new occurrences are the 2-paths and the 3-path through
    // the new edge, and only their vertices change.
    const CountDelta far = flip_delta(make_graph(6, {{0, 1}, {2, 3}, {4, 5}}), 1, 2);
    EXPECT_EQ(far.total[static_cast<int>(Pattern::path2)], 2);
    EXPECT_EQ(far.total[static_cast<int>(Pattern::path3)], 1);
    EXPECT_EQ(far.vertices, (std::vector<VertexId>{0, 1, 2, 3}));
}

TEST(FlipDelta, BadArgumentsAreRejectedWithAMessage) {
    const Graph g = make_cycle(5);
    try {
        flip_delta(g, 2, 2);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("self-loops"), std::string::npos);
    }
    try {
        flip_edge(g, 0, 9);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("vertex 9 out of range [0,5)"), std::string::npos);
    }
    PatternCounts small = count_patterns(make_path(2));
    EXPECT_THROW(apply_delta(small, flip_delta(g, 0, 2)), InvalidArgument);
}

}  // namespace
}  // namespace brec
