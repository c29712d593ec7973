// Rooted subgraphs as tensors (nn/subgraphs) and the reductions over them (nn/batch), on graphs
// small enough to write every index map by hand.
#include <gtest/gtest.h>

#include <vector>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/subgraphs.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

using nn::SubgraphPolicy;

std::vector<std::int64_t> values(const torch::Tensor& t) {
    const auto c = t.to(torch::kCPU).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}

using Ints = std::vector<std::int64_t>;

/// The arcs src → dst as sorted pairs (the order inside a subgraph is an implementation detail).
std::vector<std::pair<std::int64_t, std::int64_t>> arc_set(const nn::Adjacency& a) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    const auto s = values(a.src), d = values(a.dst);
    for (std::size_t k = 0; k < s.size(); ++k) out.emplace_back(s[k], d[k]);
    std::sort(out.begin(), out.end());
    return out;
}

/// Every arc appears in both directions and the CSR lists the same arcs by receiver.
void expect_consistent_adjacency(const nn::Adjacency& a) {
    auto arcs = arc_set(a);
    auto reversed = arcs;
    for (auto& [s, d] : reversed) std::swap(s, d);
    std::sort(reversed.begin(), reversed.end());
    EXPECT_EQ(arcs, reversed);
    const auto ptr = values(a.row_ptr), col = values(a.col);
    ASSERT_EQ(ptr.size(), static_cast<std::size_t>(a.rows) + 1);
    std::vector<std::pair<std::int64_t, std::int64_t>> from_csr;
    for (std::int64_t v = 0; v < a.rows; ++v)
        for (auto k = ptr[static_cast<std::size_t>(v)]; k < ptr[static_cast<std::size_t>(v) + 1]; ++k)
            from_csr.emplace_back(col[static_cast<std::size_t>(k)], v);
    std::sort(from_csr.begin(), from_csr.end());
    EXPECT_EQ(from_csr, arcs);
}

TEST(EgoBall, DistancesInBfsOrderAndBulkMatchesSingle) {
    const Graph p = make_path(5);  // 0-1-2-3-4
    const EgoBall b = ego_ball(p, 2, 1);
    EXPECT_EQ(b.vertices, (std::vector<VertexId>{2, 1, 3}));
    EXPECT_EQ(b.distances, (std::vector<std::int32_t>{0, 1, 1}));
    EXPECT_EQ(ego_ball(p, 0, 10).distances, (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(ego_ball(p, 0, 0).vertices, (std::vector<VertexId>{0}));
    Rng rng(3);
    const Graph g = testing::random_graph(12, 0.25, rng);
    for (std::uint32_t k : {0u, 1u, 2u, 5u}) {
        const auto balls = ego_balls(g, k);
        ASSERT_EQ(balls.size(), 12u);
        for (VertexId v = 0; v < 12; ++v) {
            const EgoBall one = ego_ball(g, v, k);
            EXPECT_EQ(balls[v].vertices, one.vertices);
            EXPECT_EQ(balls[v].distances, one.distances);
            EXPECT_EQ(one.vertices, ego_vertices(g, v, k));
            const auto d = bfs_distances(g, v);
            for (std::size_t i = 0; i < one.vertices.size(); ++i) EXPECT_EQ(one.distances[i], d[one.vertices[i]]);
        }
    }
    EXPECT_THROW(ego_ball(p, 5, 1), InvalidArgument);
    EXPECT_TRUE(ego_balls(Graph(), 3).empty());
}

TEST(SubgraphBatch, PathEgoNetsOfRadiusOne) {
    // 0-1-2: ego-nets {0,1}, {1,0,2}, {2,1}, root first then BFS order.
    const nn::SubgraphBatch b = nn::make_subgraph_batch({make_path(3)}, 0, 1, SubgraphPolicy::ego_net, 1, torch::kCPU);
    EXPECT_EQ(b.graphs, 1);
    EXPECT_EQ(b.nodes, 3);
    EXPECT_EQ(b.subgraphs, 3);
    EXPECT_EQ(b.copies, 7);
    EXPECT_EQ(values(b.copy_node), (Ints{0, 1, 1, 0, 2, 2, 1}));
    EXPECT_EQ(values(b.copy_subgraph), (Ints{0, 0, 1, 1, 1, 2, 2}));
    EXPECT_EQ(values(b.copy_distance), (Ints{0, 1, 0, 1, 1, 0, 1}));
    EXPECT_EQ(values(b.root_copy), (Ints{0, 2, 5}));
    EXPECT_EQ(values(b.node_graph), (Ints{0, 0, 0}));
    EXPECT_EQ(values(b.subgraph_graph), (Ints{0, 0, 0}));
    // Edges 0-1 in subgraph 0 (copies 0,1), 1-0 and 1-2 in subgraph 1 (copies 2,3,4), 2-1 in
    // subgraph 2 (copies 5,6); the edge 1-2 is not in the ball of 0.
    EXPECT_EQ(arc_set(b.copy_arcs), (std::vector<std::pair<std::int64_t, std::int64_t>>{
                                        {0, 1}, {1, 0}, {2, 3}, {2, 4}, {3, 2}, {4, 2}, {5, 6}, {6, 5}}));
    EXPECT_EQ(arc_set(b.arcs), (std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 1}, {1, 0}, {1, 2}, {2, 1}}));
    expect_consistent_adjacency(b.copy_arcs);
    expect_consistent_adjacency(b.arcs);
    EXPECT_EQ(b.copy_arcs.rows, 7);
    EXPECT_EQ(b.arcs.rows, 3);
}

TEST(SubgraphBatch, StarKeepsAllNodesAndOnlyTheBallsEdges) {
    // K1,3 with centre 0, radius 1, ego_edges: every subgraph holds copies of all 4 nodes in node
    // order; a leaf's subgraph keeps only its own edge, the other leaves are isolated copies.
    const Graph star = make_graph(4, {{0, 1}, {0, 2}, {0, 3}});
    const nn::SubgraphBatch b = nn::make_subgraph_batch({star}, 0, 1, SubgraphPolicy::ego_edges, 1, torch::kCPU);
    EXPECT_EQ(b.copies, 16);
    EXPECT_EQ(values(b.copy_node), (Ints{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
    EXPECT_EQ(values(b.copy_subgraph), (Ints{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
    EXPECT_EQ(values(b.copy_distance), (Ints{0, 1, 1, 1, 1, 0, -1, -1, 1, -1, 0, -1, 1, -1, -1, 0}));
    EXPECT_EQ(values(b.root_copy), (Ints{0, 5, 10, 15}));
    EXPECT_EQ(
        arc_set(b.copy_arcs),
        (std::vector<std::pair<std::int64_t, std::int64_t>>{
            {0, 1}, {0, 2}, {0, 3}, {1, 0}, {2, 0}, {3, 0}, {4, 5}, {5, 4}, {8, 10}, {10, 8}, {12, 15}, {15, 12}}));
    expect_consistent_adjacency(b.copy_arcs);
    // With radius 2 every subgraph is the whole star.
    const auto whole = nn::make_subgraph_batch({star}, 0, 1, SubgraphPolicy::ego_edges, 2, torch::kCPU);
    EXPECT_EQ(whole.copy_arcs.src.numel(), 4 * 6);
    EXPECT_EQ(values(whole.copy_distance), (Ints{0, 1, 1, 1, 1, 0, 2, 2, 1, 2, 0, 2, 1, 2, 2, 0}));
    // The ego_net policy on the same star: the centre's subgraph is the star, a leaf's an edge.
    const auto ego = nn::make_subgraph_batch({star}, 0, 1, SubgraphPolicy::ego_net, 1, torch::kCPU);
    EXPECT_EQ(values(ego.copy_node), (Ints{0, 1, 2, 3, 1, 0, 2, 0, 3, 0}));
    EXPECT_EQ(values(ego.root_copy), (Ints{0, 4, 6, 8}));
}

TEST(SubgraphBatch, DisconnectedGraphsAndBatchOffsets) {
    // Graph 0: edge 0-1 plus the isolated vertex 2; graph 1: the path 0-1-2. Radius 3 reaches every
    // vertex of a component and none of another.
    const std::vector<Graph> graphs{make_graph(3, {{0, 1}}), make_path(3)};
    const auto b = nn::make_subgraph_batch(graphs, 0, 2, SubgraphPolicy::ego_net, 3, torch::kCPU);
    EXPECT_EQ(b.graphs, 2);
    EXPECT_EQ(b.nodes, 6);
    EXPECT_EQ(values(b.node_graph), (Ints{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(values(b.copy_node), (Ints{0, 1, 1, 0, 2, 3, 4, 5, 4, 3, 5, 5, 4, 3}));
    EXPECT_EQ(values(b.copy_subgraph), (Ints{0, 0, 1, 1, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5}));
    EXPECT_EQ(values(b.copy_distance), (Ints{0, 1, 0, 1, 0, 0, 1, 2, 0, 1, 1, 0, 1, 2}));
    EXPECT_EQ(values(b.root_copy), (Ints{0, 2, 4, 5, 8, 11}));
    EXPECT_EQ(b.copy_arcs.src.numel(), 2 + 2 + 0 + 3 * 4);
    expect_consistent_adjacency(b.copy_arcs);
    // The same range from its second graph alone numbers from 0.
    const auto second = nn::make_subgraph_batch(graphs, 1, 2, SubgraphPolicy::ego_net, 3, torch::kCPU);
    EXPECT_EQ(values(second.copy_node), (Ints{0, 1, 2, 1, 0, 2, 2, 1, 0}));
    EXPECT_EQ(values(second.node_graph), (Ints{0, 0, 0}));
    // Keeping all nodes: the isolated vertex is a copy in every subgraph of its graph, at distance
    // −1 where it is outside the ball.
    const auto all = nn::make_subgraph_batch(graphs, 0, 1, SubgraphPolicy::ego_edges, 3, torch::kCPU);
    EXPECT_EQ(values(all.copy_distance), (Ints{0, 1, -1, 1, 0, -1, -1, -1, 0}));
    EXPECT_EQ(arc_set(all.copy_arcs),
              (std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 1}, {1, 0}, {3, 4}, {4, 3}}));
    // An empty range, and a range outside the list.
    EXPECT_EQ(nn::make_subgraph_batch(graphs, 1, 1, SubgraphPolicy::ego_net, 1, torch::kCPU).copies, 0);
    EXPECT_THROW(nn::make_subgraph_batch(graphs, 1, 3, SubgraphPolicy::ego_net, 1, torch::kCPU), InvalidArgument);
}

TEST(SubgraphBatch, EveryCopyIsInItsSubgraphsBallAndRelabelingsPermuteIt) {
    Rng rng(8);
    const Graph g = testing::random_graph(9, 0.3, rng);
    const auto dist = all_pairs_distances(g);
    for (SubgraphPolicy policy : {SubgraphPolicy::ego_net, SubgraphPolicy::ego_edges}) {
        const auto b = nn::make_subgraph_batch({g}, 0, 1, policy, 2, torch::kCPU);
        const auto node = values(b.copy_node), sub = values(b.copy_subgraph), d = values(b.copy_distance);
        for (std::size_t c = 0; c < node.size(); ++c) {
            const auto true_distance = dist[static_cast<std::size_t>(sub[c]) * 9 + static_cast<std::size_t>(node[c])];
            const bool in_ball = true_distance != kUnreachable && true_distance <= 2;
            EXPECT_EQ(d[c], in_ball ? true_distance : -1);
        }
        // Arcs join two copies of one subgraph, both in the ball, that are adjacent in g.
        const auto s = values(b.copy_arcs.src), t = values(b.copy_arcs.dst);
        for (std::size_t k = 0; k < s.size(); ++k) {
            const auto a = static_cast<std::size_t>(s[k]), z = static_cast<std::size_t>(t[k]);
            EXPECT_EQ(sub[a], sub[z]);
            EXPECT_GE(d[a], 0);
            EXPECT_GE(d[z], 0);
            EXPECT_TRUE(g.has_edge(static_cast<VertexId>(node[a]), static_cast<VertexId>(node[z])));
        }
        // Root copies are the copies at distance 0, the root copy of subgraph v is a copy of v.
        const auto roots = values(b.root_copy);
        for (std::size_t v = 0; v < roots.size(); ++v) {
            EXPECT_EQ(node[static_cast<std::size_t>(roots[v])], static_cast<std::int64_t>(v));
            EXPECT_EQ(d[static_cast<std::size_t>(roots[v])], 0);
        }
        EXPECT_EQ(b.copy_distance.eq(0).sum().item<std::int64_t>(), 9);
    }
}

TEST(NeighbourSum, CsrKernelMatchesGatherScatterWithGradients) {
    Rng rng(4);
    const Graph g = testing::random_graph(30, 0.2, rng);
    const auto b = nn::make_subgraph_batch({g, testing::random_graph(30, 0.1, rng)}, 0, 2, SubgraphPolicy::ego_net, 2,
                                           torch::kCPU);
    torch::manual_seed(0);
    for (const auto dtype : {torch::kFloat, torch::kDouble}) {
        const auto x = torch::randn({b.copies, 5}, torch::TensorOptions().dtype(dtype)).requires_grad_(true);
        const auto y = torch::randn({b.copies, 5}, torch::TensorOptions().dtype(dtype));
        const auto fast = nn::neighbour_sum(x, b.copy_arcs);
        const auto plain = nn::neighbour_sum(x, b.copy_arcs.src, b.copy_arcs.dst);
        EXPECT_TRUE(torch::allclose(fast, plain, 1e-6, 1e-6));
        const auto g_fast = torch::autograd::grad({(fast * y).sum()}, {x})[0];
        const auto g_plain = torch::autograd::grad({(plain * y).sum()}, {x})[0];
        EXPECT_TRUE(torch::allclose(g_fast, g_plain, 1e-6, 1e-6));
    }
    // Per-row sums in a fixed order: the thread count does not change a bit.
    const auto x = torch::randn({b.copies, 7});
    const int before = at::get_num_threads();
    at::set_num_threads(1);
    const auto one = nn::neighbour_sum(x, b.copy_arcs);
    at::set_num_threads(2);
    EXPECT_TRUE(torch::equal(one, nn::neighbour_sum(x, b.copy_arcs)));
    at::set_num_threads(before);
    EXPECT_THROW(nn::neighbour_sum(torch::zeros({3, 2}), b.copy_arcs), InvalidArgument);
    EXPECT_THROW(nn::make_adjacency(torch::tensor({0, 5}, torch::kLong), torch::tensor({1, 0}, torch::kLong), 2),
                 InvalidArgument);
}

TEST(NeighbourSum, CsrKernelIsEachRowsSumInArcOrderForEveryWidth) {
    // Widths below, at and between the kernel's register blocks: every row is the float sum of its
    // senders' rows in the order of the arc list, bit for bit.
    Rng rng(9);
    const Graph g = testing::random_graph(40, 0.15, rng);
    const nn::SparseBatch b = nn::make_sparse_batch({g}, 0, 1, torch::kCPU);
    const nn::Adjacency adj = nn::make_adjacency(b.src, b.dst, b.nodes);
    const auto src = values(b.src), dst = values(b.dst);
    torch::manual_seed(3);
    for (const std::int64_t width : {1, 3, 8, 16, 33, 70}) {
        const auto x = torch::randn({b.nodes, width});
        auto expected = torch::zeros({b.nodes, width});
        const auto xa = x.accessor<float, 2>();
        auto ea = expected.accessor<float, 2>();
        for (std::size_t k = 0; k < src.size(); ++k)
            for (std::int64_t j = 0; j < width; ++j) ea[dst[k]][j] += xa[src[k]][j];
        EXPECT_TRUE(torch::equal(nn::neighbour_sum(x, adj), expected)) << "width " << width;
    }
}

TEST(GatherRows, ForwardAndGradientAreIndexSelectsBitForBit) {
    torch::manual_seed(5);
    // Repeated rows, and rows 3 and 11 never gathered (their gradient is 0).
    auto index = torch::randint(0, 10, {300}, torch::kLong);
    index = torch::cat(
        {torch::where(index == 3, torch::full_like(index, 4), index), torch::tensor({10, 10, 0}, torch::kLong)});
    for (const auto& shape : std::vector<std::vector<std::int64_t>>{{12}, {12, 5}, {12, 40}, {12, 3, 2}}) {
        const auto x = (torch::randn(shape) * 100).requires_grad_(true);
        std::vector<std::int64_t> out_shape = shape;
        out_shape[0] = index.size(0);
        const auto y = torch::randn(out_shape);
        const auto ours = nn::gather_rows(x, index);
        const auto theirs = x.index_select(0, index);
        EXPECT_TRUE(torch::equal(ours, theirs));
        const auto g_ours = torch::autograd::grad({(ours * y).sum()}, {x})[0];
        const auto g_theirs = torch::autograd::grad({(theirs * y).sum()}, {x})[0];
        EXPECT_TRUE(torch::equal(g_ours, g_theirs)) << "rows of " << x.numel() / 12 << " values";
        EXPECT_EQ(g_ours[3].abs().sum().item<float>(), 0.0f);
        EXPECT_EQ(g_ours[11].abs().sum().item<float>(), 0.0f);
    }
    EXPECT_THROW(nn::gather_rows(torch::zeros({4, 2}, torch::requires_grad()), torch::tensor({0, 4}, torch::kLong)),
                 std::exception);
}

TEST(GatherRowsSum, ForwardAndGradientAreIndexSelectThenSumBitForBit) {
    torch::manual_seed(6);
    for (const std::int64_t k : {1, 4, 7}) {
        // Rows 2 and 9 never gathered (their gradient is 0); large values so that rounding shows.
        auto index = torch::randint(0, 8, {500, k}, torch::kLong);
        index = torch::where(index == 2, torch::full_like(index, 8), index);
        for (const auto& shape : std::vector<std::vector<std::int64_t>>{{10}, {10, 5}, {10, 32}, {10, 3, 2}}) {
            for (const auto type : {torch::kFloat, torch::kDouble}) {
                const auto x = (torch::randn(shape, type) * 1000).requires_grad_(true);
                std::vector<std::int64_t> view{index.size(0), k};
                view.insert(view.end(), shape.begin() + 1, shape.end());
                const auto theirs = x.index_select(0, index.reshape(-1)).view(view).sum(1);
                const auto ours = nn::gather_rows_sum(x, index);
                ASSERT_EQ(ours.sizes(), theirs.sizes());
                EXPECT_TRUE(torch::equal(ours, theirs)) << "k " << k << ", " << x.numel() / 10 << " values per row";
                const auto y = torch::randn(theirs.sizes(), type);
                const auto g_ours = torch::autograd::grad({(ours * y).sum()}, {x})[0];
                const auto g_theirs = torch::autograd::grad({(theirs * y).sum()}, {x})[0];
                EXPECT_TRUE(torch::equal(g_ours, g_theirs)) << "k " << k << ", " << x.numel() / 10 << " values per row";
                EXPECT_EQ(g_ours[2].abs().sum().item<double>(), 0.0);
                EXPECT_EQ(g_ours[9].abs().sum().item<double>(), 0.0);
                torch::NoGradGuard no_grad;
                EXPECT_TRUE(torch::equal(nn::gather_rows_sum(x, index), theirs));
            }
        }
    }
    {
        // The gradient as a concatenation hands it back: a column slice, read in place.
        const auto x = (torch::randn({10, 32}) * 1000).requires_grad_(true);
        const auto index = torch::randint(0, 10, {300, 4}, torch::kLong);
        const auto other = torch::randn({300, 16});
        const auto y = torch::randn({300, 48});
        const auto theirs = x.index_select(0, index.reshape(-1)).view({300, 4, 32}).sum(1);
        const auto g_ours =
            torch::autograd::grad({(torch::cat({nn::gather_rows_sum(x, index), other}, 1) * y).sum()}, {x})[0];
        const auto g_theirs = torch::autograd::grad({(torch::cat({theirs, other}, 1) * y).sum()}, {x})[0];
        EXPECT_TRUE(torch::equal(g_ours, g_theirs));
    }
    const auto x = torch::zeros({4, 2}, torch::requires_grad());
    EXPECT_THROW(nn::gather_rows_sum(x, torch::tensor({{0, 4}}, torch::kLong)), InvalidArgument);
    EXPECT_THROW(nn::gather_rows_sum(x, torch::tensor({{-1, 0}}, torch::kLong)), InvalidArgument);
    EXPECT_THROW(nn::gather_rows_sum(x, torch::tensor({0, 1}, torch::kLong)), InvalidArgument);
}

TEST(GroupSum, MatchesScatterAndDoesNotDependOnTheOrderOfTheRows) {
    torch::manual_seed(1);
    const auto index = torch::tensor({2, 0, 2, 2, 0, 3}, torch::kLong);
    const nn::Grouping g = nn::make_grouping(index, 4);
    EXPECT_EQ(values(g.ptr), (Ints{0, 2, 2, 5, 6}));
    EXPECT_EQ(values(g.members), (Ints{1, 4, 0, 2, 3, 5}));
    EXPECT_TRUE(torch::equal(g.inverse_count, torch::tensor({0.5f, 0.0f, 1.0f / 3, 1.0f}).view({4, 1})));
    const auto x = (torch::randn({6, 3}) * 1000).requires_grad_(true);
    const auto y = torch::randn({4, 3});
    const auto sum = nn::group_sum(x, g);
    EXPECT_TRUE(torch::allclose(sum, nn::scatter_sum(x, index, 4), 1e-5, 1e-3));
    EXPECT_TRUE(torch::allclose(nn::group_mean(x, g), nn::scatter_mean(x, index, 4), 1e-5, 1e-3));
    const auto grad = torch::autograd::grad({(sum * y).sum()}, {x})[0];
    EXPECT_TRUE(torch::equal(grad, y.index_select(0, index)));
    // The same rows listed in another order give the same bits.
    const auto perm = torch::tensor({5, 3, 1, 0, 4, 2}, torch::kLong);
    const nn::Grouping h = nn::make_grouping(index.index_select(0, perm), 4);
    EXPECT_TRUE(torch::equal(nn::group_sum(x.index_select(0, perm), h), sum));
    EXPECT_THROW(nn::group_sum(torch::zeros({5, 3}), g), InvalidArgument);
    EXPECT_THROW(nn::make_grouping(torch::tensor({0, 4}, torch::kLong), 4), InvalidArgument);
}

TEST(Scatter, SumMeanMaxAndInverseCounts) {
    const auto src = torch::tensor({1.0f, 2.0f, 3.0f, -4.0f}).view({4, 1});
    const auto index = torch::tensor({0, 0, 2, 2}, torch::kLong);
    EXPECT_TRUE(torch::equal(nn::scatter_sum(src, index, 3), torch::tensor({3.0f, 0.0f, -1.0f}).view({3, 1})));
    EXPECT_TRUE(torch::equal(nn::scatter_mean(src, index, 3), torch::tensor({1.5f, 0.0f, -0.5f}).view({3, 1})));
    EXPECT_TRUE(torch::equal(nn::scatter_max(src, index, 3), torch::tensor({2.0f, 0.0f, 3.0f}).view({3, 1})));
    const auto inv = nn::inverse_counts(index, 3, src.options());
    EXPECT_TRUE(torch::equal(inv, torch::tensor({0.5f, 0.0f, 0.5f}).view({3, 1})));
    EXPECT_TRUE(torch::equal(nn::scatter_sum(src, index, 3) * inv, nn::scatter_mean(src, index, 3)));
}

}  // namespace
}  // namespace brec
