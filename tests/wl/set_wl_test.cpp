// (k, c)(≤)-SetWL ("setwl:K:C"): a slow reference written from the definition, relabelling
// invariance, the relations to 1-WL, 2-WL, 3-WL and between (k, c) that are theorems, and hand-
// checked separations.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pairs.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"
#include "common/wl_testing.hpp"

namespace brec {
namespace {

using testing::separates;
using testing::two_triangles;
using testing::with_labels;

std::string set_method(int k, int c) { return "setwl:" + std::to_string(k) + ":" + std::to_string(c); }

/// Number of connected components of the subgraph induced by the vertex set `mask`.
int components(const Graph& g, std::uint32_t mask) {
    int count = 0;
    std::uint32_t left = mask;
    while (left) {
        ++count;
        std::vector<VertexId> stack{static_cast<VertexId>(__builtin_ctz(left))};
        left &= ~(1u << stack.back());
        while (!stack.empty()) {
            const VertexId v = stack.back();
            stack.pop_back();
            for (VertexId w : g.neighbors(v))
                if (left & (1u << w)) {
                    left &= ~(1u << w);
                    stack.push_back(w);
                }
        }
    }
    return count;
}

/// The reference: every vertex set of a graph (n <= 16) as a bitmask with its colour in a
/// std::map; the initial colour is the isomorphism type found by trying every ordering of the set
/// (the smallest (labels, adjacency bits) word); super- and subsets by adding or removing one
/// vertex; one std::map palette for both graphs; histograms compared after every round.
testing::ReferenceOutcome reference(const Graph& g, const Graph& h, int k, int c, int max_rounds = -1) {
    using Colour = long;
    const Graph* graphs[2] = {&g, &h};
    std::map<std::uint32_t, Colour> colour[2];
    std::map<std::vector<long>, Colour> first_palette;
    for (int s = 0; s < 2; ++s) {
        const Graph& x = *graphs[s];
        for (std::uint32_t mask = 1; mask < (1u << x.n()); ++mask) {
            if (__builtin_popcount(mask) > k || components(x, mask) > c) continue;
            std::vector<VertexId> members;
            for (VertexId v = 0; v < x.n(); ++v)
                if (mask & (1u << v)) members.push_back(v);
            std::vector<long> best;
            do {
                std::vector<long> word;
                for (VertexId v : members) word.push_back(x.node_label(v));
                for (std::size_t i = 0; i < members.size(); ++i)
                    for (std::size_t j = i + 1; j < members.size(); ++j)
                        word.push_back(x.has_edge(members[i], members[j]) ? 1 : 0);
                if (best.empty() || word < best) best = word;
            } while (std::next_permutation(members.begin(), members.end()));
            best.insert(best.begin(), static_cast<long>(members.size()));
            colour[s][mask] = first_palette.emplace(best, first_palette.size()).first->second;
        }
    }
    return testing::reference_rounds(colour, first_palette.size(), max_rounds, [&](auto& next) {
        using Signature = std::tuple<Colour, std::vector<Colour>, std::vector<Colour>>;
        std::map<Signature, Colour> palette;
        for (int s = 0; s < 2; ++s) {
            const auto& col = colour[s];
            for (const auto& [mask, own] : col) {
                std::vector<Colour> up, down;
                for (VertexId w = 0; w < graphs[s]->n(); ++w) {
                    const auto it = col.find(mask ^ (1u << w));  // S ∪ {w} or S \ {w}, if a set
                    if (it == col.end()) continue;
                    ((mask & (1u << w)) ? down : up).push_back(it->second);
                }
                std::sort(up.begin(), up.end());
                std::sort(down.begin(), down.end());
                next[s][mask] = palette.emplace(Signature{own, up, down}, palette.size()).first->second;
            }
        }
        return palette.size();
    });
}

/// Small random pairs of several kinds (testing::random_small_pair), with sparse G(n, 0.3) graphs
/// against a relabelling.
std::pair<Graph, Graph> random_pair(Rng& rng, int trial) { return testing::random_small_pair(rng, trial, 0.3); }

const std::pair<int, int> kAllKc[] = {{1, 1}, {2, 1}, {2, 2}, {3, 1}, {3, 2}, {3, 3}};

TEST(SetWl, TinyCases) {
    for (const auto& [k, c] : kAllKc) {
        const std::string m = set_method(k, c);
        EXPECT_FALSE(separates(m, Graph(), Graph())) << m;
        EXPECT_FALSE(separates(m, make_complete(1), make_complete(1))) << m;
        EXPECT_TRUE(separates(m, make_complete(1), make_complete(2))) << m;
    }
    // Only single vertices: nothing but the number of vertices and their labels.
    EXPECT_FALSE(separates("setwl:1:1", make_path(4), make_cycle(4)));
    const Graph a = with_labels(make_path(2), {0, 1}), b = with_labels(make_path(2), {1, 1});
    EXPECT_TRUE(separates("setwl:1:1", a, b));
    WlOptions unlabelled(WlMethod::parse("setwl:3:2"));
    unlabelled.use_node_labels = false;
    EXPECT_FALSE(compare_pair(a, b, unlabelled).distinguished);
    EXPECT_THROW(WlMethod::parse("setwl:2:3"), InvalidArgument);
    EXPECT_THROW(WlMethod::parse("setwl:4:2"), InvalidArgument);
}

// C6 against two triangles. A triangle is a connected 3-set, so every k = 3 variant sees it in the
// initial histogram (round 0): C6 has no triangle, and its 6 connected triples are paths, while
// two triangles have 2 connected triples, both triangles. With k = 2 the sets are vertices and
// pairs, and (2, c)-SetWL ⪯ 2-WL ≡ 1-WL (see HierarchyOnRandomPairs), which cannot separate them.
TEST(SetWl, C6AgainstTwoTriangles) {
    for (int c = 1; c <= 3; ++c) {
        const auto r = compare_pair(make_cycle(6), two_triangles(), WlOptions(WlMethod::parse(set_method(3, c))));
        EXPECT_TRUE(r.distinguished) << c;
        EXPECT_EQ(r.rounds, 0) << c;
    }
    EXPECT_FALSE(separates("setwl:2:1", make_cycle(6), two_triangles()));
    EXPECT_FALSE(separates("setwl:2:2", make_cycle(6), two_triangles()));
}

// The 4x4 rook's graph and the Shrikhande graph are both srg(16, 6, 2, 2), which 2-FWL (≡ 3-WL)
// cannot separate; (3, c)-SetWL ⪯ 3-WL, so no (3, c) variant can.
TEST(SetWl, CannotSeparateRookFromShrikhande) {
    ASSERT_FALSE(separates("3wl", testing::rook_4x4(), testing::shrikhande()));
    for (int c = 1; c <= 3; ++c)
        EXPECT_FALSE(separates(set_method(3, c), testing::rook_4x4(), testing::shrikhande())) << c;
}

TEST(SetWl, AgreesWithTheReferenceOnRandomSmallPairs) {
    Rng rng(13);
    int distinguished = 0, not_distinguished = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const auto [g, h] = random_pair(rng, trial);
        // Until stable, and cut after 0 rounds (the initial colours alone) and after 1 or 2.
        for (const int limit : {-1, 0, 1 + trial % 2})
            for (const auto& [k, c] : kAllKc) {
                const std::string m = set_method(k, c);
                const auto want = reference(g, h, k, c, limit);
                const WlResult got = compare_pair(g, h, WlOptions(WlMethod::parse(m)).rounds(limit));
                testing::expect_same_outcome(got, want,
                                             m + " trial " + std::to_string(trial) + " limit " + std::to_string(limit));
                if (limit < 0) (want.distinguished ? distinguished : not_distinguished)++;
            }
    }
    EXPECT_GT(distinguished, 100);
    EXPECT_GT(not_distinguished, 100);
}

// Relations that are theorems, checked as implications:
// * (k, c) ⪯ (k, c + 1) and (k, c) ⪯ (k + 1, c) (Zhao et al. 2022, the hierarchy's monotonicity):
//   every colour keeps the set's size and component count, so the larger family's colours, with
//   the neighbours outside the smaller family filtered out, determine the smaller family's colours
//   round by round.
// * 1-WL ⪯ (2, 1): a vertex's colour after 2t rounds determines its 1-WL colour after t rounds,
//   through the edges (2-sets) it lies in, which see both end points.
// * (2, c) ⪯ 2-WL and (3, c) ⪯ 3-WL (oblivious k-WL): write a set S as the k-tuples over S with
//   repeats; adding w replaces a repeated position by w, removing v replaces v by another element
//   of S, and the tuple's atomic type tells which replacements these are (and, through adjacency,
//   whether the result has at most c components). So the k-WL colour of any tuple over S after t
//   rounds determines S's SetWL colour after t rounds, and each set has the same number of tuples.
//   2-WL ≡ 1-WL, so (2, c)-SetWL never separates a 1-WL-equivalent pair.
TEST(SetWl, HierarchyOnRandomPairs) {
    Rng rng(17);
    int missed_by_1wl = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const auto [g, h] = random_pair(rng, trial);
        std::map<std::pair<int, int>, bool> sep;
        for (const auto& kc : kAllKc) sep[kc] = separates(set_method(kc.first, kc.second), g, h);
        for (const auto& [kc, s] : sep) {
            if (!s) continue;
            const auto [k, c] = kc;
            if (c < k) {
                EXPECT_TRUE((sep[{k, c + 1}])) << set_method(k, c) << " trial " << trial;
            }
            if (k < 3) {
                EXPECT_TRUE((sep[{k + 1, c}])) << set_method(k, c) << " trial " << trial;
            }
            if (k >= 2) {
                EXPECT_TRUE(separates(std::to_string(k) + "wl", g, h)) << set_method(k, c) << " trial " << trial;
            }
        }
        const bool wl1 = separates("1wl", g, h);
        if (wl1) {
            EXPECT_TRUE((sep[{2, 1}])) << "trial " << trial;
        }
        missed_by_1wl += sep[{3, 1}] && !wl1;
    }
    EXPECT_GT(missed_by_1wl, 10);  // the k = 3 implications are exercised beyond 1-WL
}

// The same on every eighth BREC pair (all categories): 3-WL as 2-FWL (3-WL ≡ 2-FWL), (3, 3) on
// the graphs of at most 40 vertices (all C(n, 3) triples are sets there).
TEST(SetWl, HierarchyOnBrecPairs) {
    const auto pairs = testing::read_brec_v3().pairs;
    ASSERT_EQ(pairs.size(), 400u);
    int separated = 0;
    for (const auto& p : pairs) {
        if (p.id % 8 != 5) continue;
        EXPECT_FALSE(separates("setwl:2:2", p.a, p.b)) << "pair " << p.id;  // BREC pairs are 1-WL-equivalent
        const bool s31 = separates("setwl:3:1", p.a, p.b), s32 = separates("setwl:3:2", p.a, p.b);
        if (s31) {
            EXPECT_TRUE(s32) << "pair " << p.id;
        }
        if (s32) {
            EXPECT_TRUE(separates("2fwl", p.a, p.b)) << "pair " << p.id;
        }
        if (s32 && p.a.n() <= 40) {
            EXPECT_TRUE(separates("setwl:3:3", p.a, p.b)) << "pair " << p.id;
        }
        separated += s32;
    }
    EXPECT_GT(separated, 20);
}

TEST(SetWl, NeverSeparatesARelabelling) {
    Rng rng(19);
    for (int trial = 0; trial < 30; ++trial) {
        const auto [g, unused] = random_pair(rng, trial);
        const Graph h = permute(g, rng.permutation(g.n()));
        for (const auto& [k, c] : kAllKc) EXPECT_FALSE(separates(set_method(k, c), g, h)) << "trial " << trial;
    }
    // 20 pairs across all categories.
    for (const auto& r : testing::brec_relabellings(rng, testing::PairSide::b, 20, 7)) {
        EXPECT_FALSE(separates("setwl:3:2", r.graph, r.relabelled)) << "pair " << r.id;
        EXPECT_FALSE(separates("setwl:3:1", r.graph, r.relabelled)) << "pair " << r.id;
    }
}

TEST(SetWl, RefusesSetFamiliesBeyondTheMemoryLimit) {
    // All C(3000, 3) ≈ 4.5e9 triples are sets with c = 3; the check comes before any allocation.
    const Graph big = make_path(3000);
    const std::string msg = testing::error_of([&] { separates("setwl:3:3", big, big); });
    EXPECT_NE(msg.find("setwl:3:3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("MiB"), std::string::npos) << msg;
    EXPECT_THROW(separates("setwl:3:3", big, big), ResourceLimit);
}

}  // namespace
}  // namespace brec
