// Orbits of a graph-line file read as a stream, against the in-memory path on the same graphs:
// every invariant choice, memory budgets that force sorted runs onto disk, one and two threads.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/dedup/invariant.hpp"
#include "brec/dedup/run.hpp"
#include "brec/dedup/stream.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/collection.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/tu.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

Graph shuffled(const Graph& g, Rng& rng) {
    const auto perm = rng.permutation(g.n());
    return permute(g, Permutation(perm.begin(), perm.end()));
}

/// Graphs with many isomorphic copies (some written as sparse6), regular graphs whose invariants
/// collide, CFI twins, graphs across nauty's 64-vertex word boundary and two graphs above the
/// dense limit (sparse nauty).
std::string mixed_file(Rng& rng) {
    std::vector<Graph> originals;
    for (int k = 0; k < 60; ++k)
        originals.push_back(testing::random_graph(static_cast<VertexId>(1 + rng.below(12)), 0.4, rng));
    for (int k = 0; k < 10; ++k) originals.push_back(testing::random_graph(static_cast<VertexId>(60 + k), 0.05, rng));
    for (int k = 0; k < 12; ++k) originals.push_back(testing::random_regular(16, 3, rng));
    originals.push_back(testing::rook_4x4());
    originals.push_back(testing::shrikhande());
    const Graph k4 = make_graph(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}});
    originals.push_back(testing::cfi_graph(k4, false));
    originals.push_back(testing::cfi_graph(k4, true));
    originals.push_back(testing::random_graph(kDenseFormMaxN + 6, 0.002, rng));
    std::string text = "# mixed test graphs\n";
    for (int k = 0; k < 400; ++k) {
        const Graph& g = originals[rng.below(originals.size())];
        const Graph h = k % 4 == 0 ? g : shuffled(g, rng);
        text += (k % 5 == 0 ? to_sparse6(h) : to_graph6(h)) + "\n";
        if (k == 200) text += "\n";
    }
    return text;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = testing::fresh_temp_file("stream", name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

TEST(StreamOrbits, EqualTheInMemoryOrbitsForEveryChoice) {
    Rng rng(21);
    const std::string path = write_temp("mixed.g6", mixed_file(rng));
    RunContext one;
    const Orbits want = compute_orbits(read_graph_lines(path), OrbitMode::topology, one);
    ASSERT_GT(want.size(), 20u);
    ASSERT_LT(want.size(), 300u);
    for (InvariantUse use : {InvariantUse::automatic, InvariantUse::always, InvariantUse::never})
        for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{3000}})
            for (int threads : {1, 2}) {
                RunContext ctx;
                ctx.set_threads(threads);
                StreamOrbitOptions opt;
                opt.invariants = use;
                opt.memory_budget = budget;
                if (threads == 2) {  // many batches and a sample that is not the whole file
                    opt.batch = 7;
                    opt.sample = 50;
                }
                StreamOrbitStats st;
                const Orbits got = graph_file_orbits(path, opt, ctx, &st);
                const std::string what = "use " + std::to_string(static_cast<int>(use)) + " budget " +
                                         std::to_string(budget) + " threads " + std::to_string(threads);
                ASSERT_EQ(got.orbit_of, want.orbit_of) << what;
                EXPECT_EQ(got.member_list, want.member_list) << what;
                EXPECT_EQ(got.member_begin, want.member_begin) << what;
                EXPECT_EQ(st.graphs, 400u);
                EXPECT_GT(st.sparse_forms, 0u) << what;  // the graph above the dense limit
                if (use == InvariantUse::never) {
                    EXPECT_EQ(st.forms, 400u) << what;
                }
                if (use == InvariantUse::always) {
                    EXPECT_LT(st.forms, 400u) << what;
                }
                if (budget == 1) {
                    EXPECT_EQ(st.runs, st.forms) << what;
                }  // one form per run
                if (budget == 0) {
                    EXPECT_EQ(st.runs, 0u) << what;
                }
                if (budget == 3000) {
                    EXPECT_GT(st.runs, 1u) << what;
                }
            }
}

TEST(StreamOrbits, InvariantOfRowsEqualsTheGraphInvariant) {
    Rng rng(8);
    for (VertexId n : {0u, 1u, 5u, 63u, 64u, 65u, 140u}) {
        const Graph g = testing::random_graph(n, 0.2, rng);
        EXPECT_EQ(refinement_invariant(dense_rows(g)), refinement_invariant(g, OrbitMode::topology)) << n;
    }
}

TEST(StreamOrbits, PredictedUniqueShare) {
    EXPECT_DOUBLE_EQ(predicted_unique_share({1, 2, 3, 4}, 1e6), 1.0);
    // One equal pair among the 6 pairs of 4 graphs; a file of 4 graphs: exp(-(1/6) * 3).
    EXPECT_NEAR(predicted_unique_share({7, 1, 7, 3}, 4), std::exp(-0.5), 1e-12);
    EXPECT_LT(predicted_unique_share(std::vector<std::uint64_t>(100, 5), 100), 1e-9);
    EXPECT_DOUBLE_EQ(predicted_unique_share({9}, 1e6), 1.0);
}

TEST(StreamOrbits, BadRecordsEmptyFilesAndSpillDirectoriesAreNamed) {
    Rng rng(2);
    const std::string good = to_graph6(testing::random_graph(6, 0.5, rng));
    const std::string bad = write_temp("bad.g6", good + "\n" + good + "\nICZJv!sNg\n");
    RunContext ctx;
    const std::string e = error_of([&] { graph_file_orbits(bad, {}, ctx); });
    EXPECT_NE(e.find("bad.g6:3"), std::string::npos) << e;
    EXPECT_NE(e.find("bad character"), std::string::npos) << e;
    const std::string empty = write_temp("empty.g6", "# nothing\n\n");
    EXPECT_NE(error_of([&] { graph_file_orbits(empty, {}, ctx); }).find("no graphs"), std::string::npos);
    const std::string ok = write_temp("ok.g6", good + "\n" + good + "\n");
    StreamOrbitOptions opt;
    opt.memory_budget = 1;
    opt.spill_dir = "/nonexistent/dir";
    opt.invariants = InvariantUse::never;
    EXPECT_NE(error_of([&] { graph_file_orbits(ok, opt, ctx); }).find("/nonexistent/dir"), std::string::npos);
}

TEST(StreamOrbits, WholeRunEqualsTheInMemoryBaselineWithLabelsSplitAndCleanExport) {
    Rng rng(5);
    const std::string text = mixed_file(rng);
    const std::string path = write_temp("run.g6", text);
    std::string labels, test;
    for (int k = 0; k < 400; ++k) labels += std::to_string(k % 7 == 0 ? 1 : 0) + "\n";
    for (int k = 0; k < 400; k += 3) test += (test.empty() ? "" : " ") + std::to_string(k);
    const std::string labels_path = write_temp("run_labels.txt", labels);
    const std::string split_path = write_temp("run_split.txt", test + "\n");
    auto run = [&](const std::string& method, const std::string& clean) {
        DedupOptions opt;
        opt.path = path;
        opt.labels = labels_path;
        opt.split = split_path;
        opt.method = method;
        opt.write_clean = clean;
        opt.memory_budget = method == "certificate" ? 2000 : 0;  // sorted runs on disk
        RunContext ctx;
        ctx.set_threads(2);
        return run_dedup(opt, ctx);
    };
    const std::string dir_stream = testing::temp_path("stream", "clean_stream"),
                      dir_memory = testing::temp_path("stream", "clean_memory");
    const DedupResult streamed = run("certificate", dir_stream);
    const DedupResult memory = run("pairwise", dir_memory);
    EXPECT_TRUE(streamed.streamed);
    EXPECT_FALSE(memory.streamed);
    EXPECT_GT(streamed.stream.runs, 1u);
    auto comparable = [](nlohmann::json j) {
        for (const char* k : {"method", "seconds", "seconds_load", "seconds_orbits", "stream", "comparisons", "clean"})
            j.erase(k);
        return j;
    };
    EXPECT_EQ(comparable(to_json(streamed)), comparable(to_json(memory)));
    EXPECT_EQ(to_json(streamed)["clean"]["kept"], to_json(memory)["clean"]["kept"]);
    // The cleaned datasets are the same files (the streamed one reads its kept graphs back).
    auto file_in = [](const std::string& dir, const std::string& suffix) {
        return dir + dir.substr(dir.find_last_of('/')) + suffix;  // DIR/NAME_suffix, NAME = base name of DIR
    };
    for (const char* f : {"_A.txt", "_graph_indicator.txt", "_graph_labels.txt", "_mapping.tsv"})
        EXPECT_EQ(read_text_file(file_in(dir_stream, f)), read_text_file(file_in(dir_memory, f))) << f;
    EXPECT_NE(dedup_text(streamed).find("read as a stream"), std::string::npos);
    // A budget where nothing is streamed is said, not dropped silently.
    {
        DedupOptions pairwise;
        pairwise.path = path;
        pairwise.method = "pairwise";
        pairwise.memory_budget = 1 << 20;
        RunContext ctx;
        std::vector<std::string> warnings;
        ctx.set_log([&](LogLevel, const std::string& m) { warnings.push_back(m); }, LogLevel::warn);
        run_dedup(pairwise, ctx);
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_NE(warnings[0].find("read into memory"), std::string::npos) << warnings[0];
    }
    // A labels file with a bad line fails before the graphs are read; a count mismatch names both files.
    const std::string short_labels = write_temp("short_labels.txt", "1\n0\n");
    DedupOptions opt;
    opt.path = path;
    opt.labels = short_labels;
    RunContext ctx;
    const std::string e = error_of([&] { run_dedup(opt, ctx); });
    EXPECT_NE(e.find("short_labels.txt:2"), std::string::npos) << e;
    EXPECT_NE(e.find("2 labels for 400 graphs"), std::string::npos) << e;
}

/// A TU dataset of labelled graphs with many relabelled copies (node labels from 3 values, edge
/// labels from 2), so that the three modes give three different partitions.
std::string labelled_tu_dataset(const std::string& name, Rng& rng) {
    std::vector<Graph> originals;
    for (int k = 0; k < 40; ++k) {
        const Graph g = testing::random_graph(static_cast<VertexId>(2 + rng.below(9)), 0.35, rng);
        GraphBuilder b(g.n());
        for (const auto& [u, v] : g.edges()) b.add_edge(u, v, static_cast<Label>(rng.below(2)));
        std::vector<Label> nl(g.n());
        for (auto& x : nl) x = static_cast<Label>(rng.below(3));
        b.set_node_labels(nl);
        originals.push_back(b.build());
    }
    // Twins that differ in one edge label, or in one node label, only.
    for (std::size_t k = 0; k < 10; ++k) {
        const Graph& g = originals[k];
        if (g.m() == 0) continue;
        GraphBuilder b(g.n());
        const auto edges = g.edges();
        for (std::size_t e = 0; e < edges.size(); ++e)
            b.add_edge(edges[e].first, edges[e].second,
                       g.edge_label(edges[e].first, edges[e].second) + (e == 0 ? 5 : 0));
        std::vector<Label> nl(g.n());
        for (VertexId v = 0; v < g.n(); ++v) nl[v] = g.node_label(v) + (k % 2 == 0 && v == 0 ? 7 : 0);
        b.set_node_labels(nl);
        originals.push_back(b.build());
    }
    originals.push_back(testing::rook_4x4());  // unlabelled: labels read as 0
    originals.push_back(testing::shrikhande());
    std::vector<Graph> graphs;
    std::vector<Label> targets;
    for (int k = 0; k < 300; ++k) {
        graphs.push_back(shuffled(originals[rng.below(originals.size())], rng));
        targets.push_back(static_cast<Label>(k % 3 == 0));
    }
    const std::string dir = testing::temp_path("stream", name);
    std::system(("rm -rf '" + dir + "'").c_str());
    write_tu_dataset(dir, name, graphs, targets);
    return dir;
}

TEST(StreamOrbits, TuDatasetsEqualTheInMemoryOrbitsInEveryLabelMode) {
    Rng rng(31);
    const std::string dir = labelled_tu_dataset("TUSTREAM", rng);
    std::vector<std::size_t> sizes;
    for (OrbitMode mode : {OrbitMode::topology, OrbitMode::node_labels, OrbitMode::edge_labels}) {
        TuReadOptions ro;
        ro.edge_labels = mode == OrbitMode::edge_labels;
        RunContext one;
        const Orbits want = compute_orbits(read_tu_dataset(dir, "", ro).graphs, mode, one);
        sizes.push_back(want.size());
        for (InvariantUse use : {InvariantUse::automatic, InvariantUse::always, InvariantUse::never})
            for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{500}}) {
                RunContext ctx;
                ctx.set_threads(2);
                StreamOrbitOptions opt;
                opt.invariants = use;
                opt.memory_budget = budget;
                if (budget > 0) {  // many batches and a sample that is not the whole dataset
                    opt.batch = 7;
                    opt.sample = 50;
                }
                LabelledGraphs data;
                StreamOrbitStats st;
                const Orbits got = tu_dataset_orbits(dir, "", mode, opt, ctx, data, &st);
                ASSERT_EQ(got.orbit_of, want.orbit_of)
                    << mode_name(mode) << " " << static_cast<int>(use) << " " << budget;
                EXPECT_EQ(data.graph_count, 300u);
                EXPECT_EQ(data.labels.size(), 300u);
                EXPECT_EQ(data.tu_stats.graphs, 300u);
                EXPECT_EQ(data.has_node_labels, mode != OrbitMode::topology);
                EXPECT_EQ(data.has_edge_labels, mode == OrbitMode::edge_labels);
                if (budget > 0) {
                    EXPECT_GT(st.runs, 1u);
                }
            }
    }
    // Labels separate more graphs, mode by mode.
    EXPECT_LT(sizes[0], sizes[1]);
    EXPECT_LT(sizes[1], sizes[2]);
}

TEST(StreamOrbits, TuRunsStreamUnlessTheyCannotAndNameBadLinesExactly) {
    Rng rng(4);
    const std::string dir = labelled_tu_dataset("TURUN", rng);
    std::string test;
    for (int k = 0; k < 300; k += 4) test += (test.empty() ? "" : " ") + std::to_string(k);
    const std::string split_path = write_temp("tu_split.txt", test + "\n");
    auto run = [&](const std::string& path, const std::string& method) {
        DedupOptions opt;
        opt.path = path;
        opt.node_labels = true;
        opt.split = split_path;
        opt.method = method;
        RunContext ctx;
        return run_dedup(opt, ctx);
    };
    const DedupResult streamed = run(dir, "certificate"), memory = run(dir, "pairwise");
    EXPECT_TRUE(streamed.streamed);
    EXPECT_FALSE(memory.streamed);
    auto comparable = [](nlohmann::json j) {
        for (const char* k : {"method", "seconds", "seconds_load", "seconds_orbits", "stream", "comparisons"})
            j.erase(k);
        return j;
    };
    EXPECT_EQ(comparable(to_json(streamed)), comparable(to_json(memory)));
    EXPECT_GT(to_json(streamed)["tu_stats"]["edges"].get<int>(), 300);
    // Edge lines out of graph order: read into memory instead, with the same result.
    const std::string shuffled_dir = testing::temp_path("stream", "TUSHUF");
    std::system(("rm -rf '" + shuffled_dir + "' && cp -r '" + dir + "' '" + shuffled_dir + "'").c_str());
    for (const char* f : {"/TURUN_A.txt"}) {
        const std::string a = read_text_file(dir + f);
        const std::size_t cut = a.find('\n', a.size() / 2) + 1;
        std::ofstream(shuffled_dir + f) << a.substr(cut) << a.substr(0, cut);
    }
    const DedupResult fallback = run(shuffled_dir, "certificate");
    EXPECT_FALSE(fallback.streamed);
    EXPECT_EQ(fallback.orbits.orbit_of, streamed.orbits.orbit_of);
    // A bad line: the whole-file reader's exact message.
    const std::string bad_dir = testing::temp_path("stream", "TUBAD");
    std::system(("rm -rf '" + bad_dir + "' && cp -r '" + dir + "' '" + bad_dir + "'").c_str());
    std::ofstream(bad_dir + "/TURUN_A.txt", std::ios::app) << "5, x\n";
    const std::string e = error_of([&] { run(bad_dir, "certificate"); });
    EXPECT_NE(e.find("TURUN_A.txt:"), std::string::npos) << e;
    EXPECT_NE(e.find("node id 'x' is not an integer"), std::string::npos) << e;
}

TEST(StreamOrbits, PairFilesStreamWithTheirSelectionAndIds) {
    // The first 160 official pairs (basic and regular) plus copies: pair 1000 + k repeats pair k's
    // graphs relabelled.
    Rng rng(6);
    const PairDataset official = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    std::vector<GraphPairRecord> pairs(official.pairs.begin(), official.pairs.begin() + 160);
    for (std::size_t k = 0; k < 160; k += 9) {
        GraphPairRecord copy = official.pairs[k];
        copy.id += 1000;
        copy.a = shuffled(copy.a, rng);
        copy.b = shuffled(copy.b, rng);
        pairs.push_back(copy);
    }
    const std::string path = write_temp("pairs.tsv", format_pair_file(pairs, "pairs and copies"));
    auto run = [&](const std::string& method, const std::string& categories, std::uint64_t budget) {
        DedupOptions opt;
        opt.path = path;
        opt.method = method;
        if (!categories.empty()) opt.selection.categories = {categories};
        opt.memory_budget = budget;
        RunContext ctx;
        return run_dedup(opt, ctx);
    };
    auto comparable = [](nlohmann::json j) {
        for (const char* k : {"method", "seconds", "seconds_load", "seconds_orbits", "stream", "comparisons"})
            j.erase(k);
        return j;
    };
    for (const std::string categories : {"", "basic"}) {
        const DedupResult streamed = run("certificate", categories, 200), memory = run("pairwise", categories, 0);
        EXPECT_TRUE(streamed.streamed);
        EXPECT_GT(streamed.stream.runs, 1u);
        EXPECT_EQ(comparable(to_json(streamed)), comparable(to_json(memory))) << categories;
        EXPECT_EQ(streamed.data.id(1), memory.data.id(1));
    }
    const DedupResult all = run("certificate", "", 0);
    EXPECT_EQ(all.data.graph_count, 2 * pairs.size());
    EXPECT_EQ(all.data.id(2 * 160 + 1), "1000b");  // the first copy
    EXPECT_EQ(all.orbits.orbit_of[2 * 160 + 1], all.orbits.orbit_of[1]);
}

}  // namespace
}  // namespace brec
