#include "brec/io/dataset_json.hpp"

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

std::string err(const std::string& text) {
    return error_of([&] { parse_dataset_json(text, "d.json"); });
}

Graph labelled_graph() {
    GraphBuilder b(4);
    b.add_edge(2, 1, 9);
    b.add_edge(0, 1, 7);
    b.set_node_labels({1, 1, 2, 0});
    return b.build();
}

TEST(DatasetJson, GraphObjectHasTheDocumentedShape) {
    const auto j = graph_to_json(labelled_graph());
    EXPECT_EQ(j, nlohmann::json::parse(
                     R"({"n": 4, "edges": [[0, 1], [1, 2]], "edge_labels": [7, 9], "node_labels": [1, 1, 2, 0]})"));
    const auto plain = graph_to_json(make_path(3));
    EXPECT_FALSE(plain.contains("edge_labels"));
    EXPECT_FALSE(plain.contains("node_labels"));
    EXPECT_EQ(graph_from_json(j, "x"), labelled_graph());
}

TEST(DatasetJson, GraphsAndPairsRoundTripThroughFiles) {
    Rng rng(4);
    const std::vector<Graph> graphs{labelled_graph(), testing::random_graph(12, 0.3, rng), Graph(),
                                    GraphBuilder(2).build()};
    const std::string path = ::testing::TempDir() + "brec_json_" + std::to_string(::getpid()) + ".json";
    write_json_file(path, graphs_to_json(graphs, {3, 1, 4, 1}));
    const JsonDataset back = read_dataset_json(path);
    EXPECT_FALSE(back.paired);
    EXPECT_EQ(back.graphs, graphs);
    EXPECT_EQ(back.graph_labels, (std::vector<Label>{3, 1, 4, 1}));
    EXPECT_EQ(nlohmann::json::parse(read_text_file(path))["format"], "brec-dataset");

    std::vector<GraphPairRecord> pairs(2);
    pairs[0] = {5, "cfi", testing::rook_4x4(), testing::shrikhande(), 0};
    pairs[1] = {9, "basic", make_cycle(6), make_path(6), 0};
    write_json_file(path, pairs_to_json(pairs));
    const JsonDataset p = read_dataset_json(path);
    ASSERT_TRUE(p.paired);
    ASSERT_EQ(p.pairs.size(), 2u);
    EXPECT_EQ(p.pairs[0].id, 5);
    EXPECT_EQ(p.pairs[0].category, "cfi");
    EXPECT_EQ(p.pairs[0].b, testing::shrikhande());
    EXPECT_EQ(p.pairs[1].a, make_cycle(6));
    EXPECT_THROW(graphs_to_json(graphs, {1}), InvalidArgument);
}

TEST(DatasetJson, ErrorsNameLineColumnOrJsonPath) {
    EXPECT_NE(err("{\n  \"graphs\": [\n    {\"n\": 2,, }\n]}").find("d.json:3:"), std::string::npos);
    EXPECT_NE(err("[]").find("expected a JSON object"), std::string::npos);
    EXPECT_NE(err("{}").find("exactly one of \"graphs\" and \"pairs\""), std::string::npos);
    EXPECT_NE(err(R"({"format": "other", "graphs": []})").find("\"format\" is \"other\""), std::string::npos);
    EXPECT_NE(err(R"({"version": 2, "graphs": []})").find("unsupported \"version\" 2"), std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"edges": []}]})").find("d.json: /graphs/0: graph has no \"n\""), std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 2, "edges": [[0, 2]]}]})")
                  .find("/graphs/0/edges/0: edge [0, 2] has a vertex id out of range"),
              std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 2, "edges": [[1, 1]]}]})").find("self-loop"), std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 2, "edges": [[0, 1], [1, 0]]}]})").find("duplicate edge"), std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 2, "edges": [[0, "a"]]}]})").find("expected an integer vertex id"),
              std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 2, "edges": [], "node_labels": [1]}]})").find("one label per vertex (2)"),
              std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 2, "edges": [[0, 1]], "edge_labels": []}]})").find("one label per edge (1)"),
              std::string::npos);
    EXPECT_NE(err(R"({"graphs": [{"n": 1, "edges": [], "label": 1}, {"n": 1, "edges": []}]})")
                  .find("either every graph has a \"label\""),
              std::string::npos);
    const std::string pair = R"({"id": 1, "category": "x", "a": {"n": 1, "edges": []}, "b": {"n": 1, "edges": []}})";
    EXPECT_NE(err("{\"pairs\": [" + pair + ", " + pair + "]}").find("pair id 1 is repeated"), std::string::npos);
    EXPECT_NE(err(R"({"pairs": [{"id": 1}]})").find("/pairs/0: expected a pair"), std::string::npos);
}

TEST(DatasetJson, MultiColumnLabelRowsRoundTrip) {
    LabelRows rows;
    rows.node = {{0, 2}, {1, 0}, {0, 3}};
    rows.edge = {{4, 1}, {4, 9}};
    GraphBuilder b(3);
    b.add_edge(0, 1, 1);
    b.add_edge(1, 2, 0);
    b.set_node_labels({2, 0, 1});
    const std::vector<Graph> graphs{b.build()};
    const nlohmann::json j = graphs_to_json(graphs, {5}, rows);
    EXPECT_EQ(j["node_label_rows"], nlohmann::json::parse("[[0, 2], [1, 0], [0, 3]]"));
    EXPECT_EQ(j["edge_label_rows"], nlohmann::json::parse("[[4, 1], [4, 9]]"));
    const JsonDataset back = parse_dataset_json(j.dump(), "d.json");
    EXPECT_EQ(back.graphs, graphs);
    EXPECT_EQ(back.label_rows, rows);
    EXPECT_FALSE(graphs_to_json(graphs).contains("node_label_rows"));
    EXPECT_TRUE(parse_dataset_json(graphs_to_json(graphs).dump(), "d.json").label_rows.empty());
    // Label ids must have rows; rows must be non-empty arrays of integers.
    nlohmann::json short_table = j;
    short_table["node_label_rows"] = nlohmann::json::parse("[[0, 2], [1, 0]]");
    EXPECT_NE(err(short_table.dump())
                  .find("d.json: /graphs/0/node_labels: node label 2 has no row in \"node_label_rows\" (2 rows)"),
              std::string::npos)
        << err(short_table.dump());
    nlohmann::json bad_row = j;
    bad_row["edge_label_rows"] = nlohmann::json::parse("[[4, 1], [\"x\"]]");
    EXPECT_NE(err(bad_row.dump()).find("/edge_label_rows/1: expected an integer label column"), std::string::npos);
    bad_row["edge_label_rows"] = nlohmann::json::parse("[[4, 1], []]");
    EXPECT_NE(err(bad_row.dump()).find("/edge_label_rows/1: expected a label row"), std::string::npos);
}

TEST(DatasetJson, NlohmannExceptionsBecomeParseErrorsWithAPosition) {
    // The fuzzing reproducer: a number beyond the range of a double makes nlohmann throw
    // out_of_range, not parse_error; it escaped the reader ("internal error", exit 1).
    const std::string repro = read_text_file(std::string(BREC_SOURCE_DIR) + "/tests/fuzz/corpus/json/json-abort.bin");
    const std::string e = err(repro);
    EXPECT_NE(e.find("d.json:1:"), std::string::npos) << e;
    EXPECT_NE(e.find("invalid JSON: number overflow parsing '4.4"), std::string::npos) << e;
    EXPECT_EQ(e.find("json.exception"), std::string::npos) << e;
    EXPECT_NE(err("{\"graphs\": [\n  {\"n\": 4.4e444400, \"edges\": []}]}").find("d.json:2:"), std::string::npos);
    EXPECT_NE(err("{\"pairs\": [-1e400]}").find("number overflow parsing '-1e400'"), std::string::npos);
    // Syntax errors keep their line and column, without nlohmann's own position text.
    EXPECT_NE(err("{\"graphs\": [\n  {\"n\": 2,, }]}").find("d.json:2:11: invalid JSON: syntax error while parsing"),
              std::string::npos)
        << err("{\"graphs\": [\n  {\"n\": 2,, }]}");
    EXPECT_THROW(parse_json_document("[1e400]", "x.json"), ParseError);
    EXPECT_EQ(parse_json_document("[1e300]", "x.json")[0], 1e300);
}

}  // namespace
}  // namespace brec
