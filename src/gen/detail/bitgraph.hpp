#pragma once
// Private: adjacency rows as bitsets, for the switching searches of the generators.

#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec::detail {

struct BitGraph {
    VertexId n = 0;
    std::size_t words = 0;
    std::vector<std::uint64_t> rows;  // n * words

    explicit BitGraph(const Graph& g) : n(g.n()), words((g.n() + 63) / 64), rows(n * words, 0) {
        for (VertexId v = 0; v < n; ++v)
            for (VertexId w : g.neighbors(v)) set(v, w);
    }
    BitGraph(VertexId n_, bool) : n(n_), words((n_ + 63) / 64), rows(n * words, 0) {}

    const std::uint64_t* row(VertexId v) const { return rows.data() + v * words; }
    std::uint64_t* row(VertexId v) { return rows.data() + v * words; }
    bool has(VertexId u, VertexId v) const { return (row(u)[v >> 6] >> (v & 63)) & 1u; }
    void set(VertexId u, VertexId v) { row(u)[v >> 6] |= std::uint64_t{1} << (v & 63); }
    void flip(VertexId u, VertexId v) {
        row(u)[v >> 6] ^= std::uint64_t{1} << (v & 63);
        row(v)[u >> 6] ^= std::uint64_t{1} << (u & 63);
    }

    Graph to_graph() const {
        std::vector<Edge> edges;
        for (VertexId u = 0; u < n; ++u)
            for (VertexId v = u + 1; v < n; ++v)
                if (has(u, v)) edges.push_back({u, v});
        return make_graph(n, edges);
    }
};

inline int popcount64(std::uint64_t x) { return __builtin_popcountll(x); }

}  // namespace brec::detail
