// The K-hop view of KP-GNN (graph/khop.hpp): peripheral counts of textbook graphs worked out by hand,
// a dense re-derivation (Floyd–Warshall on adjacency matrices, as the released code's matrix
// formulation reads) on random graphs, and invariance under relabeling.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/khop.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

using brec::KHopGraph;
constexpr int kWidth = kPeripheralHops + 1;

std::array<std::int64_t, kWidth> config_row(const KHopGraph& k, VertexId v, int hop) {
    std::array<std::int64_t, kWidth> row{};
    const std::size_t at = (static_cast<std::size_t>(v) * k.hops + (hop - 1)) * kWidth;
    std::copy_n(k.configuration.begin() + static_cast<std::ptrdiff_t>(at), kWidth, row.begin());
    return row;
}

std::int64_t edge_row(const KHopGraph& k, VertexId v, int hop) {
    return k.peripheral_edges[static_cast<std::size_t>(v) * k.hops + (hop - 1)];
}

TEST(KHop, CompleteGraphNeighbourhoodsAreTriangles) {
    // K4: the neighbours of a vertex form a triangle: 6 directed edges, 6 ordered pairs at distance
    // 1; from each of its 3 vertices the other two are at distance 1 and adjacent: 3 · 4 = 12.
    const KHopGraph k = khop_graph(make_complete(4), 2);
    for (VertexId v = 0; v < 4; ++v) {
        EXPECT_EQ(edge_row(k, v, 1), 6);
        EXPECT_EQ(config_row(k, v, 1), (std::array<std::int64_t, kWidth>{12, 6, 0, 0, 0}));
        EXPECT_EQ(edge_row(k, v, 2), 0);  // nothing at distance 2
    }
    EXPECT_EQ(k.src.size(), 12u);  // every ordered pair at distance 1
}

TEST(KHop, RookAndShrikhandeDifferInTheirNeighbourhoods) {
    // srg(16, 6, 2, 2) twice. In the 4×4 rook's graph a vertex's neighbours form two disjoint
    // triangles (its row and its column): 12 directed edges, 12 ordered pairs at distance 1, none
    // further (the triangles are apart), and from each vertex its two triangle-mates, adjacent:
    // 6 · 4 = 24. In the Shrikhande graph they form a 6-cycle: 12 directed edges, ordered pairs at
    // distance 1, 2, 3: 12, 12, 6, and no two vertices at equal distance from a third are adjacent.
    const KHopGraph rook = khop_graph(testing::rook_4x4(), 8);
    const KHopGraph shrikhande = khop_graph(testing::shrikhande(), 8);
    for (VertexId v = 0; v < 16; ++v) {
        EXPECT_EQ(edge_row(rook, v, 1), 12);
        EXPECT_EQ(edge_row(shrikhande, v, 1), 12);
        EXPECT_EQ(config_row(rook, v, 1), (std::array<std::int64_t, kWidth>{24, 12, 0, 0, 0}));
        EXPECT_EQ(config_row(shrikhande, v, 1), (std::array<std::int64_t, kWidth>{0, 12, 12, 6, 0}));
    }
    // Diameter 2: 16 · 15 ordered pairs, all within K.
    EXPECT_EQ(rook.src.size(), 240u);
    EXPECT_EQ(shrikhande.src.size(), 240u);
}

TEST(KHop, CycleRingsHaveNoEdges) {
    // C8: at each distance 1..3 two vertices, non-adjacent; at distance 4 one vertex. All zeros.
    const KHopGraph k = khop_graph(make_cycle(8), 8);
    for (VertexId v = 0; v < 8; ++v)
        for (int hop = 1; hop <= 8; ++hop) {
            EXPECT_EQ(edge_row(k, v, hop), 0);
            EXPECT_EQ(config_row(k, v, hop), (std::array<std::int64_t, kWidth>{}));
        }
    // Arcs at distance 1..4 only, hop = distance − 1, each received by dst.
    EXPECT_EQ(k.src.size(), 8u * 7u);
    for (std::size_t a = 0; a < k.src.size(); ++a) {
        const auto d = std::min<std::int64_t>((k.src[a] - k.dst[a] + 8) % 8, (k.dst[a] - k.src[a] + 8) % 8);
        EXPECT_EQ(k.hop[a], d - 1);
    }
}

TEST(KHop, RejectsAHopCountBelowOne) { EXPECT_THROW(khop_graph(make_cycle(4), 0), InvalidArgument); }

/// Dense re-derivation: distances by Floyd–Warshall, peripheral subgraphs as adjacency matrices of
/// 2s (the released code's edge weights), counts by summing matrix entries.
KHopGraph dense_khop(const Graph& g, int hops) {
    const int n = static_cast<int>(g.n());
    constexpr int kInf = 1 << 20;
    const auto floyd = [](std::vector<std::vector<int>> d) {
        const std::size_t m = d.size();
        for (std::size_t k = 0; k < m; ++k)
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t j = 0; j < m; ++j) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
        return d;
    };
    std::vector<std::vector<int>> adj(n, std::vector<int>(n, 0)), d(n, std::vector<int>(n, kInf));
    for (VertexId u = 0; u < g.n(); ++u) {
        d[u][u] = 0;
        for (VertexId w : g.neighbors(u)) adj[u][w] = 2, d[u][w] = 1;
    }
    d = floyd(d);
    KHopGraph k;
    k.n = n;
    k.hops = hops;
    k.peripheral_edges.assign(static_cast<std::size_t>(n * hops), 0);
    k.configuration.assign(static_cast<std::size_t>(n * hops * kWidth), 0);
    for (int v = 0; v < n; ++v)
        for (int u = 0; u < n; ++u)
            if (d[u][v] >= 1 && d[u][v] <= hops) {
                k.src.push_back(u);
                k.dst.push_back(v);
                k.hop.push_back(d[u][v] - 1);
            }
    for (int v = 0; v < n; ++v)
        for (int hop = 1; hop <= hops; ++hop) {
            std::vector<int> s;
            for (int u = 0; u < n; ++u)
                if (d[v][u] == hop) s.push_back(u);
            const std::size_t m = s.size();
            std::int64_t weight = 0;
            std::vector<std::vector<int>> ds(m, std::vector<int>(m, kInf));
            for (std::size_t i = 0; i < m; ++i) {
                ds[i][i] = 0;
                for (std::size_t j = 0; j < m; ++j) {
                    weight += adj[s[i]][s[j]];
                    if (adj[s[i]][s[j]]) ds[i][j] = 1;
                }
            }
            if (m < 2 || weight == 0) continue;
            ds = floyd(ds);
            const std::size_t row = static_cast<std::size_t>(v * hops + hop - 1);
            k.peripheral_edges[row] = std::min<std::int64_t>(weight / 2, kPeripheralCountCap);
            std::int64_t c[kWidth] = {};
            for (std::size_t a = 0; a < m; ++a)
                for (int h = 1; h <= kPeripheralHops; ++h)
                    for (std::size_t b = 0; b < m; ++b)
                        if (ds[a][b] == h) {
                            ++c[h];
                            for (std::size_t e = 0; e < m; ++e)
                                if (ds[a][e] == h) c[0] += adj[s[b]][s[e]];
                        }
            for (int i = 0; i < kWidth; ++i)
                k.configuration[row * kWidth + i] = std::min<std::int64_t>(c[i], kPeripheralCountCap);
        }
    return k;
}

TEST(KHop, MatchesADenseDerivationOnRandomGraphs) {
    Rng rng(31);
    for (int trial = 0; trial < 40; ++trial) {
        const auto n = static_cast<VertexId>(2 + rng.below(16));
        const Graph g = testing::random_graph(n, 0.1 + 0.6 * rng.uniform(), rng);
        const int hops = 1 + static_cast<int>(rng.below(8));
        const KHopGraph fast = khop_graph(g, hops), dense = dense_khop(g, hops);
        EXPECT_EQ(fast.src, dense.src) << "trial " << trial;
        EXPECT_EQ(fast.dst, dense.dst) << "trial " << trial;
        EXPECT_EQ(fast.hop, dense.hop) << "trial " << trial;
        EXPECT_EQ(fast.peripheral_edges, dense.peripheral_edges) << "trial " << trial;
        EXPECT_EQ(fast.configuration, dense.configuration) << "trial " << trial;
    }
}

TEST(KHop, CountsAreCappedAtOneThousand) {
    // K_40: the neighbourhood of a vertex is K_39: 39 · 38 = 1,482 directed edges and ordered pairs
    // at distance 1, and 39 · 38 · 37 · 2 level-edge entries, all above the cap.
    const KHopGraph k = khop_graph(make_complete(40), 1);
    EXPECT_EQ(edge_row(k, 0, 1), 1000);
    EXPECT_EQ(config_row(k, 0, 1), (std::array<std::int64_t, kWidth>{1000, 1000, 0, 0, 0}));
}

TEST(KHop, RelabelingMovesTheRowsWithTheirVertices) {
    Rng rng(8);
    const Graph g = testing::random_graph(14, 0.35, rng);
    const Permutation perm = rng.permutation(g.n());
    const KHopGraph a = khop_graph(g, 4), b = khop_graph(permute(g, perm), 4);
    std::multimap<std::pair<std::int64_t, std::int64_t>, std::int64_t> arcs_a, arcs_b;
    for (std::size_t i = 0; i < a.src.size(); ++i)
        arcs_a.emplace(std::make_pair(perm[a.src[i]], perm[a.dst[i]]), a.hop[i]);
    for (std::size_t i = 0; i < b.src.size(); ++i) arcs_b.emplace(std::make_pair(b.src[i], b.dst[i]), b.hop[i]);
    EXPECT_EQ(arcs_a, arcs_b);
    for (VertexId v = 0; v < g.n(); ++v)
        for (int hop = 1; hop <= 4; ++hop) {
            EXPECT_EQ(edge_row(a, v, hop), edge_row(b, perm[v], hop));
            EXPECT_EQ(config_row(a, v, hop), config_row(b, perm[v], hop));
        }
}

}  // namespace
}  // namespace brec
