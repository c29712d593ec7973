// Layouts and the pair SVG of `brec show`: coordinates inside the unit disc, determinism, stress
// layouts that respect graph distances, and a document with one circle per vertex and one line per
// edge of both graphs, with escaped text.
#include "brec/report/layout.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"

namespace brec {
namespace {

std::size_t occurrences(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// Small named graphs built here, so that the report tests need no generator.

/// The m x m rook's graph: cells of a board, adjacent when they share a row or a column.
Graph rook_graph(VertexId m) {
    std::vector<Edge> e;
    for (VertexId u = 0; u < m * m; ++u)
        for (VertexId v = u + 1; v < m * m; ++v)
            if (u / m == v / m || u % m == v % m) e.emplace_back(u, v);
    return make_graph(m * m, e);
}

/// The Shrikhande graph: Cayley graph of Z4 x Z4 with connection set ±(1,0), ±(0,1), ±(1,1);
/// srg(16,6,2,2) like the 4 x 4 rook's graph, but not isomorphic to it.
Graph shrikhande_graph() {
    std::vector<Edge> e;
    for (VertexId u = 0; u < 16; ++u)
        for (VertexId v = u + 1; v < 16; ++v) {
            const VertexId dx = (v / 4 + 4 - u / 4) % 4, dy = (v % 4 + 4 - u % 4) % 4;
            const bool step = (dx == 0 && (dy == 1 || dy == 3)) || (dy == 0 && (dx == 1 || dx == 3)) ||
                              (dx == dy && (dx == 1 || dx == 3));
            if (step) e.emplace_back(u, v);
        }
    return make_graph(16, e);
}

/// The cube Q3: 3-bit words adjacent when they differ in one bit.
Graph cube_graph() {
    std::vector<Edge> e;
    for (VertexId u = 0; u < 8; ++u)
        for (VertexId bit = 1; bit < 8; bit <<= 1)
            if ((u & bit) == 0) e.emplace_back(u, u | bit);
    return make_graph(8, e);
}

double dist(const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y); }

TEST(Layout, CircularAndStressStayInTheUnitDisc) {
    const Graph path = make_path(12);
    for (const auto& p : {circular_layout(path), stress_layout(path), default_layout(make_petersen()).points})
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
    const Layout chosen = default_layout(p);
    EXPECT_EQ(chosen.kind, LayoutKind::circular);
    const auto& a = chosen.points;
    const auto b = circular_layout(p);
    for (VertexId v = 0; v < p.n(); ++v) {
        EXPECT_DOUBLE_EQ(a[v].x, b[v].x);
        EXPECT_DOUBLE_EQ(a[v].y, b[v].y);
    }
    // The cube Q3 is bipartite: its class containing 0 takes the first four circle slots.
    const Graph cube = cube_graph();
    const auto side = bipartition(cube);
    ASSERT_EQ(side.size(), 8u);
    for (const auto& [u, v] : cube.edges()) EXPECT_NE(side[u], side[v]);
    const Layout cube_layout = default_layout(cube);
    EXPECT_EQ(cube_layout.kind, LayoutKind::circular_bipartite);
    const auto& q = cube_layout.points;
    const auto slots = circular_layout(cube);
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
    const Graph b = make_graph(6, {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 5}, {0, 4}});  // -{3,4},{0,5} +{0,3},{0,4}
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
    EXPECT_EQ(pair_layout_description(make_path(5), make_complete(5)), "layout: stress majorization / circular");
    EXPECT_NE(pair_layout_description(make_path(5), make_cycle(5)).find("the edge that differs"), std::string::npos);
}

TEST(PairSvg, OneCirclePerVertexOneLinePerEdgeAndEscapedCaption) {
    const Graph a = rook_graph(4), b = shrikhande_graph();
    const std::string svg = render_pair_svg(a, b, "rook <4x4>", "Shrikhande & co", {"srg(16,6,2,2)", "\"quoted\""});
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
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle_re); it != std::sregex_iterator(); ++it) {
        const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
        EXPECT_GT(x, 0);
        EXPECT_LT(x, w);
        EXPECT_GT(y, 0);
        EXPECT_LT(y, h);
    }
}

TEST(PairSvg, CaptionAndDrawingComeFromOnePlan) {
    // The cube and a copy with one edge moved ({0,1} -> {0,7}): same ids, 2 of 24 edges differ, so
    // the second graph is drawn with the cube's bipartite circle and the caption says so.
    std::vector<Edge> moved;
    for (const auto& e : cube_graph().edges())
        if (e != Edge{0, 1}) moved.push_back(e);
    moved.emplace_back(0, 7);
    const Graph a = cube_graph(), b = make_graph(8, moved);
    const PairLayout plan = plan_pair_layout(a, b);
    EXPECT_TRUE(plan.shared);
    EXPECT_EQ(plan.a.kind, LayoutKind::circular_bipartite);
    EXPECT_EQ(plan.b.kind, LayoutKind::circular_bipartite);  // b alone is not regular: stress
    EXPECT_EQ(default_layout(b).kind, LayoutKind::stress);
    EXPECT_EQ(plan.only_a, (std::vector<Edge>{{0, 1}}));
    EXPECT_EQ(plan.only_b, (std::vector<Edge>{{0, 7}}));
    EXPECT_EQ(plan.description(),
              "layout: circular, bipartition on two arcs, same positions in both drawings; red: "
              "the 2 edges that differ");
    // A plan made for other graphs is refused rather than drawn with missing points.
    EXPECT_THROW(render_pair_svg(make_petersen(), a, plan, "a", "b", {}), InvalidArgument);
}

TEST(PairSvg, LargeAndEmptyGraphs) {
    const Graph big = rook_graph(8);  // 64 vertices: dots without numbers
    const std::string svg = render_pair_svg(big, big, "a", "b", {});
    EXPECT_EQ(occurrences(svg, "<circle "), 2 * big.n());
    const std::string empty = render_pair_svg(Graph(), Graph(), "a", "b", {"nothing"});
    EXPECT_EQ(occurrences(empty, "<circle "), 0u);
    EXPECT_EQ(occurrences(empty, "</svg>"), 1u);
}

}  // namespace
}  // namespace brec
