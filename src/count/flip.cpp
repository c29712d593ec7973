#include "brec/count/flip.hpp"

#include <algorithm>
#include <string>

#include "brec/core/error.hpp"
#include "count/detail/sets_through_edge.hpp"

namespace brec {

/// The one friend of FlipWorkspace: sizes its buffers for a graph.
struct FlipAccess {
    static FlipWorkspace& prepare(FlipWorkspace& ws, VertexId n) {
        if (ws.mark_.size() < n) ws.mark_.resize(n, 0);
        if (ws.acc_.size() < n) ws.acc_.resize(n);
        if (ws.touched_.size() < n) ws.touched_.resize(n, 0);
        return ws;
    }
    static std::vector<std::uint8_t>& mark(FlipWorkspace& ws) { return ws.mark_; }
    static std::vector<VertexId>& third(FlipWorkspace& ws) { return ws.third_; }
    static std::vector<std::array<std::int64_t, kNumCounts>>& acc(FlipWorkspace& ws) { return ws.acc_; }
    static std::vector<std::uint8_t>& touched(FlipWorkspace& ws) { return ws.touched_; }
    static std::vector<VertexId>& touched_list(FlipWorkspace& ws) { return ws.touched_list_; }
};

namespace {

constexpr int kStar = static_cast<int>(Pattern::star3_noninduced);

void check_pair(const Graph& g, VertexId u, VertexId v, const char* what) {
    if (u >= g.n() || v >= g.n())
        throw InvalidArgument(std::string(what) + ": vertex " + std::to_string(std::max(u, v)) + " out of range [0," +
                              std::to_string(g.n()) + ")");
    if (u == v)
        throw InvalidArgument(std::string(what) + ": cannot flip the pair {" + std::to_string(u) + "," +
                              std::to_string(v) + "}: graphs have no self-loops");
}

constexpr std::int64_t choose2(std::int64_t d) { return d < 2 ? 0 : d * (d - 1) / 2; }

/// Pattern of a set given its edge bits, with the pair {u,v} forced present or absent.
inline int pattern_of(int size, unsigned mask) {
    return size == 3 ? detail::pattern_table3()[mask & 7u] : detail::pattern_table4()[mask & 63u];
}

/// Calls f(s, size, before, after) for every set through {u,v} whose pattern changes (before or
/// after may be -1: disconnected).
template <typename F>
bool for_each_changed_set(const Graph& g, VertexId u, VertexId v, FlipWorkspace& ws, F&& f) {
    bool added = true;
    detail::for_each_set_through(g, u, v, 4, FlipAccess::mark(ws), FlipAccess::third(ws),
                                 [&](const VertexId* s, int size, unsigned mask) {
                                     added = !(mask & detail::kEuv);
                                     const int with = pattern_of(size, mask | detail::kEuv);
                                     const int without = pattern_of(size, mask & ~detail::kEuv);
                                     if (added)
                                         f(s, size, without, with);
                                     else
                                         f(s, size, with, without);
                                 });
    return added;
}

/// Degrees of u and v not counting each other.
std::pair<std::int64_t, std::int64_t> degrees_without(const Graph& g, VertexId u, VertexId v, bool has_uv) {
    const std::int64_t e = has_uv ? 1 : 0;
    return {static_cast<std::int64_t>(g.degree(u)) - e, static_cast<std::int64_t>(g.degree(v)) - e};
}

}  // namespace

CountDelta flip_delta(const Graph& g, VertexId u, VertexId v, FlipWorkspace& ws) {
    check_pair(g, u, v, "flip_delta");
    FlipAccess::prepare(ws, g.n());
    auto& acc = FlipAccess::acc(ws);
    auto& touched = FlipAccess::touched(ws);
    auto& list = FlipAccess::touched_list(ws);
    list.clear();
    auto touch = [&](VertexId x) -> std::array<std::int64_t, kNumCounts>& {
        if (!touched[x]) {
            touched[x] = 1;
            acc[x] = {};
            list.push_back(x);
        }
        return acc[x];
    };
    CountDelta out;
    const bool has_uv = g.has_edge(u, v);
    out.added = !has_uv;
    for_each_changed_set(g, u, v, ws, [&](const VertexId* s, int size, int before, int after) {
        if (before >= 0) {
            --out.total[before];
            for (int i = 0; i < size; ++i) --touch(s[i])[before];
        }
        if (after >= 0) {
            ++out.total[after];
            for (int i = 0; i < size; ++i) ++touch(s[i])[after];
        }
    });
    // Non-induced 3-stars that use the edge {u,v}: centre u with v and 2 of u's other neighbours,
    // or centre v likewise. A neighbour x of u (not v) is a leaf of du - 1 of them.
    const auto [du, dv] = degrees_without(g, u, v, has_uv);
    const std::int64_t sign = has_uv ? -1 : 1;
    const std::int64_t stars = choose2(du) + choose2(dv);
    if (stars != 0) {
        out.total[kStar] += sign * stars;
        touch(u)[kStar] += sign * stars;
        touch(v)[kStar] += sign * stars;
        for (VertexId x : g.neighbors(u))
            if (x != v) touch(x)[kStar] += sign * (du - 1);
        for (VertexId x : g.neighbors(v))
            if (x != u) touch(x)[kStar] += sign * (dv - 1);
    }
    std::sort(list.begin(), list.end());
    for (VertexId x : list) {
        touched[x] = 0;
        const auto& row = acc[x];
        if (std::any_of(row.begin(), row.end(), [](std::int64_t c) { return c != 0; })) {
            out.vertices.push_back(x);
            out.per_node.push_back(row);
        }
    }
    return out;
}

CountDelta flip_delta(const Graph& g, VertexId u, VertexId v) {
    FlipWorkspace ws;
    return flip_delta(g, u, v, ws);
}

std::array<std::int64_t, kNumCounts> flip_total_delta(const Graph& g, VertexId u, VertexId v, FlipWorkspace& ws) {
    check_pair(g, u, v, "flip_total_delta");
    FlipAccess::prepare(ws, g.n());
    std::array<std::int64_t, kNumCounts> total{};
    const bool has_uv = g.has_edge(u, v);
    for_each_changed_set(g, u, v, ws, [&](const VertexId*, int, int before, int after) {
        if (before >= 0) --total[before];
        if (after >= 0) ++total[after];
    });
    const auto [du, dv] = degrees_without(g, u, v, has_uv);
    total[kStar] += (has_uv ? -1 : 1) * (choose2(du) + choose2(dv));
    return total;
}

void apply_delta(PatternCounts& counts, const CountDelta& delta) {
    auto add = [](std::uint64_t& c, std::int64_t d) {
        if (d < 0 && c < static_cast<std::uint64_t>(-d))
            throw InvalidArgument("apply_delta: the delta makes a count negative; it belongs to another graph");
        c = static_cast<std::uint64_t>(static_cast<std::int64_t>(c) + d);
    };
    for (std::size_t i = 0; i < delta.vertices.size(); ++i)
        if (delta.vertices[i] >= counts.per_node.size())
            throw InvalidArgument("apply_delta: vertex " + std::to_string(delta.vertices[i]) + " out of range [0," +
                                  std::to_string(counts.per_node.size()) + ")");
    for (int p = 0; p < kNumCounts; ++p) add(counts.total[p], delta.total[p]);
    for (std::size_t i = 0; i < delta.vertices.size(); ++i)
        for (int p = 0; p < kNumCounts; ++p) add(counts.per_node[delta.vertices[i]][p], delta.per_node[i][p]);
}

Graph flip_edge(const Graph& g, VertexId u, VertexId v) {
    check_pair(g, u, v, "flip_edge");
    if (g.has_edge_labels()) throw InvalidArgument("flip_edge: graphs with edge labels are not supported");
    const bool has_uv = g.has_edge(u, v);
    const Edge flipped{std::min(u, v), std::max(u, v)};
    GraphBuilder b(g.n());
    for (const Edge& e : g.edges())
        if (e != flipped) b.add_edge(e.first, e.second);
    if (!has_uv) b.add_edge(flipped.first, flipped.second);
    if (g.has_node_labels()) b.set_node_labels(g.node_labels());
    return b.build();
}

namespace {

void sort_sets(InstanceList& list) {
    const auto k = static_cast<std::size_t>(list.size);
    const std::size_t count = list.count();
    std::vector<std::vector<VertexId>> sets(count);
    for (std::size_t i = 0; i < count; ++i)
        sets[i].assign(list.vertices.begin() + i * k, list.vertices.begin() + (i + 1) * k);
    std::sort(sets.begin(), sets.end());
    list.vertices.clear();
    for (const auto& s : sets) list.vertices.insert(list.vertices.end(), s.begin(), s.end());
}

}  // namespace

FlipInstances flip_instances(const Graph& g, VertexId u, VertexId v, Pattern p, FlipWorkspace& ws) {
    check_pair(g, u, v, "flip_instances");
    if (!is_induced(p))
        throw InvalidArgument(std::string("cannot list the occurrences of ") + pattern_name(p) +
                              ": they are (centre, leaves) choices, not vertex sets");
    FlipAccess::prepare(ws, g.n());
    FlipInstances out;
    out.destroyed.size = out.created.size = pattern_size(p);
    const int want = static_cast<int>(p);
    for_each_changed_set(g, u, v, ws, [&](const VertexId* s, int size, int before, int after) {
        if (size != out.created.size) return;
        VertexId sorted[4];
        std::copy(s, s + size, sorted);
        std::sort(sorted, sorted + size);
        if (before == want) out.destroyed.vertices.insert(out.destroyed.vertices.end(), sorted, sorted + size);
        if (after == want) out.created.vertices.insert(out.created.vertices.end(), sorted, sorted + size);
    });
    sort_sets(out.destroyed);
    sort_sets(out.created);
    return out;
}

FlipAdmissibility flip_admissibility(const Graph& g, VertexId u, VertexId v, Pattern p, FlipWorkspace& ws) {
    check_pair(g, u, v, "flip_admissibility");
    FlipAccess::prepare(ws, g.n());
    FlipAdmissibility out;
    const int want = static_cast<int>(p);
    if (is_induced(p)) {
        bool touched = false;
        for_each_changed_set(g, u, v, ws, [&](const VertexId*, int, int before, int after) {
            if (before == want) {
                --out.delta;
                touched = true;
            }
            if (after == want) {
                ++out.delta;
                touched = true;
            }
        });
        out.subgraph_preserving = !touched;
    } else {
        const bool has_uv = g.has_edge(u, v);
        const auto [du, dv] = degrees_without(g, u, v, has_uv);
        out.delta = (has_uv ? -1 : 1) * (choose2(du) + choose2(dv));
        out.subgraph_preserving = out.delta == 0;
    }
    out.count_preserving = out.delta == 0;
    return out;
}

}  // namespace brec
