#include "brec/io/graph6.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

std::string brec_file() { return std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv"; }

TEST(Graph6, KnownEncodings) {
    // Values from nauty's formats.txt and networkx: K4 is "C~", the empty graph on 0 vertices "?".
    EXPECT_EQ(to_graph6(make_complete(4)), "C~");
    EXPECT_EQ(to_graph6(Graph()), "?");
    EXPECT_EQ(to_graph6(make_complete(1)), "@");
    EXPECT_EQ(to_graph6(make_petersen()).size(), 1u + 8u);  // 45 bits -> 8 bytes
    EXPECT_EQ(parse_graph6("C~"), make_complete(4));
    EXPECT_EQ(parse_graph6(">>graph6<<C~"), make_complete(4));
    EXPECT_EQ(parse_graph6("C~\r\n"), make_complete(4));
}

TEST(Graph6, RoundTripOfAllOfficialGraphs) {
    const auto lines = read_pair_file(brec_file());
    ASSERT_EQ(lines.pairs.size(), 400u);
    // The file's own strings must come back byte for byte.
    const std::string text = [] {
        std::ifstream in(brec_file());
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }();
    std::size_t checked = 0;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream cols(line);
        std::string id, cat, a, b;
        std::getline(cols, id, '\t');
        std::getline(cols, cat, '\t');
        std::getline(cols, a, '\t');
        std::getline(cols, b, '\t');
        for (const std::string& s : {a, b}) {
            const Graph g = parse_graph6(s);
            EXPECT_EQ(to_graph6(g), s);
            EXPECT_EQ(parse_sparse6(to_sparse6(g)), g);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 800u);
}

TEST(Graph6, SizeFieldForms) {
    for (VertexId n : {0u, 1u, 2u, 62u, 63u, 64u, 200u}) {
        Rng rng(n);
        const Graph g = testing::random_graph(n, 0.3, rng);
        const std::string s = to_graph6(g);
        if (n <= 62)
            EXPECT_EQ(static_cast<unsigned char>(s[0]), n + 63);
        else
            EXPECT_EQ(s[0], '~');
        EXPECT_EQ(parse_graph6(s), g) << n;
        EXPECT_EQ(parse_sparse6(to_sparse6(g)), g) << n;
    }
    // The 4-byte form's largest size and the 8-byte form, through sparse6 (dense graph6 of
    // 258047 vertices would be 5.5 GB).
    for (VertexId n : {258047u, 258048u}) {
        GraphBuilder b(n);
        b.add_edge(0, n - 1);
        b.add_edge(5, 77777);
        const Graph g = b.build();
        const std::string s = to_sparse6(g);
        EXPECT_EQ(s[1], '~');
        if (n == 258048u)
            EXPECT_EQ(s[2], '~');  // 8-byte form
        else
            EXPECT_NE(s[2], '~');
        EXPECT_EQ(parse_sparse6(s), g);
    }
    // Header of a graph6 record with n = 258047 decodes (then fails as truncated, not as bad size).
    const std::string head = "~" + std::string(1, static_cast<char>(63 + 62)) +
                             std::string(1, static_cast<char>(63 + 63)) + std::string(1, static_cast<char>(63 + 63));
    EXPECT_NE(error_of([&] { parse_graph6(head + "??"); }).find("n=258047"), std::string::npos);
}

TEST(Sparse6, KnownEncodingAndRoundTrips) {
    // Example of nauty's formats.txt: ":Fa@x^" is the graph on 7 vertices with edges
    // 0-1 0-2 1-2 5-6.
    const Graph g = parse_sparse6(":Fa@x^");
    EXPECT_EQ(g.n(), 7u);
    EXPECT_EQ(g.edges(), (std::vector<Edge>{{0, 1}, {0, 2}, {1, 2}, {5, 6}}));
    EXPECT_EQ(to_sparse6(g), ":Fa@x^");
    Rng rng(11);
    for (int t = 0; t < 200; ++t) {
        const Graph r = testing::random_graph(static_cast<VertexId>(rng.below(40)), rng.uniform(), rng);
        EXPECT_EQ(parse_sparse6(to_sparse6(r)), r);
        EXPECT_EQ(parse_graph6_or_sparse6(to_sparse6(r)), r);
        EXPECT_EQ(parse_graph6_or_sparse6(to_graph6(r)), r);
    }
}

TEST(Graph6, MalformedInputsNameSourceLineAndProblem) {
    const SourcePos pos{"pairs.tsv", 41};
    const std::string truncated = error_of([&] { parse_graph6("ICZJvZs", pos); });
    EXPECT_NE(truncated.find("pairs.tsv:41"), std::string::npos);
    EXPECT_NE(truncated.find("truncated"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_graph6("ICZJv!sNg", pos); }).find("bad character"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_graph6("ICZJvZsNgXX", pos); }).find("trailing bytes"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_graph6("", pos); }).find("empty"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_graph6("A`", pos); }).find("padding"), std::string::npos);  // n=2: 1 bit
    EXPECT_NE(error_of([&] { parse_graph6(":Fa@x^", pos); }).find("sparse6"), std::string::npos);
    EXPECT_NE(error_of([&] { parse_sparse6("Fa@x^", pos); }).find("must start with ':'"), std::string::npos);
    EXPECT_THROW(parse_graph6("ICZJv\x01ZsNg", pos), ParseError);
}

TEST(Sparse6, ByteIdenticalToNautyAndAcceptsNetworkxPadding) {
    // 334 graphs (random G(n,p) for n = 0..129 and all 64 graphs on 4 vertices): graph6 by
    // networkx, sparse6 by nauty 2.8.6's copyg; networkx pads differently in 7 of them.
    const std::string path = std::string(BREC_SOURCE_DIR) + "/tests/data/graph6/nauty_sparse6.tsv";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::string line;
    std::size_t checked = 0, nx_variants = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream cols(line);
        std::string g6, s6, nx;
        std::getline(cols, g6, '\t');
        std::getline(cols, s6, '\t');
        std::getline(cols, nx, '\t');
        const Graph g = parse_graph6(g6);
        EXPECT_EQ(to_graph6(g), g6);
        EXPECT_EQ(to_sparse6(g), s6) << g6;
        EXPECT_EQ(parse_sparse6(s6), g) << s6;
        if (nx != "-") {
            EXPECT_EQ(parse_sparse6(nx), g) << nx;
            EXPECT_NE(nx, s6);
            ++nx_variants;
        }
        ++checked;
    }
    EXPECT_EQ(checked, 334u);
    EXPECT_EQ(nx_variants, 7u);
}

TEST(Graph6, SizeFieldBytesOfEveryForm) {
    // n <= 62: one byte n + 63; 63 <= n <= 258047: '~' and 18 bits; above: "~~" and 36 bits.
    EXPECT_EQ(to_graph6(GraphBuilder(62).build()).substr(0, 1), std::string(1, static_cast<char>(62 + 63)));
    EXPECT_EQ(to_graph6(GraphBuilder(63).build()).substr(0, 4), "~??~");  // 63 = 000000 000000 111111
    EXPECT_EQ(to_sparse6(GraphBuilder(258047).build()), ":~}~~");         // 111110 111111 111111
    EXPECT_EQ(to_sparse6(GraphBuilder(258048).build()), ":~~???~??");     // 36 bits, 258048 = 63 * 2^12
    EXPECT_EQ(parse_sparse6(":~}~~").n(), 258047u);
    EXPECT_EQ(parse_sparse6(":~~???~??").n(), 258048u);
    // Non-canonical longer forms of a small n are accepted, as nauty does.
    EXPECT_EQ(parse_graph6("~??C~"), make_complete(4));
    EXPECT_EQ(parse_graph6("~~?????C~"), make_complete(4));
    // Dense headers of large n are parsed (and then the data is missing), without allocating.
    EXPECT_NE(error_of([] { parse_graph6("~~???~??"); }).find("n=258048"), std::string::npos);
    EXPECT_NE(error_of([] { parse_graph6("~~?"); }).find("truncated graph6 size field"), std::string::npos);
    // Size-field errors point at the first missing or bad byte (columns are 1-based).
    const SourcePos pos{"f.g6", 3};
    EXPECT_EQ(error_of([&] { parse_graph6("~~?", pos); }), "f.g6:3:4: truncated graph6 size field");
    EXPECT_EQ(error_of([&] { parse_graph6("~?!?", pos); }),
              "f.g6:3:3: bad character in graph6 size field (byte 33, expected 63..126)");
    EXPECT_EQ(error_of([&] { parse_sparse6(":~~?\?!", pos); }),
              "f.g6:3:6: bad character in sparse6 size field (byte 33, expected 63..126)");
    EXPECT_THROW(parse_graph6("~~~~~~~~"), ResourceLimit);    // 2^36 - 1 vertices
    EXPECT_THROW(parse_sparse6(":~~~~~~~~"), ResourceLimit);  // no 2^36-vertex allocation
}

TEST(Sparse6, LargeGraphsRoundTripInAllSizeForms) {
    // Random sparse graphs across the 4-byte/8-byte boundary, with the last vertex both isolated and
    // not (the sparse6 padding rule depends on the last edge).
    Rng rng(99);
    for (VertexId n : {63u, 64u, 4096u, 258047u, 258048u, 300000u}) {
        for (int variant = 0; variant < 2; ++variant) {
            GraphBuilder b(n);
            b.set_duplicates(EdgePolicy::drop);
            for (int e = 0; e < 2000; ++e) {
                const auto u = static_cast<VertexId>(rng.below(n - 1));
                const auto v = static_cast<VertexId>(rng.below(n - 1));
                if (u != v) b.add_edge(u, v);
            }
            if (variant) b.add_edge(0, n - 1);
            const Graph g = b.build();
            const std::string s = to_sparse6(g);
            EXPECT_EQ(parse_sparse6(s), g) << n;
            EXPECT_EQ(to_sparse6(parse_sparse6(s)), s) << n;
        }
    }
}

TEST(Graph6, RejectsSparse6SelfLoopsAndMultiEdges) {
    // nauty's sparse6 allows loops and multi-edges; brec graphs are simple.
    EXPECT_NE(error_of([] { parse_sparse6(":AN"); }).find("self-loop"), std::string::npos);  // loop at 0
    EXPECT_NE(error_of([] { parse_sparse6(":B_"); }).find("not a simple graph"), std::string::npos);
    EXPECT_NE(error_of([] { parse_sparse6(";Fa@x^"); }).find("incremental"), std::string::npos);
    EXPECT_NE(error_of([] { parse_sparse6(":F\x01"); }).find("bad character in sparse6 data"), std::string::npos);
}

TEST(PairFile, ParsesAndRejectsBadLines) {
    const auto ds = parse_pair_text("# comment\n0\tbasic\tC~\tCr\n\n7\tcfi\tBw\tBg\n", "x.tsv");
    ASSERT_EQ(ds.pairs.size(), 2u);
    EXPECT_EQ(ds.pairs[1].id, 7);
    EXPECT_EQ(ds.pairs[1].line, 4);
    EXPECT_NE(
        error_of([] { parse_pair_text("0\tbasic\tC~\n", "x.tsv"); }).find("x.tsv:1: expected 4 tab-separated columns"),
        std::string::npos);
    EXPECT_NE(error_of([] { parse_pair_text("-3\tbasic\tC~\tC~\n", "x.tsv"); }).find("negative"), std::string::npos);
    EXPECT_NE(error_of([] { parse_pair_text("a\tbasic\tC~\tC~\n", "x.tsv"); }).find("not an integer"),
              std::string::npos);
    EXPECT_NE(error_of([] {
                  parse_pair_text("1\tbasic\tC~\tC~\n1\tbasic\tC~\tC~\n", "x.tsv");
              }).find("x.tsv:2: pair id 1 is repeated"),
              std::string::npos);
    EXPECT_NE(error_of([] { parse_pair_text("", "x.tsv"); }).find("no pairs"), std::string::npos);
    EXPECT_NE(error_of([] { parse_pair_text("1\tbasic\tC~\tC\n", "x.tsv"); }).find("x.tsv:1"), std::string::npos);
    EXPECT_THROW(read_pair_file("/nonexistent/file.tsv"), IoError);
    // Indented comments are comments; errors inside a graph give the column within the line.
    EXPECT_EQ(parse_pair_text("  # indented comment\n0\tbasic\tC~\tCr\n", "x.tsv").pairs.size(), 1u);
    const std::string col = error_of([] { parse_pair_text("10\tbasic\tC~\tC!\n", "x.tsv"); });
    EXPECT_NE(col.find("x.tsv:1:14: column 4 (graph6_b): bad character"), std::string::npos) << col;
}

/// What PairFileReader reads (ids, categories, lines and graphs of the selected pairs, `batch` at a
/// time), or its error message.
std::string streamed_pairs(const std::string& path, const PairSelection& sel, std::size_t batch) {
    try {
        PairFileReader reader(path, sel);
        std::vector<GraphPairRecord> part;
        std::string out;
        while (reader.next(batch, part, 40))
            for (const auto& p : part)
                out += std::to_string(p.id) + " " + p.category + " " + std::to_string(p.line) + " " + to_graph6(p.a) +
                       " " + to_graph6(p.b) + "\n";
        EXPECT_TRUE(reader.at_end());
        return out;
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}

/// The same from read_pair_file and select_pairs.
std::string whole_pairs(const std::string& path, const PairSelection& sel) {
    try {
        const PairDataset ds = read_pair_file(path);
        std::string out;
        for (std::size_t i : select_pairs(ds, sel)) {
            const auto& p = ds.pairs[i];
            out += std::to_string(p.id) + " " + p.category + " " + std::to_string(p.line) + " " + to_graph6(p.a) + " " +
                   to_graph6(p.b) + "\n";
        }
        return out;
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}

TEST(PairFile, ReadInBatchesEqualsTheWholeFileReadAndSelection) {
    const std::vector<PairSelection> selections = {{},
                                                   {{"basic"}, "", 0, 0},
                                                   {{"Regular", "cfi"}, "", 0, 0},
                                                   {{}, "0-59,260", 0, 0},
                                                   {{"cfi"}, "0-59,260", 0, 0},
                                                   {{}, "", 3, 7},
                                                   {{"basic"}, "", 2, 5},
                                                   {{"banana", "cfi", "kiwi"}, "", 0, 0},
                                                   {{}, "500", 0, 0},
                                                   {{"cfi"}, "0-5", 0, 0}};
    for (const auto& sel : selections)
        for (std::size_t batch : {1u, 3u, 1000u}) {
            const std::string want = whole_pairs(brec_file(), sel);
            ASSERT_EQ(streamed_pairs(brec_file(), sel, batch), want) << batch;
        }
    EXPECT_NE(whole_pairs(brec_file(), selections[7]).find("unknown category 'banana'"), std::string::npos);
    // Every malformed file gets the same message, at the same line and column.
    const std::vector<std::string> texts = {"# comment\r\n0\tbasic\tC~\tCr\r\n\n  \n7\tcfi\tBw\tBg",
                                            "0\tbasic\tC~\n",
                                            "-3\tbasic\tC~\tC~\n",
                                            "a\tbasic\tC~\tC~\n",
                                            "1\tbasic\tC~\tC~\n1\tbasic\tC~\tC~\n",
                                            "",
                                            "# only a comment\n\n",
                                            "1\tbasic\tC~\tC\n",
                                            "  # indented comment\n0\tbasic\tC~\tCr\n",
                                            "10\tbasic\tC~\tC!\n",
                                            "0\tbasic\tC~\tCr\t\n",
                                            " 4\t basic \t C~ \t Cr \n"};
    for (std::size_t k = 0; k < texts.size(); ++k) {
        const std::string path = testing::fresh_temp_file("pairs", "text" + std::to_string(k) + ".tsv");
        std::ofstream(path, std::ios::binary) << texts[k];
        for (std::size_t batch : {1u, 2u}) EXPECT_EQ(streamed_pairs(path, {}, batch), whole_pairs(path, {})) << k;
    }
}

TEST(PairSelection, CategoriesGroupsRangesShards) {
    const auto ds = read_pair_file(brec_file());
    auto count = [&](PairSelection s) { return select_pairs(ds, s).size(); };
    EXPECT_EQ(count({}), 400u);
    EXPECT_EQ(count({{"basic"}, "", 0, 0}), 60u);
    EXPECT_EQ(count({{"Regular"}, "", 0, 0}), 140u);
    EXPECT_EQ(count({{"regular"}, "", 0, 0}), 50u);
    EXPECT_EQ(count({{"str", "4vtx", "dr"}, "", 0, 0}), 90u);
    EXPECT_EQ(count({{}, "0-59,260", 0, 0}), 61u);
    EXPECT_EQ(count({{"cfi"}, "0-59,260", 0, 0}), 1u);
    std::size_t total = 0;
    for (int i = 1; i <= 7; ++i) total += count({{}, "", i, 7});
    EXPECT_EQ(total, 400u);
    EXPECT_NE(error_of([&] { count({{"banana"}, "", 0, 0}); }).find("unknown category 'banana'"), std::string::npos);
    EXPECT_NE(error_of([&] { count({{}, "500", 0, 0}); }).find("id 500 is not in"), std::string::npos);
    EXPECT_NE(error_of([&] { count({{"cfi"}, "0-5", 0, 0}); }).find("matches no pairs"), std::string::npos);
    int i = 0, n = 0;
    EXPECT_NE(error_of([&] { parse_shard("5/4", i, n); }).find("1 <= i <= N"), std::string::npos);
    EXPECT_THROW(parse_shard("0/4", i, n), InvalidArgument);
    EXPECT_THROW(parse_shard("x", i, n), InvalidArgument);
    // Found by fuzz_pairs: N beyond int used to wrap around instead of failing.
    EXPECT_NE(error_of([&] { parse_shard("9000000/700014500000000", i, n); }).find("N is too large"),
              std::string::npos);
    parse_shard("3/2147483647", i, n);
    EXPECT_EQ(n, 2147483647);
    EXPECT_THROW(parse_id_ranges("5-3"), InvalidArgument);
    EXPECT_THROW(parse_id_ranges("-1"), InvalidArgument);
    EXPECT_EQ(parse_id_ranges("3,1-2,2").intervals(), (std::vector<IdRanges::Interval>{{1, 3}}));
    // Written back in the form it reads: merged, sorted, single ids alone.
    EXPECT_EQ(parse_id_ranges("9,3,1-2,2,5-7,8,20").str(), "1-3,5-9,20");
    EXPECT_EQ(IdRanges().str(), "");
    // Every id, counted and listed; a union merges what touches.
    const IdRanges set = parse_id_ranges("7,1-3");
    EXPECT_EQ(set.ids(), (std::vector<PairId>{1, 2, 3, 7}));
    EXPECT_EQ(set.count(), 4u);
    EXPECT_EQ(IdRanges().ids(), std::vector<PairId>{});
    EXPECT_EQ(set.united(parse_id_ranges("4-6,9")).str(), "1-7,9");
    EXPECT_EQ(parse_id_ranges("0-9000000000").count(), 9000000001u);
}

TEST(Graph6, DeclaredSizesThatTheBytesCannotHoldAreRejectedBeforeBuilding) {
    // The fuzzing reproducer: a valid 9-byte sparse6 record of 31,161 vertices (sparse6 spends no
    // bytes on vertices without edges); the fuzz target no longer writes its 80 MB graph6 form.
    const std::string repro =
        read_text_file(std::string(BREC_SOURCE_DIR) + "/tests/fuzz/corpus/graph6/graph6-timeout.bin");
    const Graph g = parse_graph6_or_sparse6(repro);
    EXPECT_EQ(g.n(), 31161u);
    EXPECT_EQ(g.m(), 0u);
    // graph6 spends n(n-1)/2 bits on every record, so its size field is checked against the bytes
    // that follow before anything is built: the same size field with 4 data bytes is truncated.
    const std::string e = error_of([&] { parse_graph6(repro.substr(1), SourcePos{"big.g6", 3}); });
    EXPECT_NE(e.find("big.g6:3:9: graph6 record for n=31161 needs 80914730 data bytes, found 4 (truncated)"),
              std::string::npos)
        << e;
}

TEST(PairSelection, SeedListsKeepTheirOrderAndExpandRanges) {
    using Seeds = std::vector<std::uint64_t>;
    EXPECT_EQ(parse_seed_list("300,100,200"), (Seeds{300, 100, 200}));
    EXPECT_EQ(parse_seed_list("100, 0-2 ,7"), (Seeds{100, 0, 1, 2, 7}));
    EXPECT_EQ(parse_seed_list("5,5"), (Seeds{5, 5}));
    for (const char* bad : {"", "1,,2", "x", "-3", "4-2", "1-", "0-100000"})
        EXPECT_THROW(parse_seed_list(bad), InvalidArgument) << bad;
    EXPECT_EQ(parse_seed_list("0-99999").size(), 100000u);
}

TEST(PairSelection, IdRangesStayIntervals) {
    // The fuzzing reproducer: "0-70981333" used to become 70,981,334 ids in a vector (1 GB, 4 s).
    const std::string repro =
        read_text_file(std::string(BREC_SOURCE_DIR) + "/tests/fuzz/corpus/pairs/pairs-timeout.bin");
    const IdRanges wide = parse_id_ranges(repro);
    EXPECT_EQ(wide.intervals(), (std::vector<IdRanges::Interval>{{0, 70981333}}));
    EXPECT_TRUE(wide.contains(0));
    EXPECT_TRUE(wide.contains(70981333));
    EXPECT_FALSE(wide.contains(70981334));
    // Overlapping and adjacent items merge; the whole id range is one interval.
    const IdRanges all = parse_id_ranges("9223372036854775807, 5-9223372036854775806, 0-4");
    EXPECT_EQ(all.intervals(), (std::vector<IdRanges::Interval>{{0, std::numeric_limits<PairId>::max()}}));
    const IdRanges gaps = parse_id_ranges("10-12,1,3-4,11-20,2");
    EXPECT_EQ(gaps.intervals(), (std::vector<IdRanges::Interval>{{1, 4}, {10, 20}}));
    EXPECT_FALSE(gaps.contains(0));
    EXPECT_FALSE(gaps.contains(5));
    EXPECT_TRUE(gaps.contains(10));
    EXPECT_FALSE(gaps.contains(21));
    PairId missing = -1;
    EXPECT_FALSE(gaps.first_missing({1, 2, 3, 4, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, missing));
    ASSERT_TRUE(gaps.first_missing({1, 2, 3, 4, 10, 11, 13}, missing));
    EXPECT_EQ(missing, 12);
    ASSERT_TRUE(gaps.first_missing({2, 3}, missing));
    EXPECT_EQ(missing, 1);
    ASSERT_TRUE(wide.first_missing({0, 1, 2}, missing));
    EXPECT_EQ(missing, 3);
    // The messages for malformed items are unchanged.
    EXPECT_NE(error_of([] { parse_id_ranges("1,,2"); }).find("empty item"), std::string::npos);
    EXPECT_NE(error_of([] { parse_id_ranges("x"); }).find("'x' is not an id"), std::string::npos);
    EXPECT_NE(error_of([] { parse_id_ranges("1-x"); }).find("'1-x' is not a range like 0-59"), std::string::npos);
    EXPECT_NE(error_of([] { parse_id_ranges("5-3"); }).find("range '5-3' is reversed"), std::string::npos);
    EXPECT_NE(error_of([] { parse_id_ranges("-1"); }).find("must be non-negative"), std::string::npos);
    // A wide selection over the official file names the first id it lacks, at once.
    const PairDataset ds = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    EXPECT_NE(error_of([&] {
                  select_pairs(ds, {{}, "0-70981333", 0, 0});
              }).find("id 400 is not in"),
              std::string::npos);
    EXPECT_EQ(select_pairs(ds, {{}, "0-399", 0, 0}).size(), 400u);
}

}  // namespace
}  // namespace brec
