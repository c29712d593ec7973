#include "brec/io/edgelist.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <functional>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

std::vector<Graph> parse(const std::string& text, EdgeListOptions opt = {}, EdgeListStats* st = nullptr) {
    return parse_edge_lists(text, "g.el", opt, st);
}

std::string err(const std::string& text, EdgeListOptions opt = {}) {
    return error_of([&] { parse(text, opt); });
}

TEST(EdgeList, SingleGraphWithCommentsSeparatorsAndCrlf) {
    const auto gs = parse("# a path\n0 1\r\n1,2   % trailing comment\n\n2\t3 # more\n");
    ASSERT_EQ(gs.size(), 1u);
    EXPECT_EQ(gs[0], make_path(4));
    // Without an 'n' line the vertex count is the largest id + 1.
    EXPECT_EQ(parse("5 0\n")[0].n(), 6u);
    EXPECT_EQ(parse("1 2\n", EdgeListOptions().set_one_based(true))[0], make_path(2));
}

TEST(EdgeList, SeveralGraphsWithDeclaredSizesAndLabels) {
    const auto gs = parse("n 3\n0 1\nn 0\nn 4\n0 3 7\n1 2 -2\n");
    ASSERT_EQ(gs.size(), 3u);
    EXPECT_EQ(gs[0].n(), 3u);  // vertex 2 is isolated
    EXPECT_EQ(gs[0].m(), 1u);
    EXPECT_EQ(gs[1].n(), 0u);
    EXPECT_EQ(gs[2].edge_label(3, 0), 7);
    EXPECT_EQ(gs[2].edge_label(1, 2), -2);
}

TEST(EdgeList, RoundTripIsExact) {
    Rng rng(1);
    GraphBuilder lb(5);
    lb.add_edge(0, 4, 3);
    lb.add_edge(1, 2, 0);
    std::vector<Graph> graphs{testing::random_graph(30, 0.2, rng), GraphBuilder(3).build(), Graph(), make_petersen(),
                              lb.build()};
    for (bool one_based : {false, true}) {
        const std::string text = format_edge_lists(graphs, one_based);
        EXPECT_EQ(parse(text, EdgeListOptions().set_one_based(one_based)), graphs);
        const std::string path = ::testing::TempDir() + "brec_el_" + std::to_string(::getpid()) + ".el";
        write_edge_lists(path, graphs, one_based);
        EXPECT_EQ(read_edge_lists(path, EdgeListOptions().set_one_based(one_based)), graphs);
    }
    EXPECT_EQ(format_edge_lists({make_path(3)}, true), "n 3\n1 2\n2 3\n");
}

TEST(EdgeList, LoopsAndDuplicatesRejectedWithLinesOrDroppedAndCounted) {
    EXPECT_NE(err("0 1\n1 1\n").find("g.el:2: self-loop at vertex 1"), std::string::npos);
    const std::string dup = err("0 1\n1 2\n1 0\n");
    EXPECT_NE(dup.find("g.el:3: duplicate edge {0,1} (first listed on line 1)"), std::string::npos) << dup;
    EdgeListStats st;
    const auto gs = parse("0 1\n1 0\n1 1\n1 2\n0 1\n",
                          EdgeListOptions().set_duplicates(EdgePolicy::drop).set_self_loops(EdgePolicy::drop), &st);
    EXPECT_EQ(gs[0], make_path(3));
    EXPECT_EQ(st.duplicate_edges, 2u);
    EXPECT_EQ(st.self_loops, 1u);
    EXPECT_EQ(st.edge_lines, 5u);
    // A dropped duplicate with a different label is still an error.
    EXPECT_NE(err("0 1 5\n1 0 6\n", EdgeListOptions().set_duplicates(EdgePolicy::drop))
                  .find("has label 6 but label 5 on line 1"),
              std::string::npos);
}

TEST(EdgeList, MalformedLinesNameLineAndExpectation) {
    EXPECT_NE(err("0 1\n1 x\n").find("g.el:2: expected integer vertex ids"), std::string::npos);
    EXPECT_NE(err("0 1 2 3\n").find("g.el:1: expected an edge 'u v' or 'u v label'"), std::string::npos);
    EXPECT_NE(err("0\n").find("found 1 fields"), std::string::npos);
    EXPECT_NE(err("0 1 x\n").find("integer edge label"), std::string::npos);
    EXPECT_NE(err("n 2\n0 5\n").find("g.el:2: vertex id 5 out of range for 'n 2' (line 1)"), std::string::npos);
    EXPECT_NE(err("1 0\n0 -1\n").find("g.el:2: vertex id -1 is below 0"), std::string::npos);
    EXPECT_NE(err("0 1\n", EdgeListOptions().set_one_based(true)).find("is below 1 (ids are 1-based)"),
              std::string::npos);
    EXPECT_NE(err("n x\n").find("expected 'n N'"), std::string::npos);
    EXPECT_NE(err("n -3\n").find("expected 'n N'"), std::string::npos);
    EXPECT_NE(err("0 1\nn 3\n").find("g.el:2: 'n' line after edges"), std::string::npos);
    EXPECT_NE(err("0 1 4\n1 2\n").find("lacks a label"), std::string::npos);
    EXPECT_NE(err("").find("no graphs found"), std::string::npos);
    EXPECT_NE(err("# only a comment\n\n").find("no graphs found"), std::string::npos);
    EXPECT_THROW(parse("0 99999999999\n"), ResourceLimit);
    EXPECT_THROW(parse("n 100000000000\n"), ResourceLimit);
    EXPECT_NE(error_of([] { read_edge_lists("/no/such.el"); }).find("cannot open /no/such.el"), std::string::npos);
}

}  // namespace
}  // namespace brec
