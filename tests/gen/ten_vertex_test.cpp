// The exhaustive search behind basic and extension, on fewer vertices than BREC's 10 so that it is
// fast: the pool must be exactly the 1-WL classes (size >= 2) of non-regular connected graphs,
// recomputed here with the WL engine alone (no hashing).
#include "gen/detail/ten_vertex.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/gen/geng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/graph6.hpp"
#include "brec/iso/iso.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

using ClassSet = std::set<std::set<std::string>>;

ClassSet pool_classes(const detail::TenVertexPool& pool) {
    ClassSet out;
    for (const auto& cl : pool.classes) {
        std::set<std::string> s;
        for (auto code : cl) s.insert(canonical_certificate(detail::graph_from_code(code, pool.n)).bytes);
        EXPECT_EQ(s.size(), cl.size()) << "a class repeats a graph";
        out.insert(s);
    }
    return out;
}

/// 1-WL classes by pairwise joint refinement within degree-sequence buckets.
ClassSet reference_classes(VertexId n) {
    GengQuery q;
    q.n = n;
    q.connected = true;
    std::map<std::vector<std::uint32_t>, std::vector<std::vector<Graph>>> buckets;
    for (const Graph& g : geng_graphs(q)) {
        if (g.is_regular()) continue;
        auto& classes = buckets[g.degree_sequence()];
        auto it = std::find_if(classes.begin(), classes.end(),
                               [&](const std::vector<Graph>& c) { return wl1_equivalent(c[0], g); });
        if (it == classes.end())
            classes.push_back({g});
        else
            it->push_back(g);
    }
    ClassSet out;
    for (const auto& [deg, classes] : buckets)
        for (const auto& c : classes) {
            if (c.size() < 2) continue;
            std::set<std::string> s;
            for (const Graph& g : c) s.insert(canonical_certificate(g).bytes);
            out.insert(s);
        }
    return out;
}

TEST(TenVertexPool, IsExactlyTheNonRegularOneWlClassesOnEightVertices) {
    RunContext ctx;
    ctx.set_threads(2);
    const auto pool = detail::build_ten_vertex_pool(8, ctx);
    EXPECT_EQ(pool.streamed, 11117u);  // connected graphs on 8 vertices (OEIS A001349)
    const ClassSet got = pool_classes(pool);
    EXPECT_FALSE(got.empty());
    EXPECT_EQ(got, reference_classes(8));
    for (const auto& cl : pool.classes)
        for (std::size_t i = 1; i < cl.size(); ++i)
            EXPECT_TRUE(wl1_equivalent(detail::graph_from_code(cl[0], 8), detail::graph_from_code(cl[i], 8)));
}

TEST(TenVertexPool, DoesNotDependOnTheThreadCount) {
    RunContext one, two;
    two.set_threads(2);
    const auto a = detail::build_ten_vertex_pool(7, one), b = detail::build_ten_vertex_pool(7, two);
    EXPECT_EQ(a.streamed, 853u);
    EXPECT_EQ(a.classes, b.classes);
    EXPECT_EQ(a.candidates, b.candidates);
    EXPECT_THROW(detail::build_ten_vertex_pool(3, one), InvalidArgument);
    EXPECT_THROW(detail::build_ten_vertex_pool(12, one), InvalidArgument);
}

TEST(TenVertexPool, Graph6CodesRoundTrip) {
    Rng rng(5);
    for (VertexId n : {4u, 7u, 10u, 11u})
        for (int i = 0; i < 20; ++i) {
            const Graph g = testing::random_graph(n, 0.4, rng);
            const std::string s = to_graph6(g);
            std::uint64_t code = 0;
            ASSERT_TRUE(detail::graph6_code(s.data(), s.size(), n, code)) << s;
            EXPECT_EQ(detail::graph_from_code(code, n).edges(), g.edges()) << s;
        }
    std::uint64_t code = 0;
    EXPECT_FALSE(detail::graph6_code("I", 1, 10, code));                                  // truncated
    EXPECT_FALSE(detail::graph6_code("C~", 2, 10, code));                                 // wrong n
    EXPECT_FALSE(detail::graph6_code("I\x20\x20\x20\x20\x20\x20\x20\x20", 9, 10, code));  // bad characters
}

TEST(TenVertexPool, WlHashIsInvariantAndSeparatesWhatOneWlSeparates) {
    Rng rng(6);
    for (int i = 0; i < 20; ++i) {
        const Graph g = testing::random_graph(12, 0.3, rng);
        Permutation p(g.n());
        for (VertexId v = 0; v < g.n(); ++v) p[v] = v;
        rng.shuffle(p);
        EXPECT_EQ(detail::wl_hash(g), detail::wl_hash(permute(g, p)));
    }
    // C6 and two triangles are 1-WL-equivalent; the path and the star on 4 vertices are not.
    EXPECT_EQ(detail::wl_hash(make_cycle(6)), detail::wl_hash(disjoint_union(make_cycle(3), make_cycle(3))));
    EXPECT_NE(detail::wl_hash(make_path(4)), detail::wl_hash(make_graph(4, {{0, 1}, {0, 2}, {0, 3}})));
}

TEST(TenVertexPool, ExtensionSubclassesRefineTheClass) {
    RunContext ctx;
    const auto pool = detail::build_ten_vertex_pool(8, ctx);
    std::size_t subclasses = 0;
    for (const auto& cl : pool.classes) {
        const std::set<std::uint64_t> members(cl.begin(), cl.end());
        for (const char* kind : {"S3", "N1", "S4"})
            for (const auto& sub : detail::extension_subclasses(cl, 8, kind)) {
                ++subclasses;
                EXPECT_GE(sub.size(), 2u);
                for (auto c : sub) EXPECT_TRUE(members.count(c));
            }
    }
    EXPECT_GT(subclasses, 0u);
    EXPECT_THROW(detail::extension_subclasses(pool.classes.at(0), 8, "S5"), InvalidArgument);
}

}  // namespace
}  // namespace brec
