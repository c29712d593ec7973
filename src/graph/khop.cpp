#include "brec/graph/khop.hpp"

#include <algorithm>
#include <string>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"

namespace brec {
namespace {

/// The two peripheral summaries of one vertex set S (vertex ids of g), written to `edges` and the
/// kPeripheralHops + 1 values at `config`. `slot` marks membership: slot[v] = index of v in S, −1
/// outside; `level` and `queue` are scratch arrays of size |S|. "The released code" below: KP-GNN's
/// extract_peripheral_attr_v2 in GraphPKU/BREC @966b5ed (branch Release), KP-GNN/data_utils.py.
void summarise(const Graph& g, const std::vector<VertexId>& s, const std::vector<std::int32_t>& slot,
               std::vector<std::int32_t>& level, std::vector<std::int32_t>& queue, std::int64_t& edges,
               std::int64_t* config) {
    const auto size = static_cast<std::int32_t>(s.size());
    std::int64_t arcs = 0;
    for (VertexId a : s)
        for (VertexId b : g.neighbors(a)) arcs += slot[b] >= 0;
    if (size < 2 || arcs == 0) return;  // the released code skips these: all zeros
    edges = std::min<std::int64_t>(arcs, kPeripheralCountCap);
    std::int64_t at[kPeripheralHops + 1] = {};
    std::int64_t level_edge_entries = 0;
    for (std::int32_t root = 0; root < size; ++root) {
        std::fill(level.begin(), level.begin() + size, -1);
        level[root] = 0;
        std::int32_t head = 0, tail = 0;
        queue[tail++] = root;
        while (head < tail) {
            const std::int32_t i = queue[head++];
            if (level[i] == kPeripheralHops) continue;
            for (VertexId b : g.neighbors(s[i])) {
                const std::int32_t j = slot[b];
                if (j < 0 || level[j] >= 0) continue;
                level[j] = level[i] + 1;
                ++at[level[j]];
                queue[tail++] = j;
            }
        }
        // Edges among the vertices at the same distance d >= 1 from the root, each counted from
        // both ends with weight 2 (the adjacency entries of the released code).
        for (std::int32_t t = 1; t < tail; ++t) {
            const std::int32_t i = queue[t];
            for (VertexId b : g.neighbors(s[i])) {
                const std::int32_t j = slot[b];
                if (j >= 0 && level[j] == level[i]) level_edge_entries += 2;
            }
        }
    }
    config[0] = std::min<std::int64_t>(level_edge_entries, kPeripheralCountCap);
    for (std::int32_t d = 1; d <= kPeripheralHops; ++d) config[d] = std::min<std::int64_t>(at[d], kPeripheralCountCap);
}

}  // namespace

KHopGraph khop_graph(const Graph& g, std::int32_t hops) {
    if (hops < 1) throw InvalidArgument("the hop count K must be >= 1, got " + std::to_string(hops));
    KHopGraph k;
    k.n = static_cast<std::int32_t>(g.n());
    k.hops = hops;
    const std::int64_t n = k.n;
    constexpr std::int64_t width = kPeripheralHops + 1;
    k.peripheral_edges.assign(static_cast<std::size_t>(n * hops), 0);
    k.configuration.assign(static_cast<std::size_t>(n * hops * width), 0);
    const std::vector<std::int32_t> dist = all_pairs_distances(g);

    std::vector<std::vector<VertexId>> ring(static_cast<std::size_t>(hops));
    std::vector<std::int32_t> slot(static_cast<std::size_t>(n), -1), level(static_cast<std::size_t>(n)),
        queue(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) {
        for (auto& r : ring) r.clear();
        const std::int32_t* row = dist.data() + v * n;
        for (std::int64_t u = 0; u < n; ++u) {
            const std::int32_t d = row[u];
            if (d < 1 || d > hops) continue;  // itself, unreachable, or beyond K
            ring[static_cast<std::size_t>(d - 1)].push_back(static_cast<VertexId>(u));
            // Distances are symmetric, so (u, v) at distance d is the arc u → v with receiver v.
            k.src.push_back(u);
            k.dst.push_back(v);
            k.hop.push_back(d - 1);
        }
        for (std::int32_t h = 0; h < hops; ++h) {
            const auto& s = ring[static_cast<std::size_t>(h)];
            for (std::size_t i = 0; i < s.size(); ++i) slot[s[i]] = static_cast<std::int32_t>(i);
            const std::int64_t r = v * hops + h;
            summarise(g, s, slot, level, queue, k.peripheral_edges[static_cast<std::size_t>(r)],
                      k.configuration.data() + r * width);
            for (VertexId u : s) slot[u] = -1;
        }
    }
    return k;
}

}  // namespace brec
