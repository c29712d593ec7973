#include "brec/count/patterns.hpp"

#include <algorithm>

#include "brec/core/error.hpp"

namespace brec {
namespace {

constexpr int idx(Pattern p) { return static_cast<int>(p); }

/// Pattern of a connected induced subgraph from its vertex count, edge count and maximum degree.
int classify(int size, int edges, int max_degree) {
    if (size == 3) return edges == 3 ? idx(Pattern::triangle) : idx(Pattern::path2);
    switch (edges) {
        case 3: return max_degree == 3 ? idx(Pattern::star3) : idx(Pattern::path3);
        case 4: return max_degree == 3 ? idx(Pattern::tailed_triangle) : idx(Pattern::cycle4);
        case 5: return idx(Pattern::diamond);
        case 6: return idx(Pattern::clique4);
        default: return -1;  // disconnected
    }
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
                pattern[mw * 8 + mx] = static_cast<std::int8_t>(
                    classify(4, edges, std::max(std::max(du, dv), std::max(dw, dx))));
            }
    }
};

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

const char* pattern_name(Pattern p) {
    switch (p) {
        case Pattern::path2: return "2-path";
        case Pattern::triangle: return "triangle";
        case Pattern::path3: return "3-path";
        case Pattern::star3: return "3-star";
        case Pattern::cycle4: return "4-cycle";
        case Pattern::tailed_triangle: return "tailed-triangle";
        case Pattern::diamond: return "chordal-cycle";
        case Pattern::clique4: return "4-clique";
    }
    return "?";
}

Pattern parse_pattern(const std::string& name) {
    for (int p = 0; p < kNumPatterns; ++p)
        if (name == pattern_name(static_cast<Pattern>(p))) return static_cast<Pattern>(p);
    if (name == "diamond") return Pattern::diamond;
    if (name == "paw") return Pattern::tailed_triangle;
    std::string all;
    for (int p = 0; p < kNumPatterns; ++p) all += std::string(all.empty() ? "" : ", ") + pattern_name(static_cast<Pattern>(p));
    throw InvalidArgument("unknown pattern '" + name + "' (known: " + all + ")");
}

PatternCounts count_patterns(const Graph& g, int max_size) {
    if (max_size != 3 && max_size != 4) throw InvalidArgument("count_patterns: max_size must be 3 or 4");
    PatternCounts out;
    const VertexId n = g.n();
    out.per_node.assign(n, {});
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
                VertexId s[4] = {u, v, w, 0};
                detect(s, 3, (mw & kAdjU) && (mw & kAdjV) ? idx(Pattern::triangle) : idx(Pattern::path2), out);
                if (max_size < 4) continue;
                for (VertexId x : g.neighbors(w)) mark[x] |= kAdjW;
                // Fourth vertex: adjacent to u or v (in `third`), or only to w. The detections of
                // u, v, w are summed in `local` and added once per w.
                const std::int8_t* row = table.pattern.data() + (mw & 3) * 8;
                std::array<std::uint64_t, kNumPatterns> local{};
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
                for (VertexId x : g.neighbors(w)) mark[x] &= static_cast<std::uint8_t>(~kAdjW);
            }
            for (VertexId w : g.neighbors(v)) mark[w] &= static_cast<std::uint8_t>(~kAdjV);
        }
        for (VertexId w : g.neighbors(u)) mark[w] = 0;
    }
    // Normalise the multiple detections.
    for (int p = 0; p < kNumPatterns; ++p) {
        BREC_ASSERT(out.total[p] % kDetections[p] == 0);
        out.total[p] /= kDetections[p];
        for (auto& row : out.per_node) row[p] /= kDetections[p];
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
    return out;
}

}  // namespace brec
