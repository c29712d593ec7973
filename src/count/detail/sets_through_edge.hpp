#pragma once
// The connected 3- and 4-vertex sets that contain both end points of a vertex pair {u,v}: the
// enumeration behind the edge-anchored counter's listing, the flip update and the admissibility
// checks. Private to the count module.

#include <array>
#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec::detail {

// Edge bits of a set s = {u, v, w[, x]} (s[0] = u, s[1] = v, s[2] = w, s[3] = x).
inline constexpr unsigned kEuv = 1, kEuw = 2, kEvw = 4, kEux = 8, kEvx = 16, kEwx = 32;

/// Pattern index of a 3-set from its 3 edge bits, or -1 when the set is disconnected.
const std::array<std::int8_t, 8>& pattern_table3();
/// Pattern index of a 4-set from its 6 edge bits, or -1 when the set is disconnected.
const std::array<std::int8_t, 64>& pattern_table4();

/// Whether the pair {s[a], s[b]} of edge bit `bit` is the lexicographically smallest edge of the
/// set (each edge taken as (min, max)); used to report every set once, from its smallest edge.
bool is_smallest_edge(const VertexId* s, int size, unsigned mask, unsigned bit);

// Marker bits of a vertex: adjacent to u, to v, to w.
inline constexpr std::uint8_t kMarkU = 1, kMarkV = 2, kMarkW = 4;

/// Calls f(s, size, mask) once for every vertex set s of size 3 (and 4 when max_size == 4) with
/// s[0] = u and s[1] = v that is connected in g plus the edge {u,v}; `mask` holds the set's edge
/// bits in g (kEuv exactly when g has the edge). Such a set has a third vertex w adjacent to u or v,
/// and a fourth vertex x adjacent to u or v (then the pair {w,x} is visited once, in the order of
/// `third`) or only to w. `mark` must hold g.n() zeros and is left so; `third` is scratch.
/// Complexity O(d^2).
template <typename F>
void for_each_set_through(const Graph& g, VertexId u, VertexId v, int max_size, std::vector<std::uint8_t>& mark,
                          std::vector<VertexId>& third, F&& f) {
    bool has_uv = false;
    for (VertexId w : g.neighbors(u))
        if (w != v) mark[w] |= kMarkU;
    for (VertexId w : g.neighbors(v)) {
        if (w == u) {
            has_uv = true;
            continue;
        }
        mark[w] |= kMarkV;
    }
    third.clear();
    for (VertexId w : g.neighbors(u))
        if (w != v) third.push_back(w);
    for (VertexId w : g.neighbors(v))
        if (w != u && !(mark[w] & kMarkU)) third.push_back(w);
    const unsigned euv = has_uv ? kEuv : 0u;
    for (std::size_t i = 0; i < third.size(); ++i) {
        const VertexId w = third[i];
        const std::uint8_t mw = mark[w];
        const unsigned m3 = euv | ((mw & kMarkU) ? kEuw : 0u) | ((mw & kMarkV) ? kEvw : 0u);
        VertexId s[4] = {u, v, w, 0};
        f(static_cast<const VertexId*>(s), 3, m3);
        if (max_size < 4) continue;
        for (VertexId x : g.neighbors(w)) mark[x] |= kMarkW;
        for (std::size_t j = i + 1; j < third.size(); ++j) {
            const VertexId x = third[j];
            const std::uint8_t mx = mark[x];
            s[3] = x;
            f(static_cast<const VertexId*>(s), 4,
              m3 | ((mx & kMarkU) ? kEux : 0u) | ((mx & kMarkV) ? kEvx : 0u) | ((mx & kMarkW) ? kEwx : 0u));
        }
        for (VertexId x : g.neighbors(w)) {
            if (x == u || x == v || (mark[x] & (kMarkU | kMarkV))) continue;
            s[3] = x;
            f(static_cast<const VertexId*>(s), 4, m3 | kEwx);
        }
        for (VertexId x : g.neighbors(w)) mark[x] &= static_cast<std::uint8_t>(~kMarkW);
    }
    for (VertexId w : g.neighbors(u)) mark[w] = 0;
    for (VertexId w : g.neighbors(v)) mark[w] = 0;
}

}  // namespace brec::detail
