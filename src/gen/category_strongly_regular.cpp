// The strongly_regular category: pairs of non-isomorphic strongly regular graphs with equal
// parameters srg(v,k,λ,μ) (hence 1-WL-equivalent), v from 16 to 36, all built by construction:
// the 4x4 rook's graph vs the Shrikhande graph, the two-graph closure of srg(25,12,5,6) and
// srg(26,10,3,4), T(8) vs the Chang graphs, Latin-square graphs of the 12 main classes of order 6,
// and block graphs of Steiner triple systems STS(15) extended by Godsil-McKay switching.
// BREC v3's 20 srg(29,14,6,7) pairs have no construction here; srg(36,15,6,6) and more
// srg(35,18,9,9) pairs take their place.
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

/// The 12 srg(36,15,6,6) Latin-square graphs of the reduced Latin squares of order 6, one per
/// main class, in the order of their first square.
std::vector<Graph> latin_square_srg36(RunContext& ctx) {
    std::vector<LatinSquare> squares;
    for_each_reduced_latin_square(6, [&](const LatinSquare& s) {
        squares.push_back(s);
        return true;
    });
    std::vector<std::string> certs(squares.size());
    // 9,408 canonical forms (seconds): a cancelled run stops within one.
    parallel_for(squares.size(), ctx.threads(), [&](std::size_t i) {
        check_cancelled(ctx);
        certs[i] = canonical_certificate(latin_square_graph(squares[i])).bytes;
    });
    DistinctGraphs d;
    for (std::size_t i = 0; i < squares.size(); ++i)
        d.add_built(certs[i], [&] { return latin_square_graph(squares[i]); });
    return d.take();
}

/// Distinct srg(35,18,9,9): PG(3,2), then STS(15) hill-climbing tries, then GM4 switching.
std::vector<Graph> srg35_graphs(std::size_t need, std::uint64_t seed, RunContext& ctx) {
    DistinctGraphs d;
    d.add(block_graph(projective_space_pg32_triples()));
    const std::size_t max_tries = 20000, batch = 64;
    for (std::size_t start = 0; start < max_tries && d.size() < need; start += batch) {
        check_cancelled(ctx);
        std::vector<Graph> got(batch);
        std::vector<std::string> certs(batch);
        parallel_for(batch, ctx.threads(), [&](std::size_t i) {
            Rng rng(stream_seed(seed, kSrgSts15Tries + start + i));
            const auto sts = steiner_triple_system(15, rng);
            if (!sts) return;
            got[i] = block_graph(*sts);
            certs[i] = canonical_certificate(got[i]).bytes;
        });
        for (std::size_t i = 0; i < batch && d.size() < need; ++i)
            if (!certs[i].empty()) d.add(got[i], certs[i]);
    }
    const SrgParameters p35{35, 18, 9, 9};
    for (std::size_t next = 0; d.size() < need && next < d.size() && next < 2000; ++next) {
        check_cancelled(ctx);
        const Graph g = d.graphs()[next];
        const auto sets = gm4_sets(g);
        std::vector<Graph> sw(sets.size());
        std::vector<std::string> certs(sets.size());
        parallel_for(sets.size(), ctx.threads(), [&](std::size_t i) {
            sw[i] = gm4_switch(g, sets[i]);
            const auto p = srg_parameters(sw[i]);
            if (p && *p == p35) certs[i] = canonical_certificate(sw[i]).bytes;
        });
        for (std::size_t i = 0; i < sets.size() && d.size() < need; ++i)
            if (!certs[i].empty()) d.add(sw[i], certs[i]);
    }
    return d.take();
}

}  // namespace

std::vector<GeneratedPair> generate_strongly_regular(std::size_t count, std::uint64_t seed, RunContext& ctx) {
    const std::vector<Cell> cells = {{"srg(16,6,2,2)", 1, 1},  {"srg(25,12,5,6)", 7, 7}, {"srg(26,10,3,4)", 5, 5},
                                     {"srg(28,12,6,4)", 2, 2}, {"srg(36,15,6,6)", 6, 6}, {"srg(35,18,9,9)", 29, 700}};
    const auto alloc = allocate(cells, count, "strongly_regular");
    std::vector<GeneratedPair> out;
    Rng rng(stream_seed(seed, kSrgPairing));
    auto emit = [&](std::size_t cell, std::vector<Graph> graphs, const std::string& source) {
        if (alloc[cell] == 0) return;
        for (auto& [a, b] : pair_up(std::move(graphs), alloc[cell], rng, "strongly_regular " + cells[cell].name))
            out.push_back(make_pair_record("strongly_regular", cells[cell].name, a, b, {{"source", source}}));
    };
    emit(0, {rook_graph(4), shrikhande_graph()}, "4x4 rook's graph and Shrikhande graph");
    if (alloc[1] + alloc[2] > 0) {
        auto t = ctx.timers().scope("gen.two_graph_closure");
        const auto closure = two_graph_closure(ctx);
        emit(1, closure.srg25, "two-graph closure (Paley(25), LS(5), STS(13))");
        emit(2, closure.srg26, "two-graph closure (Paley(25), LS(5), STS(13))");
    }
    if (alloc[3] > 0) {
        std::vector<Graph> g28 = chang_graphs();
        g28.insert(g28.begin(), triangular_graph(8));
        emit(3, g28, "T(8) and the Chang graphs");
    }
    if (alloc[4] > 0) emit(4, latin_square_srg36(ctx), "Latin-square graphs of the 12 main classes of order 6");
    if (alloc[5] > 0) {
        auto g35 = srg35_graphs(2 * alloc[5], seed, ctx);
        if (g35.size() < 2 * alloc[5])
            throw InvalidArgument("category strongly_regular: only " + std::to_string(g35.size() / 2) +
                                  " srg(35,18,9,9) pairs found within the search budget; requested " +
                                  std::to_string(alloc[5]));
        emit(5, g35, "block graphs of STS(15) (hill-climbing, PG(3,2)) and GM4 switching");
    }
    return out;
}

void check_strongly_regular(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    const auto sa = srg_parameters(p.a), sb = srg_parameters(p.b);
    if (!sa || !sb || !(*sa == *sb)) throw Error(who + ": not strongly regular with equal parameters");
    params["srg"] = sa->str();
}

}  // namespace brec::detail
