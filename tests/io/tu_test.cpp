#include "brec/io/tu.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/iso/iso.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

const std::string kSmall = std::string(BREC_SOURCE_DIR) + "/tests/data/tu_small";

std::string fresh_dir(const std::string& name) {
    const std::string d = ::testing::TempDir() + "brec_tu_" + std::to_string(::getpid()) + "_" + name;
    std::system(("rm -rf '" + d + "'").c_str());
    return d;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(TuFormat, ReadsHandMadeFixtureWithIsolatedNodesLoopsAndDuplicates) {
    const TuDataset ds = read_tu_dataset(kSmall);
    EXPECT_EQ(ds.name, "SMALL");
    ASSERT_EQ(ds.graphs.size(), 4u);
    EXPECT_EQ(ds.graph_labels, (std::vector<Label>{0, 1, 0, 1}));
    EXPECT_TRUE(ds.has_node_labels);
    EXPECT_FALSE(ds.has_edge_labels);
    EXPECT_EQ(ds.graphs[0].n(), 3u);
    EXPECT_EQ(ds.graphs[0].m(), 3u);
    EXPECT_EQ(ds.graphs[1].n(), 4u);  // node 7 is isolated but belongs to graph 2
    EXPECT_EQ(ds.graphs[1].m(), 2u);
    EXPECT_EQ(ds.graphs[2].m(), 3u);  // self-loop and repeated line dropped
    EXPECT_EQ(ds.graphs[3].node_label(1), 5);
    EXPECT_EQ(ds.stats.nodes, 13u);
    EXPECT_EQ(ds.stats.edge_lines, 22u);
    EXPECT_EQ(ds.stats.self_loops, 1u);
    EXPECT_EQ(ds.stats.duplicate_edge_lines, 1u);
    EXPECT_EQ(ds.stats.isolated_nodes, 1u);
    EXPECT_EQ(ds.stats.one_direction_edges, 0u);
    EXPECT_TRUE(are_isomorphic(ds.graphs[0], ds.graphs[2], IsoOptions().node_labels(true)));
}

TEST(TuFormat, WriteReadRoundTrip) {
    const TuDataset ds = read_tu_dataset(kSmall);
    const std::string out = fresh_dir("roundtrip");
    write_tu_dataset(out, "COPY", ds.graphs, ds.graph_labels);
    const TuDataset back = read_tu_dataset(out);
    EXPECT_EQ(back.name, "COPY");
    ASSERT_EQ(back.graphs.size(), ds.graphs.size());
    for (std::size_t i = 0; i < ds.graphs.size(); ++i) EXPECT_EQ(back.graphs[i], ds.graphs[i]) << i;
    EXPECT_EQ(back.graph_labels, ds.graph_labels);
    EXPECT_EQ(back.stats.self_loops, 0u);
    EXPECT_EQ(back.stats.duplicate_edge_lines, 0u);
    // Edge labels survive too.
    GraphBuilder b(3);
    b.add_edge(0, 1, 4);
    b.add_edge(1, 2, 6);
    const std::string out2 = fresh_dir("edgelabels");
    write_tu_dataset(out2, "E", {b.build()}, {});
    const TuDataset e = read_tu_dataset(out2);
    ASSERT_TRUE(e.has_edge_labels);
    EXPECT_EQ(e.graphs[0].edge_label(2, 1), 6);
    EXPECT_TRUE(e.graph_labels.empty());
}

TEST(TuFormat, MalformedFilesNameFileLineAndProblem) {
    auto make = [](const std::string& name, const std::string& a, const std::string& ind, const std::string& gl) {
        const std::string d = fresh_dir(name);
        ::mkdir(d.c_str(), 0755);
        if (!a.empty() || name == "emptyA") write(d + "/X_A.txt", a);
        if (!ind.empty()) write(d + "/X_graph_indicator.txt", ind);
        if (!gl.empty()) write(d + "/X_graph_labels.txt", gl);
        return d;
    };
    const std::string cols = make("cols", "1, 2\n2, 1, 7\n", "1\n1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(cols); }).find("X_A.txt:2: expected 2 columns"), std::string::npos);
    const std::string range = make("range", "1, 2\n2, 9\n", "1\n1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(range); }).find("X_A.txt:2: node id 9 out of range [1,2]"),
              std::string::npos);
    const std::string negative = make("negative", "1, -2\n", "1\n1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(negative); }).find("node id -2 out of range"), std::string::npos);
    const std::string across = make("across", "1, 2\n", "1\n2\n", "0\n1\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(across); }).find("joins graphs 1 and 2"), std::string::npos);
    const std::string labels = make("labels", "1, 2\n", "1\n1\n", "0\n1\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(labels); }).find("2 labels for 1 graphs"), std::string::npos);
    const std::string word = make("word", "1, x\n", "1\n1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(word); }).find("'x' is not an integer"), std::string::npos);
    // An empty DS_A.txt is a dataset of edgeless graphs; an empty indicator is an error.
    const std::string empty = make("emptyA", "", "1\n1\n2\n", "0\n1\n");
    const TuDataset edgeless = read_tu_dataset(empty);
    ASSERT_EQ(edgeless.graphs.size(), 2u);
    EXPECT_EQ(edgeless.graphs[0].n(), 2u);
    EXPECT_EQ(edgeless.stats.isolated_nodes, 3u);
    write(empty + "/X_graph_indicator.txt", "\n\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(empty); }).find("X_graph_indicator.txt: file is empty"),
              std::string::npos);
    const std::string gap = make("gap", "1, 2\n", "1\n1\n3\n", "0\n1\n0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(gap); }).find("graph 2 has no nodes"), std::string::npos);
    const std::string nl = make("nodelabels", "1, 2\n", "1\n1\n", "0\n");
    write(nl + "/X_node_labels.txt", "1\n2\n3\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(nl); }).find("X_node_labels.txt:3: has 3 lines for 2 nodes"),
              std::string::npos);
    const std::string el = make("edgelabels", "1, 2\n2, 1\n", "1\n1\n", "0\n");
    write(el + "/X_edge_labels.txt", "4\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(el); }).find("has 1 lines for 2 edge lines"), std::string::npos);
    write(el + "/X_edge_labels.txt", "4\n5\n");
    EXPECT_NE(error_of([&] {
                  read_tu_dataset(el);
              }).find("X_edge_labels.txt:2: edge 1,2 has label 5 here but label 4 at line 1"),
              std::string::npos);
    const std::string attr = make("attr", "1, 2\n", "1\n1\n", "0\n");
    write(attr + "/X_node_attributes.txt", "0.5, 1\n2, abc\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(attr); }).find("X_node_attributes.txt:2: attribute 'abc' is not a number"),
              std::string::npos);
    const std::string gid = make("gid", "1, 2\n", "1\n0\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(gid); }).find("X_graph_indicator.txt:2: graph id 0 must be >= 1"),
              std::string::npos);
    const std::string noind = make("noind", "1, 2\n", "", "");
    EXPECT_NE(error_of([&] { read_tu_dataset(noind); }).find("cannot open"), std::string::npos);
    EXPECT_THROW(read_tu_dataset("/nonexistent/dir"), IoError);
}

TEST(TuFormat, IntegersAreParsedAsIntegersWithRangeChecks) {
    const std::string d = fresh_dir("ints");
    ::mkdir(d.c_str(), 0755);
    write(d + "/X_A.txt", "1, 2\n2, 1\n");
    write(d + "/X_graph_indicator.txt", "1\n1\n");
    auto graph_label = [&](const std::string& text) {
        write(d + "/X_graph_labels.txt", "\n" + text + "\n");
        return error_of([&] { read_tu_dataset(d); });
    };
    // The fuzzing reproducer: a label beyond the int64 range used to go through a double and an
    // undefined conversion back to an integer.
    const std::string repro = read_text_file(std::string(BREC_SOURCE_DIR) + "/tests/fuzz/corpus/tu/tu-float-label.bin");
    const std::string label = repro.substr(repro.rfind('\0') + 1, 11);
    ASSERT_EQ(label, "6.66667e+24");
    EXPECT_NE(graph_label(label).find("X_graph_labels.txt:2: graph label '6.66667e+24' is not an integer"),
              std::string::npos);
    // Exponents are not integers, even integral ones; integers beyond int64 are out of range.
    EXPECT_NE(graph_label("1e0").find("X_graph_labels.txt:2: graph label '1e0' is not an integer"), std::string::npos);
    EXPECT_NE(graph_label("9223372036854775808").find("'9223372036854775808' is out of range for a 64-bit integer"),
              std::string::npos);
    EXPECT_NE(graph_label("-9223372036854775809.0").find("is out of range"), std::string::npos);
    EXPECT_NE(graph_label("3.5").find("'3.5' is not an integer"), std::string::npos);
    EXPECT_NE(graph_label("3.").find("'3.' is not an integer"), std::string::npos);
    // Integral decimals (written by some exports) and the int64 extremes are read exactly.
    for (const auto& [text, value] :
         std::vector<std::pair<std::string, Label>>{{"3.0", 3},
                                                    {"-2.00", -2},
                                                    {"+7", 7},
                                                    {"9223372036854775807", std::numeric_limits<Label>::max()},
                                                    {"-9223372036854775808", std::numeric_limits<Label>::min()}}) {
        EXPECT_EQ(graph_label(text), "") << text;
        EXPECT_EQ(read_tu_dataset(d).graph_labels, (std::vector<Label>{value})) << text;
    }
    write(d + "/X_A.txt", "1, 2\n2, 1e0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(d); }).find("X_A.txt:2: node id '1e0' is not an integer"),
              std::string::npos);
}

/// Two 2-node graphs (one edge each) whose node labels differ only in their second column.
std::string write_two_column_dataset(const std::string& name) {
    const std::string d = fresh_dir(name);
    ::mkdir(d.c_str(), 0755);
    write(d + "/M_A.txt", "1, 2\n2, 1\n3, 4\n4, 3\n");
    write(d + "/M_graph_indicator.txt", "1\n1\n2\n2\n");
    write(d + "/M_graph_labels.txt", "0\n1\n");
    write(d + "/M_node_labels.txt", "0, 2\n1,0\n 0 , 3 \n1 0\n");  // commas or blanks, trimmed
    write(d + "/M_edge_labels.txt", "7, 1\n7, 1\n7, 1\n7 1\n");
    return d;
}

TEST(TuFormat, AMultiColumnLabelIsTheWholeRow) {
    const TuDataset ds = read_tu_dataset(write_two_column_dataset("multi"));
    ASSERT_EQ(ds.graphs.size(), 2u);
    // Each distinct row is one label id, in order of first appearance.
    EXPECT_EQ(ds.label_rows.node, (std::vector<std::vector<Label>>{{0, 2}, {1, 0}, {0, 3}}));
    EXPECT_EQ(ds.label_rows.edge, (std::vector<std::vector<Label>>{{7, 1}}));
    EXPECT_EQ(ds.graphs[0].node_labels(), (std::vector<Label>{0, 1}));
    EXPECT_EQ(ds.graphs[1].node_labels(), (std::vector<Label>{2, 1}));
    EXPECT_EQ(ds.graphs[0].edge_label(0, 1), 0);
    // Identical but for the second column: not label-preserving isomorphic (the first column
    // alone made them so).
    EXPECT_TRUE(are_isomorphic(ds.graphs[0], ds.graphs[1]));
    EXPECT_FALSE(are_isomorphic(ds.graphs[0], ds.graphs[1], IsoOptions().node_labels(true)));
    EXPECT_EQ(label_row_text(ds.label_rows.node, 2), "0, 3");
    EXPECT_EQ(label_row_text({}, -4), "-4");
    EXPECT_THROW(label_row_text(ds.label_rows.node, 3), InvalidArgument);

    // Written back, every column is kept; read again, the dataset is the same.
    const std::string out = fresh_dir("multi_out");
    TuWriteOptions opt;
    opt.label_rows = ds.label_rows;
    write_tu_dataset(out, "M", ds.graphs, ds.graph_labels, opt);
    EXPECT_EQ(read_text_file(out + "/M_node_labels.txt"), "0, 2\n1, 0\n0, 3\n1, 0\n");
    EXPECT_EQ(read_text_file(out + "/M_edge_labels.txt"), "7, 1\n7, 1\n7, 1\n7, 1\n");
    const TuDataset back = read_tu_dataset(out);
    EXPECT_EQ(back.label_rows, ds.label_rows);
    EXPECT_EQ(back.graphs, ds.graphs);
    opt.label_rows.node.pop_back();  // id 2 has no row any more
    EXPECT_THROW(write_tu_dataset(fresh_dir("multi_bad"), "M", ds.graphs, ds.graph_labels, opt), InvalidArgument);

    // Single-column files keep their integers and have no table; a bad column names file:line.
    const TuDataset small = read_tu_dataset(kSmall);
    EXPECT_TRUE(small.label_rows.empty());
    EXPECT_EQ(small.graphs[3].node_label(1), 5);
    const std::string bad = write_two_column_dataset("multi_badcol");
    write(bad + "/M_node_labels.txt", "0, 2\n1, x\n0, 3\n1, 0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(bad); }).find("M_node_labels.txt:2: node label 'x' is not an integer"),
              std::string::npos);
    write(bad + "/M_node_labels.txt", "0, 2\n1, 0\n0, 3\n1, 0\n");
    write(bad + "/M_edge_labels.txt", "7, 1\n7, 2\n7, 1\n7, 1\n");
    EXPECT_NE(error_of([&] {
                  read_tu_dataset(bad);
              }).find("M_edge_labels.txt:2: edge 1,2 has label 7, 2 here but label 7, 1"),
              std::string::npos);
}

TEST(TuFormat, AttributesExtraFilesAndOverwriteWithoutStaleFiles) {
    GraphBuilder b(2);
    b.add_edge(0, 1);
    b.set_node_labels({3, 4});
    const Graph g = b.build(), h = make_path(3);
    const std::string out = fresh_dir("attrs");
    TuWriteOptions opt;
    opt.node_attributes = {{0.25, -1}, {1e-3, 2}, {0, 0}, {1, 1}, {2, 2}};
    opt.extra_files = {{"notes.tsv", "a\tb\n"}};
    write_tu_dataset(out, "AT", {g, h}, {1, 0}, opt);
    const TuDataset ds = read_tu_dataset(out);
    ASSERT_EQ(ds.node_attributes.size(), 5u);
    EXPECT_EQ(ds.node_attributes[0], (std::vector<double>{0.25, -1}));
    EXPECT_EQ(ds.node_attributes[1][0], 1e-3);
    EXPECT_EQ(ds.graphs[0].node_label(1), 4);
    EXPECT_EQ(ds.graphs[1].node_label(1), 0);  // written as 0 for an unlabelled graph
    EXPECT_EQ(read_text_file(out + "/notes.tsv"), "a\tb\n");
    // Overwriting the same dataset without labels or attributes removes the stale optional files.
    write_tu_dataset(out, "AT", {h}, {});
    const TuDataset again = read_tu_dataset(out);
    EXPECT_EQ(again.graphs.size(), 1u);
    EXPECT_FALSE(again.has_node_labels);
    EXPECT_TRUE(again.node_attributes.empty());
    EXPECT_TRUE(again.graph_labels.empty());
    // Bad requests write nothing.
    const std::string none = fresh_dir("none");
    EXPECT_THROW(write_tu_dataset(none, "N", {g}, {1, 2}), InvalidArgument);
    opt.node_attributes.resize(1);
    EXPECT_THROW(write_tu_dataset(none, "N", {g}, {}, opt), InvalidArgument);
    EXPECT_FALSE(file_exists(none));
    // Two datasets in one directory: the name must be given.
    write_tu_dataset(out, "BT", {g}, {});
    EXPECT_THROW(read_tu_dataset(out), InvalidArgument);
    EXPECT_EQ(read_tu_dataset(out, "BT").graphs.size(), 1u);
    // Reading without optional files.
    TuReadOptions ro;
    ro.node_labels = false;
    ro.node_attributes = false;
    EXPECT_FALSE(read_tu_dataset(kSmall, "", ro).has_node_labels);
}

}  // namespace
}  // namespace brec
