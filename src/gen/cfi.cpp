#include "brec/gen/cfi.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "brec/core/error.hpp"

namespace brec {

std::uint64_t cfi_size(const Graph& base) {
    std::uint64_t n = 0;
    for (VertexId v = 0; v < base.n(); ++v) {
        const std::uint32_t d = base.degree(v);
        n += (d == 0 ? 0 : (std::uint64_t{1} << (d - 1))) + 2 * d;
    }
    return n;
}

Graph cfi_graph(const Graph& base, bool twisted) {
    const VertexId nb = base.n();
    const auto edges = base.edges();
    if (edges.empty()) throw InvalidArgument("cfi_graph: the base graph has no edges");
    // Position of each edge in the incidence list of its endpoints.
    std::vector<std::vector<std::uint32_t>> inc(nb);  // edge ids at v
    for (std::uint32_t e = 0; e < edges.size(); ++e) {
        inc[edges[e].first].push_back(e);
        inc[edges[e].second].push_back(e);
    }
    std::vector<VertexId> a_first(nb);  // id of a(v, inc[v][0], 0); a(v,i,s) = a_first + 2 i + s
    VertexId next = 0;
    for (VertexId v = 0; v < nb; ++v) {
        const std::size_t d = inc[v].size();
        if (d == 0 || d > 20)
            throw InvalidArgument("cfi_graph: base vertex " + std::to_string(v) + " has degree " + std::to_string(d) +
                                  " (need 1..20)");
        a_first[v] = next;
        next += static_cast<VertexId>(2 * d + (std::size_t{1} << (d - 1)));
    }
    std::vector<Edge> out;
    for (VertexId v = 0; v < nb; ++v) {
        const std::size_t d = inc[v].size();
        VertexId m = a_first[v] + static_cast<VertexId>(2 * d);
        for (std::uint32_t s = 0; s < (1u << d); ++s) {
            if (__builtin_popcount(s) % 2 != 0) continue;
            for (std::size_t i = 0; i < d; ++i)
                out.push_back({a_first[v] + static_cast<VertexId>(2 * i) + ((s >> i) & 1), m});
            ++m;
        }
    }
    auto pos = [&](VertexId v, std::uint32_t e) {
        return static_cast<VertexId>(std::find(inc[v].begin(), inc[v].end(), e) - inc[v].begin());
    };
    for (std::uint32_t e = 0; e < edges.size(); ++e) {
        const VertexId u = edges[e].first, v = edges[e].second;
        const VertexId au = a_first[u] + 2 * pos(u, e), av = a_first[v] + 2 * pos(v, e);
        const bool cross = twisted && e == 0;
        for (VertexId i = 0; i < 2; ++i) {
            const VertexId x = au + i, y = av + (cross ? 1 - i : i);
            out.push_back({std::min(x, y), std::max(x, y)});
        }
    }
    return make_graph(next, out);
}

std::uint32_t treewidth(const Graph& g) {
    const VertexId n = g.n();
    if (n > 20) throw InvalidArgument("treewidth: exact DP supports n <= 20, got " + std::to_string(n));
    if (n == 0) return 0;
    std::vector<std::uint32_t> adj(n, 0);
    for (VertexId v = 0; v < n; ++v)
        for (VertexId w : g.neighbors(v)) adj[v] |= 1u << w;
    // q(S, v): vertices outside S ∪ {v} reachable from v through S.
    auto q = [&](std::uint32_t s, VertexId v) {
        std::uint32_t seen = 1u << v, frontier = 1u << v, reach = 0;
        while (frontier) {
            const int x = __builtin_ctz(frontier);
            frontier &= frontier - 1;
            std::uint32_t nbrs = adj[x] & ~seen;
            seen |= nbrs;
            reach |= nbrs & ~s;
            frontier |= nbrs & s;
        }
        return static_cast<std::uint32_t>(__builtin_popcount(reach));
    };
    const std::uint32_t full = n == 32 ? ~0u : ((1u << n) - 1);
    std::vector<std::uint8_t> tw(std::size_t{1} << n, 255);
    tw[0] = 0;
    for (std::uint32_t s = 1; s <= full; ++s) {
        std::uint32_t best = 255;
        for (std::uint32_t bits = s; bits; bits &= bits - 1) {
            const auto v = static_cast<VertexId>(__builtin_ctz(bits));
            const std::uint32_t rest = s & ~(1u << v);
            const std::uint32_t val = std::max<std::uint32_t>(tw[rest], q(rest, v));
            best = std::min(best, val);
        }
        tw[s] = static_cast<std::uint8_t>(best);
    }
    return tw[full];
}

}  // namespace brec
