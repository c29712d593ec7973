#include "brec/count/patterns.hpp"

#include <algorithm>

#include "brec/core/error.hpp"
#include "count/detail/sets_through_edge.hpp"

namespace brec {
namespace {

constexpr int idx(Pattern p) { return static_cast<int>(p); }

/// Pattern of a connected induced subgraph from its vertex count, edge count and maximum degree.
int classify(int size, int edges, int max_degree) {
    if (size == 3) return edges == 3 ? idx(Pattern::triangle) : idx(Pattern::path2);
    switch (edges) {
        case 3:
            return max_degree == 3 ? idx(Pattern::star3) : idx(Pattern::path3);
        case 4:
            return max_degree == 3 ? idx(Pattern::tailed_triangle) : idx(Pattern::cycle4);
        case 5:
            return idx(Pattern::diamond);
        case 6:
            return idx(Pattern::clique4);
        default:
            return -1;  // disconnected
    }
}

/// Pattern of a vertex set from its edges (pairs (i, j) of positions), or -1 when disconnected.
int classify_set(int size, const std::vector<std::pair<int, int>>& edges) {
    int deg[4] = {0, 0, 0, 0};
    int comp[4] = {0, 1, 2, 3};
    auto find = [&](int x) {
        while (comp[x] != x) x = comp[x];
        return x;
    };
    for (const auto& [a, b] : edges) {
        ++deg[a];
        ++deg[b];
        comp[find(a)] = find(b);
    }
    for (int i = 1; i < size; ++i)
        if (find(i) != find(0)) return -1;
    return classify(size, static_cast<int>(edges.size()), *std::max_element(deg, deg + size));
}

/// The positions (i, j) in a set of each edge bit of detail::for_each_set_through.
constexpr std::array<std::pair<int, int>, 6> kBitPairs = {{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}}};

template <std::size_t N>
std::array<std::int8_t, N> make_table(int size) {
    std::array<std::int8_t, N> table{};
    for (unsigned mask = 0; mask < N; ++mask) {
        std::vector<std::pair<int, int>> edges;
        for (unsigned b = 0; (1u << b) < N; ++b)
            if (mask & (1u << b)) edges.push_back(kBitPairs[b]);
        table[mask] = static_cast<std::int8_t>(classify_set(size, edges));
    }
    return table;
}

/// How often the edge iteration detects one occurrence of each pattern (see the header).
constexpr std::array<std::uint64_t, kNumPatterns> kDetections = {2, 3, 4, 6, 8, 7, 10, 12};

// Marker bits of a vertex relative to the current edge {u,v} and third vertex w.
constexpr std::uint8_t kAdjU = 1, kAdjV = 2, kAdjW = 4;

/// Adds one detection of the set s[0..size) (pattern p) to the totals and its members.
inline void detect(const VertexId* s, int size, int p, PatternCounts& out) {
    ++out.total[p];
    for (int i = 0; i < size; ++i) ++out.per_node[s[i]][p];
}

/// Pattern of {u, v, w, x} from w's marker bits (adjacency to u, v) and x's (to u, v, w); the
/// table is indexed by (mw & 3) * 8 + (mx & 7) and built once from classify().
struct Classify4Table {
    std::array<std::int8_t, 32> pattern{};
    Classify4Table() {
        for (int mw = 0; mw < 4; ++mw)
            for (int mx = 0; mx < 8; ++mx) {
                const int du = 1 + (mw & kAdjU ? 1 : 0) + (mx & kAdjU ? 1 : 0);
                const int dv = 1 + (mw & kAdjV ? 1 : 0) + (mx & kAdjV ? 1 : 0);
                const int dw = (mw & kAdjU ? 1 : 0) + (mw & kAdjV ? 1 : 0) + (mx & kAdjW ? 1 : 0);
                const int dx = (mx & kAdjU ? 1 : 0) + (mx & kAdjV ? 1 : 0) + (mx & kAdjW ? 1 : 0);
                const int edges = (du + dv + dw + dx) / 2;
                pattern[mw * 8 + mx] =
                    static_cast<std::int8_t>(classify(4, edges, std::max(std::max(du, dv), std::max(dw, dx))));
            }
    }
};

constexpr std::uint64_t choose2(std::uint64_t d) { return d < 2 ? 0 : d * (d - 1) / 2; }
constexpr std::uint64_t choose3(std::uint64_t d) { return d < 3 ? 0 : d * (d - 1) * (d - 2) / 6; }

/// The non-induced 3-star: C(deg v, 3) stars centred at v; a leaf v of a star centred at w
/// shares it with 2 of w's other deg(w) - 1 neighbours. O(N + M).
void add_noninduced_stars(const Graph& g, PatternCounts& out) {
    const int p = idx(Pattern::star3_noninduced);
    for (VertexId v = 0; v < g.n(); ++v) {
        const std::uint64_t centre = choose3(g.degree(v));
        out.total[p] += centre;
        if (out.per_node.empty()) continue;
        std::uint64_t leaf = 0;
        for (VertexId w : g.neighbors(v)) leaf += choose2(g.degree(w) - 1);
        out.per_node[v][p] = centre + leaf;
    }
}

void record_brute_force(const Graph& g, const VertexId* set, int size, PatternCounts& out) {
    int edges = 0;
    int deg[4] = {0, 0, 0, 0};
    for (int i = 0; i < size; ++i)
        for (int j = i + 1; j < size; ++j)
            if (g.has_edge(set[i], set[j])) {
                ++edges;
                ++deg[i];
                ++deg[j];
            }
    const int p = classify(size, edges, *std::max_element(deg, deg + size));
    if (p >= 0) detect(set, size, p, out);
}

}  // namespace

namespace detail {

const std::array<std::int8_t, 8>& pattern_table3() {
    static const std::array<std::int8_t, 8> table = make_table<8>(3);
    return table;
}

const std::array<std::int8_t, 64>& pattern_table4() {
    static const std::array<std::int8_t, 64> table = make_table<64>(4);
    return table;
}

bool is_smallest_edge(const VertexId* s, int size, unsigned mask, unsigned bit) {
    auto key = [&](unsigned b) {
        const auto [i, j] = kBitPairs[b];
        return std::make_pair(std::min(s[i], s[j]), std::max(s[i], s[j]));
    };
    const int bits = size == 3 ? 3 : 6;
    const auto mine = key(bit);
    for (int b = 0; b < bits; ++b)
        if ((mask & (1u << b)) && static_cast<unsigned>(b) != bit && key(static_cast<unsigned>(b)) < mine) return false;
    return true;
}

}  // namespace detail

const char* pattern_name(Pattern p) {
    switch (p) {
        case Pattern::path2:
            return "2-path";
        case Pattern::triangle:
            return "triangle";
        case Pattern::path3:
            return "3-path";
        case Pattern::star3:
            return "3-star";
        case Pattern::cycle4:
            return "4-cycle";
        case Pattern::tailed_triangle:
            return "tailed-triangle";
        case Pattern::diamond:
            return "chordal-cycle";
        case Pattern::clique4:
            return "4-clique";
        case Pattern::star3_noninduced:
            return "3-star-noninduced";
    }
    return "?";
}

std::vector<Pattern> all_patterns() {
    std::vector<Pattern> out;
    for (int p = 0; p < kNumCounts; ++p) out.push_back(static_cast<Pattern>(p));
    return out;
}

int pattern_size(Pattern p) { return static_cast<int>(p) < kNumPatterns3 ? 3 : 4; }

int pattern_diameter(Pattern p) {
    switch (p) {
        case Pattern::triangle:
        case Pattern::clique4:
            return 1;
        case Pattern::path3:
            return 3;
        default:
            return 2;
    }
}

bool is_induced(Pattern p) { return p != Pattern::star3_noninduced; }

Pattern parse_pattern(const std::string& name) {
    for (int p = 0; p < kNumCounts; ++p)
        if (name == pattern_name(static_cast<Pattern>(p))) return static_cast<Pattern>(p);
    if (name == "diamond") return Pattern::diamond;
    if (name == "paw") return Pattern::tailed_triangle;
    if (name == "3-star-not-induced") return Pattern::star3_noninduced;
    std::string all;
    for (int p = 0; p < kNumCounts; ++p)
        all += std::string(all.empty() ? "" : ", ") + pattern_name(static_cast<Pattern>(p));
    throw InvalidArgument("unknown pattern '" + name + "' (known: " + all + ")");
}

namespace {

/// The edge-anchored counter (see the header). Without per-vertex counts, the fourth vertices
/// adjacent to w only are counted, not visited: they all form the same pattern with {u, v, w}.
template <bool kPerNode>
void count_edge_anchored(const Graph& g, int max_size, PatternCounts& out) {
    const VertexId n = g.n();
    std::vector<std::uint8_t> mark(n, 0);
    std::vector<VertexId> third;  // N(u) u N(v) minus {u, v}
    static const Classify4Table table;
    for (VertexId u = 0; u < n; ++u) {
        // N(u) is marked once per u; each edge {u, v} adds and then clears only N(v)'s marks.
        for (VertexId w : g.neighbors(u)) mark[w] = kAdjU;
        for (VertexId v : g.neighbors(u)) {
            if (v <= u) continue;
            third.clear();
            for (VertexId w : g.neighbors(v)) mark[w] |= kAdjV;
            for (VertexId w : g.neighbors(u))
                if (w != v) third.push_back(w);
            for (VertexId w : g.neighbors(v))
                if (w != u && !(mark[w] & kAdjU)) third.push_back(w);
            for (VertexId w : third) {
                const std::uint8_t mw = mark[w];
                const int p3 = (mw & kAdjU) && (mw & kAdjV) ? idx(Pattern::triangle) : idx(Pattern::path2);
                if constexpr (kPerNode) {
                    const VertexId s[3] = {u, v, w};
                    detect(s, 3, p3, out);
                } else {
                    ++out.total[p3];
                }
                if (max_size < 4) continue;
                for (VertexId x : g.neighbors(w)) mark[x] |= kAdjW;
                // Fourth vertex: adjacent to u or v (in `third`), or only to w. The detections of
                // u, v, w are summed in `local` and added once per w.
                const std::int8_t* row = table.pattern.data() + (mw & 3) * 8;
                std::array<std::uint64_t, kNumPatterns> local{};
                if constexpr (kPerNode) {
                    auto fourth = [&](VertexId x) {
                        const int p = row[mark[x] & 7];
                        ++local[p];
                        ++out.per_node[x][p];
                    };
                    for (VertexId x : third)
                        if (x != w) fourth(x);
                    for (VertexId x : g.neighbors(w))
                        if (x != u && x != v && !(mark[x] & (kAdjU | kAdjV))) fourth(x);
                    for (int p = kNumPatterns3; p < kNumPatterns; ++p) {
                        out.total[p] += local[p];
                        out.per_node[u][p] += local[p];
                        out.per_node[v][p] += local[p];
                        out.per_node[w][p] += local[p];
                    }
                } else {
                    std::uint32_t in_third_adjacent = 0;  // members of `third` adjacent to w
                    for (VertexId x : third) {
                        const std::uint8_t mx = mark[x];
                        in_third_adjacent += (mx >> 2) & 1u;
                        if (x != w) ++local[row[mx & 7]];
                    }
                    const std::uint32_t only_w =
                        g.degree(w) - in_third_adjacent - ((mw & kAdjU) ? 1u : 0u) - ((mw & kAdjV) ? 1u : 0u);
                    local[row[kAdjW]] += only_w;
                    for (int p = kNumPatterns3; p < kNumPatterns; ++p) out.total[p] += local[p];
                }
                for (VertexId x : g.neighbors(w)) mark[x] &= static_cast<std::uint8_t>(~kAdjW);
            }
            for (VertexId w : g.neighbors(v)) mark[w] &= static_cast<std::uint8_t>(~kAdjV);
        }
        for (VertexId w : g.neighbors(u)) mark[w] = 0;
    }
}

}  // namespace

PatternCounts count_patterns(const Graph& g, int max_size, bool per_node) {
    if (max_size != 3 && max_size != 4) throw InvalidArgument("count_patterns: max_size must be 3 or 4");
    PatternCounts out;
    if (per_node) {
        out.per_node.assign(g.n(), {});
        count_edge_anchored<true>(g, max_size, out);
    } else {
        count_edge_anchored<false>(g, max_size, out);
    }
    // Normalise the multiple detections.
    for (int p = 0; p < kNumPatterns; ++p) {
        BREC_ASSERT(out.total[p] % kDetections[p] == 0);
        out.total[p] /= kDetections[p];
        for (auto& row : out.per_node) row[p] /= kDetections[p];
    }
    if (max_size == 4) add_noninduced_stars(g, out);
    return out;
}

InstanceList list_instances(const Graph& g, Pattern p) {
    if (!is_induced(p))
        throw InvalidArgument(std::string("cannot list the occurrences of ") + pattern_name(p) +
                              ": they are (centre, leaves) choices, not vertex sets; count it instead");
    InstanceList out;
    out.size = pattern_size(p);
    const int want = static_cast<int>(p);
    const auto& t3 = detail::pattern_table3();
    const auto& t4 = detail::pattern_table4();
    std::vector<std::uint8_t> mark(g.n(), 0);
    std::vector<VertexId> third;
    for (VertexId u = 0; u < g.n(); ++u)
        for (VertexId v : g.neighbors(u)) {
            if (v <= u) continue;
            detail::for_each_set_through(g, u, v, out.size, mark, third,
                                         [&](const VertexId* s, int size, unsigned mask) {
                                             if (size != out.size || (size == 3 ? t3[mask] : t4[mask]) != want) return;
                                             if (!detail::is_smallest_edge(s, size, mask, 0)) return;
                                             VertexId sorted[4];
                                             std::copy(s, s + size, sorted);
                                             std::sort(sorted, sorted + size);
                                             out.vertices.insert(out.vertices.end(), sorted, sorted + size);
                                         });
        }
    // Sort the sets lexicographically.
    const std::size_t count = out.count();
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i) order[i] = i;
    const auto k = static_cast<std::size_t>(out.size);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::lexicographical_compare(out.vertices.begin() + a * k, out.vertices.begin() + (a + 1) * k,
                                            out.vertices.begin() + b * k, out.vertices.begin() + (b + 1) * k);
    });
    std::vector<VertexId> sorted;
    sorted.reserve(out.vertices.size());
    for (std::size_t i : order)
        sorted.insert(sorted.end(), out.vertices.begin() + i * k, out.vertices.begin() + (i + 1) * k);
    out.vertices = std::move(sorted);
    return out;
}

const char* edge_orbit_name(EdgeOrbit o) {
    switch (o) {
        case EdgeOrbit::path2:
            return "2-path";
        case EdgeOrbit::triangle:
            return "triangle";
        case EdgeOrbit::path3_end:
            return "3-path end";
        case EdgeOrbit::path3_middle:
            return "3-path middle";
        case EdgeOrbit::star3:
            return "3-star";
        case EdgeOrbit::cycle4:
            return "4-cycle";
        case EdgeOrbit::tailed_triangle_far:
            return "tailed-triangle far";
        case EdgeOrbit::tailed_triangle_near:
            return "tailed-triangle near";
        case EdgeOrbit::tailed_triangle_tail:
            return "tailed-triangle tail";
        case EdgeOrbit::diamond_chord:
            return "chordal-cycle chord";
        case EdgeOrbit::diamond_rim:
            return "chordal-cycle rim";
        case EdgeOrbit::clique4:
            return "4-clique";
    }
    return "?";
}

Pattern edge_orbit_pattern(EdgeOrbit o) {
    switch (o) {
        case EdgeOrbit::path2:
            return Pattern::path2;
        case EdgeOrbit::triangle:
            return Pattern::triangle;
        case EdgeOrbit::path3_end:
        case EdgeOrbit::path3_middle:
            return Pattern::path3;
        case EdgeOrbit::star3:
            return Pattern::star3;
        case EdgeOrbit::cycle4:
            return Pattern::cycle4;
        case EdgeOrbit::tailed_triangle_far:
        case EdgeOrbit::tailed_triangle_near:
        case EdgeOrbit::tailed_triangle_tail:
            return Pattern::tailed_triangle;
        case EdgeOrbit::diamond_chord:
        case EdgeOrbit::diamond_rim:
            return Pattern::diamond;
        case EdgeOrbit::clique4:
            return Pattern::clique4;
    }
    return Pattern::path2;
}

namespace {

/// The orbit of an edge of an occurrence of pattern p whose end points have degrees da, db inside
/// the occurrence: within each of the 8 patterns the degree pair tells the edge orbits apart.
EdgeOrbit edge_orbit_of(int p, int da, int db) {
    switch (static_cast<Pattern>(p)) {
        case Pattern::path2:
            return EdgeOrbit::path2;
        case Pattern::triangle:
            return EdgeOrbit::triangle;
        case Pattern::path3:
            return da == 2 && db == 2 ? EdgeOrbit::path3_middle : EdgeOrbit::path3_end;
        case Pattern::star3:
            return EdgeOrbit::star3;
        case Pattern::cycle4:
            return EdgeOrbit::cycle4;
        case Pattern::tailed_triangle:
            if (std::min(da, db) == 1) return EdgeOrbit::tailed_triangle_tail;
            return std::max(da, db) == 3 ? EdgeOrbit::tailed_triangle_near : EdgeOrbit::tailed_triangle_far;
        case Pattern::diamond:
            return da == 3 && db == 3 ? EdgeOrbit::diamond_chord : EdgeOrbit::diamond_rim;
        default:
            return EdgeOrbit::clique4;
    }
}

}  // namespace

EdgeOrbitCounts count_edge_orbits(const Graph& g) {
    EdgeOrbitCounts out;
    out.edges = g.edges();
    out.counts.assign(out.edges.size(), {});
    // Edge id of every arc, so that an edge of a set is found by one binary search.
    std::vector<std::uint32_t> arc_edge(g.neighbor_array().size());
    const auto arc = [&](VertexId a, VertexId b) {
        const auto nb = g.neighbors(a);
        return g.offsets()[a] + static_cast<std::uint32_t>(std::lower_bound(nb.begin(), nb.end(), b) - nb.begin());
    };
    for (std::size_t e = 0; e < out.edges.size(); ++e) {
        const auto [u, v] = out.edges[e];
        arc_edge[arc(u, v)] = arc_edge[arc(v, u)] = static_cast<std::uint32_t>(e);
    }
    const auto& t3 = detail::pattern_table3();
    const auto& t4 = detail::pattern_table4();
    std::vector<std::uint8_t> mark(g.n(), 0);
    std::vector<VertexId> third;
    for (VertexId u = 0; u < g.n(); ++u)
        for (VertexId v : g.neighbors(u)) {
            if (v <= u) continue;
            detail::for_each_set_through(g, u, v, 4, mark, third, [&](const VertexId* s, int size, unsigned mask) {
                const int p = size == 3 ? t3[mask] : t4[mask];
                if (p < 0 || !detail::is_smallest_edge(s, size, mask, 0)) return;
                const int bits = size == 3 ? 3 : 6;
                int deg[4] = {0, 0, 0, 0};
                for (int b = 0; b < bits; ++b)
                    if (mask & (1u << b)) {
                        ++deg[kBitPairs[b].first];
                        ++deg[kBitPairs[b].second];
                    }
                for (int b = 0; b < bits; ++b)
                    if (mask & (1u << b)) {
                        const auto [i, j] = kBitPairs[b];
                        const int o = static_cast<int>(edge_orbit_of(p, deg[i], deg[j]));
                        ++out.counts[arc_edge[arc(s[i], s[j])]][o];
                    }
            });
        }
    return out;
}

PatternCounts count_patterns_brute_force(const Graph& g, int max_size) {
    PatternCounts out;
    out.per_node.assign(g.n(), {});
    const VertexId n = g.n();
    auto connected = [&](const VertexId* s, int size) {
        // Tiny union-find over the subset.
        int comp[4] = {0, 1, 2, 3};
        auto find = [&](int x) {
            while (comp[x] != x) x = comp[x];
            return x;
        };
        for (int i = 0; i < size; ++i)
            for (int j = i + 1; j < size; ++j)
                if (g.has_edge(s[i], s[j])) comp[find(i)] = find(j);
        for (int i = 1; i < size; ++i)
            if (find(i) != find(0)) return false;
        return true;
    };
    VertexId s[4];
    for (s[0] = 0; s[0] < n; ++s[0])
        for (s[1] = s[0] + 1; s[1] < n; ++s[1])
            for (s[2] = s[1] + 1; s[2] < n; ++s[2]) {
                if (connected(s, 3)) record_brute_force(g, s, 3, out);
                if (max_size < 4) continue;
                for (s[3] = s[2] + 1; s[3] < n; ++s[3])
                    if (connected(s, 4)) record_brute_force(g, s, 4, out);
            }
    if (max_size < 4) return out;
    // Non-induced 3-stars from the definition: every centre and every 3 of its neighbours.
    const int star = idx(Pattern::star3_noninduced);
    for (VertexId c = 0; c < n; ++c) {
        const auto nb = g.neighbors(c);
        for (std::size_t a = 0; a < nb.size(); ++a)
            for (std::size_t b = a + 1; b < nb.size(); ++b)
                for (std::size_t d = b + 1; d < nb.size(); ++d) {
                    ++out.total[star];
                    for (VertexId x : {c, nb[a], nb[b], nb[d]}) ++out.per_node[x][star];
                }
    }
    return out;
}

}  // namespace brec
