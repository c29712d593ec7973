// The cfi category: Cai-Fürer-Immerman graphs over connected base graphs on 3..7 vertices with
// minimum degree 2 (untwisted vs one twisted edge). k-WL (= (k-1)-FWL) separates CFI(B) iff
// tw(B) <= k - 1, so the base's treewidth sets the pair's hardness: BREC's mix is 60 pairs with
// tw 2 (separated by 3-WL), 20 with tw 3 (only by 4-WL) and 20 with tw >= 4 (not by 4-WL). Every
// pair's hardness is computed with the WL engine and checked against that theory.
//
// @article{cai1992optimal, title={An optimal lower bound on the number of variables for graph
//   identification}, author={Cai, Jin-Yi and F{\"u}rer, Martin and Immerman, Neil},
//   journal={Combinatorica}, volume={12}, number={4}, pages={389--410}, year={1992}}
#include <algorithm>
#include <atomic>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/gen/cfi.hpp"
#include "brec/gen/geng.hpp"
#include "brec/io/graph6.hpp"
#include "brec/wl/wl.hpp"
#include "gen/detail/cancel.hpp"
#include "gen/detail/categories.hpp"
#include "gen/detail/streams.hpp"

namespace brec::detail {

std::vector<GeneratedPair> generate_cfi(std::size_t count, std::uint64_t seed, const GenerateOptions& opt,
                                        RunContext& ctx) {
    struct Base {
        Graph g;
        std::uint32_t tw;
        std::uint64_t size;
    };
    std::vector<Base> pools[3];
    for (VertexId n = 3; n <= 7; ++n) {
        GengQuery q;
        q.n = n;
        q.connected = true;
        q.min_degree = 2;
        for (Graph& g : geng_graphs(q)) {
            const std::uint64_t size = cfi_size(g);
            if (size > opt.cfi_max_vertices) continue;
            const std::uint32_t tw = treewidth(g);
            pools[tw <= 2 ? 0 : tw == 3 ? 1 : 2].push_back({std::move(g), tw, size});
        }
    }
    const std::vector<Cell> cells = {
        {"tw=2", 60, pools[0].size()}, {"tw=3", 20, pools[1].size()}, {"tw>=4", 20, pools[2].size()}};
    const auto alloc = allocate(cells, count, "cfi");
    Rng rng(stream_seed(seed, kCfiBases));
    std::vector<Base> chosen;
    std::vector<int> tier;
    for (int t = 0; t < 3; ++t) {
        auto pool = pools[t];
        rng.shuffle(pool);
        pool.resize(alloc[t]);
        std::stable_sort(pool.begin(), pool.end(), [](const Base& a, const Base& b) { return a.size < b.size; });
        for (auto& b : pool) {
            chosen.push_back(std::move(b));
            tier.push_back(t);
        }
    }
    // Largest work first (3-FWL, O(n^4) per round, dominates), so that no long comparison starts
    // last while the other threads idle. Results go to their own slot: the order of work does not
    // change the output.
    auto cost = [&](const Base& b) {
        const double n = static_cast<double>(b.size);
        return b.tw >= 3 && b.size <= opt.cfi_fwl3_max_vertices ? n * n * n * n : n * n * n;
    };
    std::vector<std::size_t> order(chosen.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return cost(chosen[x]) > cost(chosen[y]); });
    std::vector<GeneratedPair> out(chosen.size());
    std::atomic<std::size_t> done{0};
    parallel_for(order.size(), ctx.threads(), [&](std::size_t k) {
        check_cancelled(ctx);
        const std::size_t i = order[k];
        const Base& b = chosen[i];
        Graph a = cfi_graph(b.g, false), t = cfi_graph(b.g, true);
        const auto r1 = compare_pair(a, t, WlOptions(WlMethod::parse("1wl")));
        const auto r2 = compare_pair(a, t, WlOptions(WlMethod::parse("2fwl")));
        const bool theory2 = b.tw <= 2, theory3 = b.tw <= 3;
        if (r1.distinguished || r2.distinguished != theory2)
            throw Error("internal error: CFI pair over base " + to_graph6(b.g) + " (tw " + std::to_string(b.tw) +
                        ") disagrees with CFI theory at 1-WL/2-FWL");
        std::string level, source;
        if (r2.distinguished) {
            level = hardness_name(Hardness::fwl2);
            source = "2-FWL computed";
        } else if (a.n() <= opt.cfi_fwl3_max_vertices) {
            const auto r3 = compare_pair(a, t, WlOptions(WlMethod::parse("3fwl")));
            if (r3.distinguished != theory3)
                throw Error("internal error: CFI pair over base " + to_graph6(b.g) +
                            " disagrees with CFI theory at 3-FWL");
            level = hardness_name(r3.distinguished ? Hardness::fwl3 : Hardness::beyond);
            source = "2-FWL and 3-FWL computed";
        } else {
            level = hardness_name(theory3 ? Hardness::fwl3 : Hardness::beyond);
            source = "2-FWL computed; 3-FWL from CFI theory (separates iff tw(base) <= 3)";
        }
        out[i] = make_pair_record("cfi", cells[tier[i]].name, std::move(a), std::move(t),
                                  {{"base", to_graph6(b.g)},
                                   {"base_n", b.g.n()},
                                   {"base_m", b.g.m()},
                                   {"treewidth", b.tw},
                                   {"hardness", level},
                                   {"hardness_source", source},
                                   {"first", "untwisted"},
                                   {"second", "one twisted edge"}});
        ctx.progress("cfi hardness", ++done, order.size());
    });
    return out;
}

void check_cfi(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    // The hardness is certified at construction (params.hardness and params.hardness_source).
}

}  // namespace brec::detail
