// Dataset generation: the composition, verify_pair's checks (each failure names the failed check),
// determinism under a seed and independence of the thread count, capacity errors that say how many
// pairs exist, and the CFI hardness mix. Expected numbers come from theory (see comments).
#include "brec/gen/generate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/gen/cfi.hpp"
#include "brec/gen/constructions.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/graph6.hpp"
#include "brec/iso/iso.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"
#include "gen/gen_test_util.hpp"

namespace brec {
namespace {

GeneratedPair pair_of(const std::string& category, const std::string& kind, Graph a, Graph b) {
    GeneratedPair p;
    p.category = category;
    p.kind = kind;
    p.a = std::move(a);
    p.b = std::move(b);
    return p;
}

/// verify_pair must throw brec::Error whose message contains `needle`.
void expect_rejected(const GeneratedPair& p, const std::string& needle) {
    try {
        verify_pair(p);
        ADD_FAILURE() << "accepted (" << p.category << ", " << p.kind << "), expected: " << needle;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

Graph cube() { return cartesian_product(cartesian_product(make_complete(2), make_complete(2)), make_complete(2)); }
Graph wagner() { return lcf_graph({4}, 8); }  // Möbius ladder on 8 vertices: cubic, not bipartite

// ----- composition -----------------------------------------------------------------------------

TEST(Composition, DefaultIsBrecV3) {
    const std::vector<std::pair<std::string, std::size_t>> want = {
        {"basic", 60},           {"regular", 50}, {"strongly_regular", 50},
        {"extension", 100},      {"cfi", 100},    {"four_vertex_condition", 20},
        {"distance_regular", 20}};
    EXPECT_EQ(default_composition(), want);
    EXPECT_EQ(resolve_composition(GenerateOptions()), want);
}

TEST(Composition, OneCategoryTakesTheCountAndSeveralShareItProportionally) {
    GenerateOptions opt;
    opt.with_categories({"str"}).with_pairs(7);
    EXPECT_EQ(resolve_composition(opt), (std::vector<std::pair<std::string, std::size_t>>{{"strongly_regular", 7}}));
    opt.with_categories({}).with_pairs(40);  // 400 / 40 = 10 divides every BREC v3 count
    const auto c = resolve_composition(opt);
    std::map<std::string, std::size_t> got(c.begin(), c.end());
    EXPECT_EQ(got["basic"], 6u);
    EXPECT_EQ(got["regular"], 5u);
    EXPECT_EQ(got["extension"], 10u);
    EXPECT_EQ(got["cfi"], 10u);
    EXPECT_EQ(got["distance_regular"], 2u);
    opt.with_categories({"cfi", "regular"}).with_pairs(15);
    const auto two = resolve_composition(opt);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0], std::make_pair(std::string("regular"), std::size_t{5}));  // BREC order kept
    EXPECT_EQ(two[1], std::make_pair(std::string("cfi"), std::size_t{10}));
}

TEST(Composition, BadArgumentsAreInvalidArguments) {
    GenerateOptions opt;
    opt.with_categories({"frobnicate"});
    try {
        resolve_composition(opt);
        FAIL();
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown category 'frobnicate'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("four_vertex_condition"), std::string::npos) << e.what();
    }
    for (long long bad : {0LL, -2LL, -100LL}) {
        GenerateOptions o;
        o.with_pairs(bad);
        EXPECT_THROW(resolve_composition(o), InvalidArgument) << bad;
        RunContext ctx;
        EXPECT_THROW(generate_dataset(o, ctx), InvalidArgument) << bad;
    }
}

// ----- verify_pair -----------------------------------------------------------------------------

TEST(VerifyPair, AcceptsGoodPairsAndRecomputesTheirParameters) {
    const auto srg = verify_pair(pair_of("strongly_regular", "srg(16,6,2,2)", rook_graph(4), shrikhande_graph()));
    EXPECT_EQ(srg["srg"], "srg(16,6,2,2)");
    EXPECT_EQ(srg["n"], 16);
    EXPECT_EQ(srg["aut"], nlohmann::json::array({"1152", "192"}));
    const auto [gh, dual] = generalized_hexagon_pair();
    const auto dr = verify_pair(pair_of("distance_regular", "GH(2,2) vs dual", gh, dual));
    EXPECT_EQ(dr["intersection_array"], "{6,4,4;1,1,3}");
    const auto reg = verify_pair(pair_of("regular", "regular(8,3)", cube(), wagner()));
    EXPECT_EQ(reg["degree"], 3);
    const auto ext = verify_pair(pair_of("extension", "C2l vs Cl,l + virtual node",
                                         add_universal_vertex(disjoint_union(make_cycle(5), make_cycle(5))),
                                         add_universal_vertex(make_cycle(10))));
    EXPECT_EQ(ext["n"], 11);
    const auto cfi =
        verify_pair(pair_of("cfi", "tw=2", cfi_graph(make_complete(3), false), cfi_graph(make_complete(3), true)));
    EXPECT_EQ(cfi["n"], 18);
}

TEST(VerifyPair, RejectsEachFailedCheckByName) {
    const Graph rook = rook_graph(4), shr = shrikhande_graph();
    Permutation p(16);
    for (VertexId v = 0; v < 16; ++v) p[v] = (v * 5 + 3) % 16;
    expect_rejected(pair_of("strongly_regular", "x", rook, permute(rook, p)), "isomorphic");
    const Graph path4 = make_path(4), star = make_graph(4, {{0, 1}, {0, 2}, {0, 3}});
    expect_rejected(pair_of("basic", "x", path4, star), "1-WL distinguishes");
    expect_rejected(pair_of("basic", "x", rook, make_cycle(5)), "different sizes");
    expect_rejected(pair_of("basic", "x", make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3))), "regular");
    expect_rejected(pair_of("regular", "x", rook, shr), "strongly regular");
    expect_rejected(pair_of("strongly_regular", "x", cube(), wagner()), "not strongly regular");
    expect_rejected(pair_of("four_vertex_condition", "x", rook, shr), "4-vertex condition");
    // Strongly regular graphs are distance-regular of diameter 2: the category needs diameter >= 3.
    expect_rejected(pair_of("distance_regular", "x", rook, shr), "diameter below 3");
    expect_rejected(pair_of("distance_regular", "x", cube(), wagner()), "not distance-regular");
    const Graph c6u = add_universal_vertex(make_cycle(6));
    const Graph c33u = add_universal_vertex(disjoint_union(make_cycle(3), make_cycle(3)));
    ASSERT_TRUE(wl1_equivalent(c6u, c33u));
    expect_rejected(pair_of("extension", "S3", c6u, c33u), "s3 distinguishes");
    expect_rejected(pair_of("extension", "virtual node (regular)", cfi_graph(make_complete(3), false),
                            cfi_graph(make_complete(3), true)),
                    "no virtual node");
    try {
        verify_pair(pair_of("nonsense", "x", make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3))));
        FAIL();
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown category 'nonsense'"), std::string::npos);
    }
}

// ----- whole datasets --------------------------------------------------------------------------

std::vector<std::string> fingerprint(const GeneratedDataset& d) {
    std::vector<std::string> out;
    for (const auto& p : d.pairs)
        out.push_back(p.category + "|" + p.kind + "|" + to_graph6(p.a) + "|" + to_graph6(p.b));
    return out;
}

GeneratedDataset generate(GenerateOptions opt, int threads) {
    RunContext ctx;
    ctx.set_threads(threads);
    return generate_dataset(opt, ctx);
}

// ----- independent checks of generated pairs --------------------------------------------------
// None of these calls verify_pair, nauty or the WL engine: the verifier inside generate_dataset
// already ran those, so re-running them could not fail.

/// Neighbour lists of the disjoint union of g (vertices 0..n-1) and h (n..2n-1).
std::vector<std::vector<VertexId>> union_lists(const Graph& g, const Graph& h) {
    std::vector<std::vector<VertexId>> adj(g.n() + h.n());
    for (const auto& [u, v] : g.edges()) adj[u].push_back(v), adj[v].push_back(u);
    for (const auto& [u, v] : h.edges()) adj[g.n() + u].push_back(g.n() + v), adj[g.n() + v].push_back(g.n() + u);
    return adj;
}

/// Colour refinement to the stable colouring, in one colour space for the whole union: a vertex's
/// new colour is the rank of (old colour, sorted neighbour colours) among all signatures.
std::vector<int> refine(const std::vector<std::vector<VertexId>>& adj, std::vector<int> colour) {
    for (std::size_t classes = 0;;) {
        std::map<std::vector<int>, int> ids;
        std::vector<std::vector<int>> sig(adj.size());
        for (std::size_t v = 0; v < adj.size(); ++v) {
            sig[v].push_back(colour[v]);
            std::vector<int> nb;
            for (VertexId w : adj[v]) nb.push_back(colour[w]);
            std::sort(nb.begin(), nb.end());
            sig[v].insert(sig[v].end(), nb.begin(), nb.end());
            ids.emplace(sig[v], 0);
        }
        int next = 0;
        for (auto& [key, id] : ids) id = next++;
        for (std::size_t v = 0; v < adj.size(); ++v) colour[v] = ids[sig[v]];
        if (ids.size() == classes) return colour;
        classes = ids.size();
    }
}

/// Whether the two halves (first n vertices, last n) hold every colour equally often.
bool balanced(const std::vector<int>& colour, std::size_t n) {
    std::map<int, long> diff;
    for (std::size_t v = 0; v < colour.size(); ++v) diff[colour[v]] += v < n ? 1 : -1;
    return std::all_of(diff.begin(), diff.end(), [](const auto& kv) { return kv.second == 0; });
}

/// 1-WL equivalence from the plain refinement above.
bool refinement_equivalent(const Graph& g, const Graph& h) {
    if (g.n() != h.n()) return false;
    const auto adj = union_lists(g, h);
    return balanced(refine(adj, std::vector<int>(adj.size(), 0)), g.n());
}

/// Individualisation-refinement search over the union: complete (every candidate image of one
/// vertex of the first non-singleton class is tried) and exact (a discrete colouring is accepted only
/// when the bijection it defines preserves every edge and non-edge).
bool isomorphic_search(const std::vector<std::vector<VertexId>>& adj, const std::vector<std::vector<char>>& dense,
                       std::size_t n, std::vector<int> colour) {
    colour = refine(adj, std::move(colour));
    if (!balanced(colour, n)) return false;
    std::map<int, std::vector<VertexId>> cls_g, cls_h;
    for (std::size_t v = 0; v < colour.size(); ++v)
        (v < n ? cls_g : cls_h)[colour[v]].push_back(static_cast<VertexId>(v));
    const std::vector<VertexId>* target = nullptr;
    int target_colour = 0;
    for (const auto& [c, members] : cls_g)
        if (members.size() > 1 && (!target || members.size() < target->size())) target = &members, target_colour = c;
    if (!target) {
        std::vector<VertexId> image(n);
        for (const auto& [c, members] : cls_g) image[members[0]] = cls_h[c][0];
        for (std::size_t u = 0; u < n; ++u)
            for (std::size_t v = 0; v < n; ++v)
                if (dense[u][v] != dense[image[u]][image[v]]) return false;
        return true;
    }
    const int fresh = static_cast<int>(colour.size());
    for (VertexId w : cls_h[target_colour]) {
        std::vector<int> c = colour;
        c[(*target)[0]] = c[w] = fresh;
        if (isomorphic_search(adj, dense, n, std::move(c))) return true;
    }
    return false;
}

bool isomorphic_by_search(const Graph& g, const Graph& h) {
    if (g.n() != h.n() || g.m() != h.m()) return false;
    const auto adj = union_lists(g, h);
    std::vector<std::vector<char>> dense(adj.size(), std::vector<char>(adj.size(), 0));
    for (std::size_t v = 0; v < adj.size(); ++v)
        for (VertexId w : adj[v]) dense[v][w] = 1;
    return isomorphic_search(adj, dense, g.n(), std::vector<int>(adj.size(), 0));
}

/// Degrees in ascending order, from the edge list.
std::vector<std::uint32_t> sorted_degrees(const Graph& g) {
    std::vector<std::uint32_t> d(g.n(), 0);
    for (const auto& [u, v] : g.edges()) ++d[u], ++d[v];
    std::sort(d.begin(), d.end());
    return d;
}

bool is_regular_by_degrees(const Graph& g) {
    const auto d = sorted_degrees(g);
    return !d.empty() && d.front() == d.back();
}

/// Common-neighbour counts of adjacent and of non-adjacent distinct vertex pairs (each a set).
std::pair<std::set<long>, std::set<long>> common_neighbour_counts(const Graph& g) {
    const auto a = gentest::adjacency_matrix(g);
    std::set<long> adjacent, non_adjacent;
    for (std::size_t x = 0; x < a.size(); ++x)
        for (std::size_t y = x + 1; y < a.size(); ++y) {
            long c = 0;
            for (std::size_t z = 0; z < a.size(); ++z) c += a[x][z] & a[y][z];
            (a[x][y] ? adjacent : non_adjacent).insert(c);
        }
    return {adjacent, non_adjacent};
}

/// Whether some vertex is adjacent to all others and the rest is regular (a virtual node).
bool has_universal_vertex_over_regular(const Graph& g) {
    const auto a = gentest::adjacency_matrix(g);
    const std::size_t n = a.size();
    for (std::size_t v = 0; v < n; ++v) {
        if (std::count(a[v].begin(), a[v].end(), 1) != static_cast<long>(n) - 1) continue;
        std::set<long> rest;
        for (std::size_t w = 0; w < n; ++w)
            if (w != v) rest.insert(std::count(a[w].begin(), a[w].end(), 1) - 1);
        if (rest.size() == 1) return true;
    }
    return false;
}

/// Checks that hold for every generated pair, computed without the verifier.
void expect_pair_properties(const GeneratedPair& p) {
    const std::string who = p.category + " / " + p.kind + " / " + to_graph6(p.a) + " " + to_graph6(p.b);
    EXPECT_EQ(p.a.n(), p.b.n()) << who;
    EXPECT_EQ(p.a.m(), p.b.m()) << who;
    EXPECT_EQ(sorted_degrees(p.a), sorted_degrees(p.b)) << who;
    EXPECT_TRUE(refinement_equivalent(p.a, p.b)) << who;
    EXPECT_FALSE(isomorphic_by_search(p.a, p.b)) << who;
    if (p.category == "regular" || p.category == "strongly_regular") {
        EXPECT_TRUE(is_regular_by_degrees(p.a) && is_regular_by_degrees(p.b)) << who;
    }
    if (p.category == "regular") {
        EXPECT_EQ(p.kind, "regular(" + std::to_string(p.a.n()) + "," + std::to_string(sorted_degrees(p.a)[0]) + ")")
            << who;
        // Not strongly regular: adjacent or non-adjacent pairs disagree on their common neighbours
        // (or the graph is complete, where no non-adjacent pair exists).
        for (const Graph* g : {&p.a, &p.b}) {
            const auto [adj, non] = common_neighbour_counts(*g);
            EXPECT_TRUE(adj.size() > 1 || non.size() > 1) << who;
        }
    }
    if (p.category == "strongly_regular") {
        for (const Graph* g : {&p.a, &p.b}) {
            const auto [adj, non] = common_neighbour_counts(*g);
            ASSERT_EQ(adj.size(), 1u) << who;
            ASSERT_EQ(non.size(), 1u) << who;
            const long v = g->n(), k = g->degree(0), lambda = *adj.begin(), mu = *non.begin();
            // Counting the edges between N(x) and the non-neighbours of x two ways.
            EXPECT_EQ(k * (k - lambda - 1), (v - k - 1) * mu) << who;
            const std::string name = "srg(" + std::to_string(v) + "," + std::to_string(k) + "," +
                                     std::to_string(lambda) + "," + std::to_string(mu) + ")";
            EXPECT_EQ(p.kind, name) << who;
        }
    }
    if (p.category == "basic") {
        EXPECT_FALSE(is_regular_by_degrees(p.a)) << who;
        EXPECT_FALSE(is_regular_by_degrees(p.b)) << who;
    }
    if (p.kind == "virtual node (regular)" || p.kind == "C2l vs Cl,l + virtual node") {
        EXPECT_TRUE(has_universal_vertex_over_regular(p.a) && has_universal_vertex_over_regular(p.b)) << who;
    }
}

/// Invariant of a graph under relabelling, to find candidate repeats before searching.
std::vector<long> invariant_key(const Graph& g) {
    std::vector<long> key = {static_cast<long>(g.n()), static_cast<long>(g.m())};
    const auto a = gentest::adjacency_matrix(g);
    std::vector<long> triangles(g.n(), 0);
    for (const auto& [u, v] : g.edges())
        for (std::size_t w = 0; w < a.size(); ++w) triangles[w] += a[u][w] & a[v][w];
    std::sort(triangles.begin(), triangles.end());
    for (std::uint32_t d : sorted_degrees(g)) key.push_back(d);
    key.insert(key.end(), triangles.begin(), triangles.end());
    return key;
}

/// Checks that hold for every generated dataset: each pair's properties, no graph twice (up to
/// isomorphism, by the search above), and meta.json listing the pairs in order.
void expect_valid(const GeneratedDataset& d, std::uint64_t seed) {
    std::map<std::vector<long>, std::vector<std::pair<const Graph*, std::string>>> buckets;
    for (std::size_t i = 0; i < d.pairs.size(); ++i) {
        const auto& p = d.pairs[i];
        expect_pair_properties(p);
        buckets[invariant_key(p.a)].push_back({&p.a, std::to_string(i) + "a"});
        buckets[invariant_key(p.b)].push_back({&p.b, std::to_string(i) + "b"});
    }
    for (const auto& [key, graphs] : buckets)
        for (std::size_t x = 0; x < graphs.size(); ++x)
            for (std::size_t y = x + 1; y < graphs.size(); ++y)
                EXPECT_FALSE(isomorphic_by_search(*graphs[x].first, *graphs[y].first))
                    << "graph " << graphs[x].second << " repeats as " << graphs[y].second;
    EXPECT_EQ(d.meta["seed"], seed);
    EXPECT_EQ(d.meta["generator_version"], kGeneratorVersion);
    ASSERT_EQ(d.meta["pairs"].size(), d.pairs.size());
    for (std::size_t i = 0; i < d.pairs.size(); ++i) {
        EXPECT_EQ(d.meta["pairs"][i]["id"], i);
        EXPECT_EQ(d.meta["pairs"][i]["category"], d.pairs[i].category);
        EXPECT_EQ(d.meta["pairs"][i]["kind"], d.pairs[i].kind);
    }
}

TEST(IndependentChecks, TheSearchAndTheRefinementGiveKnownAnswers) {
    // The checks above must themselves be right: known isomorphic and non-isomorphic pairs.
    const Graph rook = rook_graph(4), shr = shrikhande_graph();
    Permutation perm(16);
    for (VertexId v = 0; v < 16; ++v) perm[v] = (v * 5 + 3) % 16;
    EXPECT_TRUE(isomorphic_by_search(rook, permute(rook, perm)));
    EXPECT_FALSE(isomorphic_by_search(rook, shr));  // srg(16,6,2,2): rook has K4s, Shrikhande none
    EXPECT_TRUE(refinement_equivalent(rook, shr));
    EXPECT_FALSE(isomorphic_by_search(make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3))));
    EXPECT_TRUE(refinement_equivalent(make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3))));
    EXPECT_FALSE(refinement_equivalent(make_path(4), make_graph(4, {{0, 1}, {0, 2}, {0, 3}})));
    Permutation shuffle10(10);
    for (VertexId v = 0; v < 10; ++v) shuffle10[v] = (v * 3 + 4) % 10;
    EXPECT_TRUE(isomorphic_by_search(make_petersen(), permute(make_petersen(), shuffle10)));
    // K3,3 and the prism: both cubic on 6 vertices, 1-WL-equivalent, not isomorphic.
    const Graph k33 = make_graph(6, {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}});
    const Graph prism = cartesian_product(make_cycle(3), make_complete(2));
    EXPECT_TRUE(refinement_equivalent(k33, prism));
    EXPECT_FALSE(isomorphic_by_search(k33, prism));
    EXPECT_FALSE(isomorphic_by_search(cube(), wagner()));
    EXPECT_TRUE(isomorphic_by_search(testing::cfi_graph(make_complete(4), false),
                                     permute(testing::cfi_graph(make_complete(4), false), [] {
                                         Permutation q(40);
                                         for (VertexId v = 0; v < 40; ++v) q[v] = (v * 7 + 11) % 40;
                                         return q;
                                     }())));
    EXPECT_FALSE(
        isomorphic_by_search(testing::cfi_graph(make_complete(4), false), testing::cfi_graph(make_complete(4), true)));
    const auto [adj, non] = common_neighbour_counts(rook);
    EXPECT_EQ(adj, (std::set<long>{2}));
    EXPECT_EQ(non, (std::set<long>{2}));
    EXPECT_TRUE(has_universal_vertex_over_regular(add_universal_vertex(make_cycle(7))));
    EXPECT_FALSE(has_universal_vertex_over_regular(add_universal_vertex(make_path(7))));
}

TEST(GenerateDataset, StronglyRegularPairsHaveTheirParametersAndDiffer) {
    GenerateOptions opt;
    opt.with_seed(2).with_categories({"strongly_regular"}).with_pairs(3);
    const auto d = generate(opt, 2);
    ASSERT_EQ(d.pairs.size(), 3u);
    expect_valid(d, 2);
}

TEST(GenerateDataset, SameSeedSameDatasetForAnyThreadCount) {
    GenerateOptions opt;
    opt.with_seed(17).with_categories({"regular", "cfi"}).with_pairs(12);
    opt.cfi_max_vertices = 64;
    const auto a = generate(opt, 1), b = generate(opt, 2), c = generate(opt, 1);
    ASSERT_EQ(a.pairs.size(), 12u);
    EXPECT_EQ(fingerprint(a), fingerprint(b));
    EXPECT_EQ(fingerprint(a), fingerprint(c));
    EXPECT_EQ(a.meta.dump(), b.meta.dump());
    EXPECT_EQ(a.meta.dump(), c.meta.dump());
    expect_valid(a, 17);
    opt.with_seed(18);
    const auto other = generate(opt, 2);
    EXPECT_NE(fingerprint(a), fingerprint(other));
    expect_valid(other, 18);
}

TEST(GenerateDataset, BasicAndExtensionFromASmallExhaustiveSearch) {
    GenerateOptions opt;
    opt.with_seed(3).with_categories({"basic", "extension"}).with_pairs(16);
    opt.ten_vertex_n = 8;
    const auto a = generate(opt, 2);
    expect_valid(a, 3);
    std::map<std::string, std::size_t> cats;
    for (const auto& p : a.pairs) {
        ++cats[p.category];
        if (p.category == "basic") {
            EXPECT_EQ(p.a.n(), 8u);
            EXPECT_TRUE(is_connected(p.a) && is_connected(p.b));
        }
        if (p.kind == "S3" || p.kind == "N1" || p.kind == "S4") {
            // The pair stays 1-WL- and ext-equivalent but 2-FWL separates it (BREC's extension
            // rule).
            EXPECT_TRUE(gentest::separates("2fwl", p.a, p.b)) << p.kind;
        }
    }
    EXPECT_EQ(cats["basic"] + cats["extension"], 16u);
    std::map<std::string, std::size_t> kinds;
    for (const auto& p : a.pairs) ++kinds[p.kind];
    EXPECT_GT(kinds["S3"], 0u);
    EXPECT_GT(cats["basic"], 0u);
    EXPECT_GT(cats["extension"], 0u);
    EXPECT_EQ(fingerprint(generate(opt, 1)), fingerprint(a));
}

TEST(GenerateDataset, CategoryThatCannotSupplyTheCountSaysHowManyExist) {
    // Connected k-regular graphs on 6..10 vertices with 3 <= k <= n-2, without the strongly regular
    // ones, per (n,k): (7,4) 2, (8,3) 5, (8,4) 5, (8,5) 3, (9,4) 15, (9,6) 3, (10,3) 18, (10,4) 59,
    // (10,5) 59, (10,6) 20, (10,7) 5, others 0 or 1 (counts of regular graphs: OEIS A002851,
    // A006820, A006821; the srg removed are K3,3, the octahedron, K4,4, Paley(9), K3,3,3, Petersen,
    // K5,5, T(5), ...): 1+2+2+1+7+1+9+29+29+10+2 = 93 disjoint pairs.
    GenerateOptions opt;
    opt.with_categories({"regular"}).with_pairs(94);
    try {
        generate(opt, 2);
        FAIL();
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("at most 93"), std::string::npos) << e.what();
    }
    opt.with_pairs(93);
    const auto all = generate(opt, 2);
    EXPECT_EQ(all.pairs.size(), 93u);
    expect_valid(all, 0);
}

/// generate_dataset must throw "cancelled" when the context is cancelled as `category` starts.
void expect_cancelled_during(const std::string& category, GenerateOptions opt) {
    RunContext ctx;
    ctx.set_threads(2);
    bool cancelled = false;
    ctx.set_log([&](LogLevel, const std::string& msg) {
        if (msg == "generating " + category + " ...") {
            ctx.cancel();
            cancelled = true;
        }
    });
    try {
        generate_dataset(opt, ctx);
        ADD_FAILURE() << category << ": a cancelled run completed";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "cancelled") << category;
    }
    EXPECT_TRUE(cancelled) << category << " never started";
}

TEST(GenerateDataset, ACancelledRunStopsWithAnError) {
    GenerateOptions opt;
    opt.with_categories({"regular", "cfi"}).with_pairs(6);
    opt.cfi_max_vertices = 64;
    expect_cancelled_during("cfi", opt);  // in the WL comparisons, after regular finished
    GenerateOptions ten;
    ten.with_categories({"basic"}).with_pairs(2);
    ten.ten_vertex_n = 8;
    expect_cancelled_during("basic", ten);  // inside the geng stream of the exhaustive search
    GenerateOptions srg;
    srg.with_categories({"strongly_regular"}).with_pairs(3);
    expect_cancelled_during("strongly_regular", srg);
    GenerateOptions dr;
    dr.with_categories({"distance_regular"}).with_pairs(6);
    expect_cancelled_during("distance_regular", dr);
}

TEST(GenerateDataset, CfiPairsCarryTheirCertifiedHardness) {
    GenerateOptions opt;
    opt.with_seed(5).with_categories({"cfi"}).with_pairs(10);
    opt.cfi_max_vertices = 100;      // K5 (80) and the Petersen graph (100) are the smallest tw-4 bases
    opt.cfi_fwl3_max_vertices = 64;  // larger pairs are labelled by theory (the full run is in gen_slow)
    const auto d = generate(opt, 2);
    ASSERT_EQ(d.pairs.size(), 10u);
    std::map<std::string, std::size_t> kinds;
    for (const auto& p : d.pairs) {
        ++kinds[p.kind];
        const Graph base = parse_graph6(p.params.at("base").get<std::string>());
        const std::uint32_t tw = treewidth(base);
        EXPECT_EQ(p.params.at("treewidth"), tw);
        EXPECT_EQ(p.kind, tw <= 2 ? "tw=2" : tw == 3 ? "tw=3" : "tw>=4");
        EXPECT_EQ(cfi_size(base), p.a.n());
        EXPECT_LE(p.a.n(), 100u);
        // The untwisted and twisted graphs over the recorded base (independent rebuild).
        EXPECT_TRUE(are_isomorphic(p.a, testing::cfi_graph(base, false)));
        EXPECT_TRUE(are_isomorphic(p.b, testing::cfi_graph(base, true)));
        const std::string want = tw <= 2 ? "3-WL (2-FWL)" : tw == 3 ? "4-WL (3-FWL)" : "beyond 4-WL";
        EXPECT_EQ(p.params.at("hardness"), want) << to_graph6(base);
        const bool fwl2 = gentest::separates("2fwl", p.a, p.b);
        EXPECT_EQ(fwl2, tw <= 2);
        const std::string source = p.params.at("hardness_source");
        const bool computed3 = source.find("3-FWL computed") != std::string::npos;
        EXPECT_EQ(computed3, !fwl2 && p.a.n() <= 64) << source;
        if (!fwl2 && p.a.n() <= 64) {
            EXPECT_EQ(gentest::separates("3fwl", p.a, p.b), tw <= 3);
        }
        if (!fwl2 && p.a.n() > 64) {
            EXPECT_NE(source.find("CFI theory"), std::string::npos) << source;
        }
    }
    // The default 60/20/20 mix, scaled to 10 pairs.
    EXPECT_EQ(kinds["tw=2"], 6u);
    EXPECT_EQ(kinds["tw=3"], 2u);
    EXPECT_EQ(kinds["tw>=4"], 2u);
}

}  // namespace
}  // namespace brec
