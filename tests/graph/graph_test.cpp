#include "brec/graph/graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/properties.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

TEST(Graph, EmptyAndSingleVertex) {
    const Graph empty;
    EXPECT_EQ(empty.n(), 0u);
    EXPECT_EQ(empty.m(), 0u);
    EXPECT_TRUE(is_connected(empty));
    const Graph one = GraphBuilder(1).build();
    EXPECT_EQ(one.n(), 1u);
    EXPECT_EQ(one.degree(0), 0u);
    EXPECT_TRUE(is_connected(one));
}

TEST(Graph, BuilderSortsAndStoresBothDirections) {
    GraphBuilder b(4);
    b.add_edge(3, 0);
    b.add_edge(1, 0);
    b.add_edge(2, 1);
    const Graph g = b.build();
    EXPECT_EQ(g.m(), 3u);
    const auto nb = g.neighbors(0);
    ASSERT_EQ(nb.size(), 2u);
    EXPECT_EQ(nb[0], 1u);
    EXPECT_EQ(nb[1], 3u);
    EXPECT_TRUE(g.has_edge(0, 3));
    EXPECT_TRUE(g.has_edge(3, 0));
    EXPECT_FALSE(g.has_edge(0, 2));
    EXPECT_FALSE(g.has_edge(0, 99));
    EXPECT_EQ(g.edges(), (std::vector<Edge>{{0, 1}, {0, 3}, {1, 2}}));
}

TEST(Graph, SelfLoopsAndDuplicatesRejectedOrCounted) {
    {
        GraphBuilder b(3);
        b.add_edge(1, 1);
        try {
            b.build();
            FAIL();
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("self-loop at vertex 1"), std::string::npos);
        }
    }
    {
        GraphBuilder b(3);
        b.add_edge(0, 1);
        b.add_edge(1, 0);
        EXPECT_THROW(b.build(), InvalidArgument);
        b.set_duplicates(EdgePolicy::drop).set_self_loops(EdgePolicy::drop);
        b.add_edge(2, 2);
        BuildStats st;
        const Graph g = b.build(&st);
        EXPECT_EQ(g.m(), 1u);
        EXPECT_EQ(st.duplicate_edges, 1u);
        EXPECT_EQ(st.self_loops, 1u);
    }
    {
        // TU-style input: both directions listed is not a duplicate; a repeated arc is.
        GraphBuilder b(3);
        b.set_symmetric_input(true).set_duplicates(EdgePolicy::drop);
        b.add_edge(0, 1);
        b.add_edge(1, 0);
        b.add_edge(1, 2);
        b.add_edge(1, 2);
        BuildStats st;
        const Graph g = b.build(&st);
        EXPECT_EQ(g.m(), 2u);
        EXPECT_EQ(st.duplicate_edges, 1u);
    }
    {
        GraphBuilder b(2);
        b.add_edge(0, 2);
        try {
            b.build();
            FAIL();
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos);
        }
    }
}

TEST(Graph, EdgeAndNodeLabelsFollowPermutation) {
    GraphBuilder b(3);
    b.add_edge(0, 1, 7);
    b.add_edge(1, 2, 9);
    b.set_node_labels({10, 20, 30});
    const Graph g = b.build();
    EXPECT_EQ(g.edge_label(1, 0), 7);
    EXPECT_EQ(g.edge_label(2, 1), 9);
    const Graph h = permute(g, {2, 0, 1});  // old 0 -> 2, old 1 -> 0, old 2 -> 1
    EXPECT_EQ(h.node_label(2), 10);
    EXPECT_EQ(h.node_label(0), 20);
    EXPECT_EQ(h.edge_label(2, 0), 7);
    EXPECT_EQ(h.edge_label(0, 1), 9);
    EXPECT_THROW(permute(g, {0, 0, 1}), InvalidArgument);
    EXPECT_THROW(permute(g, {0, 1}), InvalidArgument);
}

TEST(Graph, PermuteTwiceWithInverseIsIdentity) {
    Rng rng(5);
    const Graph g = testing::random_graph(30, 0.2, rng);
    const auto p = rng.permutation(g.n());
    EXPECT_EQ(permute(permute(g, p), inverse(p)), g);
    EXPECT_EQ(permute(g, p).degree_sequence(), g.degree_sequence());
}

TEST(Graph, DistancesEgoNetsAndComponents) {
    const Graph p5 = make_path(5);
    EXPECT_EQ(bfs_distances(p5, 0), (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
    const Graph two = disjoint_union(make_cycle(3), make_path(2));
    EXPECT_EQ(bfs_distances(two, 0)[3], kUnreachable);
    std::uint32_t count = 0;
    const auto comp = connected_components(two, &count);
    EXPECT_EQ(count, 2u);
    EXPECT_EQ(comp[4], comp[3]);
    EXPECT_FALSE(is_connected(two));
    const Graph ego = ego_net(make_cycle(8), 0, 2);
    EXPECT_EQ(ego.n(), 5u);
    EXPECT_EQ(ego.m(), 4u);  // a path of 5 vertices around vertex 0
    EXPECT_EQ(ego.degree(0), 2u);
    const auto d = all_pairs_distances(make_petersen());
    for (VertexId a = 0; a < 10; ++a)
        for (VertexId b = 0; b < 10; ++b) EXPECT_LE(d[a * 10 + b], 2);  // diameter 2
}

TEST(Graph, InducedSubgraphAndComplement) {
    const Graph k5 = make_complete(5);
    const Graph sub = induced_subgraph(k5, {4, 2, 0});
    EXPECT_EQ(sub.n(), 3u);
    EXPECT_EQ(sub.m(), 3u);
    EXPECT_THROW(induced_subgraph(k5, {1, 1}), InvalidArgument);
    EXPECT_EQ(complement(k5).m(), 0u);
    EXPECT_EQ(complement(make_cycle(5)).m(), 5u);  // C5 is self-complementary
}

TEST(Graph, DegreeSequenceRegularityAndAdjacencyMatrix) {
    const Graph star = make_graph(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
    EXPECT_EQ(star.degree_sequence(), (std::vector<std::uint32_t>{4, 1, 1, 1, 1}));
    EXPECT_EQ(star.max_degree(), 4u);
    EXPECT_EQ(star.min_degree(), 1u);
    EXPECT_FALSE(star.is_regular());
    EXPECT_TRUE(make_petersen().is_regular());
    EXPECT_TRUE(Graph().is_regular());
    EXPECT_EQ(Graph().min_degree(), 0u);
    const auto a = make_path(3).adjacency_matrix();
    EXPECT_EQ(a, (std::vector<std::uint8_t>{0, 1, 0, 1, 0, 1, 0, 1, 0}));
    // The handshake lemma on random graphs.
    Rng rng(8);
    for (int t = 0; t < 20; ++t) {
        const Graph g = testing::random_graph(static_cast<VertexId>(1 + rng.below(40)), rng.uniform(), rng);
        std::size_t sum = 0;
        for (auto d : g.degree_sequence()) sum += d;
        EXPECT_EQ(sum, 2 * g.m());
        EXPECT_EQ(g.edges().size(), g.m());
    }
    EXPECT_THROW(make_path(3).edge_label(0, 2), InvalidArgument);
}

TEST(Graph, BuilderLabelsAndSymmetricInputEdgeCases) {
    {
        // Labels travel with both arcs; unlabelled edges mixed in get label 0.
        GraphBuilder b(4);
        b.add_edge(3, 1);
        b.add_edge(0, 3, 4);
        const Graph g = b.build();
        EXPECT_EQ(g.edge_label(1, 3), 0);
        EXPECT_EQ(g.edge_label(3, 0), 4);
    }
    {
        // Both directions with different labels: a conflict, named.
        GraphBuilder b(2);
        b.set_symmetric_input(true);
        b.add_edge(0, 1, 1);
        b.add_edge(1, 0, 2);
        try {
            b.build();
            FAIL();
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("listed with labels 1 and 2"), std::string::npos);
        }
    }
    {
        // Symmetric input where only one direction is given keeps the edge.
        GraphBuilder b(3);
        b.set_symmetric_input(true);
        b.add_edge(2, 0);
        EXPECT_EQ(b.build().edges(), (std::vector<Edge>{{0, 2}}));
    }
    {
        GraphBuilder b(3);
        b.set_node_labels({1, 2});
        EXPECT_THROW(b.build(), InvalidArgument);
        b.ensure_vertices(2);
        EXPECT_EQ(b.n(), 3u);
        b.ensure_vertices(5);
        EXPECT_EQ(b.n(), 5u);
    }
}

TEST(Graph, BfsDistancesMatchFloydWarshall) {
    Rng rng(21);
    for (int t = 0; t < 30; ++t) {
        const VertexId n = static_cast<VertexId>(1 + rng.below(25));
        const Graph g = testing::random_graph(n, 0.12, rng);
        std::vector<std::int32_t> fw(n * n, 1 << 20);
        for (VertexId v = 0; v < n; ++v) fw[v * n + v] = 0;
        for (const auto& [u, v] : g.edges()) fw[u * n + v] = fw[v * n + u] = 1;
        for (VertexId k = 0; k < n; ++k)
            for (VertexId i = 0; i < n; ++i)
                for (VertexId j = 0; j < n; ++j) fw[i * n + j] = std::min(fw[i * n + j], fw[i * n + k] + fw[k * n + j]);
        for (auto& d : fw)
            if (d >= (1 << 20)) d = kUnreachable;
        EXPECT_EQ(all_pairs_distances(g), fw);
        // The k-hop ego-net holds exactly the vertices within distance k, root first.
        const VertexId root = static_cast<VertexId>(rng.below(n));
        for (std::uint32_t k = 0; k < 4; ++k) {
            const auto ego = ego_vertices(g, root, k);
            ASSERT_FALSE(ego.empty());
            EXPECT_EQ(ego[0], root);
            std::vector<VertexId> want;
            for (VertexId v = 0; v < n; ++v)
                if (fw[root * n + v] != kUnreachable && fw[root * n + v] <= static_cast<std::int32_t>(k))
                    want.push_back(v);
            auto got = ego;
            std::sort(got.begin(), got.end());
            EXPECT_EQ(got, want);
            // The ego-net is the induced subgraph on those vertices.
            const Graph e = ego_net(g, root, k);
            EXPECT_EQ(e.n(), ego.size());
            for (VertexId a = 0; a < e.n(); ++a)
                for (VertexId b = 0; b < e.n(); ++b) EXPECT_EQ(e.has_edge(a, b), g.has_edge(ego[a], ego[b]));
        }
    }
    EXPECT_THROW(bfs_distances(make_path(3), 3), InvalidArgument);
    EXPECT_THROW(ego_vertices(make_path(3), 7, 1), InvalidArgument);
    EXPECT_THROW(bfs_distances(Graph(), 0), InvalidArgument);
}

TEST(Graph, EgoNetsOfKnownGraphs) {
    const Graph p = make_petersen();
    const Graph e1 = ego_net(p, 3, 1);
    EXPECT_EQ(e1.n(), 4u);  // a vertex and its 3 neighbours (girth 5: no edges among them)
    EXPECT_EQ(e1.m(), 3u);
    EXPECT_EQ(e1.degree(0), 3u);
    EXPECT_EQ(ego_net(p, 3, 2).n(), 10u);  // diameter 2
    EXPECT_EQ(ego_net(p, 3, 2).m(), 15u);
    // Isolated vertices: the ego-net of an isolated vertex is a single vertex.
    const Graph g = disjoint_union(make_cycle(4), GraphBuilder(2).build());
    EXPECT_EQ(ego_net(g, 5, 3).n(), 1u);
    EXPECT_EQ(ego_net(g, 0, 0).n(), 1u);
    // Node labels come along; the root's label is first.
    GraphBuilder b(3);
    b.add_edge(0, 1);
    b.add_edge(1, 2);
    b.set_node_labels({10, 11, 12});
    EXPECT_EQ(ego_net(b.build(), 2, 1).node_labels(), (std::vector<Label>{12, 11}));
}

TEST(Graph, ComponentsWithIsolatedVerticesAndUnionLabels) {
    const Graph g = disjoint_union(make_path(3), GraphBuilder(3).build());
    std::uint32_t count = 0;
    const auto comp = connected_components(g, &count);
    EXPECT_EQ(count, 4u);
    EXPECT_EQ(comp, (std::vector<std::uint32_t>{0, 0, 0, 1, 2, 3}));
    EXPECT_FALSE(is_connected(g));
    EXPECT_TRUE(is_connected(make_petersen()));
    // disjoint_union keeps node and edge labels of both sides.
    GraphBuilder a(2), b(2);
    a.add_edge(0, 1, 5);
    b.add_edge(0, 1);
    b.set_node_labels({3, 4});
    const Graph u = disjoint_union(a.build(), b.build());
    EXPECT_EQ(u.edge_label(0, 1), 5);
    EXPECT_EQ(u.edge_label(2, 3), 0);
    EXPECT_EQ(u.node_labels(), (std::vector<Label>{0, 0, 3, 4}));
    // The complement of the complement is the graph.
    Rng rng(3);
    const Graph r = testing::random_graph(17, 0.4, rng);
    EXPECT_EQ(complement(complement(r)), r);
    EXPECT_EQ(complement(r).m() + r.m(), 17u * 16u / 2u);
}

TEST(Graph, InducedSubgraphKeepsOrderAndLabels) {
    GraphBuilder b(4);
    b.add_edge(0, 1, 1);
    b.add_edge(1, 2, 2);
    b.add_edge(2, 3, 3);
    b.set_node_labels({5, 6, 7, 8});
    const Graph g = b.build();
    const Graph s = induced_subgraph(g, {2, 1, 3});
    EXPECT_EQ(s.node_labels(), (std::vector<Label>{7, 6, 8}));
    EXPECT_EQ(s.edge_label(0, 1), 2);  // old {2,1}
    EXPECT_EQ(s.edge_label(0, 2), 3);  // old {2,3}
    EXPECT_FALSE(s.has_edge(1, 2));
    EXPECT_EQ(induced_subgraph(g, {}).n(), 0u);
    EXPECT_THROW(induced_subgraph(g, {4}), InvalidArgument);
    // A permutation is an isomorphism: adjacency is preserved exactly.
    Rng rng(6);
    const Graph r = testing::random_graph(20, 0.3, rng);
    const auto p = rng.permutation(20);
    const Graph q = permute(r, p);
    for (VertexId u = 0; u < 20; ++u)
        for (VertexId v = 0; v < 20; ++v) EXPECT_EQ(r.has_edge(u, v), q.has_edge(p[u], p[v]));
    EXPECT_EQ(inverse(inverse(p)), p);
}

TEST(GraphProperties, StronglyRegularParameters) {
    const auto p = srg_parameters(make_petersen());
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->str(), "srg(10,3,0,1)");
    EXPECT_EQ(srg_parameters(testing::rook_4x4())->str(), "srg(16,6,2,2)");
    EXPECT_EQ(srg_parameters(testing::shrikhande())->str(), "srg(16,6,2,2)");
    EXPECT_FALSE(srg_parameters(make_cycle(6)).has_value());
    EXPECT_FALSE(srg_parameters(make_complete(5)).has_value());
    EXPECT_TRUE(srg_parameters(make_cycle(5)).has_value());  // C5 = srg(5,2,0,1)
}

TEST(GraphProperties, IntersectionArrays) {
    EXPECT_EQ(intersection_array(make_petersen())->str(), "{3,2;1,1}");
    EXPECT_EQ(intersection_array(make_cycle(6))->str(), "{2,1,1;1,1,2}");
    EXPECT_FALSE(intersection_array(make_path(4)).has_value());
    EXPECT_FALSE(intersection_array(disjoint_union(make_cycle(3), make_cycle(3))).has_value());
}

TEST(GraphProperties, FourVertexCondition) {
    // Rook's graph: adjacent x,y have common neighbours forming an edge? In L2(4) two adjacent
    // vertices share 2 neighbours on their line, which are adjacent: 1 edge; non-adjacent share 2
    // non-adjacent neighbours: 0 edges.
    const auto rook = four_vertex_constants(testing::rook_4x4());
    ASSERT_TRUE(rook.has_value());
    EXPECT_EQ(rook->first, 1u);
    EXPECT_EQ(rook->second, 0u);
    // K4 with a pendant vertex: adjacent pairs see 1 edge (0,1) or none (0,4).
    EXPECT_FALSE(
        four_vertex_constants(make_graph(5, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {0, 4}})).has_value());
}

}  // namespace
}  // namespace brec
