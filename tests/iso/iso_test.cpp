#include "brec/iso/iso.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "brec/core/error.hpp"
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
    Rng rng(2024);
    std::size_t checked = 0;
    for (const auto& p : brec_pairs().pairs)
        for (const Graph* g : {&p.a, &p.b}) {
            const Certificate c = canonical_certificate(*g);
            // 50 random relabelings of each of the 800 graphs.
            const int reps = 50;
            for (int r = 0; r < reps; ++r) {
                const Graph h = permute(*g, rng.permutation(g->n()));
                ASSERT_EQ(canonical_certificate(h), c) << "pair " << p.id;
                ++checked;
            }
            EXPECT_EQ(canonical_graph(*g), canonical_graph(permute(*g, rng.permutation(g->n()))));
        }
    EXPECT_GT(checked, 20000u);
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
            for (std::size_t i = static_cast<std::size_t>(t); i < graphs.size(); i += 4) par[i] = canonical_certificate(graphs[i]);
        });
    for (auto& th : pool) th.join();
    EXPECT_EQ(seq, par);
}

TEST(Nauty, CertificatesDifferAcrossSizesAndStructures) {
    EXPECT_NE(canonical_certificate(make_cycle(6)), canonical_certificate(disjoint_union(make_cycle(3), make_cycle(3))));
    EXPECT_NE(canonical_certificate(GraphBuilder(3).build()), canonical_certificate(GraphBuilder(4).build()));
    EXPECT_NE(canonical_certificate(testing::rook_4x4()), canonical_certificate(testing::shrikhande()));
}

}  // namespace
}  // namespace brec
