// The streaming graph-line reader and the graph6 -> bit rows parser, against the whole-file reader
// and the CSR parser.
#include <gtest/gtest.h>

#include <fstream>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/io/collection.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/graph_lines.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

TEST(Graph6Rows, EqualTheCsrParserOnRandomGraphs) {
    Rng rng(11);
    DenseRows rows;  // reused across records, as the streaming reader does
    for (VertexId n : {0u, 1u, 2u, 5u, 9u, 62u, 63u, 64u, 65u, 100u, 129u}) {
        for (double p : {0.0, 0.2, 0.9}) {
            const Graph g = testing::random_graph(n, p, rng);
            const std::string text = to_graph6(g);
            parse_graph6_rows(text, rows, SourcePos{"x", 1});
            EXPECT_EQ(graph_from_rows(rows), parse_graph6(text)) << n << " " << p;
        }
    }
    parse_graph6_rows(">>graph6<<" + to_graph6(testing::random_graph(7, 0.5, rng)), rows);
    EXPECT_EQ(rows.n, 7u);
}

TEST(Graph6Rows, RejectsWhatTheCsrParserRejectsWithItsMessage) {
    const SourcePos pos{"lines.g6", 7};
    DenseRows rows;
    for (const std::string bad : {"ICZJvZs", "ICZJv!sNg", "ICZJvZsNgXX", "", "A`", ":Fa@x^", "ICZJv\x01ZsNg"}) {
        const std::string want = error_of([&] { parse_graph6(bad, pos); });
        ASSERT_FALSE(want.empty()) << bad;
        EXPECT_EQ(error_of([&] { parse_graph6_rows(bad, rows, pos); }), want) << bad;
    }
}

TEST(GraphLineReader, RecordsAndLineNumbersMatchTheWholeFileReader) {
    Rng rng(3);
    std::string text = "# a comment\n\n";
    std::vector<std::int64_t> lines;
    std::int64_t line = 2;
    for (int k = 0; k < 300; ++k) {
        const Graph g = testing::random_graph(static_cast<VertexId>(rng.below(40)), 0.3, rng);
        text += (k % 3 == 0 ? "  " + to_sparse6(g) + "\r\n" : to_graph6(g) + "\n");
        lines.push_back(++line);
        if (k % 50 == 0) {
            text += "   \n# comment\n";
            line += 2;
        }
    }
    text += to_graph6(testing::random_graph(5, 0.5, rng));  // a last line without a newline
    lines.push_back(++line);
    const std::string path = testing::fresh_temp_file("graph_lines", "mixed.g6");
    write_file(path, text);
    const std::vector<Graph> all = read_graph_lines(path);
    ASSERT_EQ(all.size(), lines.size());
    GraphLineReader reader(path);
    GraphLineReader::Batch batch;
    std::size_t seen = 0;
    while (reader.next(7, batch)) {
        EXPECT_LE(batch.size(), 7u);
        for (std::size_t k = 0; k < batch.size(); ++k, ++seen) {
            EXPECT_EQ(batch.line[k], lines[seen]);
            EXPECT_EQ(parse_graph6_or_sparse6(batch.record(k)), all[seen]) << seen;
        }
    }
    EXPECT_EQ(seen, all.size());
    // A byte cap ends a batch after the record that reaches it.
    GraphLineReader capped(path);
    ASSERT_TRUE(capped.next(1000, batch, 50));
    EXPECT_GE(batch.text.size(), 50u);
    EXPECT_LT(batch.text.size() - (batch.begin[batch.size()] - batch.begin[batch.size() - 1]), 50u);
    EXPECT_TRUE(reader.at_end());
    EXPECT_EQ(reader.bytes_consumed(), text.size());
    EXPECT_EQ(reader.file_size(), text.size());
    // Some records by index.
    const auto some = read_graph_lines_at(path, {0, 1, 150, all.size() - 1});
    ASSERT_EQ(some.size(), 4u);
    EXPECT_EQ(some[2], all[150]);
    EXPECT_EQ(some[3], all.back());
    EXPECT_NE(error_of([&] { read_graph_lines_at(path, {all.size()}); }).find("no graph"), std::string::npos);
}

TEST(GraphLineReader, MissingFilesAndDirectoriesAreIoErrors) {
    EXPECT_THROW(GraphLineReader("/nonexistent/x.g6"), IoError);
    EXPECT_THROW(GraphLineReader(::testing::TempDir()), IoError);
}

}  // namespace
}  // namespace brec
