// The basic and extension categories. Both come from one exhaustive search over the connected
// graphs on 10 vertices (streamed from nauty's geng and grouped into true 1-WL classes, see
// detail/ten_vertex.hpp), so the search runs once for both and no graph is used twice:
// * extension: 1-WL-equivalent pairs that a stronger test still cannot separate (60 S3-, 20 N1-,
//   10 S4-indistinguishable, each separated by 2-FWL as BREC requires), plus 5 pairs "regular
//   graph + a universal (virtual) vertex" and 5 pairs C_2l vs C_l,l with a virtual vertex;
// * basic: pairs of non-regular 1-WL-equivalent graphs from the classes extension left.
//
// @inproceedings{papp2022theoretical, title={A Theoretical Comparison of Graph Neural Network
//   Extensions}, author={Papp, P{\'a}l Andr{\'a}s and Wattenhofer, Roger}, booktitle={ICML},
//   year={2022}}
#include <algorithm>
#include <map>
#include <set>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/gen/constructions.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/graph6.hpp"
#include "brec/wl/wl.hpp"
#include "gen/detail/cancel.hpp"
#include "gen/detail/categories.hpp"
#include "gen/detail/streams.hpp"
#include "gen/detail/ten_vertex.hpp"

namespace brec::detail {
namespace {

using Code = std::uint64_t;

/// Picks up to `count` disjoint pairs of unused items from the classes: classes in random order,
/// at most one pair per class per round; `accept` can reject a candidate pair.
template <typename Accept>
std::vector<std::pair<Code, Code>> pick_pairs(std::vector<std::vector<Code>> classes, std::size_t count,
                                              std::set<Code>& used, Rng& rng, Accept accept) {
    rng.shuffle(classes);
    for (auto& c : classes) rng.shuffle(c);
    std::vector<std::size_t> cursor(classes.size(), 0);
    std::vector<std::pair<Code, Code>> out;
    bool progress = true;
    while (out.size() < count && progress) {
        progress = false;
        for (std::size_t ci = 0; ci < classes.size() && out.size() < count; ++ci) {
            auto& cl = classes[ci];
            auto& cur = cursor[ci];
            Code first = 0;
            bool have_first = false;
            while (cur < cl.size()) {
                const Code x = cl[cur++];
                if (used.count(x)) continue;
                if (!have_first) {
                    first = x;
                    have_first = true;
                    continue;
                }
                if (accept(first, x)) {
                    used.insert(first);
                    used.insert(x);
                    out.push_back({first, x});
                    progress = true;
                    break;
                }
                first = x;  // reject: try the next partner with a fresh first element
            }
        }
    }
    return out;
}

std::size_t pair_capacity(const std::vector<std::vector<Code>>& classes) {
    std::size_t c = 0;
    for (const auto& cl : classes) c += cl.size() / 2;
    return c;
}

/// Whether g has a universal vertex whose removal leaves a regular graph (2-regular: cycles).
bool has_universal_vertex_over(const Graph& g, bool need_two_regular) {
    for (VertexId v = 0; v < g.n(); ++v) {
        if (g.degree(v) != g.n() - 1) continue;
        std::vector<VertexId> rest;
        for (VertexId w = 0; w < g.n(); ++w)
            if (w != v) rest.push_back(w);
        const Graph r = induced_subgraph(g, rest);
        if (r.is_regular() && (!need_two_regular || r.degree(0) == 2)) return true;
    }
    return false;
}

}  // namespace

TenVertexPairs generate_basic_extension(std::size_t n_basic, std::size_t n_ext, std::uint64_t seed,
                                        const GenerateOptions& opt, RunContext& ctx) {
    TenVertexPairs res;
    const VertexId n = opt.ten_vertex_n;
    TenVertexPool pool;
    {
        auto t = ctx.timers().scope("gen.ten_vertex_pool");
        pool = build_ten_vertex_pool(n, ctx);
    }
    ctx.info("exhaustive search: " + std::to_string(pool.streamed) + " connected graphs on " + std::to_string(n) +
             " vertices, " + std::to_string(pool.candidates) + " non-regular graphs share a 1-WL hash, " +
             std::to_string(pool.classes.size()) + " 1-WL classes");
    std::set<Code> used;
    auto graph = [&](Code c) { return graph_from_code(c, n); };
    if (n_ext > 0) {
        Rng rng(stream_seed(seed, kExtensionPicks));
        // Sub-classes for S4, N1, S3 (computed over all pool classes in parallel).
        const std::vector<std::string> kinds = {"S3", "N1", "S4"};
        std::map<std::string, std::vector<std::vector<Code>>> sub;
        for (const auto& kind : kinds) {
            std::vector<std::vector<std::vector<Code>>> parts(pool.classes.size());
            parallel_for(pool.classes.size(), ctx.threads(),
                         [&](std::size_t i) { parts[i] = extension_subclasses(pool.classes[i], n, kind); });
            for (auto& p : parts)
                for (auto& c : p) sub[kind].push_back(std::move(c));
        }
        // Virtual-node regular bases and cycle pairs.
        const std::vector<std::pair<VertexId, int>> vr_slots = {{9, 4},  {10, 4}, {10, 3}, {10, 4}, {10, 3},
                                                                {10, 5}, {10, 6}, {8, 3},  {10, 5}, {10, 4}};
        std::map<std::pair<VertexId, int>, std::vector<Graph>> vr_lists;
        std::size_t vr_cap = 0;
        for (const auto& s : vr_slots)
            if (!vr_lists.count(s)) {
                vr_lists[s] = regular_graphs(s.first, s.second);
                vr_cap += vr_lists[s].size() / 2;
            }
        vr_cap = std::min(vr_cap, vr_slots.size());
        const std::size_t cyc_cap = 16;  // l = 5..20
        const std::vector<Cell> cells = {{"S3", 60, pair_capacity(sub["S3"])},
                                         {"N1", 20, pair_capacity(sub["N1"])},
                                         {"S4", 10, pair_capacity(sub["S4"])},
                                         {"virtual node (regular)", 5, vr_cap},
                                         {"C2l vs Cl,l + virtual node", 5, cyc_cap}};
        const auto alloc = allocate(cells, n_ext, "extension");
        std::map<std::string, std::vector<std::pair<Code, Code>>> chosen;
        for (const std::string kind : {"S4", "N1", "S3"}) {
            const std::size_t want = alloc[kind == "S3" ? 0 : kind == "N1" ? 1 : 2];
            const WlOptions ext(WlMethod::parse(kind == "N1" ? "n:1" : kind == "S3" ? "s3" : "s4"));
            const WlOptions fwl2(WlMethod::parse("2fwl"));
            auto got = pick_pairs(sub[kind], want, used, rng, [&](Code x, Code y) {
                check_cancelled(ctx);
                const Graph a = graph(x), b = graph(y);
                return !compare_pair(a, b, ext).distinguished && compare_pair(a, b, fwl2).distinguished;
            });
            if (got.size() < want)
                throw InvalidArgument("category extension can supply only " + std::to_string(got.size()) +
                                      " distinct " + kind + "-indistinguishable pairs on " + std::to_string(n) +
                                      " vertices; requested " + std::to_string(want));
            chosen[kind] = std::move(got);
        }
        for (const std::string kind : {"S3", "N1", "S4"})
            for (const auto& [x, y] : chosen[kind])
                res.extension.push_back(make_pair_record(
                    "extension", kind, graph(x), graph(y),
                    {{"source", "geng -c " + std::to_string(n) + ", " + kind + "-indistinguishable 1-WL class"}}));
        // Regular graph + virtual node.
        for (std::size_t i = 0; i < alloc[3]; ++i) {
            const auto slot = vr_slots[i];
            auto& list = vr_lists[slot];
            if (list.size() < 2)
                throw InvalidArgument("extension: not enough regular bases for " + std::to_string(slot.first));
            const std::size_t p = rng.below(list.size());
            Graph a = list[p];
            list.erase(list.begin() + static_cast<std::ptrdiff_t>(p));
            const std::size_t q = rng.below(list.size());
            Graph b = list[q];
            list.erase(list.begin() + static_cast<std::ptrdiff_t>(q));
            res.extension.push_back(make_pair_record("extension", "virtual node (regular)", add_universal_vertex(a),
                                                     add_universal_vertex(b),
                                                     {{"base_n", slot.first},
                                                      {"base_degree", slot.second},
                                                      {"base_a", to_graph6(a)},
                                                      {"base_b", to_graph6(b)}}));
        }
        for (std::size_t i = 0; i < alloc[4]; ++i) {
            const VertexId l = static_cast<VertexId>(5 + i);
            res.extension.push_back(make_pair_record("extension", "C2l vs Cl,l + virtual node",
                                                     add_universal_vertex(disjoint_union(make_cycle(l), make_cycle(l))),
                                                     add_universal_vertex(make_cycle(2 * l)), {{"l", l}}));
        }
    }
    if (n_basic > 0) {
        Rng rng(stream_seed(seed, kBasicPicks));
        std::size_t cap = 0;
        for (const auto& cl : pool.classes) {
            std::size_t free = 0;
            for (Code c : cl) free += !used.count(c);
            cap += free / 2;
        }
        if (cap < n_basic)
            throw InvalidArgument("category basic can supply at most " + std::to_string(cap) +
                                  " distinct pairs (non-regular connected 1-WL-equivalent graphs on " +
                                  std::to_string(n) + " vertices, not used by extension); requested " +
                                  std::to_string(n_basic));
        const auto got = pick_pairs(pool.classes, n_basic, used, rng, [](Code, Code) { return true; });
        for (const auto& [x, y] : got)
            res.basic.push_back(make_pair_record("basic", "1-WL class", graph(x), graph(y),
                                                 {{"source", "geng -c " + std::to_string(n) + ", 1-WL class"}}));
    }
    return res;
}

void check_basic(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    if (p.a.is_regular() || p.b.is_regular()) throw Error(who + ": a basic graph is regular");
}

void check_extension(const GeneratedPair& p, const std::string& who, nlohmann::json& params) {
    std::string method;
    if (p.kind == "S3")
        method = "s3";
    else if (p.kind == "S4")
        method = "s4";
    else if (p.kind == "N1")
        method = "n:1";
    if (!method.empty()) {
        if (compare_pair(p.a, p.b, WlOptions(WlMethod::parse(method))).distinguished)
            throw Error(who + ": " + method + " distinguishes the graphs");
        params["indistinguishable_by"] = method;
    } else {
        const bool cycles = p.kind.rfind("C2l", 0) == 0;
        if (!has_universal_vertex_over(p.a, cycles) || !has_universal_vertex_over(p.b, cycles))
            throw Error(who + ": no virtual node over a regular graph");
    }
}

}  // namespace brec::detail
