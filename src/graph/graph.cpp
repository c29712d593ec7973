#include "brec/graph/graph.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "brec/core/error.hpp"

namespace brec {

bool Graph::has_edge(VertexId u, VertexId v) const {
    if (u >= n() || v >= n()) return false;
    if (degree(u) > degree(v)) std::swap(u, v);
    const auto nb = neighbors(u);
    return std::binary_search(nb.begin(), nb.end(), v);
}

Label Graph::edge_label(VertexId u, VertexId v) const {
    const auto nb = neighbors(u);
    const auto it = std::lower_bound(nb.begin(), nb.end(), v);
    if (it == nb.end() || *it != v)
        throw InvalidArgument("edge {" + std::to_string(u) + "," + std::to_string(v) + "} does not exist");
    return arc_label(offsets_[u] + static_cast<std::size_t>(it - nb.begin()));
}

std::vector<Edge> Graph::edges() const {
    std::vector<Edge> out;
    out.reserve(m());
    for (VertexId u = 0; u < n(); ++u)
        for (VertexId v : neighbors(u))
            if (u < v) out.emplace_back(u, v);
    return out;
}

std::vector<std::uint32_t> Graph::degree_sequence() const {
    std::vector<std::uint32_t> d(n());
    for (VertexId v = 0; v < n(); ++v) d[v] = degree(v);
    std::sort(d.begin(), d.end(), std::greater<>());
    return d;
}

bool Graph::is_regular() const {
    for (VertexId v = 1; v < n(); ++v)
        if (degree(v) != degree(0)) return false;
    return true;
}

std::uint32_t Graph::max_degree() const {
    std::uint32_t d = 0;
    for (VertexId v = 0; v < n(); ++v) d = std::max(d, degree(v));
    return d;
}

std::uint32_t Graph::min_degree() const {
    if (n() == 0) return 0;
    std::uint32_t d = degree(0);
    for (VertexId v = 1; v < n(); ++v) d = std::min(d, degree(v));
    return d;
}

std::vector<std::uint8_t> Graph::adjacency_matrix() const {
    const std::size_t nn = n();
    std::vector<std::uint8_t> a(nn * nn, 0);
    for (VertexId u = 0; u < n(); ++u)
        for (VertexId v : neighbors(u)) a[u * nn + v] = 1;
    return a;
}

Graph GraphBuilder::build(BuildStats* stats) const {
    BuildStats st;
    const bool labelled = !raw_labels_.empty();
    struct Arc {
        VertexId u, v;
        Label label;
    };
    std::vector<Arc> arcs;
    arcs.reserve(raw_.size());
    for (std::size_t i = 0; i < raw_.size(); ++i) {
        const auto [u, v] = raw_[i];
        if (u >= n_ || v >= n_)
            throw InvalidArgument("edge {" + std::to_string(u) + "," + std::to_string(v) +
                                  "}: vertex out of range [0," + std::to_string(n_) + ")");
        if (u == v) {
            if (loops_ == EdgePolicy::reject)
                throw InvalidArgument("self-loop at vertex " + std::to_string(u) + " (simple graphs only)");
            ++st.self_loops;
            continue;
        }
        const Label l = (labelled && i < raw_labels_.size()) ? raw_labels_[i] : 0;
        arcs.push_back({u, v, l});
    }
    auto by_key = [](const Arc& a, const Arc& b) { return std::tie(a.u, a.v) < std::tie(b.u, b.v); };
    auto same_key = [](const Arc& a, const Arc& b) { return a.u == b.u && a.v == b.v; };
    auto dedupe = [&](std::vector<Arc>& list, bool count) {
        std::stable_sort(list.begin(), list.end(), by_key);
        std::vector<Arc> out;
        out.reserve(list.size());
        for (const Arc& a : list) {
            if (!out.empty() && same_key(out.back(), a)) {
                if (out.back().label != a.label)
                    throw InvalidArgument("edge {" + std::to_string(a.u) + "," + std::to_string(a.v) +
                                          "} listed with labels " + std::to_string(out.back().label) + " and " +
                                          std::to_string(a.label));
                if (count) {
                    if (dups_ == EdgePolicy::reject)
                        throw InvalidArgument("duplicate edge {" + std::to_string(a.u) + "," + std::to_string(a.v) +
                                              "}");
                    ++st.duplicate_edges;
                }
                continue;
            }
            out.push_back(a);
        }
        list.swap(out);
    };
    if (symmetric_) {
        // Repeated ordered arcs are duplicates; the reverse direction of an arc is expected.
        dedupe(arcs, true);
        for (Arc& a : arcs)
            if (a.u > a.v) std::swap(a.u, a.v);
        dedupe(arcs, false);
    } else {
        for (Arc& a : arcs)
            if (a.u > a.v) std::swap(a.u, a.v);
        dedupe(arcs, true);
    }

    Graph g;
    g.offsets_.assign(static_cast<std::size_t>(n_) + 1, 0);
    for (const Arc& a : arcs) {
        ++g.offsets_[a.u + 1];
        ++g.offsets_[a.v + 1];
    }
    std::partial_sum(g.offsets_.begin(), g.offsets_.end(), g.offsets_.begin());
    g.neighbors_.resize(arcs.size() * 2);
    if (labelled) g.edge_labels_.resize(arcs.size() * 2);
    std::vector<std::uint32_t> fill(g.offsets_.begin(), g.offsets_.end() - 1);
    // Arcs are sorted by (u, v) with u < v. Inserting (u->v) for each arc in order, then (v->u),
    // would not give sorted lists for v; so fill, then sort each list with its labels.
    for (const Arc& a : arcs) {
        const auto pu = fill[a.u]++;
        const auto pv = fill[a.v]++;
        g.neighbors_[pu] = a.v;
        g.neighbors_[pv] = a.u;
        if (labelled) {
            g.edge_labels_[pu] = a.label;
            g.edge_labels_[pv] = a.label;
        }
    }
    for (VertexId v = 0; v < n_; ++v) {
        const auto b = g.offsets_[v], e = g.offsets_[v + 1];
        if (!labelled) {
            std::sort(g.neighbors_.begin() + b, g.neighbors_.begin() + e);
        } else {
            std::vector<std::pair<VertexId, Label>> tmp;
            for (auto p = b; p < e; ++p) tmp.emplace_back(g.neighbors_[p], g.edge_labels_[p]);
            std::sort(tmp.begin(), tmp.end());
            for (auto p = b; p < e; ++p) {
                g.neighbors_[p] = tmp[p - b].first;
                g.edge_labels_[p] = tmp[p - b].second;
            }
        }
    }
    if (!node_labels_.empty()) {
        if (node_labels_.size() != n_)
            throw InvalidArgument("node label count " + std::to_string(node_labels_.size()) +
                                  " does not match vertex count " + std::to_string(n_));
        g.node_labels_ = node_labels_;
    }
    if (stats) *stats = st;
    return g;
}

Graph make_graph(VertexId n, const std::vector<Edge>& edges) {
    GraphBuilder b(n);
    for (const auto& [u, v] : edges) b.add_edge(u, v);
    return b.build();
}

Graph make_cycle(VertexId n) {
    std::vector<Edge> e;
    for (VertexId i = 0; i < n; ++i) e.emplace_back(i, (i + 1) % n);
    return make_graph(n, e);
}

Graph make_path(VertexId n) {
    std::vector<Edge> e;
    for (VertexId i = 0; i + 1 < n; ++i) e.emplace_back(i, i + 1);
    return make_graph(n, e);
}

Graph make_complete(VertexId n) {
    std::vector<Edge> e;
    for (VertexId i = 0; i < n; ++i)
        for (VertexId j = i + 1; j < n; ++j) e.emplace_back(i, j);
    return make_graph(n, e);
}

Graph make_petersen() {
    std::vector<Edge> e;
    for (VertexId i = 0; i < 5; ++i) {
        e.emplace_back(i, (i + 1) % 5);          // outer 5-cycle
        e.emplace_back(i, i + 5);                // spokes
        e.emplace_back(5 + i, 5 + (i + 2) % 5);  // inner pentagram
    }
    return make_graph(10, e);
}

}  // namespace brec
