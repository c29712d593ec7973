#include "brec/io/tu.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
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

/// Every graph of a dataset through TuGraphReader, `batch` graphs at a time.
struct Streamed {
    std::vector<Graph> graphs;
    TuStats stats;
    std::vector<Label> graph_labels;
    bool node_labels = false, edge_labels = false;
};
Streamed read_streamed(const std::string& dir, std::size_t batch, const TuReadOptions& opt = {}) {
    TuGraphReader reader(dir, "", opt);
    Streamed s;
    std::vector<Graph> part;
    while (reader.next(batch, part, 64))
        for (auto& g : part) s.graphs.push_back(std::move(g));
    EXPECT_TRUE(part.empty());
    s.stats = reader.stats();
    s.graph_labels = reader.graph_labels();
    s.node_labels = reader.has_node_labels();
    s.edge_labels = reader.has_edge_labels();
    return s;
}

/// The streamed dataset is the whole-file one: same graphs and edges, labels equal up to one
/// renaming of the label values across the dataset, same statistics.
void expect_same_dataset(const TuDataset& ds, const Streamed& s) {
    ASSERT_EQ(s.graphs.size(), ds.graphs.size());
    EXPECT_EQ(s.graph_labels, ds.graph_labels);
    EXPECT_EQ(s.node_labels, ds.has_node_labels);
    EXPECT_EQ(s.edge_labels, ds.has_edge_labels);
    std::map<Label, Label> node_map, edge_map, node_back, edge_back;  // both directions: a bijection
    auto same = [](std::map<Label, Label>& to, std::map<Label, Label>& back, Label x, Label y) {
        return to.emplace(x, y).first->second == y && back.emplace(y, x).first->second == x;
    };
    for (std::size_t i = 0; i < ds.graphs.size(); ++i) {
        const Graph &g = ds.graphs[i], &h = s.graphs[i];
        ASSERT_EQ(h.n(), g.n()) << i;
        ASSERT_EQ(h.edges(), g.edges()) << i;
        ASSERT_EQ(h.has_node_labels(), g.has_node_labels()) << i;
        ASSERT_EQ(h.has_edge_labels(), g.has_edge_labels()) << i;
        for (VertexId v = 0; g.has_node_labels() && v < g.n(); ++v)
            ASSERT_TRUE(same(node_map, node_back, g.node_label(v), h.node_label(v))) << i << " " << v;
        for (const auto& [u, v] : g.edges()) {
            if (g.has_edge_labels()) {
                ASSERT_TRUE(same(edge_map, edge_back, g.edge_label(u, v), h.edge_label(u, v))) << i;
            }
        }
    }
    const TuStats &a = ds.stats, &b = s.stats;
    EXPECT_EQ(
        std::tie(a.graphs, a.nodes, a.edge_lines, a.edges, a.self_loops, a.duplicate_edge_lines, a.one_direction_edges,
                 a.isolated_nodes, a.graphs_with_self_loops, a.graphs_with_duplicates, a.max_nodes, a.max_edges),
        std::tie(b.graphs, b.nodes, b.edge_lines, b.edges, b.self_loops, b.duplicate_edge_lines, b.one_direction_edges,
                 b.isolated_nodes, b.graphs_with_self_loops, b.graphs_with_duplicates, b.max_nodes, b.max_edges));
}

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
    // The streaming reader rejects each of them too (the attributes it does not read).
    for (const std::string& bad : {cols, range, negative, across, labels, word, empty, gap, nl, el, gid})
        EXPECT_ANY_THROW(read_streamed(bad, 3)) << bad;
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

TEST(TuStream, GraphByGraphEqualsTheWholeFileRead) {
    const std::string dedup = std::string(BREC_SOURCE_DIR) + "/tests/data/tu_dedup";
    for (const std::string& dir : {kSmall, dedup})
        for (std::size_t batch : {1u, 2u, 1000u}) expect_same_dataset(read_tu_dataset(dir), read_streamed(dir, batch));
    // Many random graphs with isolated nodes, node labels and multi-column edge labels, plus
    // repeated, one-direction and self-loop lines and blank lines in the edge file.
    Rng rng(8);
    std::vector<Graph> graphs;
    std::vector<Label> labels;
    for (int k = 0; k < 300; ++k) {
        const auto n = static_cast<VertexId>(1 + rng.below(25));
        GraphBuilder b(n);
        for (VertexId u = 0; u < n; ++u)
            for (VertexId v = u + 1; v < n; ++v)
                if (rng.bernoulli(0.2)) b.add_edge(u, v, static_cast<Label>(rng.below(3)));
        std::vector<Label> nl(n);
        for (auto& x : nl) x = static_cast<Label>(rng.below(4)) * 10 - 5;
        b.set_node_labels(nl);
        graphs.push_back(b.build());
        labels.push_back(static_cast<Label>(rng.below(2)));
    }
    TuWriteOptions wo;
    wo.label_rows.edge = {{1, 1}, {2, 0}, {0, 7}};
    const std::string d = fresh_dir("stream");
    write_tu_dataset(d, "R", graphs, labels, wo);
    std::string a = read_text_file(d + "/R_A.txt"), el = read_text_file(d + "/R_edge_labels.txt");
    // Graph 1's first line repeated (same label), a self-loop of its node 1, a blank line.
    const std::size_t first_end = a.find('\n') + 1, el_end = el.find('\n') + 1;
    a = a.substr(0, first_end) + a.substr(0, first_end) + "1, 1\n\n" + a.substr(first_end);
    el = el.substr(0, el_end) + el.substr(0, el_end) + "0, 7\n\n" + el.substr(el_end);
    write(d + "/R_A.txt", a);
    write(d + "/R_edge_labels.txt", el);
    const TuDataset whole = read_tu_dataset(d);
    EXPECT_EQ(whole.stats.self_loops, 1u);
    EXPECT_EQ(whole.stats.duplicate_edge_lines, 1u);
    for (std::size_t batch : {1u, 7u, 100000u}) expect_same_dataset(whole, read_streamed(d, batch));
    TuReadOptions no_labels;
    no_labels.node_labels = no_labels.edge_labels = false;
    expect_same_dataset(read_tu_dataset(d, "", no_labels), read_streamed(d, 5, no_labels));
}

TEST(TuStream, FilesNotStoredGraphByGraphAreAnOrderErrorNotAParseError) {
    const std::string d = fresh_dir("order");
    ::mkdir(d.c_str(), 0755);
    // Graph ids 2, 1, 2: valid for the whole-file reader, which numbers nodes per graph.
    write(d + "/X_graph_indicator.txt", "2\n1\n2\n");
    write(d + "/X_A.txt", "1, 3\n3, 1\n");
    EXPECT_EQ(read_tu_dataset(d).graphs[1].m(), 1u);
    EXPECT_THROW(read_streamed(d, 10), TuOrderError);
    // Nodes in graph order, but an edge of graph 1 after one of graph 2.
    write(d + "/X_graph_indicator.txt", "1\n1\n2\n2\n");
    write(d + "/X_A.txt", "3, 4\n1, 2\n");
    EXPECT_EQ(read_tu_dataset(d).stats.edges, 2u);
    EXPECT_THROW(read_streamed(d, 10), TuOrderError);
    // In order: read.
    write(d + "/X_A.txt", "1, 2\n3, 4\n");
    EXPECT_EQ(read_streamed(d, 10).stats.edges, 2u);
}

}  // namespace
}  // namespace brec
