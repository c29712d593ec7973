// The counting dataset directory: what write_counting_data writes (the exact header and rows of
// counts.tsv, the split files, meta.json) reads back unchanged, count columns are found by name,
// the writer refuses data the reader would reject and then writes nothing, and every malformed
// line is a ParseError naming file:line.
#include "brec/io/counting_data.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
    const std::string d = testing::temp_path("counting", name);
    fs::remove_all(d);
    return d;
}

CountingRow row(std::uint64_t first) {
    CountingRow r{};
    for (std::size_t k = 0; k < r.size(); ++k) r[k] = first + k;
    return r;
}

/// Three graphs: graph 1 in test, graphs 2 and 0 (in that order) in train, none in validation.
CountingData small_dataset() {
    CountingData d;
    d.graphs = {make_cycle(4), make_path(3), make_complete(4)};
    d.counts = {row(0), row(10), row(100)};
    d.train = {2, 0};
    d.test = {1};
    return d;
}

std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// The ParseError message of reading `dir` ("" when it reads).
std::string parse_error_of(const std::string& dir) {
    try {
        read_counting_data(dir);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "";
}

TEST(CountingData, WriteThenReadGivesTheSameDataset) {
    const std::string dir = fresh_dir("round_trip") + "/nested";
    const CountingData d = small_dataset();
    nlohmann::ordered_json meta;
    meta["kind"] = "test";
    meta["seed"] = 3;
    write_counting_data(d, dir, meta);
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"counts.tsv", "graphs.g6", "meta.json", "test.txt", "train.txt",
                                                      "validation.txt"}));
    const auto tsv = split_lines(read_text_file(dir + "/counts.tsv"));
    ASSERT_EQ(tsv.size(), 4u);
    EXPECT_EQ(tsv[0],
              "id\tsplit\tn\tm\t2-path\ttriangle\t3-path\t3-star\t4-cycle\ttailed-triangle\tchordal-cycle\t4-clique\t"
              "3-star-noninduced");
    EXPECT_EQ(tsv[2], "1\ttest\t3\t2\t10\t11\t12\t13\t14\t15\t16\t17\t18");
    EXPECT_EQ(read_text_file(dir + "/train.txt"), "2\n0\n");
    EXPECT_EQ(read_text_file(dir + "/validation.txt"), "");
    EXPECT_EQ(read_text_file(dir + "/meta.json"), "{\n \"kind\": \"test\",\n \"seed\": 3\n}\n");

    const CountingData back = read_counting_data(dir);
    EXPECT_EQ(back.dir, dir);
    EXPECT_EQ(back.graphs, d.graphs);
    EXPECT_EQ(back.counts, d.counts);
    EXPECT_EQ(back.train, d.train);
    EXPECT_TRUE(back.validation.empty());
    EXPECT_EQ(back.test, d.test);
}

TEST(CountingData, AGraphInNoSplitIsWrittenAsNoneAndReadsBack) {
    const std::string dir = fresh_dir("no_split");
    CountingData d = small_dataset();
    d.train = {2};  // graph 0 is in no split
    write_counting_data(d, dir, nlohmann::ordered_json::object());
    EXPECT_EQ(split_lines(read_text_file(dir + "/counts.tsv"))[1].rfind("0\tnone\t4\t4\t", 0), 0u);
    const CountingData back = read_counting_data(dir);
    EXPECT_EQ(back.counts, d.counts);
    EXPECT_EQ(back.train, (std::vector<std::size_t>{2}));
}

TEST(CountingData, CountColumnsAreFoundByName) {
    const std::string dir = fresh_dir("columns");
    write_counting_data(small_dataset(), dir, nlohmann::ordered_json::object());
    // The same counts with the split column dropped and the columns after the id reversed.
    std::string text;
    for (const std::string& line : split_lines(read_text_file(dir + "/counts.tsv"))) {
        std::vector<std::string> f;
        std::size_t start = 0;
        for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
            f.push_back(line.substr(start, tab - start));
        f.push_back(line.substr(start));
        f.erase(f.begin() + 1);
        std::reverse(f.begin() + 1, f.end());
        for (std::size_t k = 0; k < f.size(); ++k) text += (k ? "\t" : "") + f[k];
        text += "\n";
    }
    write_text_file_atomic(dir + "/counts.tsv", text);
    EXPECT_EQ(read_counting_data(dir).counts, small_dataset().counts);
}

TEST(CountingData, TheWriterRefusesWhatTheReaderWouldRejectAndWritesNothing) {
    const std::string dir = fresh_dir("refused");
    const auto refused = [&](const CountingData& d) {
        try {
            write_counting_data(d, dir, nlohmann::ordered_json::object());
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CountingData rows = small_dataset();
    rows.counts.pop_back();
    EXPECT_EQ(refused(rows), "counting dataset: 2 count rows for 3 graphs");
    CountingData range = small_dataset();
    range.test = {3};
    EXPECT_EQ(refused(range), "counting dataset: graph id 3 in split test is out of range 0..2");
    CountingData twice = small_dataset();
    twice.validation = {0};
    EXPECT_EQ(refused(twice), "counting dataset: graph 0 is listed twice (train, validation)");
    EXPECT_EQ(refused(CountingData{}), "a counting dataset needs at least one graph");
    EXPECT_FALSE(fs::exists(dir));
}

TEST(CountingData, MalformedLinesAreParseErrorsNamingFileAndLine) {
    const std::string dir = fresh_dir("malformed");
    write_counting_data(small_dataset(), dir, nlohmann::ordered_json::object());
    const std::string tsv = read_text_file(dir + "/counts.tsv");
    const auto lines = split_lines(tsv);

    // A count that is not a number, on the third line of counts.tsv.
    std::string bad =
        lines[0] + "\n" + lines[1] + "\n" + "1\ttest\t3\t2\t10\tmany\t12\t13\t14\t15\t16\t17\t18\n" + lines[3] + "\n";
    write_text_file_atomic(dir + "/counts.tsv", bad);
    EXPECT_EQ(parse_error_of(dir), dir + "/counts.tsv:3: expected a count of triangle");
    // A header without a count column.
    write_text_file_atomic(dir + "/counts.tsv", "id\tsplit\tn\tm\n");
    EXPECT_EQ(parse_error_of(dir), dir + "/counts.tsv:1: no column '2-path' in the header");
    // Two rows for one graph.
    write_text_file_atomic(dir + "/counts.tsv", tsv + lines[1] + "\n");
    EXPECT_EQ(parse_error_of(dir), dir + "/counts.tsv:5: graph 0 has two rows");
    write_text_file_atomic(dir + "/counts.tsv", tsv);

    // Split ids: out of range, and one graph in two splits.
    write_text_file_atomic(dir + "/test.txt", "1\n99\n");
    EXPECT_EQ(parse_error_of(dir), dir + "/test.txt:2: expected a graph id in 0..2, found '99'");
    write_text_file_atomic(dir + "/test.txt", "\n0\n");
    EXPECT_EQ(parse_error_of(dir), dir + "/test.txt:2: graph 0 is in two splits");
    write_text_file_atomic(dir + "/test.txt", "1\n");

    // A graph line that is not graph6.
    const std::string g6 = read_text_file(dir + "/graphs.g6");
    write_text_file_atomic(dir + "/graphs.g6", split_lines(g6)[0] + "\n\x01\x02\n");
    const std::string graph = parse_error_of(dir);
    EXPECT_EQ(graph.rfind(dir + "/graphs.g6:2:", 0), 0u) << graph;
    write_text_file_atomic(dir + "/graphs.g6", g6);
    EXPECT_EQ(parse_error_of(dir), "") << "the repaired files read";
}

TEST(CountingData, AMissingDirectoryOrFileIsAnIoError) {
    const std::string dir = fresh_dir("missing");
    EXPECT_EQ(testing::error_of([&] { read_counting_data(dir); }), "counting dataset " + dir + ": not a directory");
    write_counting_data(small_dataset(), dir, nlohmann::ordered_json::object());
    fs::remove(dir + "/validation.txt");
    try {
        read_counting_data(dir);
        FAIL() << "read without validation.txt";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(dir + "/validation.txt"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace brec
