#include "brec/io/collection.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

const std::string kData = std::string(BREC_SOURCE_DIR) + "/tests/data/";
const std::string kBrec = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";

std::string tmp(const std::string& name) { return testing::temp_path("coll", name); }

TEST(Collections, OfficialPairsThroughEveryFormatComeBackIdentical) {
    const GraphCollection brec = read_collection(kBrec, GraphFormat::pairs);
    ASSERT_EQ(brec.graphs.size(), 800u);
    ASSERT_TRUE(brec.paired);
    for (GraphFormat f : {GraphFormat::graph6, GraphFormat::sparse6, GraphFormat::edgelist, GraphFormat::tu,
                          GraphFormat::json, GraphFormat::pairs}) {
        const std::string path = tmp("all_" + format_name(f) + (f == GraphFormat::pairs ? ".tsv" : ""));
        write_collection(path, f, brec);
        EXPECT_EQ(detect_format(path), f) << format_name(f);
        const GraphCollection back = read_collection(path, f);
        EXPECT_EQ(back.graphs, brec.graphs) << format_name(f);
        // Formats with pair structure keep ids and categories.
        if (f == GraphFormat::json || f == GraphFormat::pairs) {
            EXPECT_TRUE(back.paired);
            EXPECT_EQ(back.pair_ids, brec.pair_ids);
            EXPECT_EQ(back.categories, brec.categories);
        }
    }
    const auto j = collection_to_json(brec);
    EXPECT_EQ(j["pairs"].size(), 400u);
    EXPECT_EQ(j["pairs"][0]["a"]["n"], 10);
    EXPECT_EQ(j["pairs"][399]["category"], "distance_regular");
}

TEST(Collections, LabelledGraphsKeepLabelsThroughTuAndJson) {
    GraphBuilder b(4);
    b.add_edge(0, 1, 2);
    b.add_edge(2, 3, 5);
    b.set_node_labels({7, 8, 9, 7});
    GraphCollection c;
    c.graphs = {b.build(), b.build()};
    c.graph_labels = {0, 1};
    for (GraphFormat f : {GraphFormat::tu, GraphFormat::json}) {
        const std::string path = tmp("labelled_" + format_name(f));
        write_collection(path, f, c);
        const GraphCollection back = read_collection(path, f);
        EXPECT_EQ(back.graphs, c.graphs) << format_name(f);
        EXPECT_EQ(back.graph_labels, c.graph_labels) << format_name(f);
    }
    CollectionOptions named;
    named.tu_name = "MYDS";
    const std::string dir = tmp("named_tu");
    write_collection(dir, GraphFormat::tu, c, named);
    EXPECT_TRUE(file_exists(dir + "/MYDS_A.txt"));
    EXPECT_EQ(read_collection(dir, GraphFormat::tu, named).graphs, c.graphs);
}

TEST(Collections, NpyInputAndUnsupportedOutputs) {
    CollectionOptions opt;
    opt.npy.category = "basic";
    const GraphCollection c = read_collection(kData + "npy/pairs_rows_S_v1.npy", GraphFormat::npy, opt);
    ASSERT_EQ(c.pair_ids.size(), 3u);
    EXPECT_EQ(c.categories[0], "basic");
    const auto brec = read_pair_file(kBrec);
    EXPECT_EQ(c.graphs[5], brec.pairs[2].b);
    EXPECT_THROW(write_collection(tmp("x.npy"), GraphFormat::npy, c), Unsupported);
    GraphCollection odd;
    odd.graphs = {make_path(2), make_path(3), make_path(4)};
    EXPECT_NE(
        error_of([&] { write_collection(tmp("odd.tsv"), GraphFormat::pairs, odd); }).find("even number of graphs"),
        std::string::npos);
    EXPECT_FALSE(file_exists(tmp("odd.tsv")));
}

TEST(Collections, FormatDetectionByExtensionAndContent) {
    auto write = [](const std::string& name, const std::string& text) {
        const std::string p = tmp(name);
        std::ofstream(p, std::ios::binary) << text;
        return p;
    };
    EXPECT_EQ(detect_format(write("a.txt", "# c\nC~\n")), GraphFormat::graph6);
    EXPECT_EQ(detect_format(write("b.txt", ">>sparse6<<:Fa@x^\n")), GraphFormat::sparse6);
    EXPECT_EQ(detect_format(write("c.txt", "0 1\n")), GraphFormat::edgelist);
    EXPECT_EQ(detect_format(write("d.txt", "0\tbasic\tC~\tC~\n")), GraphFormat::pairs);
    EXPECT_EQ(detect_format(write("e.txt", " {\"graphs\": []}")), GraphFormat::json);
    EXPECT_EQ(detect_format(write("f.dat", read_text_file(kData + "npy/pairs_flat_U_v1.npy"))), GraphFormat::npy);
    EXPECT_EQ(detect_format(write("G.G6", "C~\n")), GraphFormat::graph6);
    EXPECT_EQ(detect_format(kData + "tu_small"), GraphFormat::tu);
    EXPECT_NE(error_of([&] { detect_format(write("empty.txt", "")); }).find("empty"), std::string::npos);
    EXPECT_NE(error_of([&] { detect_format(kData + "npy"); }).find("not a TU dataset"), std::string::npos);
    EXPECT_THROW(detect_format("/no/such/input"), IoError);
    EXPECT_EQ(parse_format("S6"), GraphFormat::sparse6);
    EXPECT_EQ(parse_format("el"), GraphFormat::edgelist);
    EXPECT_NE(error_of([] { parse_format("xml"); }).find("unknown format 'xml'"), std::string::npos);
}

TEST(Collections, Graph6LinesWithHeadersAndErrors) {
    const std::string p = tmp("lines.g6");
    std::ofstream(p) << ">>graph6<<C~\n\n# comment\n:Fa@x^\n>>sparse6<<:Fa@x^\n";
    const auto gs = read_graph_lines(p);
    ASSERT_EQ(gs.size(), 3u);
    EXPECT_EQ(gs[0], make_complete(4));
    EXPECT_EQ(gs[1], gs[2]);
    std::ofstream(p) << "C~\nC~~\n";
    EXPECT_NE(error_of([&] { read_graph_lines(p); }).find(p + ":2:"), std::string::npos);
    std::ofstream(p) << "";
    EXPECT_NE(error_of([&] { read_graph_lines(p); }).find("no graphs found"), std::string::npos);
}

}  // namespace
}  // namespace brec
