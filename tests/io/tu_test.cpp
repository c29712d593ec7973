#include "brec/io/tu.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <functional>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/iso/iso.hpp"

namespace brec {
namespace {

const std::string kSmall = std::string(BREC_SOURCE_DIR) + "/tests/data/tu_small";

std::string fresh_dir(const std::string& name) {
    const std::string d = ::testing::TempDir() + "brec_tu_" + std::to_string(::getpid()) + "_" + name;
    std::system(("rm -rf '" + d + "'").c_str());
    return d;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
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
    EXPECT_EQ(ds.stats.duplicate_edges, 1u);
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
    EXPECT_EQ(back.stats.duplicate_edges, 0u);
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
    EXPECT_NE(error_of([&] { read_tu_dataset(range); }).find("X_A.txt:2: node id 9 out of range [1,2]"), std::string::npos);
    const std::string negative = make("negative", "1, -2\n", "1\n1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(negative); }).find("node id -2 out of range"), std::string::npos);
    const std::string across = make("across", "1, 2\n", "1\n2\n", "0\n1\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(across); }).find("joins graphs 1 and 2"), std::string::npos);
    const std::string labels = make("labels", "1, 2\n", "1\n1\n", "0\n1\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(labels); }).find("2 labels for 1 graphs"), std::string::npos);
    const std::string word = make("word", "1, x\n", "1\n1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(word); }).find("'x' is not an integer"), std::string::npos);
    const std::string empty = make("emptyA", "", "1\n", "0\n");
    EXPECT_NE(error_of([&] { read_tu_dataset(empty); }).find("X_A.txt: file is empty"), std::string::npos);
    const std::string noind = make("noind", "1, 2\n", "", "");
    EXPECT_NE(error_of([&] { read_tu_dataset(noind); }).find("cannot open"), std::string::npos);
    EXPECT_THROW(read_tu_dataset("/nonexistent/dir"), IoError);
}

}  // namespace
}  // namespace brec
