#include "detail/refine.hpp"

#include <algorithm>
#include <numeric>

#include "brec/wl/wl.hpp"

namespace brec::detail {

LabelledUnion make_union(const Graph& g, const Graph& h) {
    LabelledUnion u;
    u.n = g.n() + h.n();
    u.split = g.n();
    u.offsets.reserve(u.n + 1);
    u.offsets.push_back(0);
    for (VertexId v = 0; v < g.n(); ++v) {
        for (VertexId w : g.neighbors(v)) u.targets.push_back(w);
        u.offsets.push_back(static_cast<std::uint32_t>(u.targets.size()));
    }
    for (VertexId v = 0; v < h.n(); ++v) {
        for (VertexId w : h.neighbors(v)) u.targets.push_back(w + g.n());
        u.offsets.push_back(static_cast<std::uint32_t>(u.targets.size()));
    }
    return u;
}

std::vector<ColorId> dense_rank(const std::vector<std::uint64_t>& keys, std::size_t* classes) {
    std::vector<std::uint64_t> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<ColorId> out(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        out[i] = static_cast<ColorId>(std::lower_bound(sorted.begin(), sorted.end(), keys[i]) - sorted.begin());
    if (classes) *classes = sorted.size();
    return out;
}

std::vector<ColorId> label_colours(const Graph& g, const Graph& h, bool use_labels) {
    std::vector<std::uint64_t> keys;
    keys.reserve(g.n() + h.n());
    for (VertexId v = 0; v < g.n(); ++v) keys.push_back(use_labels ? static_cast<std::uint64_t>(g.node_label(v)) : 0);
    for (VertexId v = 0; v < h.n(); ++v) keys.push_back(use_labels ? static_cast<std::uint64_t>(h.node_label(v)) : 0);
    return dense_rank(keys);
}

WlResult from_outcome(const RefineOutcome& o) { return from_outcome(o, o.distinguished); }

WlResult from_outcome(const RefineOutcome& o, bool distinguished) {
    WlResult r;
    r.distinguished = distinguished;
    r.rounds = o.rounds;
    r.colours = o.colours;
    return r;
}

bool histograms_equal(const std::vector<ColorId>& colours, VertexId split, std::size_t num_colours) {
    std::vector<std::int64_t> diff(num_colours, 0);
    for (VertexId v = 0; v < split; ++v) ++diff[colours[v]];
    for (std::size_t v = split; v < colours.size(); ++v) --diff[colours[v]];
    return std::all_of(diff.begin(), diff.end(), [](std::int64_t d) { return d == 0; });
}

RefineOutcome refine_union(const LabelledUnion& u, std::vector<ColorId> colours, int max_rounds, bool compare) {
    RefineOutcome out;
    const VertexId n = u.n;
    // Normalise the initial colours to a dense palette.
    {
        std::vector<std::uint64_t> keys(colours.begin(), colours.end());
        colours = dense_rank(keys, &out.colours);
    }
    if (compare && !histograms_equal(colours, u.split, out.colours)) {
        out.distinguished = true;
        out.final_colours = std::move(colours);
        return out;
    }
    // Signature of v: [old colour, sorted (label << 32 | neighbour colour)...], stored flat.
    std::vector<std::uint64_t> sig(u.targets.size() + n);
    std::vector<std::uint32_t> sig_off(n + 1);
    for (VertexId v = 0; v < n; ++v) sig_off[v + 1] = sig_off[v] + 1 + (u.offsets[v + 1] - u.offsets[v]);
    std::vector<VertexId> order(n);
    std::vector<ColorId> next(n);
    while (max_rounds < 0 || out.rounds < max_rounds) {
        for (VertexId v = 0; v < n; ++v) {
            std::uint64_t* s = sig.data() + sig_off[v];
            s[0] = colours[v];
            std::size_t k = 1;
            for (auto a = u.offsets[v]; a < u.offsets[v + 1]; ++a) {
                const std::uint64_t label = u.labels.empty() ? 0 : u.labels[a];
                s[k++] = (label << 32) | colours[u.targets[a]];
            }
            std::sort(s + 1, s + k);
        }
        std::iota(order.begin(), order.end(), 0);
        auto less = [&](VertexId a, VertexId b) {
            return std::lexicographical_compare(sig.begin() + sig_off[a], sig.begin() + sig_off[a + 1],
                                                sig.begin() + sig_off[b], sig.begin() + sig_off[b + 1]);
        };
        std::sort(order.begin(), order.end(), less);
        ColorId c = 0;
        for (VertexId i = 0; i < n; ++i) {
            if (i > 0 && less(order[i - 1], order[i])) ++c;
            next[order[i]] = c;
        }
        const std::size_t classes = n == 0 ? 0 : static_cast<std::size_t>(c) + 1;
        ++out.rounds;
        colours.swap(next);
        const bool stable = classes == out.colours;
        out.colours = classes;
        if (compare && !histograms_equal(colours, u.split, classes)) {
            out.distinguished = true;
            break;
        }
        if (stable) break;
    }
    out.final_colours = std::move(colours);
    return out;
}

}  // namespace brec::detail
