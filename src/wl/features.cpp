// WL subtree features over a whole dataset: one shared signature table per round (sort + unique
// of integer signatures; never strings).
#include "brec/wl/features.hpp"

#include <algorithm>
#include <numeric>

#include "brec/core/error.hpp"

namespace brec {
namespace {

/// Relabels `keys` (one integer signature per vertex, concatenated) to dense ids in the order of
/// the sorted signatures: equal signatures get equal ids.
std::vector<ColorId> dense_ids(const std::vector<std::uint64_t>& flat, const std::vector<std::size_t>& start,
                               std::size_t& count) {
    const std::size_t n = start.size() - 1;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    auto less = [&](std::size_t a, std::size_t b) {
        return std::lexicographical_compare(flat.begin() + static_cast<std::ptrdiff_t>(start[a]),
                                            flat.begin() + static_cast<std::ptrdiff_t>(start[a + 1]),
                                            flat.begin() + static_cast<std::ptrdiff_t>(start[b]),
                                            flat.begin() + static_cast<std::ptrdiff_t>(start[b + 1]));
    };
    std::sort(order.begin(), order.end(), less);
    std::vector<ColorId> ids(n, 0);
    count = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (k > 0 && less(order[k - 1], order[k])) ++count;
        ids[order[k]] = static_cast<ColorId>(count);
    }
    if (n > 0) ++count;
    return ids;
}

}  // namespace

std::vector<FeatureRow> wl_subtree_features(const std::vector<Graph>& graphs, int rounds, bool use_node_labels) {
    if (rounds < 0) throw InvalidArgument("WL features: rounds must be >= 0, got " + std::to_string(rounds));
    // Vertices of all graphs, numbered consecutively.
    std::vector<std::size_t> first(graphs.size() + 1, 0);
    for (std::size_t g = 0; g < graphs.size(); ++g) first[g + 1] = first[g] + graphs[g].n();
    const std::size_t total = first.back();

    std::vector<std::uint64_t> flat;
    std::vector<std::size_t> start(total + 1, 0);
    // Round 0: the node labels (or one colour).
    flat.reserve(total);
    for (std::size_t g = 0; g < graphs.size(); ++g)
        for (VertexId v = 0; v < graphs[g].n(); ++v) {
            const bool labelled = use_node_labels && graphs[g].has_node_labels();
            // Labels may be negative: shift them into the unsigned range keeping their order.
            flat.push_back(labelled ? static_cast<std::uint64_t>(graphs[g].node_label(v)) ^ (std::uint64_t{1} << 63)
                                    : 0);
        }
    std::iota(start.begin(), start.end(), std::size_t{0});
    std::size_t count = 0;
    std::vector<ColorId> colour = dense_ids(flat, start, count);

    std::vector<std::vector<std::pair<std::uint64_t, double>>> rows(graphs.size());
    std::uint64_t offset = 0;
    std::vector<std::uint64_t> scratch;
    for (int r = 0;; ++r) {
        for (std::size_t g = 0; g < graphs.size(); ++g) {
            scratch.assign(colour.begin() + static_cast<std::ptrdiff_t>(first[g]),
                           colour.begin() + static_cast<std::ptrdiff_t>(first[g + 1]));
            std::sort(scratch.begin(), scratch.end());
            for (std::size_t k = 0; k < scratch.size();) {
                std::size_t e = k;
                while (e < scratch.size() && scratch[e] == scratch[k]) ++e;
                rows[g].emplace_back(offset + scratch[k], static_cast<double>(e - k));
                k = e;
            }
        }
        offset += count;
        if (r == rounds) break;
        // Signature: (old colour, sorted neighbour colours).
        flat.clear();
        start[0] = 0;
        for (std::size_t g = 0; g < graphs.size(); ++g) {
            const Graph& gr = graphs[g];
            for (VertexId v = 0; v < gr.n(); ++v) {
                const std::size_t at = flat.size();
                flat.push_back(colour[first[g] + v]);
                for (VertexId u : gr.neighbors(v)) flat.push_back(colour[first[g] + u]);
                std::sort(flat.begin() + static_cast<std::ptrdiff_t>(at + 1), flat.end());
                start[first[g] + v + 1] = flat.size();
            }
        }
        colour = dense_ids(flat, start, count);
    }
    return rows;
}

double feature_dot(const FeatureRow& a, const FeatureRow& b) {
    double s = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].first < b[j].first)
            ++i;
        else if (b[j].first < a[i].first)
            ++j;
        else
            s += a[i++].second * b[j++].second;
    }
    return s;
}

}  // namespace brec
