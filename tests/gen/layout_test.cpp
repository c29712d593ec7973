// Layouts and the pair SVG of `brec show`: coordinates inside the unit disc, determinism, stress
// layouts that respect graph distances, and a document with one circle per vertex and one line per
// edge of both graphs, with escaped text.
#include "brec/gen/layout.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "brec/gen/constructions.hpp"
#include "brec/graph/algorithms.hpp"

namespace brec {
namespace {

std::size_t occurrences(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

double dist(const Point& a, const Point& b) {
    return std::hypot(a.x - b.x, a.y - b.y);
}

TEST(Layout, CircularAndStressStayInTheUnitDisc) {
    const Graph path = make_path(12);
    for (const auto& p :
         {circular_layout(path), stress_layout(path), default_layout(make_petersen())})
        for (const Point& q : p) {
            EXPECT_TRUE(std::isfinite(q.x) && std::isfinite(q.y));
            EXPECT_LE(std::hypot(q.x, q.y), 1.0 + 1e-9);
        }
    EXPECT_TRUE(circular_layout(Graph()).empty());
    EXPECT_EQ(stress_layout(make_graph(1, {})).size(), 1u);
    EXPECT_EQ(stress_layout(make_graph(2, {{0, 1}})).size(), 2u);
}

TEST(Layout, StressLayoutStretchesAPathAndIsDeterministic) {
    const Graph path = make_path(10);
    const auto p = stress_layout(path);
    // The ends of a path are its farthest points; consecutive vertices are close.
    EXPECT_GT(dist(p[0], p[9]), 1.8);
    for (VertexId v = 0; v + 1 < 10; ++v) EXPECT_LT(dist(p[v], p[v + 1]), 0.4);
    const auto q = stress_layout(path);
    for (VertexId v = 0; v < 10; ++v) {
        EXPECT_EQ(p[v].x, q[v].x);
        EXPECT_EQ(p[v].y, q[v].y);
    }
    // Disconnected graphs get finite positions too.
    for (const Point& r : stress_layout(disjoint_union(make_cycle(5), make_path(4))))
        EXPECT_TRUE(std::isfinite(r.x) && std::isfinite(r.y));
}

TEST(Layout, DefaultIsCircularForRegularGraphsWithBipartiteClassesOnTwoArcs) {
    const Graph p = make_petersen();  // cubic, not bipartite: circle in id order
    const auto a = default_layout(p), b = circular_layout(p);
    for (VertexId v = 0; v < p.n(); ++v) {
        EXPECT_DOUBLE_EQ(a[v].x, b[v].x);
        EXPECT_DOUBLE_EQ(a[v].y, b[v].y);
    }
    // The cube Q3 is bipartite: its class containing 0 takes the first four circle slots.
    const Graph cube =
        cartesian_product(cartesian_product(make_complete(2), make_complete(2)), make_complete(2));
    const auto side = bipartition(cube);
    ASSERT_EQ(side.size(), 8u);
    for (const auto& [u, v] : cube.edges()) EXPECT_NE(side[u], side[v]);
    const auto q = default_layout(cube), slots = circular_layout(cube);
    std::size_t next = 0;
    for (VertexId v = 0; v < 8; ++v)
        if (side[v] == side[0]) {
            EXPECT_DOUBLE_EQ(q[v].x, slots[next].x);
            EXPECT_DOUBLE_EQ(q[v].y, slots[next].y);
            ++next;
        }
    EXPECT_EQ(next, 4u);
    EXPECT_TRUE(bipartition(make_cycle(5)).empty());
    EXPECT_TRUE(bipartition(make_graph(3, {})).empty());
    // Cycles are drawn by stress (rings), not on one circle in id order.
    EXPECT_EQ(pair_layout_description(make_cycle(6), make_cycle(6)), "layout: stress majorization");
}

TEST(PairSvg, GraphsOnTheSameIdsThatDifferInFewEdgesShareTheirLayout) {
    // Like a CFI graph and its twist: the same ids, 4 of 12 edges differ.
    const Graph a = make_graph(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {0, 5}});  // C6
    const Graph b = make_graph(
        6, {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 5}, {0, 4}});  // -{3,4},{0,5} +{0,3},{0,4}
    const std::string d = pair_layout_description(a, b);
    EXPECT_NE(d.find("same positions in both drawings"), std::string::npos) << d;
    EXPECT_NE(d.find("the 4 edges that differ"), std::string::npos) << d;
    const std::string svg = render_pair_svg(a, b, "a", "b", {d});
    EXPECT_EQ(occurrences(svg, "<line "), a.m() + b.m());
    EXPECT_NE(svg.find("stroke=\"#d62728\""), std::string::npos);
    // Graphs that differ a lot keep their own layouts and nothing is marked.
    const std::string far = render_pair_svg(rook_graph(4), shrikhande_graph(), "a", "b", {});
    EXPECT_EQ(far.find("#d62728"), std::string::npos);
    EXPECT_EQ(pair_layout_description(rook_graph(4), shrikhande_graph()), "layout: circular");
    EXPECT_EQ(pair_layout_description(make_path(5), make_complete(5)),
              "layout: stress majorization / circular");
    EXPECT_NE(pair_layout_description(make_path(5), make_cycle(5)).find("the edge that differs"),
              std::string::npos);
}

TEST(PairSvg, OneCirclePerVertexOneLinePerEdgeAndEscapedCaption) {
    const Graph a = rook_graph(4), b = shrikhande_graph();
    const std::string svg =
        render_pair_svg(a, b, "rook <4x4>", "Shrikhande & co", {"srg(16,6,2,2)", "\"quoted\""});
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
    EXPECT_EQ(occurrences(svg, "<svg "), 1u);
    EXPECT_EQ(occurrences(svg, "</svg>"), 1u);
    EXPECT_EQ(occurrences(svg, "<circle "), a.n() + b.n());
    EXPECT_EQ(occurrences(svg, "<line "), a.m() + b.m());
    EXPECT_NE(svg.find("rook &lt;4x4&gt;"), std::string::npos);
    EXPECT_NE(svg.find("Shrikhande &amp; co"), std::string::npos);
    EXPECT_NE(svg.find("&quot;quoted&quot;"), std::string::npos);
    EXPECT_EQ(svg.find("<4x4>"), std::string::npos);
    // Every element is closed: as many '<' as '>' and every number is finite.
    EXPECT_EQ(occurrences(svg, "<"), occurrences(svg, ">"));
    EXPECT_EQ(svg.find("nan"), std::string::npos);
    EXPECT_EQ(svg.find("inf"), std::string::npos);
    // Coordinates lie inside the declared canvas.
    const std::regex size_re("width=\"([0-9.]+)\" height=\"([0-9.]+)\"");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, size_re));
    const double w = std::stod(m[1]), h = std::stod(m[2]);
    const std::regex circle_re("<circle cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\"");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle_re);
         it != std::sregex_iterator(); ++it) {
        const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
        EXPECT_GT(x, 0);
        EXPECT_LT(x, w);
        EXPECT_GT(y, 0);
        EXPECT_LT(y, h);
    }
}

TEST(PairSvg, LargeAndEmptyGraphs) {
    const Graph big = symplectic_graph(3);
    const std::string svg = render_pair_svg(big, big, "a", "b", {});
    EXPECT_EQ(occurrences(svg, "<circle "), 2 * big.n());
    const std::string empty = render_pair_svg(Graph(), Graph(), "a", "b", {"nothing"});
    EXPECT_EQ(occurrences(empty, "<circle "), 0u);
    EXPECT_EQ(occurrences(empty, "</svg>"), 1u);
}

}  // namespace
}  // namespace brec
