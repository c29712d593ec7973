#include "brec/graph/graph.hpp"

#include <gtest/gtest.h>

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
    EXPECT_FALSE(four_vertex_constants(make_graph(5, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {0, 4}})).has_value());
}

}  // namespace
}  // namespace brec
