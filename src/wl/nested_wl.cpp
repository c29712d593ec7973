// The nested tight bounds: NGNN-WL and DE+NGNN-WL, I²-WL, and 1-WL over the one-node-deleted
// subgraphs. Each builds every subgraph of G and of H as its own copy in one disjoint union
// (CopyUnion), refines the union to stability with one shared palette (plain 1-WL inside every
// copy, no messages between copies), and compares the graphs' nested multisets of sorted colour
// histograms. Vertex counts that differ give multisets of different sizes, hence "distinguished".
//
// @inproceedings{zhang2021nested, title={Nested Graph Neural Networks}, author={Zhang, Muhan and Li,
//   Pan}, booktitle={NeurIPS}, year={2021}}
// @inproceedings{huang2023boosting, title={Boosting the Cycle Counting Power of Graph Neural Networks
//   with I$^2$-GNNs}, author={Huang, Yinan and Peng, Xingang and Ma, Jianzhu and Zhang, Muhan},
//   booktitle={ICLR}, year={2023}}
// @inproceedings{papp2021dropgnn, title={DropGNN: Random Dropouts Increase the Expressiveness of
//   Graph Neural Networks}, author={Papp, P{\'a}l Andr{\'a}s and Martinkus, Karolis and Faber, Lukas
//   and Wattenhofer, Roger}, booktitle={NeurIPS}, year={2021}}

#include <algorithm>
#include <limits>
#include <string>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "detail/nested.hpp"
#include "detail/tight.hpp"

namespace brec::detail {

namespace {

/// 64-bit hash of a word sequence (the MurmurHash3 finaliser over a running mix).
std::uint64_t hash_words(const std::uint32_t* begin, const std::uint32_t* end) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(end - begin);
    for (const std::uint32_t* p = begin; p != end; ++p) {
        h ^= *p + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/// Joint 1-WL on an unlabelled union, as refine_union(u, colours, max_rounds, false) computes it
/// but with new colours numbered through a hash table keyed by the explicit signature (old colour,
/// sorted neighbour colours) instead of a sort of all signatures: exact (a hash only picks the
/// bucket; signatures are compared in full), O(arcs) per round instead of O(n log n) signature
/// comparisons. New colours are numbered by first appearance, which is not canonical for one copy
/// alone but shared by every copy, all a joint comparison needs. `colours` must be dense.
RefineOutcome refine_copies(const LabelledUnion& u, std::vector<ColorId> colours, std::size_t classes, int max_rounds) {
    RefineOutcome out;
    out.colours = classes;
    const VertexId n = u.n;
    std::vector<std::uint32_t> sig(u.targets.size() + n);
    std::vector<std::size_t> sig_off(static_cast<std::size_t>(n) + 1, 0);
    for (VertexId v = 0; v < n; ++v) sig_off[v + 1] = sig_off[v] + 1 + (u.offsets[v + 1] - u.offsets[v]);
    std::size_t buckets = 16;
    while (buckets < 2 * static_cast<std::size_t>(n)) buckets *= 2;
    std::vector<VertexId> table(buckets);
    std::vector<std::uint64_t> hashes(n);
    std::vector<ColorId> next(n);
    while (max_rounds < 0 || out.rounds < max_rounds) {
        std::fill(table.begin(), table.end(), kNoVertex);
        ColorId fresh = 0;
        for (VertexId v = 0; v < n; ++v) {
            std::uint32_t* s = sig.data() + sig_off[v];
            std::uint32_t* end = sig.data() + sig_off[v + 1];
            s[0] = colours[v];
            std::uint32_t* p = s + 1;
            for (auto a = u.offsets[v]; a < u.offsets[v + 1]; ++a) *p++ = colours[u.targets[a]];
            std::sort(s + 1, end);
            const std::uint64_t h = hash_words(s, end);
            hashes[v] = h;
            for (std::size_t b = h & (buckets - 1);; b = (b + 1) & (buckets - 1)) {
                const VertexId w = table[b];
                if (w == kNoVertex) {
                    table[b] = v;
                    next[v] = fresh++;
                    break;
                }
                if (hashes[w] == h && sig_off[w + 1] - sig_off[w] == sig_off[v + 1] - sig_off[v] &&
                    std::equal(s, end, sig.data() + sig_off[w])) {
                    next[v] = next[w];
                    break;
                }
            }
        }
        ++out.rounds;
        colours.swap(next);
        const bool stable = fresh == out.colours;
        out.colours = fresh;
        if (stable) break;
    }
    out.final_colours = std::move(colours);
    return out;
}

/// Initial colour key of a vertex: its node-label colour (dense over both graphs) in the high half
/// and a per-copy role (distance to the root, a mark) in the low half.
std::uint64_t key_of(ColorId label, std::uint64_t role) { return (static_cast<std::uint64_t>(label) << 32) | role; }

/// The radius of the balls: WlMethod's −1 (r = ∞) becomes n, which covers every component.
std::uint32_t ball_radius(const WlOptions& opt, const Graph& g, const Graph& h) {
    return opt.method.radius < 0 ? std::max(g.n(), h.n()) : static_cast<std::uint32_t>(opt.method.radius);
}

template <typename T>
void sort_multiset(std::vector<T>& items) {
    std::sort(items.begin(), items.end());
}

}  // namespace

std::size_t CopyUnion::add(const Graph& x, const std::vector<VertexId>& vertices,
                           const std::vector<std::uint64_t>& keys) {
    const std::uint64_t limit = std::numeric_limits<std::uint32_t>::max();
    std::uint64_t arcs = 0;
    for (VertexId v : vertices) arcs += x.degree(v);
    if (union_.n + static_cast<std::uint64_t>(vertices.size()) >= limit || union_.targets.size() + arcs >= limit)
        throw ResourceLimit("the union of all subgraph copies exceeds 2^32 vertices or arcs");
    if (slot_.size() < x.n()) slot_.resize(x.n(), kNoVertex);
    if (union_.offsets.empty()) union_.offsets.push_back(0);
    const VertexId base = union_.n;
    for (std::size_t i = 0; i < vertices.size(); ++i) slot_[vertices[i]] = static_cast<VertexId>(i);
    for (VertexId v : vertices) {
        for (VertexId w : x.neighbors(v))
            if (slot_[w] != kNoVertex) union_.targets.push_back(base + slot_[w]);
        union_.offsets.push_back(static_cast<std::uint32_t>(union_.targets.size()));
    }
    for (VertexId v : vertices) slot_[v] = kNoVertex;
    union_.n += static_cast<VertexId>(vertices.size());
    union_.split = union_.n;  // unused: the union is refined without comparing halves
    keys_.insert(keys_.end(), keys.begin(), keys.end());
    starts_.push_back(base);
    return starts_.size() - 1;
}

std::vector<std::vector<ColorId>> CopyUnion::histograms(int max_rounds, RefineOutcome* outcome) const {
    std::size_t classes = 0;
    std::vector<ColorId> initial = dense_rank(keys_, &classes);
    RefineOutcome o = refine_copies(union_, std::move(initial), classes, max_rounds);
    std::vector<std::vector<ColorId>> out(starts_.size());
    for (std::size_t c = 0; c < starts_.size(); ++c) {
        const VertexId end = c + 1 < starts_.size() ? starts_[c + 1] : union_.n;
        out[c].assign(o.final_colours.begin() + starts_[c], o.final_colours.begin() + end);
        std::sort(out[c].begin(), out[c].end());
    }
    if (outcome) {
        outcome->rounds = o.rounds;
        outcome->colours = o.colours;
    }
    return out;
}

// NGNN-WL: one copy per root, the subgraph induced by its R-ball; the root is not marked (NGNN's
// base GNN sees the rooted subgraph without a root identifier), DE+NGNN adds the distance to the
// root to every vertex's initial colour. Subgraph pooling = the copy's colour histogram, graph
// pooling = the multiset of the copies' histograms.
WlResult run_ngnn_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    const auto labels = label_colours(g, h, opt.use_node_labels);
    const std::uint32_t radius = ball_radius(opt, g, h);
    CopyUnion u;
    std::vector<std::size_t> copies_of[2];
    std::vector<std::uint64_t> keys;
    for (int side = 0; side < 2; ++side) {
        const Graph& x = side == 0 ? g : h;
        const VertexId offset = side == 0 ? 0 : g.n();
        for (const EgoBall& ball : ego_balls(x, radius)) {
            keys.clear();
            for (std::size_t i = 0; i < ball.vertices.size(); ++i) {
                const std::uint64_t role = opt.method.hop ? static_cast<std::uint64_t>(ball.distances[i]) : 0;
                keys.push_back(key_of(labels[offset + ball.vertices[i]], role));
            }
            copies_of[side].push_back(u.add(x, ball.vertices, keys));
        }
    }
    RefineOutcome o;
    const auto hist = u.histograms(opt.max_rounds, &o);
    std::vector<std::vector<ColorId>> invariant[2];
    for (int side = 0; side < 2; ++side) {
        for (std::size_t c : copies_of[side]) invariant[side].push_back(hist[c]);
        sort_multiset(invariant[side]);
    }
    return from_outcome(o, invariant[0] != invariant[1]);
}

// I²-WL: one copy per root v and neighbour u, the subgraph induced by v's R-ball with v marked
// "root" and u marked "neighbour" (u lies outside the ball only for R = 0, where the ball is {v}
// and u is simply absent). A root without neighbours gives one copy with only v marked, as the
// model builds it. Invariant of v = the multiset over u of its copies' histograms; of the graph =
// the multiset over v.
WlResult run_i2_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    enum : std::uint64_t { kPlain = 0, kRoot = 1, kNeighbour = 2 };
    const auto labels = label_colours(g, h, opt.use_node_labels);
    const std::uint32_t radius = ball_radius(opt, g, h);
    CopyUnion u;
    // copies_of[side][v] = the copies of root v.
    std::vector<std::vector<std::size_t>> copies_of[2];
    std::vector<std::uint64_t> keys;
    for (int side = 0; side < 2; ++side) {
        const Graph& x = side == 0 ? g : h;
        const VertexId offset = side == 0 ? 0 : g.n();
        const std::vector<EgoBall> balls = ego_balls(x, radius);
        copies_of[side].resize(x.n());
        for (VertexId v = 0; v < x.n(); ++v) {
            const EgoBall& ball = balls[v];
            const auto add_copy = [&](VertexId neighbour) {
                keys.clear();
                for (VertexId w : ball.vertices) {
                    const std::uint64_t role = w == v ? kRoot : w == neighbour ? kNeighbour : kPlain;
                    keys.push_back(key_of(labels[offset + w], role));
                }
                copies_of[side][v].push_back(u.add(x, ball.vertices, keys));
            };
            if (x.degree(v) == 0) add_copy(kNoVertex);
            for (VertexId w : x.neighbors(v)) add_copy(w);
        }
    }
    RefineOutcome o;
    const auto hist = u.histograms(opt.max_rounds, &o);
    std::vector<std::vector<std::vector<ColorId>>> invariant[2];
    for (int side = 0; side < 2; ++side) {
        for (const auto& copies : copies_of[side]) {
            std::vector<std::vector<ColorId>> root;
            for (std::size_t c : copies) root.push_back(hist[c]);
            sort_multiset(root);
            invariant[side].push_back(std::move(root));
        }
        sort_multiset(invariant[side]);
    }
    return from_outcome(o, invariant[0] != invariant[1]);
}

// 1-WL over the one-node-deleted subgraphs, as DropGNN's expressiveness analysis (Papp et al.)
// states it: the graph's invariant is (its own 1-WL histogram, the multiset over v of the 1-WL
// histograms of G − v), all in one palette. DropGNN's released implementation (GraphPKU/BREC
// @966b5ed, DropGNN/test_BREC.py) does not delete a dropped vertex: it zeroes the vertex's input
// features and keeps its edges, which amounts to marking it (brec's m1, 1-WL with one vertex
// individualised) rather than deleting it. The marked colouring of G restricted to V − v is stable
// on G − v, so m1 separates whatever drop1 separates.
WlResult run_drop_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    const auto labels = label_colours(g, h, opt.use_node_labels);
    CopyUnion u;
    std::size_t whole[2] = {0, 0};
    std::vector<std::size_t> dropped[2];
    std::vector<VertexId> vertices;
    std::vector<std::uint64_t> keys;
    for (int side = 0; side < 2; ++side) {
        const Graph& x = side == 0 ? g : h;
        const VertexId offset = side == 0 ? 0 : g.n();
        for (VertexId skip = 0; skip <= x.n(); ++skip) {  // skip = n: the whole graph
            vertices.clear();
            keys.clear();
            for (VertexId v = 0; v < x.n(); ++v) {
                if (v == skip) continue;
                vertices.push_back(v);
                keys.push_back(key_of(labels[offset + v], 0));
            }
            const std::size_t c = u.add(x, vertices, keys);
            if (skip == x.n()) {
                whole[side] = c;
            } else {
                dropped[side].push_back(c);
            }
        }
    }
    RefineOutcome o;
    const auto hist = u.histograms(opt.max_rounds, &o);
    std::vector<std::vector<ColorId>> invariant[2];
    for (int side = 0; side < 2; ++side) {
        for (std::size_t c : dropped[side]) invariant[side].push_back(hist[c]);
        sort_multiset(invariant[side]);
    }
    return from_outcome(o, hist[whole[0]] != hist[whole[1]] || invariant[0] != invariant[1]);
}

}  // namespace brec::detail
