// `brec show` as a library call: the caption names the pair, the structure of both graphs, the
// symmetry facts handed in, and the layout that the drawing uses.
#include "brec/report/pair_figure.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "brec/core/error.hpp"
#include "brec/io/pairs.hpp"

namespace brec {
namespace {

/// The cube Q3: 3-bit words adjacent when they differ in one bit.
Graph cube_graph() {
    std::vector<Edge> e;
    for (VertexId u = 0; u < 8; ++u)
        for (VertexId bit = 1; bit < 8; bit <<= 1)
            if ((u & bit) == 0) e.emplace_back(u, u | bit);
    return make_graph(8, e);
}

TEST(PairFigure, StructureLines) {
    EXPECT_EQ(graph_structure(Graph()), "empty");
    EXPECT_EQ(graph_structure(make_path(4)), "degrees 1-2");
    EXPECT_EQ(graph_structure(make_cycle(6)), "2-regular");
    // Petersen: srg(10,3,0,1); with no triangles both 4-vertex constants are 0.
    EXPECT_EQ(graph_structure(make_petersen()), "srg(10,3,0,1) 4vtx(0,0)");
    // The cube is distance-regular with intersection array {3,2,1; 1,2,3}, not strongly regular.
    EXPECT_NE(graph_structure(cube_graph()).find("distance-regular"), std::string::npos);
}

TEST(PairFigure, DrawsAPairOfAFileWithItsCaption) {
    const auto dir = std::filesystem::temp_directory_path() / ("brec_pair_figure_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "pairs.tsv").string();
    // C6 against two triangles, which are strongly regular: srg(6,2,1,0).
    GraphPairRecord p;
    p.id = 7;
    p.category = "basic";
    p.a = make_cycle(6);
    p.b = make_graph(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
    write_pair_file(path, {p});
    int calls = 0;
    const PairFigure f = draw_pair(path, 7, [&](const Graph& a, const Graph& b) {
        ++calls;
        EXPECT_EQ(a.m(), 6u);
        EXPECT_EQ(b.m(), 6u);
        return PairSymmetry{"12", "72", false};
    });
    EXPECT_EQ(calls, 1);
    ASSERT_EQ(f.caption.size(), 4u);  // no generator metadata next to the file
    EXPECT_EQ(f.caption[0], "pair 7 (basic), n = 6, m = 6 / 6");
    EXPECT_EQ(f.caption[1], "2-regular / srg(6,2,1,0) 4vtx(0,0)");
    EXPECT_EQ(f.caption[2], "|Aut| 12 / 72  (non-isomorphic)");
    // Same ids, 4 of 12 edges differ: both drawn with the cycle's positions.
    EXPECT_EQ(f.caption[3],
              "layout: stress majorization, same positions in both drawings; red: the 4 edges "
              "that differ");
    EXPECT_NE(f.svg.find("|Aut| 12 / 72"), std::string::npos);
    try {
        draw_pair(path, 8, [](const Graph&, const Graph&) { return PairSymmetry{}; });
        FAIL() << "no error";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()), "pair 8 does not exist in " + path);
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace brec
