// Tight bounds that add structural information to 1-WL: GSN-e's edge-orbit counts on the arcs, and
// KP-WL's K-hop message passing with KP-GNN's peripheral information.
//
// @article{bouritsas2022improving, title={Improving Graph Neural Network Expressivity via Subgraph
//   Isomorphism Counting}, author={Bouritsas, Giorgos and Frasca, Fabrizio and Zafeiriou, Stefanos
//   and Bronstein, Michael M.}, journal={IEEE TPAMI}, year={2022}}
// @inproceedings{feng2022kpgnn, title={How Powerful are K-hop Message Passing Graph Neural
//   Networks}, author={Feng, Jiarui and Chen, Yixin and Li, Fuhai and Sarkar, Anindya and Zhang,
//   Muhan}, booktitle={NeurIPS}, year={2022}}

#include <algorithm>
#include <array>

#include "brec/count/patterns.hpp"
#include "brec/graph/khop.hpp"
#include "detail/refine.hpp"
#include "detail/tight.hpp"

namespace brec::detail {
namespace {}  // namespace

// GSN-e: 1-WL where the arc v → w carries the orbit counts of the edge {v, w}: the connected
// induced 3-vertex patterns (2-path, triangle) for k = 3, and all 12 edge orbits of the connected
// induced 3- and 4-vertex patterns for k = 4 (the substructure set of brec's gsn model). Exact
// counts, no caps. The count vectors of both graphs are ranked jointly to dense arc labels.
WlResult run_gsn_edge_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    using Counts = std::array<std::uint32_t, kNumEdgeOrbits>;
    const int used = opt.method.k == 3 ? kNumPatterns3 : kNumEdgeOrbits;
    LabelledUnion u = make_union(g, h);
    std::vector<Counts> per_arc;  // in the order of u.targets
    per_arc.reserve(u.targets.size());
    for (const Graph* x : {&g, &h}) {
        const EdgeOrbitCounts counts = count_edge_orbits(*x);
        for (VertexId v = 0; v < x->n(); ++v)
            for (VertexId w : x->neighbors(v)) {
                const Edge e{std::min(v, w), std::max(v, w)};
                const auto at = std::lower_bound(counts.edges.begin(), counts.edges.end(), e) - counts.edges.begin();
                Counts c{};
                std::copy(counts.counts[static_cast<std::size_t>(at)].begin(),
                          counts.counts[static_cast<std::size_t>(at)].begin() + used, c.begin());
                per_arc.push_back(c);
            }
    }
    u.labels = rank_values(per_arc);
    return from_outcome(refine_union(u, label_colours(g, h, opt.use_node_labels), opt.max_rounds));
}

// KP-WL. Feng et al. define no WL test for KP-GNN, so this one is read off the model
// (src/nn/models/kp_gnn.cpp): K-hop message passing by shortest-path distance,
//   χ(v) ← (χ(v), {{χ(w) : d(v, w) = 1}}, ..., {{χ(w) : d(v, w) = K}}),
// the K multisets kept apart (the arc v → w is labelled d(v, w), as the model keeps one channel
// per hop). KP-GNN adds the peripheral information of every vertex and hop (the peripheral
// subgraph's edge count and configuration counts, khop.hpp) to the messages of every layer; it is
// a constant per vertex and hop, computed once from the graph, so feeding it in every round is no
// more informative than putting it into the initial colour once (the colours only refine). The
// initial colour is therefore the node label plus, for k = 1..K, the rows of
// khop_graph(g, K).peripheral_edges and .configuration for (v, k), capped at 1000 as the model's
// embeddings see them.
WlResult run_kp_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    const auto hops = static_cast<std::int32_t>(opt.method.k);
    constexpr std::size_t width = kPeripheralHops + 1;
    const auto labels = label_colours(g, h, opt.use_node_labels);
    LabelledUnion u;
    u.n = g.n() + h.n();
    u.split = g.n();
    u.offsets.reserve(u.n + 1);
    u.offsets.push_back(0);
    std::vector<std::vector<std::int64_t>> initial;
    initial.reserve(u.n);
    for (const Graph* x : {&g, &h}) {
        const VertexId offset = x == &g ? 0 : g.n();
        const KHopGraph k = khop_graph(*x, hops);
        // Arcs are sorted by receiver: vertex v's arcs are a contiguous run.
        std::size_t a = 0;
        for (VertexId v = 0; v < x->n(); ++v) {
            for (; a < k.dst.size() && k.dst[a] == v; ++a) {
                u.targets.push_back(offset + static_cast<VertexId>(k.src[a]));
                u.labels.push_back(static_cast<std::uint32_t>(k.hop[a]));
            }
            u.offsets.push_back(static_cast<std::uint32_t>(u.targets.size()));
            std::vector<std::int64_t> colour{labels[offset + v]};
            for (std::int32_t hop = 0; hop < hops; ++hop) {
                const std::size_t row = static_cast<std::size_t>(v) * hops + hop;
                colour.push_back(k.peripheral_edges[row]);
                colour.insert(colour.end(), k.configuration.begin() + row * width,
                              k.configuration.begin() + (row + 1) * width);
            }
            initial.push_back(std::move(colour));
        }
    }
    return from_outcome(refine_union(u, rank_values(initial), opt.max_rounds));
}

}  // namespace brec::detail
