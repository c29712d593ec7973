#include "brec/graph/dense_rows.hpp"

#include <algorithm>

namespace brec {

void DenseRows::reset(VertexId vertices) {
    n = vertices;
    words = (static_cast<std::size_t>(vertices) + 63) / 64;
    bits.assign(static_cast<std::size_t>(vertices) * words, 0);
}

std::size_t DenseRows::edge_count() const {
    std::size_t arcs = 0;
    for (std::uint64_t w : bits) arcs += static_cast<std::size_t>(__builtin_popcountll(w));
    return arcs / 2;
}

DenseRows dense_rows(const Graph& g) {
    DenseRows r;
    r.reset(g.n());
    for (VertexId u = 0; u < g.n(); ++u)
        for (VertexId v : g.neighbors(u)) r.bits[u * r.words + (v >> 6)] |= DenseRows::mask(v);
    return r;
}

Graph graph_from_rows(const DenseRows& rows) {
    GraphBuilder b(rows.n);
    for (VertexId u = 0; u < rows.n; ++u)
        for (std::size_t k = 0; k < rows.words; ++k)
            for (std::uint64_t w = rows.bits[u * rows.words + k]; w != 0; w &= w - 1) {
                const auto v = static_cast<VertexId>(64 * k + 63 - static_cast<std::size_t>(__builtin_ctzll(w)));
                if (u < v) b.add_edge(u, v);
            }
    return b.build();
}

}  // namespace brec
