// The fast orbit path (invariants first, certificates only where they collide) against one
// canonical certificate for every graph, on inputs built to make invariants collide between
// non-isomorphic graphs.
#include <gtest/gtest.h>

#include <algorithm>

#include "brec/core/rng.hpp"
#include "brec/dedup/invariant.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/gen/cfi.hpp"
#include "brec/gen/constructions.hpp"
#include "brec/gen/molecules.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/iso/iso.hpp"

namespace brec {
namespace {

Graph shuffled(const Graph& g, Rng& rng) {
    const auto perm = rng.permutation(g.n());
    return permute(g, Permutation(perm.begin(), perm.end()));
}

/// `g` with node labels (and, when edge_colours > 0, edge labels) drawn from `rng`.
Graph coloured(const Graph& g, Rng& rng, int node_colours, int edge_colours) {
    GraphBuilder b(g.n());
    for (const auto& [u, v] : g.edges()) {
        if (edge_colours > 0)
            b.add_edge(u, v, static_cast<Label>(rng.below(static_cast<std::uint64_t>(edge_colours))));
        else
            b.add_edge(u, v);
    }
    std::vector<Label> labels(g.n());
    for (auto& x : labels) x = static_cast<Label>(rng.below(static_cast<std::uint64_t>(node_colours)));
    b.set_node_labels(std::move(labels));
    return b.build();
}

/// The reference partition: graphs i, j share an orbit iff their certificates are equal.
void expect_orbits_match_certificates(const std::vector<Graph>& graphs, OrbitMode mode) {
    RunContext one, two;
    two.set_threads(2);
    const Orbits fast = compute_orbits(graphs, mode, one);
    EXPECT_EQ(fast.orbit_of, compute_orbits(graphs, mode, two).orbit_of) << mode_name(mode);
    const Orbits all = compute_orbits_all_certificates(graphs, mode, one);
    EXPECT_EQ(fast.orbit_of, all.orbit_of) << mode_name(mode);
    EXPECT_EQ(fast.member_list, all.member_list) << mode_name(mode);
    EXPECT_EQ(fast.member_begin, all.member_begin) << mode_name(mode);
    std::vector<Certificate> certs;
    for (const Graph& g : graphs) certs.push_back(canonical_certificate(g, iso_options(mode)));
    for (std::size_t i = 0; i < graphs.size(); ++i)
        for (std::size_t j = i + 1; j < graphs.size(); ++j)
            ASSERT_EQ(fast.orbit_of[i] == fast.orbit_of[j], certs[i] == certs[j])
                << i << " " << j << " " << mode_name(mode);
    // Orbits are ordered by first member and list their members in order.
    for (std::size_t o = 0; o < fast.size(); ++o) {
        EXPECT_TRUE(std::is_sorted(fast.members(o).begin(), fast.members(o).end()));
        if (o > 0) {
            EXPECT_LT(fast.members(o - 1)[0], fast.members(o)[0]);
        }
    }
}

/// Non-isomorphic graphs that colour refinement cannot tell apart, with their invariants equal.
std::vector<std::pair<Graph, Graph>> refinement_equivalent_pairs() {
    std::vector<std::pair<Graph, Graph>> pairs;
    pairs.emplace_back(rook_graph(4), shrikhande_graph());  // srg(16,6,2,2)
    pairs.emplace_back(cfi_graph(make_complete(4), false), cfi_graph(make_complete(4), true));
    pairs.emplace_back(make_cycle(6), make_graph(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}}));
    // Their complements: dense graphs, whose certificates are taken of the complement.
    for (std::size_t k = 0, n = pairs.size(); k < n; ++k)
        pairs.emplace_back(complement(pairs[k].first), complement(pairs[k].second));
    return pairs;
}

TEST(DedupInvariant, EqualOnRenumberedCopiesInEveryMode) {
    Rng rng(11);
    for (int t = 0; t < 200; ++t) {
        const Graph g = random_molecule(rng, 3, 25);
        const Graph h = coloured(g, rng, 3, 2);
        for (OrbitMode m : {OrbitMode::topology, OrbitMode::node_labels, OrbitMode::edge_labels}) {
            ASSERT_EQ(refinement_invariant(g, m), refinement_invariant(shuffled(g, rng), m));
            ASSERT_EQ(refinement_invariant(h, m), refinement_invariant(shuffled(h, rng), m));
        }
    }
}

TEST(DedupInvariant, SeparatesWhatRefinementSeparatesAndNotMore) {
    // Same n and m, different degrees: a path and a star on 4 vertices.
    const Graph path = make_path(4), star = make_graph(4, {{0, 1}, {0, 2}, {0, 3}});
    EXPECT_NE(refinement_invariant(path, OrbitMode::topology), refinement_invariant(star, OrbitMode::topology));
    // Same degree sequence, separated by refinement: a triangle with a 3-edge tail versus a square
    // with a 2-edge tail.
    const Graph a = make_graph(6, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}});
    const Graph b = make_graph(6, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {4, 5}});
    ASSERT_EQ(a.degree_sequence(), b.degree_sequence());
    EXPECT_NE(refinement_invariant(a, OrbitMode::topology), refinement_invariant(b, OrbitMode::topology));
    for (const auto& [g, h] : refinement_equivalent_pairs()) {
        ASSERT_NE(canonical_certificate(g), canonical_certificate(h));
        EXPECT_EQ(refinement_invariant(g, OrbitMode::topology), refinement_invariant(h, OrbitMode::topology));
    }
    // Labels count only in the label modes; an unlabelled graph equals one labelled all 0.
    Rng rng(5);
    const Graph lab = coloured(make_cycle(5), rng, 1, 0), one = coloured(make_cycle(5), rng, 2, 0);
    EXPECT_EQ(refinement_invariant(lab, OrbitMode::node_labels),
              refinement_invariant(make_cycle(5), OrbitMode::node_labels));
    EXPECT_EQ(refinement_invariant(one, OrbitMode::topology), refinement_invariant(make_cycle(5), OrbitMode::topology));
    GraphBuilder c5(5);
    for (VertexId v = 0; v < 5; ++v) c5.add_edge(v, (v + 1) % 5, v == 0 ? 1 : 0);
    const Graph edge_labelled = c5.build();
    EXPECT_EQ(refinement_invariant(edge_labelled, OrbitMode::node_labels),
              refinement_invariant(make_cycle(5), OrbitMode::node_labels));
    EXPECT_NE(refinement_invariant(edge_labelled, OrbitMode::edge_labels),
              refinement_invariant(make_cycle(5), OrbitMode::edge_labels));
}

TEST(DedupFastPath, EqualsEveryGraphsCertificateOnCollidingRandomInputs) {
    Rng rng(2026);
    for (int round = 0; round < 3; ++round) {
        std::vector<Graph> graphs;
        // Refinement-equivalent non-isomorphic pairs, in several labelled versions and copies.
        for (const auto& [g, h] : refinement_equivalent_pairs()) {
            for (int k = 0; k < 3; ++k) {
                graphs.push_back(shuffled(g, rng));
                graphs.push_back(shuffled(h, rng));
            }
            const Graph gl = coloured(g, rng, 2, 2);
            graphs.push_back(gl);
            graphs.push_back(shuffled(gl, rng));
            graphs.push_back(coloured(h, rng, 2, 2));
        }
        // Small molecules (many collide on size and shape), copies and label variants.
        for (int k = 0; k < 150; ++k) {
            const Graph g = random_molecule(rng, 4, 9);
            graphs.push_back(g);
            const auto r = rng.below(4);
            if (r == 0) graphs.push_back(shuffled(g, rng));
            if (r == 1) graphs.push_back(shuffled(coloured(g, rng, 2, 2), rng));
        }
        // Dense graphs (more than half of all edges) and complete ones.
        for (int k = 0; k < 40; ++k) {
            const Graph g = complement(random_molecule(rng, 4, 8));
            graphs.push_back(g);
            if (rng.below(2)) graphs.push_back(shuffled(coloured(g, rng, 2, 2), rng));
            if (rng.below(2)) graphs.push_back(shuffled(g, rng));
        }
        graphs.push_back(make_complete(6));
        graphs.push_back(coloured(make_complete(6), rng, 2, 0));
        graphs.push_back(shuffled(graphs.back(), rng));
        // Edgeless and tiny graphs.
        graphs.emplace_back();
        graphs.push_back(make_graph(1, {}));
        graphs.push_back(make_graph(3, {}));
        graphs.push_back(make_graph(3, {}));
        rng.shuffle(graphs);
        for (OrbitMode m : {OrbitMode::topology, OrbitMode::node_labels, OrbitMode::edge_labels})
            expect_orbits_match_certificates(graphs, m);
    }
}

TEST(DedupFastPath, RefinementEquivalentPairsStayApartAndCopiesJoin) {
    std::vector<Graph> graphs;
    Rng rng(9);
    for (const auto& [g, h] : refinement_equivalent_pairs()) {
        graphs.push_back(g);
        graphs.push_back(h);
        graphs.push_back(shuffled(h, rng));
    }
    RunContext ctx;
    const Orbits o = compute_orbits(graphs, OrbitMode::topology, ctx);
    for (std::size_t p = 0; p < graphs.size() / 3; ++p) {
        EXPECT_NE(o.orbit_of[3 * p], o.orbit_of[3 * p + 1]) << p;
        EXPECT_EQ(o.orbit_of[3 * p + 1], o.orbit_of[3 * p + 2]) << p;
    }
    EXPECT_EQ(o.size(), 2 * graphs.size() / 3);
}

}  // namespace
}  // namespace brec
