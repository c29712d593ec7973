// The subgraph WL family (Zhang et al., ICML 2023) and LFWL(2) / SLFWL(2): a slow reference
// written from the paper's definitions agrees with the engine; the strict hierarchy
// SWL(VS) ⪯ SWL(SV) ⪯ PSWL(VS) ⪯ PSWL(SV) ⪯ GSWL ⪯ SSWL ⪯ LFWL(2) ⪯ SLFWL(2) ⪯ 2-FWL holds pair by
// pair; a finite radius never beats r = ∞; no test separates a graph from a relabeling of itself.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pairs.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"
#include "common/wl_testing.hpp"

namespace brec {
namespace {

using testing::separates;

/// The order of the six classes (node marking, r = ∞) that holds pair by pair on every BREC pair
/// and every test graph below, weakest first, closed by SSWL ⪯ SLFWL(2) ⪯ 2-FWL. LFWL(2) sits
/// apart: above SWL(VS) and below SLFWL(2). PSWL(VS) comes before SWL(SV): BREC pair 282 is
/// separated by SWL(SV) and not by PSWL(VS) (the slow reference agrees), so the order
/// "SWL(SV) ⪯ PSWL(VS)" does not hold for the aggregations and poolings as defined here.
const std::vector<std::string>& chain() {
    static const std::vector<std::string> kChain = {"swl-vs", "pswl-vs", "swl-sv", "pswl-sv",
                                                    "gswl",   "sswl",    "slfwl",  "2fwl"};
    return kChain;
}

// ---- A reference implementation, straight from the definitions -------------------------------

struct RefDesign {
    bool point_vv = false, global_v = false, local_v = false, folklore = false, symmetric = false, pool_sv = false;
    int radius = -1;
    bool induced = false, hop = false;
};

RefDesign ref_design(const std::string& name) {
    const WlMethod m = WlMethod::parse(name);
    RefDesign d;
    d.radius = m.radius;
    d.induced = m.induced;
    d.hop = m.hop;
    const std::string head = name.substr(0, name.find(':'));
    d.pool_sv = head == "swl-sv" || head == "pswl-sv";
    d.point_vv = head == "pswl-vs" || head == "pswl-sv";
    d.global_v = head == "gswl";
    d.local_v = head == "sswl";
    d.folklore = head == "lfwl" || head == "slfwl";
    d.symmetric = head == "slfwl";
    return d;
}

/// Floyd-Warshall distances (-1: unreachable).
std::vector<std::vector<int>> distances(const Graph& g) {
    const int n = static_cast<int>(g.n()), inf = 1 << 20;
    std::vector<std::vector<int>> d(n, std::vector<int>(n, inf));
    for (int v = 0; v < n; ++v) d[v][v] = 0;
    for (const auto& [a, b] : g.edges()) d[a][b] = d[b][a] = 1;
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
    for (auto& row : d)
        for (int& x : row)
            if (x >= inf) x = -1;
    return d;
}

/// The graph's pooled colour under the reference, with colours named by a palette shared by all
/// graphs given to the same `palette`: n² + 1 rounds (more than any refinement of n² pairs needs).
using Signature = std::vector<std::vector<long>>;

std::vector<std::vector<long>> reference_pool(const std::vector<const Graph*>& graphs, const RefDesign& d,
                                              std::vector<std::vector<std::vector<long>>>& colour) {
    const std::size_t count = graphs.size();
    std::vector<std::vector<std::vector<int>>> dist(count);
    std::vector<std::vector<std::vector<bool>>> exists(count);
    const auto in_ball = [&](int x) { return x >= 0 && (d.radius < 0 || x <= d.radius); };
    for (std::size_t s = 0; s < count; ++s) {
        const int n = static_cast<int>(graphs[s]->n());
        dist[s] = distances(*graphs[s]);
        exists[s].assign(n, std::vector<bool>(n, true));
        for (int u = 0; u < n; ++u)
            for (int v = 0; v < n; ++v)
                if (d.radius >= 0 && d.induced) exists[s][u][v] = in_ball(dist[s][u][v]);
        colour[s].assign(n, std::vector<long>(n, -1));
        for (int u = 0; u < n; ++u)
            for (int v = 0; v < n; ++v) {
                if (!exists[s][u][v]) continue;
                if (d.folklore)
                    colour[s][u][v] = u == v ? 0 : graphs[s]->has_edge(u, v) ? 1 : 2;
                else
                    colour[s][u][v] = (u == v ? 1 : 0) + 2 * (d.hop && in_ball(dist[s][u][v]) ? dist[s][u][v] + 1 : 0);
            }
    }
    // Until the palette stops growing: each round's colour carries the previous one, so equal
    // counts mean an unchanged partition.
    for (std::size_t previous = 0;;) {
        std::map<Signature, long> palette;
        std::vector<std::vector<std::vector<Signature>>> sig(count);
        for (std::size_t s = 0; s < count; ++s) {
            const Graph& g = *graphs[s];
            const int n = static_cast<int>(g.n());
            auto& c = colour[s];
            const auto edge_in = [&](int u, int a, int b) {
                return d.radius < 0 || (in_ball(dist[s][u][a]) && in_ball(dist[s][u][b]));
            };
            sig[s].assign(n, std::vector<Signature>(n));
            for (int u = 0; u < n; ++u)
                for (int v = 0; v < n; ++v) {
                    if (!exists[s][u][v]) continue;
                    Signature x{{c[u][v]}};
                    if (d.point_vv) x.push_back({c[v][v]});
                    if (d.global_v) {
                        std::vector<long> m;
                        for (int w = 0; w < n; ++w)
                            if (exists[s][w][v]) m.push_back(c[w][v]);
                        std::sort(m.begin(), m.end());
                        x.push_back(m);
                    }
                    std::vector<long> local;
                    if (d.folklore) {
                        for (int w = 0; w < n; ++w) {
                            const bool adjacent = g.has_edge(v, w) || (d.symmetric && g.has_edge(u, w));
                            if (adjacent) local.push_back(c[u][w] * 1000003 + c[w][v]);
                        }
                    } else {
                        for (int w = 0; w < n; ++w)
                            if (g.has_edge(v, w) && exists[s][u][w] && edge_in(u, v, w)) local.push_back(c[u][w]);
                    }
                    std::sort(local.begin(), local.end());
                    x.push_back(local);
                    if (d.local_v) {
                        std::vector<long> across;
                        for (int w = 0; w < n; ++w)
                            if (g.has_edge(u, w) && exists[s][w][v]) across.push_back(c[w][v]);
                        std::sort(across.begin(), across.end());
                        x.push_back(across);
                    }
                    sig[s][u][v] = x;
                    palette.emplace(x, 0);
                }
        }
        long next = 0;
        for (auto& [key, id] : palette) id = next++;
        for (std::size_t s = 0; s < count; ++s)
            for (std::size_t u = 0; u < graphs[s]->n(); ++u)
                for (std::size_t v = 0; v < graphs[s]->n(); ++v)
                    if (exists[s][u][v]) colour[s][u][v] = palette.at(sig[s][u][v]);
        if (palette.size() == previous) break;
        previous = palette.size();
    }
    // Pooling: the multiset over subgraphs (VS) or vertices (SV) of the inner multisets.
    std::vector<std::vector<long>> pooled(count);
    for (std::size_t s = 0; s < count; ++s) {
        const int n = static_cast<int>(graphs[s]->n());
        std::vector<std::vector<long>> inner(n);
        for (int a = 0; a < n; ++a) {
            for (int b = 0; b < n; ++b) {
                const int u = d.pool_sv ? b : a, v = d.pool_sv ? a : b;
                if (exists[s][u][v]) inner[a].push_back(colour[s][u][v]);
            }
            std::sort(inner[a].begin(), inner[a].end());
        }
        std::sort(inner.begin(), inner.end());
        for (const auto& row : inner) {
            pooled[s].push_back(-1 - static_cast<long>(row.size()));
            pooled[s].insert(pooled[s].end(), row.begin(), row.end());
        }
    }
    return pooled;
}

bool reference_separates(const std::string& name, const Graph& g, const Graph& h) {
    std::vector<std::vector<std::vector<long>>> colour(2);
    const auto pooled = reference_pool({&g, &h}, ref_design(name), colour);
    return pooled[0] != pooled[1];
}

// ---- Tests --------------------------------------------------------------------------------------

TEST(SubgraphWlNames, ParseAndName) {
    EXPECT_EQ(WlMethod::parse("gswl:6").radius, 6);
    EXPECT_EQ(WlMethod::parse("gswl").radius, -1);
    EXPECT_TRUE(WlMethod::parse("gswl:6:ego:hop").induced);
    EXPECT_TRUE(WlMethod::parse("gswl:6:ego:hop").hop);
    EXPECT_EQ(WlMethod::parse("SSWL").swl, SwlClass::sswl);
    for (const char* m :
         {"swl-vs", "swl-sv:3", "pswl-vs:2:ego", "pswl-sv:1:hop", "gswl:6:ego:hop", "sswl", "lfwl", "slfwl", "ngnn:1",
          "de-ngnn:8", "i2:8", "drop1", "gsn-e:3", "gsn-e:4", "kp:8", "d2lwl", "d2lwl+", "setwl:3:2"})
        EXPECT_EQ(WlMethod::parse(m).name(), m);
    for (const char* bad :
         {"gswl:x", "gswl:6:6", "lfwl:3", "ngnn", "kp", "setwl:4:2", "setwl:2:3", "gsn-e:5", "gswl:ego:ego", "drop1:2"})
        EXPECT_THROW(WlMethod::parse(bad), InvalidArgument) << bad;
}

TEST(SubgraphWl, AgreesWithTheDefinitionOnSmallGraphs) {
    Rng rng(7);
    // Pairs of every kind: 1-WL-equivalent unions of cycles (C_{n+1} against C3 + C_{n-2}, two C4
    // against C8, which a radius of 1 cannot tell apart), the 2-FWL-equivalent rook and Shrikhande
    // graphs, random regular pairs and random graphs.
    std::vector<std::pair<Graph, Graph>> pairs = {
        {disjoint_union(make_cycle(4), make_cycle(4)), make_cycle(8)},
        {testing::rook_4x4(), testing::shrikhande()},
    };
    for (VertexId n = 5; n <= 7; ++n)
        pairs.push_back({make_cycle(n + 1), disjoint_union(make_cycle(3), make_cycle(n - 2))});
    for (int trial = 0; trial < 12; ++trial)
        pairs.push_back({testing::random_regular(8, 3, rng), testing::random_regular(8, 3, rng)});
    for (int trial = 0; trial < 12; ++trial) {
        const VertexId n = 5 + static_cast<VertexId>(trial % 3);
        pairs.push_back({testing::random_graph(n, 0.45, rng), testing::random_graph(n, 0.45, rng)});
    }
    const std::vector<std::string> variants = {
        "swl-vs", "swl-sv",   "pswl-vs",    "pswl-sv",           "gswl",        "sswl", "lfwl", "slfwl", "gswl:1",
        "sswl:1", "swl-vs:1", "gswl:1:ego", "pswl-sv:1:ego:hop", "swl-sv:2:hop"};
    int separated = 0, total = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const auto& [g, h] = pairs[i];
        for (const auto& m : variants) {
            const bool fast = separates(m, g, h);
            EXPECT_EQ(fast, reference_separates(m, g, h)) << m << " pair " << i;
            separated += fast;
            ++total;
        }
    }
    // The cross-check is only worth something when both answers occur.
    EXPECT_GT(separated, 0);
    EXPECT_LT(separated, total);
}

TEST(SubgraphWl, NoTestSeparatesARelabeling) {
    Rng rng(11);
    for (int trial = 0; trial < 6; ++trial) {
        const Graph g = trial % 2 ? testing::random_regular(12, 3, rng) : testing::random_graph(11, 0.3, rng);
        const Graph h = permute(g, rng.permutation(g.n()));
        for (const auto& m : chain()) EXPECT_FALSE(separates(m, g, h)) << m;
        for (const char* m : {"gswl:2:ego:hop", "swl-vs:1", "sswl:2"}) EXPECT_FALSE(separates(m, g, h)) << m;
    }
    for (const auto& r : testing::brec_relabellings(rng, testing::PairSide::b, 40, 13, 40))
        for (const char* m : {"swl-vs:6", "gswl:6:ego:hop", "sswl", "slfwl"})
            EXPECT_FALSE(separates(m, r.graph, r.relabelled)) << m << " pair " << r.id;
}

/// Which tests of the chain separate (g, h), in chain order, then LFWL(2).
std::vector<bool> chain_verdicts(const Graph& g, const Graph& h) {
    std::vector<bool> out;
    for (const auto& m : chain()) out.push_back(separates(m, g, h));
    out.push_back(separates("lfwl", g, h));
    return out;
}

void expect_hierarchy(const std::vector<bool>& v, const std::string& what) {
    const std::size_t n = chain().size();
    for (std::size_t i = 1; i < n; ++i)
        EXPECT_TRUE(!v[i - 1] || v[i]) << what << ": " << chain()[i - 1] << " separates, " << chain()[i] << " not";
    const bool lfwl = v[n];
    EXPECT_TRUE(!v[0] || lfwl) << what << ": swl-vs separates, lfwl not";
    EXPECT_TRUE(!lfwl || v[n - 2]) << what << ": lfwl separates, slfwl not";
}

// The paper's proofs assume connected graphs; every pair below is connected.
TEST(SubgraphWlHierarchy, HoldsOnSmallRegularPairs) {
    Rng rng(5);
    int checked = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const VertexId n = 8 + 2 * static_cast<VertexId>(trial % 3);
        const Graph g = testing::random_regular(n, 3, rng), h = testing::random_regular(n, 3, rng);
        if (!is_connected(g) || !is_connected(h)) continue;
        expect_hierarchy(chain_verdicts(g, h), "regular pair " + std::to_string(trial));
        ++checked;
    }
    EXPECT_GT(checked, 20);
}

// A quarter of the connected BREC pairs up to 80 vertices (the whole benchmark is the slow suite's).
TEST(SubgraphWlHierarchy, HoldsOnConnectedBrecPairs) {
    const auto ds = testing::read_brec_v3();
    int checked = 0;
    for (const auto& p : ds.pairs) {
        if (p.id % 4 != 2 || p.a.n() > 80 || !is_connected(p.a) || !is_connected(p.b)) continue;
        expect_hierarchy(chain_verdicts(p.a, p.b), "pair " + std::to_string(p.id));
        ++checked;
    }
    EXPECT_GT(checked, 80);
}

// The 4x4 rook's graph and the Shrikhande graph are 2-FWL-equivalent (both srg(16,6,2,2)), so no
// test of the chain may separate them.
TEST(SubgraphWlHierarchy, RookAndShrikhandeStayTogether) {
    for (const auto& m : chain()) EXPECT_FALSE(separates(m, testing::rook_4x4(), testing::shrikhande())) << m;
    EXPECT_FALSE(separates("lfwl", testing::rook_4x4(), testing::shrikhande()));
}

const GraphPairRecord& brec_pair(const PairDataset& ds, PairId id) {
    for (const auto& p : ds.pairs)
        if (p.id == id) return p;
    throw InvalidArgument("no pair " + std::to_string(id));
}

// Strict steps on connected BREC CFI pairs, found by running the chain over all 400 pairs: the
// weaker test does not separate the pair, the stronger one does. SWL(SV) < PSWL(SV) separates no
// BREC pair; a CFI pair over an 8-vertex base does (below). PSWL(SV) < GSWL and SSWL < SLFWL(2)
// separate no BREC pair, nor any CFI pair over a connected base graph of 3 to 8 vertices with
// degrees 2 to 4 (1,115 pairs).
TEST(SubgraphWlHierarchy, StrictSteps) {
    const auto ds = testing::read_brec_v3();
    const std::vector<std::tuple<std::string, std::string, PairId>> steps = {{"swl-vs", "pswl-vs", 273},
                                                                             {"pswl-vs", "swl-sv", 282},
                                                                             {"gswl", "sswl", 262},
                                                                             {"slfwl", "2fwl", 276},
                                                                             {"lfwl", "slfwl", 262}};
    for (const auto& [weaker, stronger, id] : steps) {
        const GraphPairRecord& p = brec_pair(ds, id);
        ASSERT_TRUE(is_connected(p.a) && is_connected(p.b)) << id;
        EXPECT_FALSE(separates(weaker, p.a, p.b)) << weaker << " on pair " << id;
        EXPECT_TRUE(separates(stronger, p.a, p.b)) << stronger << " on pair " << id;
    }
    // SWL(SV) < PSWL(SV): the CFI pair (76 vertices) over the 8-vertex base graph6 "GCOetg", found
    // by running both over the CFI pairs of all connected 8-vertex graphs with degrees 2 to 4.
    const Graph base =
        make_graph(8, {{0, 3}, {1, 4}, {2, 5}, {0, 6}, {1, 6}, {3, 6}, {4, 6}, {0, 7}, {2, 7}, {3, 7}, {5, 7}});
    const Graph plain = testing::cfi_graph(base, false), twisted = testing::cfi_graph(base, true);
    EXPECT_FALSE(separates("swl-sv", plain, twisted));
    EXPECT_TRUE(separates("pswl-sv", plain, twisted));
    // Pair 282 is where the order differs from "SWL(SV) ⪯ PSWL(VS)"; the reference agrees.
    const GraphPairRecord& p = brec_pair(ds, 282);
    EXPECT_TRUE(reference_separates("swl-sv", p.a, p.b));
    EXPECT_FALSE(reference_separates("pswl-vs", p.a, p.b));
}

// A finite radius never beats r = ∞: what swl:R separates, swl separates.
TEST(SubgraphWlHierarchy, FiniteRadiusNeverBeatsTheWholeGraph) {
    const auto ds = testing::read_brec_v3();
    for (const auto& p : ds.pairs) {
        if (p.id % 10 != 3 || p.a.n() > 40) continue;
        for (const char* family : {"swl-vs", "pswl-sv", "gswl", "sswl"}) {
            const bool whole = separates(family, p.a, p.b);
            for (const std::string suffix : {":1", ":2", ":2:ego", ":2:ego:hop", ":3:hop"}) {
                const std::string m = family + suffix;
                EXPECT_TRUE(whole || !separates(m, p.a, p.b)) << m << " beats " << family << " on pair " << p.id;
            }
        }
    }
}

}  // namespace
}  // namespace brec
