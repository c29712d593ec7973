// Adjacency bit rows: the round trip with the CSR graph, across word boundaries.
#include <gtest/gtest.h>

#include "brec/core/rng.hpp"
#include "brec/graph/dense_rows.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

TEST(DenseRows, RoundTripAcrossWordBoundaries) {
    Rng rng(5);
    for (VertexId n : {0u, 1u, 2u, 63u, 64u, 65u, 127u, 128u, 130u}) {
        const Graph g = testing::random_graph(n, 0.3, rng);
        const DenseRows r = dense_rows(g);
        EXPECT_EQ(r.words, (n + 63) / 64);
        EXPECT_EQ(r.edge_count(), g.m()) << n;
        for (VertexId u = 0; u < n; ++u)
            for (VertexId v = 0; v < n; ++v) ASSERT_EQ(r.has_edge(u, v), g.has_edge(u, v)) << n << " " << u << " " << v;
        EXPECT_EQ(graph_from_rows(r), g) << n;
    }
}

TEST(DenseRows, BitOrderIsNautys) {
    // Vertex w is bit 63 - w % 64 of word w / 64: the first vertex is the most significant bit.
    DenseRows r;
    r.reset(70);
    r.add_edge(0, 65);
    EXPECT_EQ(r.bits[0 * 2 + 1], std::uint64_t{1} << 62);
    EXPECT_EQ(r.bits[65 * 2 + 0], std::uint64_t{1} << 63);
    EXPECT_EQ(r.edge_count(), 1u);
}

}  // namespace
}  // namespace brec
