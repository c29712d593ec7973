// Helpers shared by the category generators: allocation of a category's pairs over its families,
// pairing of graphs, and sets of pairwise non-isomorphic graphs.
#include <algorithm>

#include "brec/core/error.hpp"
#include "brec/gen/geng.hpp"
#include "brec/iso/iso.hpp"
#include "gen/detail/categories.hpp"

namespace brec::detail {

std::vector<std::size_t> allocate(const std::vector<Cell>& cells, std::size_t total, const std::string& category) {
    std::size_t capsum = 0, wsum = 0;
    for (const auto& c : cells) capsum += c.cap, wsum += c.weight;
    if (capsum < total) {
        std::string detail;
        for (const auto& c : cells) detail += (detail.empty() ? "" : ", ") + c.name + ": " + std::to_string(c.cap);
        throw InvalidArgument("category " + category + " can supply at most " + std::to_string(capsum) +
                              " distinct pairs (" + detail + "); requested " + std::to_string(total));
    }
    std::vector<std::size_t> out(cells.size(), 0);
    if (wsum == 0) wsum = 1;
    std::vector<std::pair<double, std::size_t>> rema;
    std::size_t given = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const double exact =
            static_cast<double>(total) * static_cast<double>(cells[i].weight) / static_cast<double>(wsum);
        out[i] = std::min(cells[i].cap, static_cast<std::size_t>(exact));
        given += out[i];
        rema.push_back({-(exact - static_cast<double>(static_cast<std::size_t>(exact))), i});
    }
    std::stable_sort(rema.begin(), rema.end());
    for (const auto& [r, i] : rema) {
        if (given >= total) break;
        if (cells[i].weight > 0 && out[i] < cells[i].cap) ++out[i], ++given;
    }
    for (std::size_t pass = 0; given < total; pass = 1) {  // overflow: weighted cells first, then the rest
        bool moved = false;
        for (std::size_t i = 0; i < cells.size() && given < total; ++i) {
            if (pass == 0 && cells[i].weight == 0) continue;
            if (out[i] < cells[i].cap) ++out[i], ++given, moved = true;
        }
        if (!moved && pass == 1) break;
    }
    return out;
}

GeneratedPair make_pair_record(const std::string& category, const std::string& kind, Graph a, Graph b,
                               nlohmann::json params) {
    GeneratedPair p;
    p.category = category;
    p.kind = kind;
    p.a = std::move(a);
    p.b = std::move(b);
    p.params = std::move(params);
    return p;
}

std::vector<std::pair<Graph, Graph>> pair_up(std::vector<Graph> graphs, std::size_t count, Rng& rng,
                                             const std::string& what) {
    if (graphs.size() < 2 * count)
        throw InvalidArgument(what + ": only " + std::to_string(graphs.size() / 2) + " distinct pairs available, " +
                              std::to_string(count) + " requested");
    rng.shuffle(graphs);
    std::vector<std::pair<Graph, Graph>> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back({graphs[2 * i], graphs[2 * i + 1]});
    return out;
}

bool DistinctGraphs::add(const Graph& g) { return add(g, canonical_certificate(g).bytes); }

bool DistinctGraphs::add(const Graph& g, const std::string& certificate) {
    if (!seen_.insert(certificate).second) return false;
    graphs_.push_back(g);
    return true;
}

std::vector<Graph> DistinctGraphs::take() {
    std::vector<Graph> out = std::move(graphs_);
    graphs_.clear();
    seen_.clear();
    return out;
}

std::vector<Graph> regular_graphs(VertexId n, int k) {
    if ((static_cast<int>(n) * k) % 2 != 0) return {};  // no such graphs (geng refuses the query)
    GengQuery q;
    q.n = n;
    q.connected = true;
    q.min_degree = k;
    q.max_degree = k;
    return geng_graphs(q);
}

}  // namespace brec::detail
