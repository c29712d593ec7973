#include "brec/rpc/groups.hpp"

#include <set>
#include <string>

#include "brec/graph/algorithms.hpp"
#include "brec/io/graph6.hpp"

namespace brec {

std::vector<Graph> relabelings(const Graph& g, int count, Rng& rng) {
    std::vector<Graph> out{g};
    std::set<std::string> seen{to_graph6(g)};
    for (int i = 1; i < count; ++i) {
        Graph h;
        for (int attempt = 0; attempt < 100; ++attempt) {
            h = permute(g, rng.permutation(g.n()));
            if (seen.insert(to_graph6(h)).second) break;
        }
        out.push_back(std::move(h));
    }
    return out;
}

PairGroups make_pair_groups(const GraphPairRecord& pair, int q, Rng& rng) {
    PairGroups groups;
    const auto ga = relabelings(pair.a, q, rng), gb = relabelings(pair.b, q, rng);
    for (int i = 0; i < q; ++i) {
        groups.traintest.push_back(ga[static_cast<std::size_t>(i)]);
        groups.traintest.push_back(gb[static_cast<std::size_t>(i)]);
    }
    groups.reliability_of_b = rng.below(2) == 1;
    groups.reliability = relabelings(groups.reliability_of_b ? pair.b : pair.a, 2 * q, rng);
    return groups;
}

}  // namespace brec
