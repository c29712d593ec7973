// δ-2-LWL and δ-2-LWL+ (Morris, Rattan, Mutzel 2020, Section 4), the tight bound of lgnn2.
//
// Nodes: the n² ordered pairs s = (v, w) of each graph. Initial colour: the atomic type of s
// (v = w, v ~ w, or neither) with the node labels of v and w. The local 1-neighbours of s are
// (v', w) for v' ∈ N(v), the local 2-neighbours (v, w') for w' ∈ N(w); global neighbours (all other
// replacements) are not used. One round:
//   δ-2-LWL:  C(s) ← (C(s), {{C(v', w) : v' ∈ N(v)}}, {{C(v, w') : w' ∈ N(w)}});
//   δ-2-LWL+: C(s) ← (C(s), {{(C(v', w), #₁(s, (v', w))) : v' ∈ N(v)}},
//                           {{(C(v, w'), #₂(s, (v, w'))) : w' ∈ N(w)}}),
// where #_j(s, t) counts the j-neighbours of s, local and global, with the colour of t:
//   #₁(s, (v', w)) = |{u ∈ V : C(u, w) = C(v', w)}|,  #₂(s, (v, w')) = |{u ∈ V : C(v, u) = C(v, w')}|.
// The paper counts over the j-neighbours of s; we read that as all n of them (global and local):
// a count over the local ones only would repeat what the multiset already holds, making "+" void.
// The counts refine the partition of early rounds; in all our tests (random connected and
// disconnected graphs, BREC) the stable partitions of both variants agreed.
// The graph's colour is the histogram over all n² pairs. Both graphs are refined with one shared
// palette and their histograms compared after every round (and before the first); refinement
// stops when they differ or when the number of classes stops growing (each new colour keeps the
// old one, so partitions only refine).
//
// Ranking: each pair's signature (old colour, then the sorted multiset entries, tagged by j) is
// hashed to 64 bits; pairs are sorted by hash and runs of equal hash are checked entry by entry,
// so a hash collision costs time but never merges different signatures: the result is exact.
//
// @inproceedings{morris2020sparse, title={Weisfeiler and Leman go sparse: Towards scalable
//   higher-order graph embeddings}, author={Morris, Christopher and Rattan, Gaurav and Mutzel,
//   Petra}, booktitle={NeurIPS}, year={2020}}
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "detail/refine.hpp"
#include "detail/tight.hpp"

namespace brec::detail {
namespace {

/// Scratch memory above which the pair refinement refuses to run.
constexpr double kMaxBytes = 4.0 * (1ull << 30);

/// Tags of the multiset entries: 1-neighbours sort before 2-neighbours, so one sorted list holds
/// both multisets separately.
constexpr std::uint64_t kFirstTag = std::uint64_t{1} << 62;
constexpr std::uint64_t kSecondTag = std::uint64_t{2} << 62;

inline std::uint64_t mix(std::uint64_t h, std::uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/// One graph's pairs inside the joint arrays: pair (v, w) has index base + v * n + w.
struct Side {
    const Graph* graph;
    VertexId n;
    std::size_t base;
};

class PairRefinement {
public:
    PairRefinement(const Graph& g, const Graph& h, bool plus) : plus_(plus) {
        sides_[0] = {&g, g.n(), 0};
        sides_[1] = {&h, h.n(), static_cast<std::size_t>(g.n()) * g.n()};
        total_ = sides_[1].base + static_cast<std::size_t>(h.n()) * h.n();
        // Signature of (v, w): 1 + deg(v) + deg(w) entries, so n² + 4nm per graph.
        sig_off_.assign(total_ + 1, 0);
        for (const Side& s : sides_)
            for (VertexId v = 0; v < s.n; ++v)
                for (VertexId w = 0; w < s.n; ++w) {
                    const std::size_t t = s.base + static_cast<std::size_t>(v) * s.n + w;
                    sig_off_[t + 1] = 1 + s.graph->degree(v) + s.graph->degree(w);
                }
        std::partial_sum(sig_off_.begin(), sig_off_.end(), sig_off_.begin());
        sig_.resize(sig_off_.back());
        hash_.resize(total_);
        order_.resize(total_);
        next_.resize(total_);
        if (plus_) {
            same_first_.resize(total_);
            same_second_.resize(total_);
        }
    }

    /// Bytes the refinement would hold for this pair of graphs (checked before construction).
    static double estimate_bytes(const Graph& g, const Graph& h) {
        double pairs = 0, entries = 0;
        for (const Graph* x : {&g, &h}) {
            const double n = x->n(), m = static_cast<double>(x->m());
            pairs += n * n;
            entries += n * n + 4 * n * m;
        }
        // colours, next, counts (2), order (hash + index), offsets, hashes; signature entries.
        return pairs * (4 + 4 + 8 + 16 + 8 + 8) + entries * 8;
    }

    VertexId split() const { return static_cast<VertexId>(sides_[1].base); }

    /// Initial colours: (atomic type, label of v, label of w), densely ranked.
    std::vector<ColorId> initial_colours(bool use_labels) const {
        const std::vector<ColorId> labels = label_colours(*sides_[0].graph, *sides_[1].graph, use_labels);
        const std::uint64_t num_labels = 1 + (labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end()));
        std::vector<std::uint64_t> keys(total_);
        std::vector<std::uint8_t> adjacent;
        for (int side = 0; side < 2; ++side) {
            const Side& s = sides_[side];
            const VertexId offset = side == 0 ? 0 : sides_[0].n;
            adjacent.assign(s.n, 0);
            for (VertexId v = 0; v < s.n; ++v) {
                for (VertexId u : s.graph->neighbors(v)) adjacent[u] = 1;
                for (VertexId w = 0; w < s.n; ++w) {
                    const std::uint64_t type = v == w ? 0 : adjacent[w] ? 1 : 2;
                    keys[s.base + static_cast<std::size_t>(v) * s.n + w] =
                        (type * num_labels + labels[offset + v]) * num_labels + labels[offset + w];
                }
                for (VertexId u : s.graph->neighbors(v)) adjacent[u] = 0;
            }
        }
        return dense_rank(keys);
    }

    /// One round: replaces `colours` (with `classes` classes) by the refined colours; returns the
    /// number of classes after it.
    std::size_t round(std::vector<ColorId>& colours, std::size_t classes) {
        if (plus_) count_same_colours(colours, classes);
        for (const Side& s : sides_) write_signatures(s, colours);
        // Sort by (hash, index); equal hashes are verified entry by entry.
        for (std::size_t t = 0; t < total_; ++t) order_[t] = {hash_[t], static_cast<std::uint32_t>(t)};
        std::sort(order_.begin(), order_.end());
        ColorId c = 0;
        std::size_t run = 0;
        while (run < total_) {
            std::size_t end = run + 1;
            while (end < total_ && order_[end].first == order_[run].first) ++end;
            bool uniform = true;
            for (std::size_t i = run + 1; i < end && uniform; ++i)
                uniform = same_signature(order_[run].second, order_[i].second);
            if (!uniform) {
                // A 64-bit collision: order the run by signature so equal ones are adjacent.
                std::sort(order_.begin() + static_cast<std::ptrdiff_t>(run),
                          order_.begin() + static_cast<std::ptrdiff_t>(end),
                          [&](const auto& a, const auto& b) { return less_signature(a.second, b.second); });
            }
            for (std::size_t i = run; i < end; ++i) {
                if (i > run && !uniform && !same_signature(order_[i - 1].second, order_[i].second)) ++c;
                next_[order_[i].second] = c;
            }
            ++c;
            run = end;
        }
        colours.swap(next_);
        return c;
    }

private:
    /// same_first_[(x, w)] = |{u : C(u, w) = C(x, w)}|, same_second_[(v, y)] = |{u : C(v, u) = C(v, y)}|.
    void count_same_colours(const std::vector<ColorId>& colours, std::size_t classes) {
        counter_.assign(classes, 0);
        for (const Side& s : sides_) {
            const std::size_t n = s.n;
            for (std::size_t w = 0; w < n; ++w) {  // the pairs sharing the second vertex w
                for (std::size_t u = 0; u < n; ++u) ++counter_[colours[s.base + u * n + w]];
                for (std::size_t u = 0; u < n; ++u)
                    same_first_[s.base + u * n + w] = counter_[colours[s.base + u * n + w]];
                for (std::size_t u = 0; u < n; ++u) counter_[colours[s.base + u * n + w]] = 0;
            }
            for (std::size_t v = 0; v < n; ++v) {  // the pairs sharing the first vertex v
                const std::size_t row = s.base + v * n;
                for (std::size_t u = 0; u < n; ++u) ++counter_[colours[row + u]];
                for (std::size_t u = 0; u < n; ++u) same_second_[row + u] = counter_[colours[row + u]];
                for (std::size_t u = 0; u < n; ++u) counter_[colours[row + u]] = 0;
            }
        }
    }

    void write_signatures(const Side& s, const std::vector<ColorId>& colours) {
        const std::size_t n = s.n;
        for (VertexId v = 0; v < s.n; ++v) {
            const auto nv = s.graph->neighbors(v);
            for (VertexId w = 0; w < s.n; ++w) {
                const std::size_t t = s.base + v * n + w;
                std::uint64_t* sig = sig_.data() + sig_off_[t];
                std::size_t k = 0;
                sig[k++] = colours[t];
                for (VertexId x : nv) {
                    const std::size_t u = s.base + x * n + w;
                    const std::uint64_t count = plus_ ? same_first_[u] : 0;
                    sig[k++] = kFirstTag | (count << 32) | colours[u];
                }
                for (VertexId y : s.graph->neighbors(w)) {
                    const std::size_t u = s.base + v * n + y;
                    const std::uint64_t count = plus_ ? same_second_[u] : 0;
                    sig[k++] = kSecondTag | (count << 32) | colours[u];
                }
                std::sort(sig + 1, sig + k);
                std::uint64_t hash = k;
                for (std::size_t i = 0; i < k; ++i) hash = mix(hash, sig[i]);
                hash_[t] = hash;
            }
        }
    }

    bool same_signature(std::size_t a, std::size_t b) const {
        return std::equal(sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[a]),
                          sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[a + 1]),
                          sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[b]),
                          sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[b + 1]));
    }
    bool less_signature(std::size_t a, std::size_t b) const {
        return std::lexicographical_compare(sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[a]),
                                            sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[a + 1]),
                                            sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[b]),
                                            sig_.begin() + static_cast<std::ptrdiff_t>(sig_off_[b + 1]));
    }

    bool plus_;
    Side sides_[2];
    std::size_t total_ = 0;
    std::vector<std::size_t> sig_off_;
    std::vector<std::uint64_t> sig_;
    std::vector<std::uint64_t> hash_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order_;
    std::vector<ColorId> next_;
    std::vector<std::uint32_t> same_first_, same_second_, counter_;
};

}  // namespace

WlResult run_local_2wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    const double bytes = PairRefinement::estimate_bytes(g, h);
    if (bytes > kMaxBytes)
        throw ResourceLimit("WL method '" + opt.method.name() + "': the pair refinement of graphs with " +
                            std::to_string(g.n()) + " and " + std::to_string(h.n()) + " vertices would need about " +
                            std::to_string(static_cast<long long>(bytes / (1 << 20))) +
                            " MiB (limit 4096 MiB); use 1wl or a smaller graph");
    PairRefinement refinement(g, h, opt.method.plus);
    std::vector<ColorId> colours = refinement.initial_colours(opt.use_node_labels);
    WlResult result;
    result.colours = colours.empty() ? 0 : 1 + *std::max_element(colours.begin(), colours.end());
    result.distinguished = !histograms_equal(colours, refinement.split(), result.colours);
    while (!result.distinguished && (opt.max_rounds < 0 || result.rounds < opt.max_rounds)) {
        const std::size_t classes = refinement.round(colours, result.colours);
        ++result.rounds;
        const bool stable = classes == result.colours;
        result.colours = classes;
        result.distinguished = !histograms_equal(colours, refinement.split(), classes);
        if (stable) break;
    }
    return result;
}

}  // namespace brec::detail
