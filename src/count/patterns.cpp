#include "brec/count/patterns.hpp"

#include <algorithm>

#include "brec/core/error.hpp"

namespace brec {
namespace {

/// Classifies a connected induced subgraph by vertex count, edge count and maximum degree.
int classify(int size, int edges, int max_degree) {
    if (size == 3) return edges == 3 ? static_cast<int>(Pattern::triangle) : static_cast<int>(Pattern::path2);
    switch (edges) {
        case 3: return max_degree == 3 ? static_cast<int>(Pattern::star3) : static_cast<int>(Pattern::path3);
        case 4: return max_degree == 3 ? static_cast<int>(Pattern::tailed_triangle) : static_cast<int>(Pattern::cycle4);
        case 5: return static_cast<int>(Pattern::diamond);
        case 6: return static_cast<int>(Pattern::clique4);
        default: return -1;  // disconnected: never produced by the enumeration
    }
}

void record(const Graph& g, const VertexId* set, int size, PatternCounts& out) {
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
    if (p < 0) return;
    ++out.total[p];
    for (int i = 0; i < size; ++i) ++out.per_node[set[i]][p];
}

struct Esu {
    const Graph& g;
    int max_size;
    PatternCounts& out;
    std::vector<std::uint8_t> in_set, in_ext_or_nbr;
    VertexId set[4];

    // ESU: extend `set` (size s, start vertex root) with candidates from `ext`.
    void extend(int s, std::vector<VertexId> ext, VertexId root) {
        if (s >= 3) record(g, set, s, out);
        if (s == max_size) return;
        while (!ext.empty()) {
            const VertexId w = ext.back();
            ext.pop_back();
            // New extension: ext plus exclusive neighbours of w (not in set, not adjacent to set).
            std::vector<VertexId> next = ext;
            for (VertexId u : g.neighbors(w)) {
                if (u <= root || in_set[u]) continue;
                bool exclusive = true;
                for (int i = 0; i < s; ++i)
                    if (set[i] == u || g.has_edge(set[i], u)) {
                        exclusive = false;
                        break;
                    }
                if (exclusive && std::find(next.begin(), next.end(), u) == next.end()) next.push_back(u);
            }
            set[s] = w;
            in_set[w] = 1;
            extend(s + 1, std::move(next), root);
            in_set[w] = 0;
        }
    }
};

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
    out.per_node.assign(g.n(), {});
    Esu esu{g, max_size, out, std::vector<std::uint8_t>(g.n(), 0), {}, {}};
    for (VertexId v = 0; v < g.n(); ++v) {
        std::vector<VertexId> ext;
        for (VertexId u : g.neighbors(v))
            if (u > v) ext.push_back(u);
        esu.set[0] = v;
        esu.in_set[v] = 1;
        esu.extend(1, std::move(ext), v);
        esu.in_set[v] = 0;
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
                if (connected(s, 3)) record(g, s, 3, out);
                if (max_size < 4) continue;
                for (s[3] = s[2] + 1; s[3] < n; ++s[3])
                    if (connected(s, 4)) record(g, s, 4, out);
            }
    return out;
}

}  // namespace brec
