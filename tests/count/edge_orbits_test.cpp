// Per-edge orbit counts (GSN's edge identifiers) against a brute force that follows the definition
// literally: every injective map of every pattern template into the graph that is an induced
// isomorphism adds one to each template edge's orbit at the image edge, and the sums are divided by
// the template's automorphism count. The templates carry their edge orbits as labelled by hand.

#include <algorithm>

#include <gtest/gtest.h>

#include "brec/core/rng.hpp"
#include "brec/count/patterns.hpp"
#include "count/count_reference.hpp"

namespace brec {
namespace {

using Orbits = testing::EdgeOrbitRow;

void expect_matches_brute_force(const Graph& g) {
    const EdgeOrbitCounts c = count_edge_orbits(g);
    ASSERT_EQ(c.edges, g.edges());
    ASSERT_EQ(c.counts.size(), c.edges.size());
    const auto want = testing::reference_edge_orbits(g);
    for (std::size_t e = 0; e < c.edges.size(); ++e)
        for (int o = 0; o < kNumEdgeOrbits; ++o)
            EXPECT_EQ(c.counts[e][o], want.at(c.edges[e])[o])
                << "edge " << c.edges[e].first << "-" << c.edges[e].second << ", orbit "
                << edge_orbit_name(static_cast<EdgeOrbit>(o));
}

Orbits orbits(std::initializer_list<std::pair<EdgeOrbit, std::uint32_t>> nonzero) {
    Orbits o{};
    for (const auto& [k, v] : nonzero) o[static_cast<int>(k)] = v;
    return o;
}

std::uint32_t count_of(const EdgeOrbitCounts& c, Edge e, EdgeOrbit o) {
    const auto it = std::find(c.edges.begin(), c.edges.end(), e);
    return c.counts[static_cast<std::size_t>(it - c.edges.begin())][static_cast<int>(o)];
}

TEST(EdgeOrbits, NamedGraphsByHand) {
    using O = EdgeOrbit;
    // K4: every edge lies in 2 triangles and the one 4-clique.
    const auto k4 = count_edge_orbits(make_complete(4));
    for (const auto& row : k4.counts) EXPECT_EQ(row, orbits({{O::triangle, 2}, {O::clique4, 1}}));
    // C4: every edge is in two induced 2-paths and the 4-cycle.
    const auto c4 = count_edge_orbits(make_cycle(4));
    for (const auto& row : c4.counts) EXPECT_EQ(row, orbits({{O::path2, 2}, {O::cycle4, 1}}));
    // The 3-star: every edge in two 2-paths and the star.
    const auto star = count_edge_orbits(make_graph(4, {{0, 1}, {0, 2}, {0, 3}}));
    for (const auto& row : star.counts) EXPECT_EQ(row, orbits({{O::path2, 2}, {O::star3, 1}}));
    // The paw: triangle 0, 1, 2 and the pendant 2-3.
    const auto paw = count_edge_orbits(make_graph(4, {{0, 1}, {0, 2}, {1, 2}, {2, 3}}));
    EXPECT_EQ(count_of(paw, {0, 1}, O::tailed_triangle_far), 1u);
    EXPECT_EQ(count_of(paw, {0, 1}, O::triangle), 1u);
    EXPECT_EQ(count_of(paw, {0, 1}, O::path2), 0u);
    for (Edge e : {Edge{0, 2}, Edge{1, 2}}) {
        EXPECT_EQ(count_of(paw, e, O::tailed_triangle_near), 1u);
        EXPECT_EQ(count_of(paw, e, O::triangle), 1u);
        EXPECT_EQ(count_of(paw, e, O::path2), 1u);
        EXPECT_EQ(count_of(paw, e, O::tailed_triangle_far), 0u);
    }
    EXPECT_EQ(count_of(paw, {2, 3}, O::tailed_triangle_tail), 1u);
    EXPECT_EQ(count_of(paw, {2, 3}, O::path2), 2u);
    // The diamond (chord 0-1): the chord is in two triangles, a rim edge in one triangle and one 2-path.
    const auto diamond = count_edge_orbits(make_graph(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}}));
    EXPECT_EQ(count_of(diamond, {0, 1}, O::diamond_chord), 1u);
    EXPECT_EQ(count_of(diamond, {0, 1}, O::triangle), 2u);
    EXPECT_EQ(count_of(diamond, {0, 2}, O::diamond_rim), 1u);
    EXPECT_EQ(count_of(diamond, {0, 2}, O::path2), 1u);
    // P4: the middle edge is the 3-path's middle, the others its ends.
    const auto p4 = count_edge_orbits(make_path(4));
    EXPECT_EQ(count_of(p4, {1, 2}, O::path3_middle), 1u);
    EXPECT_EQ(count_of(p4, {0, 1}, O::path3_end), 1u);
    EXPECT_EQ(count_of(p4, {0, 1}, O::path3_middle), 0u);
    for (const Graph& g : {make_complete(4), make_cycle(4), make_path(4), make_graph(4, {{0, 1}, {0, 2}, {0, 3}}),
                           make_graph(4, {{0, 1}, {0, 2}, {1, 2}, {2, 3}}),
                           make_graph(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}}), make_petersen()})
        expect_matches_brute_force(g);
}

TEST(EdgeOrbits, RandomGraphsMatchTheBruteForce) {
    Rng rng(2024);
    for (int trial = 0; trial < 40; ++trial) {
        const auto n = static_cast<VertexId>(4 + rng.below(6));
        expect_matches_brute_force(testing::family_graph(trial, n, rng));
    }
}

TEST(EdgeOrbits, OrbitColumnsSumToPatternCountsPerEdge) {
    // Summed over the edges, each orbit column counts every occurrence once per edge of that orbit.
    Rng rng(7);
    const Graph g = testing::random_graph(12, 0.4, rng);
    const auto c = count_edge_orbits(g);
    const auto totals = count_patterns(g).total;
    std::array<std::uint64_t, kNumPatterns> by_pattern{};
    for (const auto& row : c.counts)
        for (int o = 0; o < kNumEdgeOrbits; ++o)
            by_pattern[static_cast<int>(edge_orbit_pattern(static_cast<EdgeOrbit>(o)))] += row[o];
    const std::array<std::uint64_t, kNumPatterns> edges_per_pattern = {2, 3, 3, 3, 4, 4, 5, 6};
    for (int p = 0; p < kNumPatterns; ++p) EXPECT_EQ(by_pattern[p], totals[p] * edges_per_pattern[p]) << p;
}

}  // namespace
}  // namespace brec
