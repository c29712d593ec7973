#pragma once
// An independent reference for the count tests: every 3- and 4-vertex subset, classified by its
// sorted degree sequence (which tells the 8 connected patterns apart and no disconnected graph on
// 3 or 4 vertices shares one), and non-induced 3-stars from their definition. Also the random graph
// families of the sweeps.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/count/patterns.hpp"
#include "brec/graph/graph.hpp"
#include "common/test_graphs.hpp"

namespace brec::testing {

/// The pattern of a subset from its sorted degree sequence (size 3 or 4), -1 when it is not
/// connected.
inline int reference_pattern(const int* degrees, int size) {
    auto is = [&](std::initializer_list<int> want) {
        return static_cast<int>(want.size()) == size && std::equal(want.begin(), want.end(), degrees);
    };
    if (is({1, 1, 2})) return static_cast<int>(Pattern::path2);
    if (is({2, 2, 2})) return static_cast<int>(Pattern::triangle);
    if (is({1, 1, 2, 2})) return static_cast<int>(Pattern::path3);
    if (is({1, 1, 1, 3})) return static_cast<int>(Pattern::star3);
    if (is({2, 2, 2, 2})) return static_cast<int>(Pattern::cycle4);
    if (is({1, 2, 2, 3})) return static_cast<int>(Pattern::tailed_triangle);
    if (is({2, 2, 3, 3})) return static_cast<int>(Pattern::diamond);
    if (is({3, 3, 3, 3})) return static_cast<int>(Pattern::clique4);
    return -1;
}

struct ReferenceCounts {
    PatternCounts counts;
    /// Every occurrence of each induced pattern as a sorted vertex set, sets in increasing order.
    std::array<std::vector<std::vector<VertexId>>, kNumPatterns> instances;
};

inline ReferenceCounts reference_counts(const Graph& g) {
    ReferenceCounts r;
    const VertexId n = g.n();
    r.counts.per_node.assign(n, {});
    const auto adj = g.adjacency_matrix();
    auto record = [&](const VertexId* s, int size) {
        int deg[4] = {0, 0, 0, 0};
        for (int i = 0; i < size; ++i)
            for (int j = 0; j < size; ++j)
                if (i != j && adj[s[i] * n + s[j]]) ++deg[i];
        std::sort(deg, deg + size);
        const int p = reference_pattern(deg, size);
        if (p < 0) return;
        ++r.counts.total[p];
        for (int i = 0; i < size; ++i) ++r.counts.per_node[s[i]][p];
        r.instances[p].emplace_back(s, s + size);
    };
    VertexId s[4];
    for (s[0] = 0; s[0] < n; ++s[0])
        for (s[1] = s[0] + 1; s[1] < n; ++s[1])
            for (s[2] = s[1] + 1; s[2] < n; ++s[2]) {
                record(s, 3);
                for (s[3] = s[2] + 1; s[3] < n; ++s[3]) record(s, 4);
            }
    const int star = static_cast<int>(Pattern::star3_noninduced);
    for (VertexId c = 0; c < n; ++c) {
        const auto nb = g.neighbors(c);
        for (std::size_t i = 0; i < nb.size(); ++i)
            for (std::size_t j = i + 1; j < nb.size(); ++j)
                for (std::size_t k = j + 1; k < nb.size(); ++k) {
                    ++r.counts.total[star];
                    for (VertexId x : {c, nb[i], nb[j], nb[k]}) ++r.counts.per_node[x][star];
                }
    }
    for (auto& list : r.instances) std::sort(list.begin(), list.end());
    return r;
}

/// Stochastic block model with equal blocks (independent of the library's generator).
inline Graph sbm_graph(VertexId blocks, VertexId block_size, double p_in, double p_out, Rng& rng) {
    const VertexId n = blocks * block_size;
    GraphBuilder b(n);
    for (VertexId i = 0; i < n; ++i)
        for (VertexId j = i + 1; j < n; ++j)
            if (rng.bernoulli(i / block_size == j / block_size ? p_in : p_out)) b.add_edge(i, j);
    return b.build();
}

/// Two random graphs side by side plus isolated vertices.
inline Graph disconnected_graph(VertexId n1, VertexId n2, VertexId isolated, double p, Rng& rng) {
    const Graph a = random_graph(n1, p, rng), c = random_graph(n2, p, rng);
    GraphBuilder b(n1 + n2 + isolated);
    for (const auto& [x, y] : a.edges()) b.add_edge(x, y);
    for (const auto& [x, y] : c.edges()) b.add_edge(n1 + x, n1 + y);
    return b.build();
}

/// A graph of family `trial % 4` (ER, SBM, regular, disconnected) on about n vertices.
inline Graph family_graph(int trial, VertexId n, Rng& rng) {
    const double p = 0.05 + 0.9 * rng.uniform();
    switch (trial % 4) {
        case 0:
            return random_graph(n, p, rng);
        case 1: {
            const VertexId size = std::max<VertexId>(1, n / 3);
            return sbm_graph(3, size, 0.2 + 0.6 * rng.uniform(), 0.05 + 0.2 * rng.uniform(), rng);
        }
        case 2: {
            // Degrees up to 5 and at most half the vertices (denser ones are complements of
            // sparse ones, and the configuration model rarely succeeds on them).
            const VertexId m = std::max<VertexId>(n, 2);
            std::uint32_t d = static_cast<std::uint32_t>(rng.below(std::min<VertexId>(6, m / 2 + 1)));
            if ((m * d) % 2) --d;
            return random_regular(m, d, rng);
        }
        default: {
            const VertexId n1 = n / 2, n2 = n - n1;
            return disconnected_graph(n1, n2 > 1 ? n2 - 1 : n2, n2 > 1 ? 1 : 0, p, rng);
        }
    }
}

using EdgeOrbitRow = std::array<std::uint32_t, kNumEdgeOrbits>;

/// A pattern on vertices 0..size-1 with the edge orbit of each edge, labelled by hand.
struct EdgeOrbitTemplate {
    int size;
    std::vector<std::tuple<int, int, EdgeOrbit>> edges;
};

inline const std::vector<EdgeOrbitTemplate>& edge_orbit_templates() {
    using O = EdgeOrbit;
    static const std::vector<EdgeOrbitTemplate> t = {
        {3, {{0, 1, O::path2}, {1, 2, O::path2}}},
        {3, {{0, 1, O::triangle}, {0, 2, O::triangle}, {1, 2, O::triangle}}},
        {4, {{0, 1, O::path3_end}, {1, 2, O::path3_middle}, {2, 3, O::path3_end}}},
        {4, {{0, 1, O::star3}, {0, 2, O::star3}, {0, 3, O::star3}}},
        {4, {{0, 1, O::cycle4}, {1, 2, O::cycle4}, {2, 3, O::cycle4}, {0, 3, O::cycle4}}},
        // Triangle 0, 1, 2 with the pendant 2-3.
        {4,
         {{0, 1, O::tailed_triangle_far},
          {0, 2, O::tailed_triangle_near},
          {1, 2, O::tailed_triangle_near},
          {2, 3, O::tailed_triangle_tail}}},
        // Chord 0-1.
        {4,
         {{0, 1, O::diamond_chord},
          {0, 2, O::diamond_rim},
          {0, 3, O::diamond_rim},
          {1, 2, O::diamond_rim},
          {1, 3, O::diamond_rim}}},
        {4,
         {{0, 1, O::clique4},
          {0, 2, O::clique4},
          {0, 3, O::clique4},
          {1, 2, O::clique4},
          {1, 3, O::clique4},
          {2, 3, O::clique4}}},
    };
    return t;
}

/// GSN's per-edge orbit counts by their definition: every injective map of a template into g that
/// is an induced isomorphism adds one to each template edge's orbit at the image edge; the sums are
/// divided by the template's automorphism count. O(n^4 · 4!) per graph.
inline std::map<Edge, EdgeOrbitRow> reference_edge_orbits(const Graph& g) {
    std::map<Edge, EdgeOrbitRow> raw;
    for (const Edge& e : g.edges()) raw[e] = {};
    for (const EdgeOrbitTemplate& t : edge_orbit_templates()) {
        bool adj[4][4] = {};
        for (const auto& [a, b, o] : t.edges) adj[a][b] = adj[b][a] = true;
        std::vector<int> perm(static_cast<std::size_t>(t.size));
        for (int i = 0; i < t.size; ++i) perm[static_cast<std::size_t>(i)] = i;
        std::uint32_t automorphisms = 0;
        do {
            bool ok = true;
            for (int i = 0; i < t.size; ++i)
                for (int j = 0; j < t.size; ++j) ok = ok && adj[i][j] == adj[perm[i]][perm[j]];
            automorphisms += ok;
        } while (std::next_permutation(perm.begin(), perm.end()));
        std::map<Edge, EdgeOrbitRow> hits;
        std::vector<VertexId> phi(static_cast<std::size_t>(t.size));
        // Every injective map 0..size-1 -> V(g).
        std::function<void(int)> extend = [&](int k) {
            if (k == t.size) {
                for (int i = 0; i < t.size; ++i)
                    for (int j = i + 1; j < t.size; ++j)
                        if (adj[i][j] != g.has_edge(phi[i], phi[j])) return;
                for (const auto& [a, b, o] : t.edges)
                    ++hits[{std::min(phi[a], phi[b]), std::max(phi[a], phi[b])}][static_cast<int>(o)];
                return;
            }
            for (VertexId v = 0; v < g.n(); ++v) {
                if (std::find(phi.begin(), phi.begin() + k, v) != phi.begin() + k) continue;
                phi[static_cast<std::size_t>(k)] = v;
                extend(k + 1);
            }
        };
        extend(0);
        for (const auto& [e, counts] : hits)
            for (int o = 0; o < kNumEdgeOrbits; ++o) {
                if (counts[o] % automorphisms) throw std::logic_error("orbit hits not a multiple of |Aut|");
                raw[e][o] += counts[o] / automorphisms;
            }
    }
    return raw;
}

}  // namespace brec::testing
