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
        rows.for_each_neighbour(u, [&](VertexId v) {
            if (u < v) b.add_edge(u, v);
        });
    return b.build();
}

}  // namespace brec
