// count_file, the library entry of `brec count`: hand-counted graphs read from every kind of input,
// the three output formats as exact text, pattern selection, per-node rows, the atomic output file,
// and bad input (errors naming file and line, nothing left behind).
#include "brec/count/run.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/graph6.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

std::string write(const std::string& name, const std::string& text) {
    const std::string path = testing::fresh_temp_file("count_run", name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

/// K4, the 5-cycle and the Petersen graph, one graph6 line each.
std::string three_graphs() {
    return to_graph6(make_complete(4)) + "\n" + to_graph6(make_cycle(5)) + "\n" + to_graph6(make_petersen()) + "\n";
}

CountFileRun run(CountFileOptions opt) {
    RunContext ctx;
    return count_file(opt, ctx);
}

std::uint64_t total(const CountFileRun& r, std::size_t graph, Pattern p) {
    return r.counts.at(graph).total[static_cast<std::size_t>(p)];
}

TEST(CountFile, HandCountedGraphsFromAGraph6File) {
    const std::string path = write("three.g6", three_graphs());
    const CountFileRun r = run(CountFileOptions().set_path(path));
    EXPECT_EQ(r.input, path);
    EXPECT_EQ(r.format, GraphFormat::graph6);
    EXPECT_EQ(r.patterns, all_patterns());
    EXPECT_EQ(r.ids, (std::vector<std::string>{"0", "1", "2"}));
    EXPECT_EQ(r.nodes, (std::vector<VertexId>{4, 5, 10}));
    EXPECT_EQ(r.edges, (std::vector<std::size_t>{6, 5, 15}));
    ASSERT_EQ(r.counts.size(), 3u);
    // K4: 4 triangles, one 4-clique, each vertex the centre of one 3-star with edges among its
    // leaves; nothing else.
    const CountArray k4 = {0, 4, 0, 0, 0, 0, 0, 1, 4};
    EXPECT_EQ(r.counts[0].total, k4);
    // C5: 5 consecutive triples (2-paths) and 5 four-vertex sets, each a 3-path.
    const CountArray c5 = {5, 0, 5, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(r.counts[1].total, c5);
    // Petersen (cubic, girth 5): 10 * C(3,2) 2-paths, 15 middle edges * 2 * 2 3-paths, one induced
    // (and one non-induced) 3-star per vertex.
    const CountArray petersen = {30, 0, 60, 10, 0, 0, 0, 0, 10};
    EXPECT_EQ(r.counts[2].total, petersen);
    EXPECT_TRUE(r.counts[0].per_node.empty());  // per_node off: totals only
    EXPECT_TRUE(r.out.empty());
}

TEST(CountFile, TsvAndTableTextWithSelectedPatterns) {
    const std::string path = write("three.g6", three_graphs());
    CountFileOptions opt = CountFileOptions().set_path(path).set_output(CountOutput::tsv);
    opt.patterns = {"4-clique", " triangle ", "4-clique", "3-path"};  // trimmed, repeats dropped, order kept
    const CountFileRun r = run(opt);
    EXPECT_EQ(r.patterns, (std::vector<Pattern>{Pattern::clique4, Pattern::triangle, Pattern::path3}));
    EXPECT_EQ(r.text,
              "graph\tn\tm\t4-clique\ttriangle\t3-path\n"
              "0\t4\t6\t1\t4\t0\n"
              "1\t5\t5\t0\t0\t5\n"
              "2\t10\t15\t0\t0\t60\n");
    // The table holds the same cells, aligned in columns.
    opt.output = CountOutput::table;
    const std::string table = run(opt).text;
    std::istringstream lines(table);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream cells(line);
        std::vector<std::string> row;
        for (std::string c; cells >> c;) row.push_back(c);
        if (!row.empty() && row[0].find_first_not_of("-=+| ") != std::string::npos) rows.push_back(row);
    }
    ASSERT_EQ(rows.size(), 4u) << table;
    EXPECT_EQ(rows[0], (std::vector<std::string>{"graph", "n", "m", "4-clique", "triangle", "3-path"}));
    EXPECT_EQ(rows[3], (std::vector<std::string>{"2", "10", "15", "0", "0", "60"}));
}

TEST(CountFile, PerNodeRowsAndJsonLines) {
    // The star K1,3 (centre 0) and the paw (triangle 0-1-2, pendant 2-3).
    const std::string path = write("two.g6", to_graph6(make_graph(4, {{0, 1}, {0, 2}, {0, 3}})) + "\n" +
                                                 to_graph6(make_graph(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}})) + "\n");
    CountFileOptions opt = CountFileOptions().set_path(path).set_per_node(true).set_output(CountOutput::tsv);
    opt.patterns = {"2-path", "3-star", "triangle"};
    // Star: every 2-path has the centre in the middle and two leaves (3 of them: centre in 3, each
    // leaf in 2). Paw: 2-paths 0-2-3 and 1-2-3, triangle 012.
    EXPECT_EQ(run(opt).text,
              "graph\tnode\t2-path\t3-star\ttriangle\n"
              "0\t0\t3\t1\t0\n"
              "0\t1\t2\t1\t0\n"
              "0\t2\t2\t1\t0\n"
              "0\t3\t2\t1\t0\n"
              "1\t0\t1\t0\t1\n"
              "1\t1\t1\t0\t1\n"
              "1\t2\t2\t0\t1\n"
              "1\t3\t2\t0\t0\n");
    opt.output = CountOutput::jsonl;
    const CountFileRun r = run(opt);
    std::istringstream lines(r.text);
    std::vector<nlohmann::json> objs;
    for (std::string line; std::getline(lines, line);) objs.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(objs.size(), 2u);
    EXPECT_EQ(objs[0]["graph"], "0");
    EXPECT_EQ(objs[0]["n"], 4);
    EXPECT_EQ(objs[0]["m"], 3);
    EXPECT_EQ(objs[0]["counts"], nlohmann::json::parse(R"({"2-path": 3, "3-star": 1, "triangle": 0})"));
    EXPECT_EQ(objs[0]["per_node"]["2-path"], nlohmann::json::parse("[3, 2, 2, 2]"));
    EXPECT_EQ(objs[1]["m"], 4);
    EXPECT_EQ(objs[1]["counts"], nlohmann::json::parse(R"({"2-path": 2, "3-star": 0, "triangle": 1})"));
    EXPECT_EQ(objs[1]["per_node"]["triangle"], nlohmann::json::parse("[1, 1, 1, 0]"));
    // Keys in the order asked for.
    EXPECT_EQ(r.text.substr(0, r.text.find('\n')).find("\"2-path\""),
              r.text.substr(0, r.text.find('\n')).find("\"counts\":{") + 10);
    // Without per_node the lines carry totals only.
    opt.per_node = false;
    EXPECT_EQ(run(opt).text.find("per_node"), std::string::npos);
}

TEST(CountFile, PairFilesEdgeListsAndThreadCounts) {
    // Pair 7: K4 vs C4; pair 9: the 6-cycle vs two triangles.
    const std::string pairs =
        write("p.tsv", "# pairs\n7\tbasic\t" + to_graph6(make_complete(4)) + "\t" + to_graph6(make_cycle(4)) +
                           "\n9\tregular\t" + to_graph6(make_cycle(6)) + "\t" +
                           to_graph6(make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}})) + "\n");
    CountFileOptions opt = CountFileOptions().set_path(pairs);
    opt.patterns = {"triangle", "4-cycle"};
    RunContext one, three;
    three.set_threads(3);
    const CountFileRun a = count_file(opt, one), b = count_file(opt, three);
    EXPECT_EQ(a.format, GraphFormat::pairs);
    EXPECT_EQ(a.ids, (std::vector<std::string>{"7a", "7b", "9a", "9b"}));
    EXPECT_EQ(total(a, 0, Pattern::triangle), 4u);
    EXPECT_EQ(total(a, 1, Pattern::cycle4), 1u);
    EXPECT_EQ(total(a, 2, Pattern::triangle), 0u);
    EXPECT_EQ(total(a, 3, Pattern::triangle), 2u);
    EXPECT_EQ(a.text, b.text);
    // A 1-based edge list: the triangle 1-2-3 with a pendant vertex 4 (a paw).
    CountFileOptions el = CountFileOptions().set_path(write("paw.el", "# paw\n1 2\n2 3\n3 1\n3 4\n"));
    el.one_based = true;
    const CountFileRun paw = run(el);
    EXPECT_EQ(paw.format, GraphFormat::edgelist);
    EXPECT_EQ(paw.nodes, (std::vector<VertexId>{4}));
    EXPECT_EQ(total(paw, 0, Pattern::tailed_triangle), 1u);
    EXPECT_EQ(total(paw, 0, Pattern::triangle), 1u);
    EXPECT_EQ(total(paw, 0, Pattern::path2), 2u);
}

TEST(CountFile, OutputFileAndSummary) {
    const std::string path = write("three.g6", three_graphs());
    const std::string out = testing::fresh_temp_file("count_run", "out.tsv");
    CountFileOptions opt = CountFileOptions().set_path(path).set_output(CountOutput::tsv);
    opt.patterns = {"triangle"};
    opt.out = out;
    const CountFileRun r = run(opt);
    EXPECT_EQ(r.out, out);
    EXPECT_TRUE(r.text.empty());
    EXPECT_EQ(slurp(out), "graph\tn\tm\ttriangle\n0\t4\t6\t4\n1\t5\t5\t0\n2\t10\t15\t0\n");
    const std::string summary = count_file_summary(r);
    EXPECT_EQ(summary.rfind("counted 1 patterns in 3 graphs of " + path + " (graph6) in ", 0), 0u) << summary;
    EXPECT_NE(summary.find("; wrote " + out + "\n"), std::string::npos) << summary;
}

TEST(CountFile, BadInputNamesFileAndLineAndLeavesNothing) {
    const std::string out = testing::fresh_temp_file("count_run", "never.tsv");
    // Line 2 is not graph6.
    const std::string bad = write("bad.g6", to_graph6(make_complete(4)) + "\n!!not graph6\n");
    CountFileOptions opt = CountFileOptions().set_path(bad);
    opt.format = "graph6";
    opt.out = out;
    const std::string msg = error_of([&] { run(opt); });
    EXPECT_NE(msg.find(bad + ":2"), std::string::npos) << msg;
    EXPECT_THROW(run(opt), ParseError);
    EXPECT_FALSE(exists(out));
    // An edge list with a bad id on line 3.
    const std::string el = write("bad.el", "0 1\n1 2\n2 x\n");
    const std::string el_msg = error_of([&] { run(CountFileOptions().set_path(el)); });
    EXPECT_NE(el_msg.find(el + ":3"), std::string::npos) << el_msg;
    // A missing file is named.
    const std::string missing = testing::temp_path("count_run", "missing.g6");
    const std::string io_msg = error_of([&] { run(CountFileOptions().set_path(missing)); });
    EXPECT_NE(io_msg.find(missing), std::string::npos) << io_msg;
    // Unknown patterns and formats fail before anything is read (the input does not exist).
    CountFileOptions pat = CountFileOptions().set_path(missing);
    pat.patterns = {"triangle", "pentagon"};
    try {
        run(pat);
        FAIL() << "no error";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown pattern 'pentagon'"), std::string::npos) << e.what();
    }
    CountFileOptions fmt = CountFileOptions().set_path(bad);
    fmt.format = "gml";
    EXPECT_THROW(run(fmt), InvalidArgument);
    // A cancelled context stops with Cancelled and writes nothing.
    RunContext ctx;
    ctx.cancel();
    CountFileOptions ok = CountFileOptions().set_path(write("three.g6", three_graphs()));
    ok.out = out;
    EXPECT_THROW(count_file(ok, ctx), Cancelled);
    EXPECT_FALSE(exists(out));
}

}  // namespace
}  // namespace brec
