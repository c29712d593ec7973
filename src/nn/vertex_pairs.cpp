#include "brec/nn/vertex_pairs.hpp"

#include <algorithm>

#include "brec/graph/algorithms.hpp"

namespace brec::nn {

TupleGraph tuple_graph(const Graph& g) {
    TupleGraph t;
    const std::int64_t n = g.n();
    t.n = static_cast<std::int32_t>(n);
    t.type.resize(static_cast<std::size_t>(n * n), static_cast<std::int64_t>(TupleType::non_edge));
    const auto arcs = static_cast<std::size_t>(n) * 2 * g.m();
    for (auto* v : {&t.first_src, &t.first_dst, &t.second_src, &t.second_dst}) v->reserve(arcs);
    for (std::int64_t v = 0; v < n; ++v) {
        t.type[static_cast<std::size_t>(v * n + v)] = static_cast<std::int64_t>(TupleType::same);
        for (VertexId u : g.neighbors(static_cast<VertexId>(v)))
            t.type[static_cast<std::size_t>(v * n + u)] = static_cast<std::int64_t>(TupleType::edge);
    }
    // Receivers in tuple order, senders in neighbour order (sorted): arcs sorted by (dst, src).
    for (std::int64_t v = 0; v < n; ++v)
        for (std::int64_t w = 0; w < n; ++w) {
            const std::int64_t tuple = v * n + w;
            for (VertexId u : g.neighbors(static_cast<VertexId>(v))) {
                t.first_src.push_back(static_cast<std::int64_t>(u) * n + w);
                t.first_dst.push_back(tuple);
            }
            for (VertexId u : g.neighbors(static_cast<VertexId>(w))) {
                t.second_src.push_back(v * n + static_cast<std::int64_t>(u));
                t.second_dst.push_back(tuple);
            }
        }
    return t;
}

std::vector<std::int64_t> graphormer_spatial_index(const Graph& g) {
    const std::vector<std::int32_t> d = all_pairs_distances(g);
    std::vector<std::int64_t> index(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) {
        const std::int64_t dist =
            d[i] == kUnreachable ? kGraphormerUnreachable : std::min<std::int64_t>(d[i], kGraphormerUnreachable);
        index[i] = dist + 1;
    }
    return index;
}

}  // namespace brec::nn
