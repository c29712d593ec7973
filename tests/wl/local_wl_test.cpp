// δ-2-LWL and δ-2-LWL+ ("d2lwl", "d2lwl+"): a slow reference written from the definitions,
// relabelling invariance, the relations to 1-WL, δ-2-WL and 2-FWL that are theorems, and hand-
// checked separations.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
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

enum class PairTest {
    local,       ///< δ-2-LWL
    local_plus,  ///< δ-2-LWL+
    global,      ///< δ-2-WL: all n replacements per position, each with its local/global flag
};

/// The reference: every ordered pair's colour in a std::map, every signature an explicit tuple of
/// sorted vectors, one std::map palette for both graphs, histograms compared after every round.
testing::ReferenceOutcome reference(const Graph& g, const Graph& h, PairTest test, int max_rounds = -1) {
    using Colour = long;
    using Pair = std::pair<VertexId, VertexId>;
    const Graph* graphs[2] = {&g, &h};
    std::map<Pair, Colour> colour[2];
    std::map<std::tuple<int, Label, Label>, Colour> first_palette;
    for (int s = 0; s < 2; ++s) {
        const Graph& x = *graphs[s];
        for (VertexId v = 0; v < x.n(); ++v)
            for (VertexId w = 0; w < x.n(); ++w) {
                const int type = v == w ? 0 : x.has_edge(v, w) ? 1 : 2;
                const auto key = std::make_tuple(type, x.node_label(v), x.node_label(w));
                colour[s][{v, w}] = first_palette.emplace(key, first_palette.size()).first->second;
            }
    }
    return testing::reference_rounds(colour, first_palette.size(), max_rounds, [&](auto& next) {
        using Entry = std::pair<Colour, long>;
        using Signature = std::tuple<Colour, std::vector<Entry>, std::vector<Entry>>;
        std::map<Signature, Colour> palette;
        for (int s = 0; s < 2; ++s) {
            const Graph& x = *graphs[s];
            const auto& c = colour[s];
            for (VertexId v = 0; v < x.n(); ++v)
                for (VertexId w = 0; w < x.n(); ++w) {
                    std::vector<Entry> first, second;
                    for (VertexId u = 0; u < x.n(); ++u) {
                        // Position 1 replaced by u: (u, w); position 2 replaced by u: (v, u).
                        if (test == PairTest::global) {
                            first.push_back({c.at({u, w}), x.has_edge(v, u) ? 1 : 0});
                            second.push_back({c.at({v, u}), x.has_edge(w, u) ? 1 : 0});
                            continue;
                        }
                        const auto same_count = [&](bool in_first, Colour target) {
                            if (test != PairTest::local_plus) return 0L;
                            long count = 0;
                            for (VertexId z = 0; z < x.n(); ++z)
                                count += (in_first ? c.at({z, w}) : c.at({v, z})) == target;
                            return count;
                        };
                        if (x.has_edge(v, u)) first.push_back({c.at({u, w}), same_count(true, c.at({u, w}))});
                        if (x.has_edge(w, u)) second.push_back({c.at({v, u}), same_count(false, c.at({v, u}))});
                    }
                    std::sort(first.begin(), first.end());
                    std::sort(second.begin(), second.end());
                    Signature sig{c.at({v, w}), first, second};
                    next[s][{v, w}] = palette.emplace(std::move(sig), palette.size()).first->second;
                }
        }
        return palette.size();
    });
}

/// Small random pairs of several kinds (testing::random_small_pair), with sparse G(n, 0.25) graphs
/// against a relabelling (refined to stability, through rounds whose partitions the "+" counts
/// change).
std::pair<Graph, Graph> random_pair(Rng& rng, int trial) { return testing::random_small_pair(rng, trial, 0.25); }

TEST(LocalWl, TinyCases) {
    for (const char* m : {"d2lwl", "d2lwl+"}) {
        EXPECT_FALSE(separates(m, Graph(), Graph())) << m;
        EXPECT_FALSE(separates(m, make_complete(1), make_complete(1))) << m;
        EXPECT_TRUE(separates(m, make_complete(1), make_complete(2))) << m;
        const auto r = compare_pair(Graph(), make_complete(1), WlOptions(WlMethod::parse(m)));
        EXPECT_TRUE(r.distinguished) << m;
        EXPECT_EQ(r.rounds, 0) << m;  // 0 pairs against 1
    }
    // Node labels enter the initial colour and can be switched off.
    const Graph a = with_labels(make_complete(2), {0, 1}), b = with_labels(make_complete(2), {0, 0});
    EXPECT_TRUE(separates("d2lwl", a, b));
    WlOptions unlabelled(WlMethod::parse("d2lwl"));
    unlabelled.use_node_labels = false;
    EXPECT_FALSE(compare_pair(a, b, unlabelled).distinguished);
}

// C6 against two triangles (1-WL-equivalent): an adjacent pair (v, w) has the 1-neighbours (w, w)
// and (v', w) with v' the other neighbour of v; v' is adjacent to w in a triangle and at distance 2
// in C6. So the adjacent pairs' signatures differ after one round, and with a 0-round limit
// nothing is seen yet.
TEST(LocalWl, SeparatesC6FromTwoTrianglesInOneRound) {
    for (const char* m : {"d2lwl", "d2lwl+"}) {
        const auto r = compare_pair(make_cycle(6), two_triangles(), WlOptions(WlMethod::parse(m)));
        EXPECT_TRUE(r.distinguished) << m;
        EXPECT_EQ(r.rounds, 1) << m;
        const auto cut = compare_pair(make_cycle(6), two_triangles(), WlOptions(WlMethod::parse(m)).rounds(0));
        EXPECT_FALSE(cut.distinguished) << m;
        EXPECT_EQ(cut.rounds, 0) << m;
    }
}

// The 4x4 rook's graph and the Shrikhande graph are both srg(16, 6, 2, 2), which 2-FWL cannot
// separate. δ-2-LWL ⪯ δ-2-LWL+ ⪯ δ-2-WL ⪯ 2-FWL (see HierarchyOnRandomPairs), so neither can.
TEST(LocalWl, CannotSeparateRookFromShrikhande) {
    ASSERT_FALSE(separates("2fwl", testing::rook_4x4(), testing::shrikhande()));
    EXPECT_FALSE(separates("d2lwl", testing::rook_4x4(), testing::shrikhande()));
    EXPECT_FALSE(separates("d2lwl+", testing::rook_4x4(), testing::shrikhande()));
}

TEST(LocalWl, AgreesWithTheReferenceOnRandomSmallPairs) {
    Rng rng(7);
    int distinguished = 0, not_distinguished = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const auto [g, h] = random_pair(rng, trial);
        // Until stable, and cut after 0 rounds (the initial colours alone) and after 1 or 2.
        for (const int limit : {-1, 0, 1 + trial % 2})
            for (const bool plus : {false, true}) {
                const char* m = plus ? "d2lwl+" : "d2lwl";
                const auto want = reference(g, h, plus ? PairTest::local_plus : PairTest::local, limit);
                const WlResult got = compare_pair(g, h, WlOptions(WlMethod::parse(m)).rounds(limit));
                testing::expect_same_outcome(
                    got, want, std::string(m) + " trial " + std::to_string(trial) + " limit " + std::to_string(limit));
                if (limit < 0) (want.distinguished ? distinguished : not_distinguished)++;
            }
    }
    EXPECT_GT(distinguished, 40);
    EXPECT_GT(not_distinguished, 40);
}

// Morris et al. 2020 prove that on connected graphs δ-k-LWL+ and δ-k-WL distinguish the same
// pairs. δ-2-WL here is the reference's global variant.
TEST(LocalWl, PlusMatchesDelta2WlOnConnectedGraphs) {
    Rng rng(11);
    int separated = 0, not_separated = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const VertexId n = static_cast<VertexId>(6 + 2 * rng.below(3));
        const Graph g = testing::random_regular(n, 3, rng), h = testing::random_regular(n, 3, rng);
        if (!is_connected(g) || !is_connected(h)) continue;
        const bool want = reference(g, h, PairTest::global).distinguished;
        EXPECT_EQ(separates("d2lwl+", g, h), want) << "trial " << trial;
        (want ? separated : not_separated)++;
    }
    EXPECT_GT(separated, 10);
    EXPECT_GT(not_separated, 10);
}

// Relations that are theorems, checked as implications on random pairs:
// * 1-WL ⪯ δ-2-LWL: by induction the colour of (v, w) after t rounds determines the 1-WL colours
//   of v and w after t rounds (the 1-neighbour multiset holds v's neighbours' colours, the 2-
//   neighbour multiset w's), and the diagonal pairs (v, v) are a class of their own from round 0.
// * δ-2-LWL ⪯ δ-2-LWL+: the "+" signature contains the plain one.
// * δ-2-LWL+ ⪯ δ-2-WL: δ-2-WL's multiset {{(C(u, w), [u ~ v]) : u}} holds both the local
//   1-neighbours' colours and the number of all 1-neighbours of each colour (likewise for 2).
// * δ-2-WL ⪯ 2-FWL: 2-FWL refines (v, w) by {{(C(u, w), C(v, u)) : u}}, and C(v, u) keeps the
//   atomic type of (v, u), so it holds both δ-2-WL multisets; by induction round by round.
TEST(LocalWl, HierarchyOnRandomPairs) {
    Rng rng(21);
    int separated_by_2fwl = 0, missed_by_1wl = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const auto [g, h] = random_pair(rng, trial);
        const bool wl1 = separates("1wl", g, h), lwl = separates("d2lwl", g, h);
        const bool plus = separates("d2lwl+", g, h), fwl2 = separates("2fwl", g, h);
        if (wl1) {
            EXPECT_TRUE(lwl) << "trial " << trial;
        }
        if (lwl) {
            EXPECT_TRUE(plus) << "trial " << trial;
        }
        if (plus) {
            EXPECT_TRUE(fwl2) << "trial " << trial;
        }
        separated_by_2fwl += fwl2;
        missed_by_1wl += fwl2 && !wl1;
    }
    EXPECT_GT(missed_by_1wl, 10);  // the implications above δ-2-LWL are exercised
    EXPECT_LT(separated_by_2fwl, 200);
}

// The same implications on every fourth BREC pair (all categories, CFI graphs up to 198 vertices).
TEST(LocalWl, HierarchyOnBrecPairs) {
    const auto pairs = testing::read_brec_v3().pairs;
    ASSERT_EQ(pairs.size(), 400u);
    int separated = 0;
    for (const auto& p : pairs) {
        if (p.id % 4 != 1) continue;
        const bool lwl = separates("d2lwl", p.a, p.b), plus = separates("d2lwl+", p.a, p.b);
        if (lwl) {
            EXPECT_TRUE(plus) << "pair " << p.id;
        }
        if (plus) {
            EXPECT_TRUE(separates("2fwl", p.a, p.b)) << "pair " << p.id;
        }
        separated += plus;
    }
    EXPECT_GT(separated, 20);
}

TEST(LocalWl, NeverSeparatesARelabelling) {
    Rng rng(5);
    for (int trial = 0; trial < 40; ++trial) {
        const auto [g, unused] = random_pair(rng, trial);
        const Graph h = permute(g, rng.permutation(g.n()));
        EXPECT_FALSE(separates("d2lwl", g, h)) << "trial " << trial;
        EXPECT_FALSE(separates("d2lwl+", g, h)) << "trial " << trial;
    }
    // 40 pairs across all categories.
    for (const auto& r : testing::brec_relabellings(rng, testing::PairSide::b, 10, 3)) {
        EXPECT_FALSE(separates("d2lwl", r.graph, r.relabelled)) << "pair " << r.id;
        EXPECT_FALSE(separates("d2lwl+", r.graph, r.relabelled)) << "pair " << r.id;
    }
}

TEST(LocalWl, RefusesPairSpacesBeyondTheMemoryLimit) {
    // 20000² pairs would need tens of GB; the check comes before any allocation.
    const Graph big = make_path(20000);
    const std::string msg = testing::error_of([&] { separates("d2lwl", big, big); });
    EXPECT_NE(msg.find("d2lwl"), std::string::npos) << msg;
    EXPECT_NE(msg.find("MiB"), std::string::npos) << msg;
    EXPECT_THROW(separates("d2lwl+", big, big), ResourceLimit);
}

}  // namespace
}  // namespace brec
