#include "brec/graph/algorithms.hpp"

#include <algorithm>
#include <deque>

#include "brec/core/error.hpp"

namespace brec {

void validate_permutation(const Permutation& perm, VertexId n) {
    if (perm.size() != n)
        throw InvalidArgument("permutation has " + std::to_string(perm.size()) + " entries, expected " +
                              std::to_string(n));
    std::vector<bool> seen(n, false);
    for (VertexId x : perm) {
        if (x >= n || seen[x])
            throw InvalidArgument("not a permutation of 0.." + std::to_string(n) + "-1 (bad or repeated entry " +
                                  std::to_string(x) + ")");
        seen[x] = true;
    }
}

Permutation inverse(const Permutation& perm) {
    Permutation inv(perm.size());
    for (std::size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<VertexId>(i);
    return inv;
}

Graph permute(const Graph& g, const Permutation& perm) {
    validate_permutation(perm, g.n());
    GraphBuilder b(g.n());
    for (VertexId u = 0; u < g.n(); ++u) {
        const auto nb = g.neighbors(u);
        for (std::size_t k = 0; k < nb.size(); ++k) {
            const VertexId v = nb[k];
            if (u >= v) continue;
            if (g.has_edge_labels())
                b.add_edge(perm[u], perm[v], g.arc_label(g.offsets()[u] + k));
            else
                b.add_edge(perm[u], perm[v]);
        }
    }
    if (g.has_node_labels()) {
        std::vector<Label> labels(g.n());
        for (VertexId u = 0; u < g.n(); ++u) labels[perm[u]] = g.node_label(u);
        b.set_node_labels(std::move(labels));
    }
    return b.build();
}

Graph induced_subgraph(const Graph& g, const std::vector<VertexId>& vertices) {
    std::vector<VertexId> index(g.n(), kNoVertex);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const VertexId v = vertices[i];
        if (v >= g.n()) throw InvalidArgument("induced_subgraph: vertex " + std::to_string(v) + " out of range");
        if (index[v] != kNoVertex) throw InvalidArgument("induced_subgraph: vertex " + std::to_string(v) + " repeated");
        index[v] = static_cast<VertexId>(i);
    }
    GraphBuilder b(static_cast<VertexId>(vertices.size()));
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const VertexId u = vertices[i];
        const auto nb = g.neighbors(u);
        for (std::size_t k = 0; k < nb.size(); ++k) {
            const VertexId j = index[nb[k]];
            if (j == kNoVertex || j <= i) continue;
            if (g.has_edge_labels())
                b.add_edge(static_cast<VertexId>(i), j, g.arc_label(g.offsets()[u] + k));
            else
                b.add_edge(static_cast<VertexId>(i), j);
        }
    }
    if (g.has_node_labels()) {
        std::vector<Label> labels;
        labels.reserve(vertices.size());
        for (VertexId v : vertices) labels.push_back(g.node_label(v));
        b.set_node_labels(std::move(labels));
    }
    return b.build();
}

std::vector<std::int32_t> bfs_distances(const Graph& g, VertexId src) {
    if (src >= g.n())
        throw InvalidArgument("bfs_distances: source vertex " + std::to_string(src) + " out of range [0," +
                              std::to_string(g.n()) + ")");
    std::vector<std::int32_t> dist(g.n(), kUnreachable);
    std::vector<VertexId> queue;
    queue.reserve(g.n());
    dist[src] = 0;
    queue.push_back(src);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const VertexId u = queue[head];
        for (VertexId w : g.neighbors(u))
            if (dist[w] == kUnreachable) {
                dist[w] = dist[u] + 1;
                queue.push_back(w);
            }
    }
    return dist;
}

std::vector<std::int32_t> all_pairs_distances(const Graph& g) {
    const std::size_t n = g.n();
    std::vector<std::int32_t> d(n * n);
    for (VertexId s = 0; s < g.n(); ++s) {
        const auto row = bfs_distances(g, s);
        std::copy(row.begin(), row.end(), d.begin() + static_cast<std::ptrdiff_t>(s * n));
    }
    return d;
}

namespace {

/// BFS from v up to depth k. `dist` has n entries, all kUnreachable on entry, and is left that way
/// on return (only the ball's entries are touched), so one array serves many roots.
EgoBall bounded_bfs(const Graph& g, VertexId v, std::uint32_t k, std::vector<std::int32_t>& dist) {
    EgoBall ball;
    ball.vertices.push_back(v);
    dist[v] = 0;
    for (std::size_t head = 0; head < ball.vertices.size(); ++head) {
        const VertexId u = ball.vertices[head];
        if (static_cast<std::uint32_t>(dist[u]) == k) continue;
        for (VertexId w : g.neighbors(u))
            if (dist[w] == kUnreachable) {
                dist[w] = dist[u] + 1;
                ball.vertices.push_back(w);
            }
    }
    ball.distances.reserve(ball.vertices.size());
    for (VertexId u : ball.vertices) {
        ball.distances.push_back(dist[u]);
        dist[u] = kUnreachable;
    }
    return ball;
}

void check_root(const Graph& g, VertexId v, const char* what) {
    if (v >= g.n())
        throw InvalidArgument(std::string(what) + ": root vertex " + std::to_string(v) + " out of range [0," +
                              std::to_string(g.n()) + ")");
}

}  // namespace

std::vector<VertexId> ego_vertices(const Graph& g, VertexId v, std::uint32_t k) {
    check_root(g, v, "ego_vertices");
    std::vector<std::int32_t> dist(g.n(), kUnreachable);
    return bounded_bfs(g, v, k, dist).vertices;
}

EgoBall ego_ball(const Graph& g, VertexId v, std::uint32_t k) {
    check_root(g, v, "ego_ball");
    std::vector<std::int32_t> dist(g.n(), kUnreachable);
    return bounded_bfs(g, v, k, dist);
}

std::vector<EgoBall> ego_balls(const Graph& g, std::uint32_t k) {
    std::vector<std::int32_t> dist(g.n(), kUnreachable);
    std::vector<EgoBall> balls;
    balls.reserve(g.n());
    for (VertexId v = 0; v < g.n(); ++v) balls.push_back(bounded_bfs(g, v, k, dist));
    return balls;
}

Graph ego_net(const Graph& g, VertexId v, std::uint32_t k) { return induced_subgraph(g, ego_vertices(g, v, k)); }

std::vector<std::uint32_t> connected_components(const Graph& g, std::uint32_t* count) {
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::vector<std::uint32_t> comp(g.n(), kNone);
    std::uint32_t c = 0;
    std::vector<VertexId> stack;
    for (VertexId s = 0; s < g.n(); ++s) {
        if (comp[s] != kNone) continue;
        comp[s] = c;
        stack.push_back(s);
        while (!stack.empty()) {
            const VertexId u = stack.back();
            stack.pop_back();
            for (VertexId w : g.neighbors(u))
                if (comp[w] == kNone) {
                    comp[w] = c;
                    stack.push_back(w);
                }
        }
        ++c;
    }
    if (count) *count = c;
    return comp;
}

bool is_connected(const Graph& g) {
    std::uint32_t c = 0;
    connected_components(g, &c);
    return c <= 1;
}

Graph complement(const Graph& g) {
    GraphBuilder b(g.n());
    for (VertexId u = 0; u < g.n(); ++u) {
        const auto nb = g.neighbors(u);
        std::size_t k = 0;
        for (VertexId v = u + 1; v < g.n(); ++v) {
            while (k < nb.size() && nb[k] < v) ++k;
            if (k < nb.size() && nb[k] == v) continue;
            b.add_edge(u, v);
        }
    }
    if (g.has_node_labels()) b.set_node_labels(g.node_labels());
    return b.build();
}

Graph disjoint_union(const Graph& g, const Graph& h) {
    GraphBuilder b(g.n() + h.n());
    // Edge labels are kept when either graph has them (missing labels are 0).
    const bool labelled = g.has_edge_labels() || h.has_edge_labels();
    for (const auto& [u, v] : g.edges()) {
        if (labelled)
            b.add_edge(u, v, g.edge_label(u, v));
        else
            b.add_edge(u, v);
    }
    for (const auto& [u, v] : h.edges()) {
        if (labelled)
            b.add_edge(u + g.n(), v + g.n(), h.edge_label(u, v));
        else
            b.add_edge(u + g.n(), v + g.n());
    }
    if (g.has_node_labels() || h.has_node_labels()) {
        std::vector<Label> labels;
        for (VertexId v = 0; v < g.n(); ++v) labels.push_back(g.node_label(v));
        for (VertexId v = 0; v < h.n(); ++v) labels.push_back(h.node_label(v));
        b.set_node_labels(std::move(labels));
    }
    return b.build();
}

}  // namespace brec
