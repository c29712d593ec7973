#include "brec/iso/iso.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <thread>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pairs.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

const PairDataset& brec_pairs() {
    static const PairDataset ds = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    return ds;
}

TEST(Nauty, AutomorphismGroupOrdersOfKnownGraphs) {
    EXPECT_EQ(automorphisms(make_petersen()).order_text(), "120");
    EXPECT_EQ(automorphisms(make_complete(4)).order_text(), "24");
    EXPECT_EQ(automorphisms(make_cycle(6)).order_text(), "12");
    EXPECT_EQ(automorphisms(testing::rook_4x4()).order_text(), "1152");
    EXPECT_EQ(automorphisms(testing::shrikhande()).order_text(), "192");
    EXPECT_EQ(automorphisms(Graph()).order_text(), "1");
    // Isolated vertices: 5 isolated vertices have 5! automorphisms, all in one orbit.
    const auto iso5 = automorphisms(GraphBuilder(5).build());
    EXPECT_EQ(iso5.order_text(), "120");
    EXPECT_EQ(iso5.num_orbits, 1u);
    EXPECT_EQ(automorphisms(make_path(4)).num_orbits, 2u);
}

TEST(Nauty, EveryOfficialPairIsNonIsomorphic) {
    for (const auto& p : brec_pairs().pairs) EXPECT_FALSE(are_isomorphic(p.a, p.b)) << "pair " << p.id;
}

TEST(Nauty, RelabelingsOfOfficialGraphsShareTheCertificate) {
    // 50 random relabelings of each of the 800 graphs, spread over the machine's threads (each
    // graph has its own random stream, so the relabelings do not depend on the thread count).
    std::vector<const Graph*> graphs;
    for (const auto& p : brec_pairs().pairs) {
        graphs.push_back(&p.a);
        graphs.push_back(&p.b);
    }
    std::vector<int> agreed(graphs.size(), 0), canon_ok(graphs.size(), 0);
    const int threads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
    parallel_for(graphs.size(), threads, [&](std::size_t i) {
        Rng rng(stream_seed(2024, i));
        const Graph& g = *graphs[i];
        const Certificate c = canonical_certificate(g);
        for (int r = 0; r < 50; ++r)
            agreed[i] += canonical_certificate(permute(g, rng.permutation(g.n()))) == c ? 1 : 0;
        canon_ok[i] = canonical_graph(g) == canonical_graph(permute(g, rng.permutation(g.n())));
    });
    for (std::size_t i = 0; i < graphs.size(); ++i) {
        EXPECT_EQ(agreed[i], 50) << "pair " << i / 2 << (i % 2 ? " b" : " a");
        EXPECT_TRUE(canon_ok[i]) << "pair " << i / 2;
    }
    EXPECT_EQ(std::accumulate(agreed.begin(), agreed.end(), 0), 40000);
}

TEST(Nauty, NodeLabelsActAsColours) {
    GraphBuilder a(3), b(3);
    a.add_edge(0, 1);
    a.add_edge(1, 2);
    b.add_edge(0, 1);
    b.add_edge(1, 2);
    a.set_node_labels({5, 6, 5});  // label 6 in the middle
    b.set_node_labels({6, 5, 5});  // label 6 at an end
    const Graph ga = a.build(), gb = b.build();
    EXPECT_TRUE(are_isomorphic(ga, gb));  // topology only
    EXPECT_FALSE(are_isomorphic(ga, gb, IsoOptions().node_labels(true)));
    const Graph gc = permute(ga, {2, 1, 0});
    EXPECT_TRUE(are_isomorphic(ga, gc, IsoOptions().node_labels(true)));
    EXPECT_EQ(automorphisms(ga, IsoOptions().node_labels(true)).order_text(), "2");
    EXPECT_EQ(automorphisms(gb, IsoOptions().node_labels(true)).order_text(), "1");
}

TEST(Nauty, EdgeLabelsAreRespected) {
    // Triangle with labels (1,1,2) vs (1,2,2): same topology, different edge-label multisets.
    GraphBuilder a(3), b(3), c(3);
    a.add_edge(0, 1, 1);
    a.add_edge(1, 2, 1);
    a.add_edge(0, 2, 2);
    b.add_edge(0, 1, 1);
    b.add_edge(1, 2, 2);
    b.add_edge(0, 2, 2);
    c.add_edge(0, 1, 2);
    c.add_edge(1, 2, 1);
    c.add_edge(0, 2, 1);
    const Graph ga = a.build(), gb = b.build(), gc = c.build();
    const IsoOptions el = IsoOptions().edge_labels(true);
    EXPECT_TRUE(are_isomorphic(ga, gb));
    EXPECT_FALSE(are_isomorphic(ga, gb, el));
    EXPECT_TRUE(are_isomorphic(ga, gc, el));
    // Path 0-1-2 with labels (1,2) vs a path with (2,1) reversed: isomorphic; (1,1): not.
    EXPECT_EQ(canonical_certificate(ga, el), canonical_certificate(permute(ga, {1, 2, 0}), el));
}

TEST(Nauty, LargeGraphsAndThreadSafety) {
    Rng rng(77);
    const Graph big = testing::random_graph(2000, 0.004, rng);
    const Certificate c = canonical_certificate(big);
    EXPECT_EQ(canonical_certificate(permute(big, rng.permutation(big.n()))), c);
    // Concurrent calls agree with sequential ones.
    std::vector<Graph> graphs;
    for (const auto& p : brec_pairs().pairs)
        if (graphs.size() < 64) graphs.push_back(p.b);
    std::vector<Certificate> seq;
    for (const auto& g : graphs) seq.push_back(canonical_certificate(g));
    std::vector<Certificate> par(graphs.size());
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = static_cast<std::size_t>(t); i < graphs.size(); i += 4)
                par[i] = canonical_certificate(graphs[i]);
        });
    for (auto& th : pool) th.join();
    EXPECT_EQ(seq, par);
}

TEST(Nauty, GroupOrderAsNumberIsExact) {
    EXPECT_EQ(automorphisms(make_petersen()).order(), 120.0);
    EXPECT_EQ(automorphisms(make_complete(4)).order(), 24.0);
    EXPECT_EQ(automorphisms(make_cycle(6)).order(), 12.0);
    // K_20: 20! = 2432902008176640000 > 2^53, reported in scientific form.
    const auto k20 = automorphisms(make_complete(20));
    EXPECT_NEAR(k20.order() / 2432902008176640000.0, 1.0, 1e-12);
    EXPECT_EQ(k20.num_orbits, 1u);
    // Orbits of a path: {0,3}, {1,2}, represented by their smallest vertex.
    EXPECT_EQ(automorphisms(make_path(4)).orbits, (std::vector<VertexId>{0, 1, 1, 0}));
}

TEST(Nauty, IsolatedVerticesAndLargeGraphs) {
    // Graphs with isolated vertices: certificates are relabeling-invariant and count them.
    Rng rng(5);
    for (int t = 0; t < 20; ++t) {
        const Graph core = testing::random_graph(static_cast<VertexId>(5 + rng.below(30)), 0.2, rng);
        const Graph g = disjoint_union(core, GraphBuilder(static_cast<VertexId>(1 + rng.below(5))).build());
        const Certificate c = canonical_certificate(g);
        for (int r = 0; r < 5; ++r) EXPECT_EQ(canonical_certificate(permute(g, rng.permutation(g.n()))), c);
        EXPECT_NE(canonical_certificate(disjoint_union(g, GraphBuilder(1).build())), c);
    }
    // n = 2000 sparse random graph with isolated vertices; and a random cubic graph.
    const Graph big = disjoint_union(testing::random_graph(1990, 0.004, rng), GraphBuilder(10).build());
    ASSERT_EQ(big.n(), 2000u);
    EXPECT_TRUE(are_isomorphic(big, permute(big, rng.permutation(2000))));
    const Graph reg = testing::random_regular(300, 3, rng);
    const Graph reg2 = permute(reg, rng.permutation(300));
    EXPECT_EQ(canonical_certificate(reg), canonical_certificate(reg2));
    EXPECT_EQ(canonical_graph(reg), canonical_graph(reg2));
    // Above the limit: a clear ResourceLimit instead of a nauty abort.
    EXPECT_THROW(canonical_certificate(GraphBuilder(kMaxIsoVertices + 1).build()), ResourceLimit);
}

TEST(Nauty, ColouredCertificatesUnderRelabeling) {
    Rng rng(12);
    for (const auto& p : brec_pairs().pairs) {
        if (p.id % 40 != 0) continue;
        // Colour the vertices arbitrarily with 3 colours.
        std::vector<Label> lab(p.a.n());
        for (VertexId v = 0; v < p.a.n(); ++v) lab[v] = static_cast<Label>(rng.below(3));
        GraphBuilder b(p.a.n());
        for (const auto& [u, v] : p.a.edges()) b.add_edge(u, v);
        b.set_node_labels(lab);
        const Graph g = b.build();
        const IsoOptions col = IsoOptions().node_labels(true);
        const Certificate c = canonical_certificate(g, col);
        for (int r = 0; r < 10; ++r) EXPECT_EQ(canonical_certificate(permute(g, rng.permutation(g.n())), col), c);
        // Renaming the colour values changes the certificate (labels are values, not classes),
        // unless labels are ignored.
        std::vector<Label> shifted(lab);
        for (auto& x : shifted) x += 10;
        GraphBuilder b2(p.a.n());
        for (const auto& [u, v] : p.a.edges()) b2.add_edge(u, v);
        b2.set_node_labels(shifted);
        const Graph g2 = b2.build();
        EXPECT_NE(canonical_certificate(g2, col), c);
        EXPECT_EQ(canonical_certificate(g2), canonical_certificate(p.a));
        // Canonical graphs with colours are canonical: equal for relabelings, labels included.
        EXPECT_EQ(canonical_graph(g, col), canonical_graph(permute(g, rng.permutation(g.n())), col));
    }
}

TEST(Nauty, EdgeLabelledCanonicalGraphsAreCanonical) {
    // C6 with alternating edge labels 1,2 (automorphism group of the labelled graph: order 6).
    GraphBuilder b(6);
    for (VertexId i = 0; i < 6; ++i) b.add_edge(i, (i + 1) % 6, 1 + i % 2);
    const Graph g = b.build();
    const IsoOptions el = IsoOptions().edge_labels(true);
    EXPECT_EQ(automorphisms(g, el).order_text(), "6");
    EXPECT_EQ(automorphisms(g).order_text(), "12");
    Rng rng(4);
    const Graph canon = canonical_graph(g, el);
    for (int r = 0; r < 30; ++r) {
        const Graph h = permute(g, rng.permutation(6));
        EXPECT_EQ(canonical_graph(h, el), canon);
        EXPECT_TRUE(are_isomorphic(g, h, el));
    }
    // Labels all 0 are the same as no labels.
    GraphBuilder z(6);
    for (VertexId i = 0; i < 6; ++i) z.add_edge(i, (i + 1) % 6, 0);
    EXPECT_EQ(canonical_certificate(z.build(), el), canonical_certificate(make_cycle(6), el));
    // Node and edge labels together.
    GraphBuilder both(3);
    both.add_edge(0, 1, 1);
    both.add_edge(1, 2, 2);
    both.set_node_labels({7, 7, 7});
    const Graph gb = both.build();
    const IsoOptions all = IsoOptions().edge_labels(true).node_labels(true);
    EXPECT_TRUE(are_isomorphic(gb, permute(gb, {2, 1, 0}), all));
    EXPECT_EQ(automorphisms(gb, all).order_text(), "1");
}

TEST(Nauty, ManyThreadsAgreeWithOneThreadAndCallsDoNotInterfere) {
    // Mixed sizes, colours and edge labels from 8 threads, compared with sequential results.
    std::vector<Graph> graphs;
    std::vector<IsoOptions> opts;
    Rng rng(31);
    for (const auto& p : brec_pairs().pairs) {
        if (p.id % 5 != 0) continue;
        graphs.push_back(p.a);
        opts.push_back({});
        GraphBuilder b(p.b.n());
        for (const auto& [u, v] : p.b.edges()) b.add_edge(u, v, static_cast<Label>(rng.below(2)));
        std::vector<Label> lab(p.b.n());
        for (auto& x : lab) x = static_cast<Label>(rng.below(2));
        b.set_node_labels(lab);
        graphs.push_back(b.build());
        opts.push_back(IsoOptions().node_labels(true).edge_labels(true));
    }
    std::vector<Certificate> seq(graphs.size());
    for (std::size_t i = 0; i < graphs.size(); ++i) seq[i] = canonical_certificate(graphs[i], opts[i]);
    std::vector<Certificate> par(graphs.size());
    parallel_for(graphs.size(), 8, [&](std::size_t i) { par[i] = canonical_certificate(graphs[i], opts[i]); });
    EXPECT_EQ(seq, par);
    // After many calls on other graphs, a certificate is unchanged (no state carried over).
    EXPECT_EQ(canonical_certificate(graphs[0], opts[0]), seq[0]);
    EXPECT_EQ(canonical_certificate(graphs[1], opts[1]), seq[1]);
}

TEST(Nauty, CertificatesDifferAcrossSizesAndStructures) {
    EXPECT_NE(canonical_certificate(make_cycle(6)),
              canonical_certificate(disjoint_union(make_cycle(3), make_cycle(3))));
    EXPECT_NE(canonical_certificate(GraphBuilder(3).build()), canonical_certificate(GraphBuilder(4).build()));
    EXPECT_NE(canonical_certificate(testing::rook_4x4()), canonical_certificate(testing::shrikhande()));
}

}  // namespace
}  // namespace brec
