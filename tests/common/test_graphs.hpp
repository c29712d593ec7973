#pragma once
// Graphs shared by several test suites, built by hand from their textbook definitions.

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/graph.hpp"

namespace brec::testing {

/// G(n, p) random graph.
inline Graph random_graph(VertexId n, double p, Rng& rng) {
    GraphBuilder b(n);
    for (VertexId i = 0; i < n; ++i)
        for (VertexId j = i + 1; j < n; ++j)
            if (rng.bernoulli(p)) b.add_edge(i, j);
    return b.build();
}

/// Random d-regular graph on n vertices (configuration model with restarts); n*d must be even.
inline Graph random_regular(VertexId n, std::uint32_t d, Rng& rng) {
    for (;;) {
        std::vector<VertexId> stubs;
        for (VertexId v = 0; v < n; ++v)
            for (std::uint32_t k = 0; k < d; ++k) stubs.push_back(v);
        rng.shuffle(stubs);
        std::vector<std::vector<bool>> adj(n, std::vector<bool>(n, false));
        bool ok = true;
        std::vector<Edge> edges;
        for (std::size_t i = 0; i + 1 < stubs.size(); i += 2) {
            const VertexId a = stubs[i], b = stubs[i + 1];
            if (a == b || adj[a][b]) {
                ok = false;
                break;
            }
            adj[a][b] = adj[b][a] = true;
            edges.emplace_back(a, b);
        }
        if (ok) return make_graph(n, edges);
    }
}

/// The 4x4 rook's graph L2(4): srg(16,6,2,2).
inline Graph rook_4x4() {
    std::vector<Edge> e;
    for (VertexId a = 0; a < 16; ++a)
        for (VertexId b = a + 1; b < 16; ++b)
            if (a / 4 == b / 4 || a % 4 == b % 4) e.emplace_back(a, b);
    return make_graph(16, e);
}

/// The Shrikhande graph: Cayley graph of Z4 x Z4 with connection set {±(0,1), ±(1,0), ±(1,1)}.
inline Graph shrikhande() {
    std::vector<Edge> e;
    auto id = [](int x, int y) { return static_cast<VertexId>(((x + 4) % 4) * 4 + (y + 4) % 4); };
    const int dx[3] = {0, 1, 1}, dy[3] = {1, 0, 1};
    for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 4; ++y)
            for (int k = 0; k < 3; ++k) {
                const VertexId a = id(x, y), b = id(x + dx[k], y + dy[k]);
                e.emplace_back(std::min(a, b), std::max(a, b));
            }
    GraphBuilder b(16);
    b.set_duplicates(EdgePolicy::drop);
    for (auto [u, v] : e) b.add_edge(u, v);
    return b.build();
}

/// CFI graph over `base` in BREC's variant: for each vertex v with incident edges E(v), vertices
/// a(v,e,0), a(v,e,1) for e in E(v) and m(v,S) for every even-size S of E(v); m(v,S) ~ a(v,e,1) if
/// e in S else a(v,e,0); for each base edge e = uv, a(u,e,i) ~ a(v,e,i), except the twisted edge
/// (edge 0 when `twisted`), where a(u,e,i) ~ a(v,e,1-i).
inline Graph cfi_graph(const Graph& base, bool twisted) {
    const auto edges = base.edges();
    std::vector<std::vector<std::size_t>> incident(base.n());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        incident[edges[e].first].push_back(e);
        incident[edges[e].second].push_back(e);
    }
    VertexId next = 0;
    // a_id[v][position of e in incident[v]][i]
    std::vector<std::vector<std::array<VertexId, 2>>> a_id(base.n());
    std::vector<Edge> out;
    for (VertexId v = 0; v < base.n(); ++v) {
        const std::size_t d = incident[v].size();
        for (std::size_t k = 0; k < d; ++k) a_id[v].push_back({next++, next++});
        for (std::uint32_t s = 0; s < (1u << d); ++s) {
            if (__builtin_popcount(s) % 2) continue;
            const VertexId m = next++;
            for (std::size_t k = 0; k < d; ++k) out.emplace_back(m, a_id[v][k][(s >> k) & 1u]);
        }
    }
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto [u, v] = edges[e];
        const auto pu =
            static_cast<std::size_t>(std::find(incident[u].begin(), incident[u].end(), e) - incident[u].begin());
        const auto pv =
            static_cast<std::size_t>(std::find(incident[v].begin(), incident[v].end(), e) - incident[v].begin());
        for (int i = 0; i < 2; ++i) {
            const int j = (twisted && e == 0) ? 1 - i : i;
            out.emplace_back(a_id[u][pu][i], a_id[v][pv][j]);
        }
    }
    return make_graph(next, out);
}

}  // namespace brec::testing
