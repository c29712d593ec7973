// The subgraph Weisfeiler-Lehman family SWL(A, Pool) of Zhang, Feng, Du, He, Wang (ICML 2023) and
// the localized folklore tests LFWL(2) and SLFWL(2) of the same paper, on the pair space V × V.
//
// Colour χ(u, v) is the colour of vertex v in the subgraph rooted at u. Initial colour: node
// marking (u = v), v's node label and, with `hop`, the distance from u to v. Every round replaces
// χ(u, v) by its old value together with the aggregations of the class (each multiset exact, kept
// apart by a tag):
//   local within the subgraph   {{χ(u, w) : w ∈ N_u(v)}}            (every class)
//   single point                χ(v, v)                              (PSWL)
//   global across subgraphs     {{χ(w, v) : w with v in subgraph w}} (GSWL)
//   local across subgraphs      {{χ(w, v) : w ∈ N(u), v in subgraph w}}  (SSWL)
// and the graph's colour pools vertex-subgraph (VS: the multiset over u of the multiset over v) or
// subgraph-vertex (SV: over v of the multiset over u). The six classes are the six equivalence
// classes of Theorem 4.6 of the paper; every other choice of aggregations and pooling is as powerful
// as one of them. LFWL(2) replaces the local aggregation by {{(χ(u, w), χ(w, v)) : w ∈ N(v)}} and
// SLFWL(2) takes w over N(u) ∪ N(v); both start from the atomic type of (u, v) and pool VS.
//
// Finite radius (the BREC models' policies): subgraph u keeps only the edges with both ends within
// distance r of u. Without `induced` it keeps every vertex (ESAN's "ego_nets_plus"); with `induced`
// its vertices are the ball alone, so pairs (u, v) with v outside the ball do not exist and take
// part in no aggregation and no pooling.
//
// @inproceedings{zhang2023complete, title={A Complete Expressiveness Hierarchy for Subgraph GNNs
//   via Subgraph Weisfeiler-Lehman Tests}, author={Zhang, Bohang and Feng, Guhao and Du, Yiheng and
//   He, Di and Wang, Liwei}, booktitle={ICML}, year={2023}}

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "detail/refine.hpp"
#include "detail/tight.hpp"

namespace brec::detail {
namespace {

/// What a class aggregates and how it pools.
struct Design {
    bool point_vv = false;   ///< χ(v, v)
    bool global_v = false;   ///< all subgraphs holding v
    bool local_v = false;    ///< the subgraphs of u's neighbours
    bool folklore = false;   ///< LFWL(2) / SLFWL(2): pairs (χ(u, w), χ(w, v)) instead of local within
    bool symmetric = false;  ///< SLFWL(2): w over N(u) ∪ N(v)
    bool pool_sv = false;    ///< subgraph-vertex pooling
};

Design design_of(SwlClass c) {
    Design d;
    switch (c) {
        case SwlClass::swl_vs:
            break;
        case SwlClass::swl_sv:
            d.pool_sv = true;
            break;
        case SwlClass::pswl_vs:
            d.point_vv = true;
            break;
        case SwlClass::pswl_sv:
            d.point_vv = true;
            d.pool_sv = true;
            break;
        case SwlClass::gswl:
            d.global_v = true;
            break;
        case SwlClass::sswl:
            d.local_v = true;
            break;
        case SwlClass::lfwl:
            d.folklore = true;
            break;
        case SwlClass::slfwl:
            d.folklore = true;
            d.symmetric = true;
            break;
    }
    return d;
}

/// Tags that keep the multisets of one signature apart (colours fill the low 32 bits).
constexpr std::uint64_t kTagLocalU = 1ull << 32, kTagLocalV = 2ull << 32;
constexpr std::uint64_t kAbsent = ~0ull;  ///< the signature of a pair that does not exist

/// The pair space of G and H, n vertices each: pair (s, u, v) of side s is s·n² + u·n + v.
class PairSpace {
public:
    PairSpace(const Graph& g, const Graph& h, const WlMethod& m) : n_(g.n()), graphs_{&g, &h} {
        if (static_cast<std::uint64_t>(n_) * n_ > (1ull << 26))
            throw ResourceLimit("WL method '" + m.name() + "': " + std::to_string(n_) +
                                " vertices make too many vertex pairs");
        const std::size_t nn = static_cast<std::size_t>(n_) * n_;
        for (int s = 0; s < 2; ++s) {
            dist_[s] = all_pairs_distances(*graphs_[s]);
            exists_[s].assign(nn, 1);
        }
        if (m.radius >= 0 && m.induced)
            for (int s = 0; s < 2; ++s)
                for (std::size_t p = 0; p < nn; ++p) exists_[s][p] = in_ball(dist_[s][p], m.radius);
        radius_ = m.radius;
    }

    VertexId n() const { return n_; }
    std::size_t size() const { return 2 * static_cast<std::size_t>(n_) * n_; }
    std::size_t index(int s, VertexId u, VertexId v) const { return (static_cast<std::size_t>(s) * n_ + u) * n_ + v; }
    const Graph& graph(int s) const { return *graphs_[s]; }
    bool exists(int s, VertexId u, VertexId v) const { return exists_[s][static_cast<std::size_t>(u) * n_ + v]; }
    std::int32_t distance(int s, VertexId u, VertexId v) const {
        return dist_[s][static_cast<std::size_t>(u) * n_ + v];
    }
    /// The hop class of v in subgraph u: 1 + the distance inside the ball, 0 outside it.
    std::uint64_t hop(int s, VertexId u, VertexId v) const {
        const std::int32_t d = distance(s, u, v);
        return in_ball(d, radius_) ? static_cast<std::uint64_t>(d) + 1 : 0;
    }
    /// Is the edge v–w an edge of the subgraph rooted at u?
    bool subgraph_edge(int s, VertexId u, VertexId v, VertexId w) const {
        return radius_ < 0 || (in_ball(distance(s, u, v), radius_) && in_ball(distance(s, u, w), radius_));
    }

private:
    static bool in_ball(std::int32_t d, int radius) { return d >= 0 && (radius < 0 || d <= radius); }

    VertexId n_;
    const Graph* graphs_[2];
    std::vector<std::int32_t> dist_[2];
    std::vector<std::uint8_t> exists_[2];
    int radius_ = -1;
};

/// Initial colours: node marking, v's label and, with `hop`, the distance u → v (subgraph tests);
/// the atomic type of (u, v) and both labels (folklore tests).
std::vector<ColorId> initial_colours(const PairSpace& ps, const WlOptions& opt, const Design& d) {
    const VertexId n = ps.n();
    const auto labels = label_colours(ps.graph(0), ps.graph(1), opt.use_node_labels);
    std::vector<std::uint64_t> keys(ps.size());
    for (int s = 0; s < 2; ++s)
        for (VertexId u = 0; u < n; ++u)
            for (VertexId v = 0; v < n; ++v) {
                std::uint64_t key;
                const std::uint64_t lu = labels[static_cast<std::size_t>(s) * n + u];
                const std::uint64_t lv = labels[static_cast<std::size_t>(s) * n + v];
                if (!ps.exists(s, u, v)) {
                    key = kAbsent;
                } else if (d.folklore) {
                    const std::uint64_t type = u == v ? 0 : ps.graph(s).has_edge(u, v) ? 1 : 2;
                    key = (lu << 42) | (lv << 2) | type;
                } else {
                    const std::uint64_t hop = opt.method.hop ? ps.hop(s, u, v) : 0;
                    key = (lv << 33) | (hop << 1) | (u == v ? 1 : 0);
                }
                keys[ps.index(s, u, v)] = key;
            }
    return dense_rank(keys);
}

/// The pooled colour classes of the 2n subgraphs (VS: rows u) or vertices (SV: columns v).
std::vector<std::uint32_t> pooled_classes(const PairSpace& ps, const std::vector<ColorId>& colours, bool by_column) {
    const VertexId n = ps.n();
    std::vector<std::vector<std::uint32_t>> rows(2 * static_cast<std::size_t>(n));
    for (int s = 0; s < 2; ++s)
        for (VertexId a = 0; a < n; ++a) {
            auto& row = rows[static_cast<std::size_t>(s) * n + a];
            for (VertexId b = 0; b < n; ++b) {
                const VertexId u = by_column ? b : a, v = by_column ? a : b;
                if (ps.exists(s, u, v)) row.push_back(colours[ps.index(s, u, v)]);
            }
            std::sort(row.begin(), row.end());
        }
    return rank_values(rows);
}

/// Do the multisets of pooled classes of G (first n) and H (last n) differ?
bool pools_differ(std::vector<std::uint32_t> classes, VertexId n) {
    std::sort(classes.begin(), classes.begin() + n);
    std::sort(classes.begin() + n, classes.end());
    return !std::equal(classes.begin(), classes.begin() + n, classes.begin() + n);
}

}  // namespace

WlResult run_swl(const Graph& g, const Graph& h, const WlOptions& opt) {
    const WlMethod& m = opt.method;
    const Design d = design_of(m.swl);
    WlResult result;
    if (g.n() != h.n()) {
        result.distinguished = true;  // a different number of subgraphs
        return result;
    }
    const PairSpace ps(g, h, m);
    const VertexId n = ps.n();
    std::vector<ColorId> colours = initial_colours(ps, opt, d);
    std::size_t classes = colours.empty() ? 0 : *std::max_element(colours.begin(), colours.end()) + 1;
    result.colours = classes;
    if (pools_differ(pooled_classes(ps, colours, d.pool_sv), n)) {
        result.distinguished = true;
        return result;
    }
    std::vector<std::uint64_t> sig;
    std::vector<std::size_t> offsets(ps.size() + 1);
    std::vector<std::uint32_t> order(ps.size());
    std::vector<ColorId> next(ps.size());
    while (opt.max_rounds < 0 || result.rounds < opt.max_rounds) {
        const std::vector<std::uint32_t> column_class =
            d.global_v ? pooled_classes(ps, colours, /*by_column=*/true) : std::vector<std::uint32_t>{};
        sig.clear();
        for (int s = 0; s < 2; ++s) {
            const Graph& x = ps.graph(s);
            for (VertexId u = 0; u < n; ++u)
                for (VertexId v = 0; v < n; ++v) {
                    const std::size_t p = ps.index(s, u, v);
                    offsets[p] = sig.size();
                    if (!ps.exists(s, u, v)) {
                        sig.push_back(kAbsent);
                        continue;
                    }
                    sig.push_back(colours[p]);
                    if (d.point_vv) sig.push_back(colours[ps.index(s, v, v)]);
                    if (d.global_v) sig.push_back(column_class[static_cast<std::size_t>(s) * n + v]);
                    const std::size_t tail = sig.size();
                    if (d.folklore) {
                        const auto add = [&](VertexId w) {
                            sig.push_back(static_cast<std::uint64_t>(colours[ps.index(s, u, w)]) << 32 |
                                          colours[ps.index(s, w, v)]);
                        };
                        for (VertexId w : x.neighbors(v)) add(w);
                        if (d.symmetric)
                            for (VertexId w : x.neighbors(u))
                                if (!x.has_edge(v, w)) add(w);  // N(u) ∪ N(v), each w once
                    } else {
                        for (VertexId w : x.neighbors(v))
                            if (ps.exists(s, u, w) && ps.subgraph_edge(s, u, v, w))
                                sig.push_back(kTagLocalU | colours[ps.index(s, u, w)]);
                        if (d.local_v)
                            for (VertexId w : x.neighbors(u))
                                if (ps.exists(s, w, v)) sig.push_back(kTagLocalV | colours[ps.index(s, w, v)]);
                    }
                    std::sort(sig.begin() + static_cast<std::ptrdiff_t>(tail), sig.end());
                }
        }
        offsets[ps.size()] = sig.size();
        std::iota(order.begin(), order.end(), 0);
        const auto less = [&](std::uint32_t a, std::uint32_t b) {
            return std::lexicographical_compare(sig.begin() + offsets[a], sig.begin() + offsets[a + 1],
                                                sig.begin() + offsets[b], sig.begin() + offsets[b + 1]);
        };
        std::sort(order.begin(), order.end(), less);
        ColorId c = 0;
        for (std::size_t i = 0; i < order.size(); ++i) {
            if (i > 0 && less(order[i - 1], order[i])) ++c;
            next[order[i]] = c;
        }
        colours.swap(next);
        ++result.rounds;
        const std::size_t now = order.empty() ? 0 : static_cast<std::size_t>(c) + 1;
        const bool stable = now == classes;
        classes = now;
        result.colours = classes;
        if (pools_differ(pooled_classes(ps, colours, d.pool_sv), n)) {
            result.distinguished = true;
            break;
        }
        if (stable) break;
    }
    return result;
}

}  // namespace brec::detail
