// The regular category: pairs of connected k-regular graphs on 6..10 vertices with equal (n, k)
// that are not strongly regular (equal (n, k) already makes two regular graphs 1-WL-equivalent).
// The graphs come from nauty's geng.
#include <map>

#include "brec/core/error.hpp"
#include "brec/graph/properties.hpp"
#include "gen/detail/categories.hpp"
#include "gen/detail/streams.hpp"

namespace brec::detail {

std::vector<GeneratedPair> generate_regular(std::size_t count, std::uint64_t seed) {
    // BREC v3 (n,k) layout; (9,6) has only 3 non-strongly-regular graphs (K3,3,3 is srg), so its
    // second official pair moves to (10,4).
    const std::map<std::pair<VertexId, int>, std::size_t> weights = {{{10, 4}, 15}, {{10, 5}, 14}, {{10, 6}, 6},
                                                                     {{9, 4}, 5},   {{10, 3}, 5},  {{9, 6}, 1},
                                                                     {{10, 7}, 2},  {{8, 3}, 1},   {{7, 4}, 1}};
    std::vector<std::pair<VertexId, int>> keys;
    std::vector<std::vector<Graph>> lists;
    std::vector<Cell> cells;
    for (VertexId n = 6; n <= 10; ++n)
        for (int k = 3; k < static_cast<int>(n) - 1; ++k) {
            std::vector<Graph> list;
            for (Graph& g : regular_graphs(n, k))
                if (!srg_parameters(g)) list.push_back(std::move(g));
            const auto it = weights.find({n, k});
            keys.push_back({n, k});
            cells.push_back({"(" + std::to_string(n) + "," + std::to_string(k) + ")",
                             it == weights.end() ? 0 : it->second, list.size() / 2});
            lists.push_back(std::move(list));
        }
    const auto alloc = allocate(cells, count, "regular");
    std::vector<GeneratedPair> out;
    Rng rng(stream_seed(seed, kRegularPairing));
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (alloc[i] == 0) continue;
        for (auto& [a, b] : pair_up(lists[i], alloc[i], rng, "regular " + cells[i].name))
            out.push_back(make_pair_record(
                "regular", "regular" + cells[i].name, a, b,
                {{"source", "geng -c -d" + std::to_string(keys[i].second) + " -D" + std::to_string(keys[i].second) +
                                " " + std::to_string(keys[i].first)}}));
    }
    return out;
}

void check_regular(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    if (!p.a.is_regular() || !p.b.is_regular() || p.a.degree(0) != p.b.degree(0))
        throw Error(who + ": not regular of equal degree");
    if (srg_parameters(p.a) || srg_parameters(p.b)) throw Error(who + ": a graph is strongly regular");
    params["degree"] = p.a.degree(0);
}

}  // namespace brec::detail
