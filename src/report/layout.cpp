#include "brec/report/layout.hpp"

#include <algorithm>
#include <cmath>

#include "brec/graph/algorithms.hpp"

namespace brec {

std::vector<Point> circular_layout(const Graph& g) {
    const VertexId n = g.n();
    std::vector<Point> p(n);
    for (VertexId v = 0; v < n; ++v) {
        const double t = 2.0 * M_PI * v / std::max<VertexId>(n, 1) - M_PI / 2;
        p[v] = {std::cos(t), std::sin(t)};
    }
    return p;
}

std::vector<Point> stress_layout(const Graph& g, int iterations) {
    const VertexId n = g.n();
    std::vector<Point> p = circular_layout(g);
    if (n < 3) return p;
    auto d = all_pairs_distances(g);
    std::int32_t diam = 1;
    for (auto x : d) diam = std::max(diam, x);
    for (auto& x : d)
        if (x == kUnreachable) x = diam + 1;
    // Start from the circle scaled to the graph's distance scale.
    const double scale0 = std::max(1.0, diam / 2.0);
    for (auto& q : p) q = {q.x * scale0, q.y * scale0};
    for (int it = 0; it < iterations; ++it) {
        double moved = 0.0;
        for (VertexId i = 0; i < n; ++i) {
            double sx = 0.0, sy = 0.0, sw = 0.0;
            for (VertexId j = 0; j < n; ++j) {
                if (i == j) continue;
                const double dij = d[static_cast<std::size_t>(i) * n + j];
                const double w = 1.0 / (dij * dij);
                const double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
                const double len = std::max(1e-9, std::sqrt(dx * dx + dy * dy));
                sx += w * (p[j].x + dij * dx / len);
                sy += w * (p[j].y + dij * dy / len);
                sw += w;
            }
            const Point q{sx / sw, sy / sw};
            moved += std::fabs(q.x - p[i].x) + std::fabs(q.y - p[i].y);
            p[i] = q;
        }
        if (moved < 1e-6 * n) break;
    }
    // Centre and scale into the unit disc.
    double cx = 0, cy = 0;
    for (const auto& q : p) cx += q.x, cy += q.y;
    cx /= n;
    cy /= n;
    double r = 1e-9;
    for (const auto& q : p) r = std::max(r, std::hypot(q.x - cx, q.y - cy));
    for (auto& q : p) q = {(q.x - cx) / r, (q.y - cy) / r};
    return p;
}

std::vector<int> bipartition(const Graph& g) {
    const VertexId n = g.n();
    if (g.m() == 0) return {};
    std::vector<int> side(n, -1);
    std::vector<VertexId> queue;
    for (VertexId s = 0; s < n; ++s) {
        if (side[s] >= 0) continue;
        side[s] = 0;
        queue.assign(1, s);
        for (std::size_t qi = 0; qi < queue.size(); ++qi) {
            const VertexId x = queue[qi];
            for (VertexId y : g.neighbors(x)) {
                if (side[y] < 0) {
                    side[y] = 1 - side[x];
                    queue.push_back(y);
                } else if (side[y] == side[x]) {
                    return {};
                }
            }
        }
    }
    return side;
}

const char* layout_name(LayoutKind kind) {
    switch (kind) {
        case LayoutKind::stress:
            return "stress majorization";
        case LayoutKind::circular:
            return "circular";
        case LayoutKind::circular_bipartite:
            return "circular, bipartition on two arcs";
    }
    return "?";
}

Layout default_layout(const Graph& g) {
    Layout out;
    // Cycles (degree <= 2) read best when stress shows them as rings.
    if (g.n() == 0 || !g.is_regular() || g.degree(0) <= 2) {
        out.kind = LayoutKind::stress;
        out.points = stress_layout(g);
        return out;
    }
    const auto side = bipartition(g);
    out.points = circular_layout(g);
    if (side.empty()) {
        out.kind = LayoutKind::circular;
        return out;
    }
    // Class 0 on one arc, class 1 on the other: every edge crosses between the arcs.
    out.kind = LayoutKind::circular_bipartite;
    const auto slots = out.points;
    VertexId next = 0;
    for (int c = 0; c < 2; ++c)
        for (VertexId v = 0; v < g.n(); ++v)
            if (side[v] == c) out.points[v] = slots[next++];
    return out;
}

}  // namespace brec
