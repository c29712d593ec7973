#include "brec/graph/ksets.hpp"

#include <algorithm>
#include <iterator>

namespace brec {

KSets k_sets(const Graph& g) {
    const std::int64_t n = g.n();
    KSets s;
    s.n = n;
    std::vector<std::uint8_t> adj(static_cast<std::size_t>(n * n), 0);
    std::vector<std::vector<std::int64_t>> nbrs(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) {
        for (const VertexId u : g.neighbors(static_cast<VertexId>(v))) {
            if (static_cast<std::int64_t>(u) == v) continue;
            adj[v * n + u] = 1;
            nbrs[v].push_back(u);
        }
        std::sort(nbrs[v].begin(), nbrs[v].end());
        nbrs[v].erase(std::unique(nbrs[v].begin(), nbrs[v].end()), nbrs[v].end());
    }
    const auto edge = [&](std::int64_t a, std::int64_t b) { return adj[a * n + b] != 0; };

    s.pair_vertices.reserve(static_cast<std::size_t>(n * (n - 1)));
    for (std::int64_t u = 0; u < n; ++u)
        for (std::int64_t v = u + 1; v < n; ++v) {
            s.pair_vertices.push_back(u);
            s.pair_vertices.push_back(v);
            s.pair_components.push_back(edge(u, v) ? 1 : 2);
        }

    const auto add_triple = [&](std::int64_t a, std::int64_t b, std::int64_t c) {
        const int edges = int(edge(a, b)) + int(edge(a, c)) + int(edge(b, c));
        s.triple_vertices.insert(s.triple_vertices.end(), {a, b, c});
        s.triple_pairs.insert(s.triple_pairs.end(), {pair_index(n, a, b), pair_index(n, a, c), pair_index(n, b, c)});
        s.triple_components.push_back(edges >= 2 ? 1 : 2);
    };
    std::vector<std::int64_t> later;
    for (std::int64_t a = 0; a < n; ++a)
        for (std::int64_t b = a + 1; b < n; ++b) {
            if (edge(a, b)) {
                for (std::int64_t c = b + 1; c < n; ++c) add_triple(a, b, c);
                continue;
            }
            // Not adjacent: c must be a neighbour of a or of b (else {a, b, c} is independent).
            later.clear();
            const auto& na = nbrs[a];
            const auto& nb = nbrs[b];
            std::set_union(std::upper_bound(na.begin(), na.end(), b), na.end(),
                           std::upper_bound(nb.begin(), nb.end(), b), nb.end(), std::back_inserter(later));
            for (const std::int64_t c : later) add_triple(a, b, c);
        }
    return s;
}

}  // namespace brec
