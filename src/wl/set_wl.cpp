// (k, c)(≤)-SetWL (Zhao, Härtel, Shah, Akoglu 2022, Section 3), the tight bound of kc_setgnn
// (k = 3, c = 2), for k <= 3.
//
// Sets: every vertex set S with 1 <= |S| <= k whose induced subgraph G[S] has at most c connected
// components (the nodes of the paper's (k, c)-bipartite super-graph). Initial colour: the
// isomorphism type of G[S] with node labels; for |S| <= 3 the sorted list of (degree in G[S],
// label) over S's vertices determines it. One round refines every set over the super-graph's
// links between sets of consecutive sizes, the two directions kept apart:
//   χ(S) ← (χ(S), {{χ(T) : T = S ∪ {w} a set}}, {{χ(T) : T = S \ {w} a set}}).
// A neighbour T must itself be a set (at most c components) and nothing more: the paper's
// connectivity requirement is this component bound on the sets, not a separate condition on the
// links. For k = 3, c = 2 every subset of a set is a set; for c = 1 a connected triple may lose a
// vertex to a disconnected pair, which is then no neighbour. The graph's colour is the histogram
// over all sets (the model pools each size separately; the size is part of every colour).
//
// This is 1-WL on the super-graph with arc labels "up" and "down", so it runs on refine_union:
// exact signatures, one palette for both graphs, histograms compared after every round.
// k = 3, c <= 2 takes its sets from k_sets(); c = 3 adds the independent triples, enumerated here.
//
// @inproceedings{zhao2022practical, title={A Practical, Progressively-Expressive GNN},
//   author={Zhao, Lingxiao and H{\"a}rtel, Louis and Shah, Neil and Akoglu, Leman},
//   booktitle={NeurIPS}, year={2022}}
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/graph/ksets.hpp"
#include "detail/refine.hpp"
#include "detail/tight.hpp"

namespace brec::detail {
namespace {

/// Memory above which the set refinement refuses to run.
constexpr double kMaxBytes = 4.0 * (1ull << 30);

constexpr std::uint32_t kUp = 1;    ///< arc from a set to a superset one larger
constexpr std::uint32_t kDown = 2;  ///< arc from a set to a subset one smaller

/// Isomorphism code of a set of at most 3 vertices: size, then the sorted (degree, label) members.
using SetCode = std::array<std::uint64_t, 4>;

/// The sets of one graph and the inclusions between sets of consecutive sizes.
struct SetFamily {
    std::vector<SetCode> codes;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> links;  ///< (subset, superset)
};

std::uint64_t member(std::uint64_t degree, ColorId label) { return (degree << 32) | label; }

SetCode code_of(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0, std::uint64_t size = 1) {
    std::array<std::uint64_t, 3> m{a, b, c};
    std::sort(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(size));
    return {size, m[0], m[1], m[2]};
}

/// `labels` are the label colours of g's vertices.
SetFamily set_family(const Graph& g, int k, int c, const ColorId* labels) {
    const VertexId n = g.n();
    SetFamily f;
    for (VertexId v = 0; v < n; ++v) f.codes.push_back(code_of(member(0, labels[v])));
    if (k < 2) return f;
    const KSets ks = k_sets(g);
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::vector<std::uint32_t> pair_set(static_cast<std::size_t>(ks.pairs()), kNone);
    for (std::int64_t p = 0; p < ks.pairs(); ++p) {
        const int components = ks.pair_components[p];
        if (components > c) continue;
        const auto u = static_cast<VertexId>(ks.pair_vertices[2 * p]);
        const auto v = static_cast<VertexId>(ks.pair_vertices[2 * p + 1]);
        const std::uint64_t d = components == 1 ? 1 : 0;
        pair_set[p] = static_cast<std::uint32_t>(f.codes.size());
        f.codes.push_back(code_of(member(d, labels[u]), member(d, labels[v]), 0, 2));
        f.links.push_back({u, pair_set[p]});
        f.links.push_back({v, pair_set[p]});
    }
    if (k < 3) return f;
    const auto add_triple = [&](VertexId a, VertexId b, VertexId d, bool ab, bool ad, bool bd) {
        const auto id = static_cast<std::uint32_t>(f.codes.size());
        f.codes.push_back(
            code_of(member(ab + ad, labels[a]), member(ab + bd, labels[b]), member(ad + bd, labels[d]), 3));
        for (const std::int64_t p : {pair_index(n, a, b), pair_index(n, a, d), pair_index(n, b, d)})
            if (pair_set[p] != kNone) f.links.push_back({pair_set[p], id});
    };
    if (c >= 3) {
        std::vector<std::uint8_t> adj(static_cast<std::size_t>(n) * n, 0);
        for (VertexId v = 0; v < n; ++v)
            for (VertexId u : g.neighbors(v)) adj[static_cast<std::size_t>(v) * n + u] = 1;
        const auto edge = [&](VertexId x, VertexId y) { return adj[static_cast<std::size_t>(x) * n + y] != 0; };
        for (VertexId a = 0; a < n; ++a)
            for (VertexId b = a + 1; b < n; ++b)
                for (VertexId d = b + 1; d < n; ++d) add_triple(a, b, d, edge(a, b), edge(a, d), edge(b, d));
        return f;
    }
    for (std::int64_t t = 0; t < ks.triples(); ++t) {
        if (ks.triple_components[t] > c) continue;
        const auto a = static_cast<VertexId>(ks.triple_vertices[3 * t]);
        const auto b = static_cast<VertexId>(ks.triple_vertices[3 * t + 1]);
        const auto d = static_cast<VertexId>(ks.triple_vertices[3 * t + 2]);
        add_triple(a, b, d, ks.pair_components[ks.triple_pairs[3 * t]] == 1,
                   ks.pair_components[ks.triple_pairs[3 * t + 1]] == 1,
                   ks.pair_components[ks.triple_pairs[3 * t + 2]] == 1);
    }
    return f;
}

/// Bytes the set refinement would need for g, in the worst case for its size and edge count.
double estimate_bytes(const Graph& g, int k, int c) {
    const double n = g.n(), m = static_cast<double>(g.m());
    const double pairs = k >= 2 ? n * (n - 1) / 2 : 0;
    const double all_triples = n * (n - 1) * (n - 2) / 6;
    const double triples = k >= 3 ? (c >= 3 ? all_triples : std::min(all_triples, m * n)) : 0;
    const double sets = n + pairs + triples;
    const double links = 2 * pairs + 3 * triples;
    // Per set: code, colours, signature head, order, offsets; per link: the link, two arcs with
    // target, label and signature entry; k_sets: pair and triple tables.
    return sets * 72 + links * 40 + pairs * 17 + triples * 49 + (k >= 2 ? n * n : 0);
}

}  // namespace

WlResult run_set_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    const int k = opt.method.k, c = opt.method.c;
    if (k < 1 || k > 3 || c < 1 || c > k)
        throw InvalidArgument("WL method '" + opt.method.name() + "': setwl supports 1 <= C <= K <= 3");
    const double bytes = estimate_bytes(g, k, c) + estimate_bytes(h, k, c);
    if (bytes > kMaxBytes)
        throw ResourceLimit("WL method '" + opt.method.name() + "': the sets of graphs with " + std::to_string(g.n()) +
                            " and " + std::to_string(h.n()) + " vertices would need about " +
                            std::to_string(static_cast<long long>(bytes / (1 << 20))) +
                            " MiB (limit 4096 MiB); use a smaller K or C");
    const std::vector<ColorId> labels = label_colours(g, h, opt.use_node_labels);
    const SetFamily fg = set_family(g, k, c, labels.data());
    const SetFamily fh = set_family(h, k, c, labels.data() + g.n());

    // The super-graph of both families as one labelled union, G's sets first.
    LabelledUnion u;
    u.n = static_cast<VertexId>(fg.codes.size() + fh.codes.size());
    u.split = static_cast<VertexId>(fg.codes.size());
    std::vector<std::uint32_t> degree(u.n, 0);
    for (int side = 0; side < 2; ++side) {
        const SetFamily& f = side == 0 ? fg : fh;
        const std::uint32_t base = side == 0 ? 0 : u.split;
        for (const auto& [sub, super] : f.links) {
            ++degree[base + sub];
            ++degree[base + super];
        }
    }
    u.offsets.assign(u.n + 1, 0);
    for (VertexId s = 0; s < u.n; ++s) u.offsets[s + 1] = u.offsets[s] + degree[s];
    u.targets.resize(u.offsets.back());
    u.labels.resize(u.offsets.back());
    std::vector<std::uint32_t> fill(u.offsets.begin(), u.offsets.end() - 1);
    for (int side = 0; side < 2; ++side) {
        const SetFamily& f = side == 0 ? fg : fh;
        const std::uint32_t base = side == 0 ? 0 : u.split;
        for (const auto& [sub, super] : f.links) {
            const std::uint32_t a = fill[base + sub]++, b = fill[base + super]++;
            u.targets[a] = base + super;
            u.labels[a] = kUp;
            u.targets[b] = base + sub;
            u.labels[b] = kDown;
        }
    }

    // Initial colours: the codes of both graphs ranked together.
    std::vector<SetCode> all = fg.codes;
    all.insert(all.end(), fh.codes.begin(), fh.codes.end());
    return from_outcome(refine_union(u, rank_values(all), opt.max_rounds));
}

}  // namespace brec::detail
