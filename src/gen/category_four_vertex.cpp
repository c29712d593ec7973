// The four_vertex_condition category: pairs of non-isomorphic srg(63,30,13,15) that both satisfy
// the 4-vertex condition (for every pair x != y the number of edges inside N(x) ∩ N(y) depends only
// on whether x ~ y). They come from the symplectic graph Sp(6,2) by Godsil-McKay switching: a
// switch that keeps the condition is kept; one that loses it is switched once more ("hop"), which
// reaches far more graphs with the condition than switching among them alone (from Sp(6,2), GM4
// switching within the condition reaches only 22 graphs).
//
// Background on these graphs:
// @article{brouwer2023strongly, title={Strongly regular graphs satisfying the 4-vertex condition},
//   author={Brouwer, A. E. and Ihringer, F. and Kantor, W. M.}, journal={Combinatorica},
//   volume={43}, pages={257--276}, year={2023}}
#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/gen/constructions.hpp"
#include "brec/graph/properties.hpp"
#include "brec/iso/iso.hpp"
#include "gen/detail/cancel.hpp"
#include "gen/detail/categories.hpp"
#include "gen/detail/streams.hpp"

namespace brec::detail {
namespace {

bool four_vertex(const Graph& g) { return four_vertex_constants(g).has_value(); }

/// Up to `need` distinct graphs with the 4-vertex condition, by breadth-first GM4 "hop" closure
/// from Sp(6,2).
std::vector<Graph> four_vertex_graphs(std::size_t need, RunContext& ctx) {
    DistinctGraphs found;         // graphs with the 4-vertex condition
    std::set<std::string> other;  // visited graphs without the condition
    std::vector<Graph> frontier{symplectic_graph(3)};
    found.add(frontier[0]);
    for (int round = 0; round < 8 && found.size() < need && !frontier.empty(); ++round) {
        std::vector<Graph> next;
        for (const Graph& g : frontier) {
            if (found.size() >= need) break;
            check_cancelled(ctx);
            const auto sets = gm4_sets(g);
            std::vector<Graph> sw(sets.size());
            std::vector<char> four(sets.size(), 0);
            std::vector<std::string> certs(sets.size());
            parallel_for(sets.size(), ctx.threads(), [&](std::size_t i) {
                sw[i] = gm4_switch(g, sets[i]);
                four[i] = four_vertex(sw[i]);
                certs[i] = canonical_certificate(sw[i]).bytes;
            });
            std::vector<Graph> hops;
            for (std::size_t i = 0; i < sets.size(); ++i) {
                if (four[i]) {
                    if (found.add(sw[i], certs[i])) next.push_back(sw[i]);
                } else if (other.insert(certs[i]).second) {
                    hops.push_back(sw[i]);
                }
            }
            // "Hop": a switch without the condition may switch back into new graphs with it.
            std::vector<std::vector<std::pair<std::string, Graph>>> hop_found(hops.size());
            parallel_for(hops.size(), ctx.threads(), [&](std::size_t h) {
                for (const auto& c : gm4_sets(hops[h])) {
                    check_cancelled(ctx);
                    Graph k = gm4_switch(hops[h], c);
                    if (four_vertex(k)) hop_found[h].push_back({canonical_certificate(k).bytes, std::move(k)});
                }
            });
            for (auto& list : hop_found)
                for (auto& [cert, k] : list)
                    if (found.add(k, cert)) next.push_back(k);
            ctx.progress("4-vertex-condition graphs", found.size(), need);
        }
        frontier = std::move(next);
    }
    std::vector<Graph> out = found.take();
    if (out.size() > need) out.resize(need);
    return out;
}

}  // namespace

std::vector<GeneratedPair> generate_four_vertex(std::size_t count, std::uint64_t seed, RunContext& ctx) {
    auto graphs = four_vertex_graphs(2 * count, ctx);
    if (graphs.size() < 2 * count)
        throw InvalidArgument("category four_vertex_condition: only " + std::to_string(graphs.size() / 2) +
                              " pairs found by the GM4 hop closure of Sp(6,2); requested " + std::to_string(count));
    Rng rng(stream_seed(seed, kFourVertexPairing));
    std::vector<GeneratedPair> out;
    for (auto& [a, b] : pair_up(graphs, count, rng, "four_vertex_condition"))
        out.push_back(make_pair_record("four_vertex_condition", "srg(63,30,13,15)", a, b,
                                       {{"source", "Sp(6,2) and GM4 hop closure"}}));
    return out;
}

void check_four_vertex(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    check_strongly_regular(p, who, params);
    const auto fa = four_vertex_constants(p.a), fb = four_vertex_constants(p.b);
    if (!fa || !fb || *fa != *fb) throw Error(who + ": the 4-vertex condition fails or differs");
    params["four_vertex_constants"] = {fa->first, fa->second};
}

}  // namespace brec::detail
