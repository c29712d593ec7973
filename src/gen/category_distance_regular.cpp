// The distance_regular category: pairs of non-isomorphic distance-regular graphs of diameter >= 3
// with equal intersection arrays (hence 1-WL-equivalent): GH(2,2) vs its dual, incidence graphs of
// symmetric 2-(v,k,λ) designs (array {k,k-1,k-λ; 1,λ,k}) found by randomized search, complements of
// biplanes, Taylor graphs of the regular two-graphs on 26 points, and H(3,4) vs the Doob-type
// graph Shrikhande x K4.
//
// @book{brouwer1989distance, title={Distance-Regular Graphs}, author={Brouwer, A. E. and Cohen,
//   A. M. and Neumaier, A.}, publisher={Springer}, year={1989}}
#include <algorithm>
#include <optional>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/gen/constructions.hpp"
#include "brec/graph/properties.hpp"
#include "gen/detail/cancel.hpp"
#include "gen/detail/categories.hpp"
#include "gen/detail/streams.hpp"

namespace brec::detail {
namespace {

/// Distinct incidence graphs of symmetric 2-(v,k,λ) designs from seeded DFS tries.
std::vector<Graph> design_graphs(VertexId v, VertexId k, VertexId lambda, std::size_t need, std::size_t max_tries,
                                 std::uint64_t seed, RunContext& ctx, const std::vector<BlockList>& extra = {},
                                 std::vector<BlockList>* designs = nullptr) {
    DistinctGraphs d;
    for (const auto& b : extra)
        if (d.add(incidence_graph(b, v)) && designs) designs->push_back(b);
    const std::size_t batch = static_cast<std::size_t>(std::max(2, 2 * ctx.threads()));
    for (std::size_t start = 0; start < max_tries && d.size() < need; start += batch) {
        check_cancelled(ctx);
        std::vector<std::optional<BlockList>> got(batch);
        parallel_for(batch, ctx.threads(), [&](std::size_t i) {
            Rng rng(stream_seed(
                seed, (static_cast<std::uint64_t>(v) << 40) + (static_cast<std::uint64_t>(k) << 32) + start + i));
            got[i] = random_symmetric_design(v, k, lambda, rng, 400000);
        });
        for (std::size_t i = 0; i < batch && d.size() < need; ++i)
            if (got[i] && d.add(incidence_graph(*got[i], v)) && designs) designs->push_back(*got[i]);
    }
    return d.take();
}

}  // namespace

std::vector<GeneratedPair> generate_distance_regular(std::size_t count, std::uint64_t seed, RunContext& ctx) {
    const std::vector<Cell> cells = {{"GH(2,2) vs dual", 1, 1},     {"2-(15,7,3) designs", 2, 2},
                                     {"2-(16,6,2) biplanes", 1, 1}, {"2-(16,10,6) complements of biplanes", 1, 1},
                                     {"2-(19,9,4) designs", 3, 3},  {"2-(23,11,5) designs", 8, 100},
                                     {"2-(25,9,3) designs", 4, 30}, {"Taylor graphs of regular two-graphs", 0, 2},
                                     {"H(3,4) vs Doob", 0, 1}};
    const auto alloc = allocate(cells, count, "distance_regular");
    std::vector<GeneratedPair> out;
    Rng rng(stream_seed(seed, kDrPairing));
    const std::uint64_t dseed = stream_seed(seed, kDrDesigns);
    auto emit = [&](std::size_t cell, std::vector<Graph> graphs) {
        if (alloc[cell] == 0) return;
        if (graphs.size() < 2 * alloc[cell])
            throw InvalidArgument("category distance_regular: only " + std::to_string(graphs.size() / 2) +
                                  " pairs of " + cells[cell].name + " found within the search budget; requested " +
                                  std::to_string(alloc[cell]));
        for (auto& [a, b] : pair_up(std::move(graphs), alloc[cell], rng, "distance_regular " + cells[cell].name))
            out.push_back(make_pair_record("distance_regular", cells[cell].name, a, b));
    };
    if (alloc[0] > 0) {
        auto [x, y] = generalized_hexagon_pair();
        emit(0, {x, y});
    }
    if (alloc[1] > 0)
        emit(1, design_graphs(15, 7, 3, 2 * alloc[1], 2000, dseed, ctx, {cyclic_design({0, 1, 2, 4, 5, 8, 10}, 15)}));
    if (alloc[2] + alloc[3] > 0) {
        std::vector<BlockList> biplanes;
        const auto g = design_graphs(16, 6, 2, 3, 2000, dseed, ctx, {}, &biplanes);
        emit(2, g);
        std::vector<Graph> co;
        for (const auto& b : biplanes) co.push_back(incidence_graph(complement_design(b, 16), 16));
        emit(3, co);
    }
    if (alloc[4] > 0) emit(4, design_graphs(19, 9, 4, 2 * alloc[4], 3000, dseed, ctx));
    if (alloc[5] > 0) emit(5, design_graphs(23, 11, 5, 2 * alloc[5], 3000, dseed, ctx));
    if (alloc[6] > 0) emit(6, design_graphs(25, 9, 3, 2 * alloc[6], 3000, dseed, ctx));
    if (alloc[7] > 0) {
        const auto closure = two_graph_closure(ctx);
        DistinctGraphs d;
        for (const auto& g : closure.srg26) d.add(taylor_double_cover(g));
        emit(7, d.take());
    }
    if (alloc[8] > 0) emit(8, {hamming_graph(3, 4), shrikhande_times_k4()});
    return out;
}

void check_distance_regular(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    const auto ia = intersection_array(p.a), ib = intersection_array(p.b);
    if (!ia || !ib || !(*ia == *ib)) throw Error(who + ": not distance-regular with equal intersection arrays");
    if (ia->diameter() < 3) throw Error(who + ": diameter below 3");
    params["intersection_array"] = ia->str();
}

}  // namespace brec::detail
