#pragma once
// Independent checks used by the gen tests. They recompute properties from adjacency with plain
// dense matrices, sharing no code with the constructions (or with graph/properties.cpp), so a bug
// in either shows up as a disagreement.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "brec/graph/graph.hpp"
#include "brec/iso/iso.hpp"
#include "brec/wl/wl.hpp"

namespace brec::gentest {

/// Dense 0/1 adjacency matrix.
inline std::vector<std::vector<int>> adjacency_matrix(const Graph& g) {
    std::vector<std::vector<int>> a(g.n(), std::vector<int>(g.n(), 0));
    for (const auto& [u, v] : g.edges()) a[u][v] = a[v][u] = 1;
    return a;
}

struct Srg {
    long v = 0, k = 0, lambda = 0, mu = 0;
    bool operator==(const Srg& o) const { return v == o.v && k == o.k && lambda == o.lambda && mu == o.mu; }
};

/// srg parameters from A^2 = k I + lambda A + mu (J - I - A); nullopt when A^2 is not of that form.
inline std::optional<Srg> dense_srg(const Graph& g) {
    const auto a = adjacency_matrix(g);
    const std::size_t n = a.size();
    if (n < 3) return std::nullopt;
    long k = -1, lambda = -1, mu = -1;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            long s = 0;
            for (std::size_t t = 0; t < n; ++t) s += a[i][t] * a[t][j];
            long& slot = i == j ? k : a[i][j] ? lambda : mu;
            if (slot < 0)
                slot = s;
            else if (slot != s)
                return std::nullopt;
        }
    if (k <= 0 || k == static_cast<long>(n) - 1 || lambda < 0 || mu < 0) return std::nullopt;
    return Srg{static_cast<long>(n), k, lambda, mu};
}

/// Reference for four_vertex_constants: for every pair x != y, the edges among the common
/// neighbours counted over the dense matrix, triple by triple (O(n^4), independent code).
inline std::optional<std::pair<long, long>> dense_four_vertex(const Graph& g) {
    const auto a = adjacency_matrix(g);
    const std::size_t n = a.size();
    long adj = -1, non = -1;
    for (std::size_t x = 0; x < n; ++x)
        for (std::size_t y = x + 1; y < n; ++y) {
            long edges = 0;
            for (std::size_t u = 0; u < n; ++u)
                for (std::size_t w = u + 1; w < n; ++w) edges += a[x][u] & a[y][u] & a[x][w] & a[y][w] & a[u][w];
            long& slot = a[x][y] ? adj : non;
            if (slot < 0)
                slot = edges;
            else if (slot != edges)
                return std::nullopt;
        }
    if (adj < 0 || non < 0) return std::nullopt;
    return std::make_pair(adj, non);
}

/// Every pair of the v points lies in exactly lambda blocks and every block has k points.
inline bool is_2_design(const std::vector<std::vector<VertexId>>& blocks, VertexId v, std::size_t k, int lambda) {
    std::vector<std::vector<int>> cover(v, std::vector<int>(v, 0));
    for (const auto& b : blocks) {
        if (b.size() != k) return false;
        for (std::size_t i = 0; i < b.size(); ++i)
            for (std::size_t j = i + 1; j < b.size(); ++j) {
                if (b[i] >= v || b[j] >= v || b[i] == b[j]) return false;
                ++cover[b[i]][b[j]];
                ++cover[b[j]][b[i]];
            }
    }
    for (VertexId x = 0; x < v; ++x)
        for (VertexId y = x + 1; y < v; ++y)
            if (cover[x][y] != lambda) return false;
    return true;
}

/// Length of a shortest cycle (0 for a forest), by BFS from every vertex.
inline std::size_t girth(const Graph& g) {
    std::size_t best = 0;
    for (VertexId s = 0; s < g.n(); ++s) {
        std::vector<long> dist(g.n(), -1), parent(g.n(), -1);
        std::vector<VertexId> queue{s};
        dist[s] = 0;
        for (std::size_t qi = 0; qi < queue.size(); ++qi) {
            const VertexId x = queue[qi];
            for (VertexId y : g.neighbors(x)) {
                if (dist[y] < 0) {
                    dist[y] = dist[x] + 1;
                    parent[y] = x;
                    queue.push_back(y);
                } else if (parent[x] != static_cast<long>(y)) {
                    const auto len = static_cast<std::size_t>(dist[x] + dist[y] + 1);
                    if (best == 0 || len < best) best = len;
                }
            }
        }
    }
    return best;
}

/// Proper 2-colouring exists.
inline bool is_bipartite(const Graph& g) {
    std::vector<int> side(g.n(), -1);
    for (VertexId s = 0; s < g.n(); ++s) {
        if (side[s] >= 0) continue;
        side[s] = 0;
        std::vector<VertexId> stack{s};
        while (!stack.empty()) {
            const VertexId x = stack.back();
            stack.pop_back();
            for (VertexId y : g.neighbors(x)) {
                if (side[y] < 0) {
                    side[y] = 1 - side[x];
                    stack.push_back(y);
                } else if (side[y] == side[x]) {
                    return false;
                }
            }
        }
    }
    return true;
}

/// Number of pairwise non-isomorphic graphs in the list (nauty certificates).
inline std::size_t distinct_count(const std::vector<Graph>& graphs) {
    std::set<std::string> certs;
    for (const Graph& g : graphs) certs.insert(canonical_certificate(g).bytes);
    return certs.size();
}

inline bool separates(const std::string& method, const Graph& g, const Graph& h) {
    return compare_pair(g, h, WlOptions(WlMethod::parse(method))).distinguished;
}

}  // namespace brec::gentest
