#include "brec/nn/structural_ids.hpp"

#include <algorithm>

namespace brec::nn {

const std::array<std::uint32_t, kNumEdgeOrbits>& gsn_id_caps() {
    // EdgeOrbit order: 2-path, triangle, 3-path end, 3-path middle, 3-star, 4-cycle, tailed
    // triangle far / near / tail, chordal cycle chord / rim, 4-clique.
    static const std::array<std::uint32_t, kNumEdgeOrbits> kCaps = {16, 9, 80, 40, 91, 32, 40, 80, 40, 20, 80, 21};
    return kCaps;
}

std::int64_t gsn_id_width() {
    std::int64_t w = 0;
    for (std::uint32_t c : gsn_id_caps()) w += static_cast<std::int64_t>(c) + 1;
    return w;
}

GsnArcs gsn_arcs(const Graph& g) {
    const EdgeOrbitCounts counts = count_edge_orbits(g);
    const auto& caps = gsn_id_caps();
    GsnArcs out;
    const std::size_t m = counts.edges.size();
    out.src.resize(2 * m);
    out.dst.resize(2 * m);
    out.slots.resize(2 * m * kNumEdgeOrbits);
    for (std::size_t e = 0; e < m; ++e) {
        const auto [u, v] = counts.edges[e];
        out.src[e] = out.dst[m + e] = u;
        out.dst[e] = out.src[m + e] = v;
        std::int64_t offset = 0;
        for (int o = 0; o < kNumEdgeOrbits; ++o) {
            const std::int64_t slot = offset + std::min(counts.counts[e][o], caps[o]);
            out.slots[e * kNumEdgeOrbits + o] = out.slots[(m + e) * kNumEdgeOrbits + o] = slot;
            offset += static_cast<std::int64_t>(caps[o]) + 1;
        }
    }
    return out;
}

}  // namespace brec::nn
