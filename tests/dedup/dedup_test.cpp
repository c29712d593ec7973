#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <set>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/dedup/dataset.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/dedup/run.hpp"
#include "brec/dedup/split.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "common/temp_cleanup.hpp"
#include "brec/io/tu.hpp"
#include "brec/iso/iso.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

const std::string kFixture = std::string(BREC_SOURCE_DIR) + "/tests/data/tu_dedup";

std::string fresh_dir(const std::string& name) {
    const std::string d = ::testing::TempDir() + "brec_dedup_" + std::to_string(::getpid()) + "_" + name;
    std::system(("rm -rf '" + d + "'").c_str());
    return d;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

/// The message of the error run_dedup throws for `opt` ("" when none).
std::string testing_error(const DedupOptions& opt) {
    RunContext ctx;
    try {
        run_dedup(opt, ctx);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

/// Orbits as a set of sorted member lists (order-free comparison).
std::set<std::vector<std::size_t>> as_set(const Orbits& o) {
    std::set<std::vector<std::size_t>> out;
    for (std::size_t k = 0; k < o.size(); ++k) out.emplace(o.members(k).begin(), o.members(k).end());
    return out;
}

std::vector<std::size_t> members_of(const Orbits& o, std::size_t k) {
    return {o.members(k).begin(), o.members(k).end()};
}

/// Brute force: is there a permutation mapping g onto h preserving node and edge labels?
bool brute_isomorphic(const Graph& g, const Graph& h, bool node_labels, bool edge_labels) {
    if (g.n() != h.n() || g.m() != h.m()) return false;
    std::vector<VertexId> p(g.n());
    std::iota(p.begin(), p.end(), 0);
    do {
        bool ok = true;
        for (VertexId v = 0; v < g.n() && ok; ++v)
            if (node_labels && g.node_label(v) != h.node_label(p[v])) ok = false;
        for (const auto& [u, v] : g.edges()) {
            if (!ok) break;
            if (!h.has_edge(p[u], p[v]))
                ok = false;
            else if (edge_labels && g.edge_label(u, v) != h.edge_label(p[u], p[v]))
                ok = false;
        }
        if (ok) return true;
    } while (std::next_permutation(p.begin(), p.end()));
    return false;
}

Graph random_labelled(Rng& rng, VertexId n, double p, int node_colours, int edge_colours) {
    GraphBuilder b(n);
    for (VertexId u = 0; u < n; ++u)
        for (VertexId v = u + 1; v < n; ++v)
            if (rng.uniform() < p) b.add_edge(u, v, static_cast<Label>(rng.below(edge_colours)));
    std::vector<Label> nl(n);
    for (auto& x : nl) x = static_cast<Label>(rng.below(node_colours));
    b.set_node_labels(nl);
    return b.build();
}

Graph shuffled(const Graph& g, Rng& rng) {
    const auto perm = rng.permutation(g.n());
    return permute(g, Permutation(perm.begin(), perm.end()));
}

// ---------------------------------------------------------------------------------------------
// The hand-made fixture (tests/data/tu_dedup/README.md has the orbits computed by hand).

TEST(DedupFixture, ReaderCountsLoopsDuplicatesIsolatedNodesAndOneWayEdges) {
    const TuDataset ds = read_tu_dataset(kFixture);
    ASSERT_EQ(ds.graphs.size(), 11u);
    EXPECT_EQ(ds.stats.nodes, 34u);
    EXPECT_EQ(ds.stats.edge_lines, 49u);
    EXPECT_EQ(ds.stats.self_loops, 1u);
    EXPECT_EQ(ds.stats.graphs_with_self_loops, 1u);
    EXPECT_EQ(ds.stats.duplicate_edge_lines, 1u);
    EXPECT_EQ(ds.stats.one_direction_edges, 1u);
    EXPECT_EQ(ds.stats.isolated_nodes, 4u);  // G4, G5, G10, G11
    EXPECT_EQ(ds.stats.edges, 3u + 3 + 3 + 2 + 2 + 2 + 3 + 3 + 3);
    EXPECT_EQ(ds.graphs[1].m(), 3u);  // the loop and the repeated line are gone
    EXPECT_EQ(ds.graphs[3].n(), 4u);
    EXPECT_EQ(ds.graphs[3].degree(3), 0u);
    EXPECT_EQ(ds.graphs[4].degree(1), 0u);
    EXPECT_EQ(ds.graphs[7].edge_label(0, 1), 2);
    EXPECT_EQ(ds.graphs[8].edge_label(0, 3), 2);
    EXPECT_EQ(ds.graph_labels, (std::vector<Label>{0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0}));
}

TEST(DedupMultiColumnLabels, GraphsDifferingOnlyInASecondLabelColumnAreNotOneOrbit) {
    // Graphs 0 and 1 differ only in the second column of a node label, graph 2 repeats graph 0,
    // graph 3 repeats graph 1 except for the second column of an edge label.
    const std::string dir = fresh_dir("multicol");
    ::mkdir(dir.c_str(), 0755);
    write(dir + "/MC_A.txt", "1, 2\n2, 1\n3, 4\n4, 3\n5, 6\n6, 5\n7, 8\n8, 7\n");
    write(dir + "/MC_graph_indicator.txt", "1\n1\n2\n2\n3\n3\n4\n4\n");
    write(dir + "/MC_graph_labels.txt", "0\n1\n0\n1\n");
    write(dir + "/MC_node_labels.txt", "0, 2\n1, 0\n0, 3\n1, 0\n0, 2\n1, 0\n0, 3\n1, 0\n");
    write(dir + "/MC_edge_labels.txt", "4, 1\n4, 1\n4, 1\n4, 1\n4, 1\n4, 1\n4, 9\n4, 9\n");
    DedupOptions opt;
    opt.path = dir;
    RunContext ctx;
    EXPECT_EQ(as_set(run_dedup(opt, ctx).orbits), (std::set<std::vector<std::size_t>>{{0, 1, 2, 3}}));
    opt.node_labels = true;
    EXPECT_EQ(as_set(run_dedup(opt, ctx).orbits), (std::set<std::vector<std::size_t>>{{0, 2}, {1, 3}}));
    opt.edge_labels = true;
    opt.write_clean = fresh_dir("multicol_clean");
    const DedupResult r = run_dedup(opt, ctx);
    EXPECT_EQ(as_set(r.orbits), (std::set<std::vector<std::size_t>>{{0, 2}, {1}, {3}}));
    // The cleaned dataset (graphs 0, 1, 3) keeps every column of both label files.
    const std::string name = opt.write_clean.substr(opt.write_clean.find_last_of('/') + 1);
    EXPECT_EQ(read_text_file(opt.write_clean + "/" + name + "_node_labels.txt"),
              "0, 2\n1, 0\n0, 3\n1, 0\n0, 3\n1, 0\n");
    EXPECT_EQ(read_text_file(opt.write_clean + "/" + name + "_edge_labels.txt"),
              "4, 1\n4, 1\n4, 1\n4, 1\n4, 9\n4, 9\n");
    const TuDataset clean = read_tu_dataset(opt.write_clean);
    EXPECT_EQ(clean.graph_labels, (std::vector<Label>{0, 1, 1}));
    EXPECT_EQ(clean.label_rows.node, (std::vector<std::vector<Label>>{{0, 2}, {1, 0}, {0, 3}}));
}

TEST(DedupFixture, TopologyOrbitsAndMetricsMatchHandComputation) {
    RunContext ctx;
    const LabelledGraphs d = from_tu(read_tu_dataset(kFixture));
    const Orbits o = compute_orbits(d.graphs, OrbitMode::topology, ctx);
    const std::set<std::vector<std::size_t>> want = {{0, 1, 2}, {3, 4}, {5}, {6}, {7, 8}, {9, 10}};
    EXPECT_EQ(as_set(o), want);
    const BiasReport r = bias_report(o, d.labels);
    EXPECT_EQ(r.graphs, 11u);
    EXPECT_EQ(r.orbits, 6u);
    EXPECT_EQ(r.trivial_orbits, 2u);
    EXPECT_EQ(r.nontrivial_orbits, 4u);
    EXPECT_EQ(r.isomorphic_graphs, 9u);
    EXPECT_EQ(r.isomorphic_pairs, 6u);
    EXPECT_EQ(r.redundant_graphs, 5u);
    EXPECT_NEAR(r.i_pct, 100.0 * 9 / 11, 1e-9);
    EXPECT_NEAR(r.ip_pct, 100.0 * 6 / 55, 1e-9);
    EXPECT_EQ(r.mismatched_graphs, 5u);
    EXPECT_EQ(r.mismatched_orbits, 2u);
    EXPECT_NEAR(r.mismatched_pct, 100.0 * 5 / 11, 1e-9);
    EXPECT_EQ(r.size_histogram, (std::map<std::size_t, std::size_t>{{1, 2}, {2, 3}, {3, 1}}));
    const auto top = largest_orbits(o, 2);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(members_of(o, top[0]), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(members_of(o, top[1]), (std::vector<std::size_t>{3, 4}));  // ties: first member first
    EXPECT_EQ(orbit_label_counts(o, top[0], d.labels), (std::map<Label, std::size_t>{{0, 2}, {1, 1}}));
}

TEST(DedupFixture, LabelPreservingModesSeparateGraphsThatDifferOnlyInLabels) {
    RunContext ctx;
    TuReadOptions ro;
    const LabelledGraphs d = from_tu(read_tu_dataset(kFixture, "", ro));
    const Orbits nl = compute_orbits(d.graphs, OrbitMode::node_labels, ctx);
    EXPECT_EQ(as_set(nl), (std::set<std::vector<std::size_t>>{{0, 1}, {2}, {3, 4}, {5}, {6}, {7, 8}, {9, 10}}));
    const BiasReport rn = bias_report(nl, d.labels);
    EXPECT_EQ(rn.isomorphic_graphs, 8u);
    EXPECT_EQ(rn.isomorphic_pairs, 4u);
    EXPECT_EQ(rn.mismatched_graphs, 2u);
    const Orbits el = compute_orbits(d.graphs, OrbitMode::edge_labels, ctx);
    EXPECT_EQ(as_set(el), (std::set<std::vector<std::size_t>>{{0, 1}, {2}, {3, 4}, {5}, {6}, {7}, {8}, {9, 10}}));
    const BiasReport re = bias_report(el, d.labels);
    EXPECT_EQ(re.orbits, 8u);
    EXPECT_EQ(re.isomorphic_graphs, 6u);
    EXPECT_EQ(re.isomorphic_pairs, 3u);
    // Without the edge label file, --edge-labels has nothing to separate: same as node labels.
    ro.edge_labels = false;
    const LabelledGraphs plain = from_tu(read_tu_dataset(kFixture, "", ro));
    EXPECT_EQ(as_set(compute_orbits(plain.graphs, OrbitMode::edge_labels, ctx)), as_set(nl));
}

TEST(DedupFixture, PairwiseBaselineFindsTheSameOrbits) {
    RunContext ctx;
    const LabelledGraphs d = from_tu(read_tu_dataset(kFixture));
    for (OrbitMode m : {OrbitMode::topology, OrbitMode::node_labels, OrbitMode::edge_labels}) {
        std::uint64_t tests = 0;
        const Orbits a = compute_orbits(d.graphs, m, ctx), b = compute_orbits_pairwise(d.graphs, m, ctx, &tests);
        EXPECT_EQ(as_set(a), as_set(b)) << mode_name(m);
        EXPECT_EQ(a.orbit_of, b.orbit_of) << mode_name(m);  // both number orbits by first member
        // (n,m) buckets: (3,3)x3 -> 3, (4,2)x2 -> 1, (3,2), (4,3)x3 -> 3, (1,0)x2 -> 1.
        EXPECT_EQ(tests, 8u);
    }
}

TEST(DedupFixture, SplitSizesAccuraciesAndPeeringBoundByHand) {
    RunContext ctx;
    const LabelledGraphs d = from_tu(read_tu_dataset(kFixture));
    const Orbits o = compute_orbits(d.graphs, OrbitMode::topology, ctx);
    const std::string dir = fresh_dir("split");
    ::mkdir(dir.c_str(), 0755);
    write(dir + "/test.txt", "# test indices\n2\n4\n6\n8\n");
    const auto folds = read_split_file(dir + "/test.txt", d.graphs.size());
    ASSERT_EQ(folds.size(), 1u);
    EXPECT_EQ(folds[0].test, (std::vector<std::size_t>{2, 4, 6, 8}));
    EXPECT_EQ(folds[0].train, (std::vector<std::size_t>{0, 1, 3, 5, 7, 9, 10}));
    write(dir + "/pred.txt", "2 1\n4 0\n6 1\n8 0\n");
    const Predictions p = read_predictions(dir + "/pred.txt", d.graphs.size());
    const FoldReport r = analyse_fold(o, d.labels, folds[0], 0, &p);
    EXPECT_EQ(r.train, 7u);
    EXPECT_EQ(r.test, 4u);
    EXPECT_EQ(r.y_iso, 3u);                  // 2 (with 0,1), 4 (with 3), 8 (with 7)
    EXPECT_EQ(r.y_new, 1u);                  // 6: the star
    EXPECT_EQ(r.y_iso_label_conflicts, 2u);  // 2 and 4 have label 1, their train twins label 0
    ASSERT_TRUE(r.has_accuracy);
    EXPECT_DOUBLE_EQ(r.acc_test, 0.5);
    EXPECT_DOUBLE_EQ(r.acc_iso, 1.0 / 3);
    EXPECT_DOUBLE_EQ(r.acc_new, 1.0);
    EXPECT_DOUBLE_EQ(r.acc_peering, 0.5);  // peers: 2 -> 0 (wrong), 4 -> 0 (wrong), 8 -> 1; 6 keeps 1
    // Without predictions: sizes only.
    const FoldReport s = analyse_fold(o, d.labels, folds[0], 0, nullptr);
    EXPECT_FALSE(s.has_accuracy);
    EXPECT_EQ(s.y_iso, 3u);
    // A missing prediction is an error naming the graph.
    write(dir + "/short.txt", "2 1\n4 0\n");
    const Predictions q = read_predictions(dir + "/short.txt", d.graphs.size());
    EXPECT_THROW(analyse_fold(o, d.labels, folds[0], 0, &q), InvalidArgument);
}

TEST(DedupSplit, ReadsAllFileFormats) {
    const std::string dir = fresh_dir("formats");
    ::mkdir(dir.c_str(), 0755);
    write(dir + "/roles.txt", "0 train\n1 test\n2 train\n");
    auto f = read_split_file(dir + "/roles.txt", 5);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].train, (std::vector<std::size_t>{0, 2}));
    EXPECT_EQ(f[0].test, (std::vector<std::size_t>{1}));
    write(dir + "/folds.txt", "0 1\n2,3\n4\t0\n");
    f = read_split_file(dir + "/folds.txt", 5);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[1].test, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(f[1].train, (std::vector<std::size_t>{0, 1, 4}));
    EXPECT_EQ(f[2].name, "fold 3");
    write(dir + "/folds.json",
          R"([{"test":[1,2],"model_selection":[{"train":[0],"validation":[3]}]},{"train":[1],"test":[0]}])");
    f = read_split_file(dir + "/folds.json", 5);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].train, (std::vector<std::size_t>{0, 3}));
    EXPECT_EQ(f[0].test, (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(f[1].train, (std::vector<std::size_t>{1}));
    // A number beyond the range of a double is bad input named with file and line, like a syntax error.
    write(dir + "/overflow.json", "[{\"test\": [1],\n  \"train\": [1e999]}]");
    EXPECT_NE(error_of([&] { read_split_file(dir + "/overflow.json", 5); }).find("overflow.json:2:"),
              std::string::npos);
    write(dir + "/one.txt", "1\n5\n");
    f = read_split_file(dir + "/one.txt", 5, /*one_based=*/true);
    EXPECT_EQ(f[0].test, (std::vector<std::size_t>{0, 4}));
    // Per-fold predictions.
    write(dir + "/pf.txt", "0 1 7\n1 1 8\n");
    const Predictions p = read_predictions(dir + "/pf.txt", 5);
    EXPECT_EQ(p.get(0, 1), std::optional<Label>(7));
    EXPECT_EQ(p.get(1, 1), std::optional<Label>(8));
    EXPECT_FALSE(p.get(2, 1).has_value());
}

TEST(DedupSplit, MalformedSplitFilesNameFileAndLine) {
    const std::string dir = fresh_dir("badsplit");
    ::mkdir(dir.c_str(), 0755);
    auto message = [&](const std::string& text, std::size_t n) {
        write(dir + "/s.txt", text);
        try {
            read_split_file(dir + "/s.txt", n);
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message("0\n7\n", 5).find("s.txt:2: graph index 7 out of range [0,4]"), std::string::npos);
    EXPECT_NE(message("0 train\n1 validate\n", 5).find("s.txt:2: expected role"), std::string::npos);
    EXPECT_NE(message("0 train\n0 test\n", 5).find("in both train and test"), std::string::npos);
    EXPECT_NE(message("0 1\nx 2\n", 5).find("s.txt:2: expected an integer graph index, found 'x'"), std::string::npos);
    EXPECT_NE(message("1\n1\n", 5).find("listed twice"), std::string::npos);
    EXPECT_NE(message("[{\"train\":[0]}]", 5).find("\"test\""), std::string::npos);
    write(dir + "/p.txt", "1\n0\n");
    EXPECT_THROW(read_predictions(dir + "/p.txt", 3), ParseError);  // 2 labels for 3 graphs
}

TEST(DedupFixture, WriteCleanRoundTripsThroughTheTuReader) {
    RunContext ctx;
    const LabelledGraphs d = from_tu(read_tu_dataset(kFixture));
    const Orbits o = compute_orbits(d.graphs, OrbitMode::topology, ctx);
    const CleanResult c = clean_dataset(o, d.labels);
    EXPECT_EQ(c.kept, (std::vector<std::size_t>{5, 6, 7, 9}));
    EXPECT_EQ(c.dropped_mixed_orbits, 2u);
    EXPECT_EQ(c.dropped_mixed_graphs, 5u);
    EXPECT_EQ(c.dropped_duplicates, 2u);
    EXPECT_EQ(c.per_class.at(0).before, 6u);
    EXPECT_EQ(c.per_class.at(0).after, 2u);
    EXPECT_EQ(c.per_class.at(1).before, 5u);
    EXPECT_EQ(c.per_class.at(1).after, 2u);
    const std::string dir = fresh_dir("clean") + "/CLEAN";
    ::mkdir(dir.substr(0, dir.size() - 6).c_str(), 0755);
    write_clean_dataset(dir, d, o, c);
    const TuDataset back = read_tu_dataset(dir);
    EXPECT_EQ(back.name, "CLEAN");
    ASSERT_EQ(back.graphs.size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(back.graphs[k], d.graphs[c.kept[k]]) << k;  // labels too
    EXPECT_EQ(back.graph_labels, (std::vector<Label>{0, 1, 1, 0}));
    EXPECT_TRUE(back.has_edge_labels);
    // The cleaned dataset has no isomorphic pair and no mixed orbit left.
    const BiasReport r = bias_report(compute_orbits(back.graphs, OrbitMode::topology, ctx), back.graph_labels);
    EXPECT_EQ(r.nontrivial_orbits, 0u);
    EXPECT_EQ(r.mismatched_graphs, 0u);
    const auto mapping = split_lines(read_text_file(dir + "/CLEAN_mapping.tsv"));
    ASSERT_GE(mapping.size(), 5u);
    EXPECT_EQ(mapping[3], "2\t7\t7,8\t1");
    const auto retention = split_lines(read_text_file(dir + "/CLEAN_retention.tsv"));
    EXPECT_EQ(retention[1], "0\t6\t2\t33.33");
    // Label-preserving cleaning keeps G1 (its orbit {G1,G2} agrees) and G3.
    const CleanResult cn = clean_dataset(compute_orbits(d.graphs, OrbitMode::node_labels, ctx), d.labels);
    EXPECT_EQ(cn.kept, (std::vector<std::size_t>{0, 2, 5, 6, 7, 9}));
}

// ---------------------------------------------------------------------------------------------
// Edge-label encoding of the iso module (subdivision by coloured vertices).

TEST(DedupIso, EdgeLabelCertificatesAgreeWithBruteForce) {
    Rng rng(20240611);
    std::size_t iso_pairs = 0, checked = 0;
    for (int t = 0; t < 300; ++t) {
        const VertexId n = static_cast<VertexId>(3 + rng.below(3));
        const Graph g = random_labelled(rng, n, 0.5, 2, 2);
        // Half the time a relabelled copy (isomorphic), else an independent graph or one flipped label.
        Graph h;
        const auto kind = rng.below(3);
        if (kind == 0)
            h = shuffled(g, rng);
        else if (kind == 1)
            h = random_labelled(rng, n, 0.5, 2, 2);
        else {
            GraphBuilder b(n);
            const auto edges = g.edges();
            const std::size_t flip = edges.empty() ? 0 : rng.below(edges.size());
            for (std::size_t e = 0; e < edges.size(); ++e)
                b.add_edge(edges[e].first, edges[e].second,
                           g.edge_label(edges[e].first, edges[e].second) ^ (e == flip));
            b.set_node_labels(g.node_labels());
            h = shuffled(b.build(), rng);
        }
        for (int mode = 0; mode < 3; ++mode) {
            const bool nl = mode >= 1, el = mode == 2;
            const bool want = brute_isomorphic(g, h, nl, el);
            const IsoOptions opt = IsoOptions().node_labels(nl).edge_labels(el);
            EXPECT_EQ(canonical_certificate(g, opt) == canonical_certificate(h, opt), want)
                << "trial " << t << " mode " << mode;
            iso_pairs += want;
            ++checked;
        }
    }
    EXPECT_GT(iso_pairs, 150u);  // both outcomes are exercised
    EXPECT_LT(iso_pairs, checked);
}

TEST(DedupIso, EdgeLabelValuesAreKeptAcrossGraphs) {
    // Same structure, every edge labelled 5 in one graph and 7 in the other: not label-isomorphic.
    // (A per-graph ranking of colour classes would give both the same certificate.)
    GraphBuilder a(3), b(3);
    for (auto [u, v] : std::vector<Edge>{{0, 1}, {1, 2}}) {
        a.add_edge(u, v, 5);
        b.add_edge(u, v, 7);
    }
    const Graph ga = a.build(), gb = b.build();
    const IsoOptions opt = IsoOptions().edge_labels(true);
    EXPECT_NE(canonical_certificate(ga, opt), canonical_certificate(gb, opt));
    EXPECT_FALSE(are_isomorphic(ga, gb, opt));
    EXPECT_TRUE(are_isomorphic(ga, gb));  // topology alone agrees
    // An edge label must not be confused with a node label of the same value.
    GraphBuilder c(3), e(3);
    c.add_edge(0, 1, 1);
    c.add_edge(1, 2, 1);
    e.add_edge(0, 1, 1);
    e.add_edge(1, 2, 1);
    c.set_node_labels({0, 0, 0});
    e.set_node_labels({1, 1, 1});
    EXPECT_FALSE(are_isomorphic(c.build(), e.build(), IsoOptions().node_labels(true).edge_labels(true)));
    // All-zero edge labels are the same as no edge labels.
    GraphBuilder z(3);
    z.add_edge(0, 1, 0);
    z.add_edge(1, 2, 0);
    EXPECT_EQ(canonical_certificate(z.build(), opt), canonical_certificate(make_path(3), opt));
}

// ---------------------------------------------------------------------------------------------
// Random datasets: certificates vs pairwise vs brute force, thread independence.

TEST(DedupRandom, CertificateOrbitsEqualPairwiseAndBruteForce) {
    Rng rng(7);
    std::vector<Graph> graphs;
    for (int i = 0; i < 40; ++i) {
        const Graph g = random_labelled(rng, static_cast<VertexId>(4 + rng.below(2)), 0.5, 2, 1);
        graphs.push_back(g);
        if (rng.below(2)) graphs.push_back(shuffled(g, rng));
    }
    RunContext one, two;
    two.set_threads(2);
    for (OrbitMode m : {OrbitMode::topology, OrbitMode::node_labels}) {
        const Orbits a = compute_orbits(graphs, m, one);
        EXPECT_EQ(a.orbit_of, compute_orbits(graphs, m, two).orbit_of);
        EXPECT_EQ(a.orbit_of, compute_orbits_pairwise(graphs, m, two).orbit_of);
        for (std::size_t i = 0; i < graphs.size(); ++i)
            for (std::size_t j = i + 1; j < graphs.size(); ++j)
                ASSERT_EQ(a.orbit_of[i] == a.orbit_of[j],
                          brute_isomorphic(graphs[i], graphs[j], m == OrbitMode::node_labels, false))
                    << i << " " << j << " " << mode_name(m);
    }
}

TEST(DedupRandom, LargeSparseGraphsAreHandled) {
    // Three 3,000-node graphs: a cycle, a shuffled copy and a path (plus an isolated node).
    Rng rng(3);
    const Graph c = make_cycle(3000);
    GraphBuilder b(3000);
    for (VertexId v = 0; v + 2 < 3000; ++v) b.add_edge(v, v + 1);
    RunContext ctx;
    const Orbits o = compute_orbits({c, shuffled(c, rng), b.build()}, OrbitMode::topology, ctx);
    EXPECT_EQ(o.orbit_of, (std::vector<std::uint32_t>{0, 0, 1}));
}

TEST(DedupMetrics, EmptyLabels) {
    const Orbits o = Orbits::from_roots({0, 0, 0, 3});
    EXPECT_EQ(o.orbit_of, (std::vector<std::uint32_t>{0, 0, 0, 1}));
    EXPECT_EQ(members_of(o, 0), (std::vector<std::size_t>{0, 1, 2}));
    const BiasReport r = bias_report(o, {});
    EXPECT_FALSE(r.has_labels);
    EXPECT_EQ(r.isomorphic_pairs, 3u);
    EXPECT_NEAR(r.ip_pct, 50.0, 1e-12);
    EXPECT_THROW(bias_report(o, {1, 2}), InvalidArgument);
    EXPECT_EQ(r.size_histogram, (std::map<std::size_t, std::size_t>{{1, 1}, {3, 1}}));
}

// ---------------------------------------------------------------------------------------------
// The shipped BREC pairs: 800 graphs said to be distinct.

TEST(DedupBrec, ShippedPairsHoldTwoRepeatedGraphs) {
    const PairDataset ds = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    std::vector<std::size_t> all(ds.pairs.size());
    std::iota(all.begin(), all.end(), 0);
    const LabelledGraphs d = from_pairs(ds, all);
    ASSERT_EQ(d.graphs.size(), 800u);
    RunContext ctx;
    ctx.set_threads(2);
    const Orbits o = compute_orbits(d.graphs, OrbitMode::topology, ctx);
    std::vector<std::vector<std::string>> repeated;
    for (std::size_t k = 0; k < o.size(); ++k)
        if (o.members(k).size() > 1) {
            repeated.emplace_back();
            for (std::size_t i : o.members(k)) repeated.back().push_back(d.id(i));
        }
    EXPECT_EQ(repeated, (std::vector<std::vector<std::string>>{{"66b", "210b"}, {"387b", "388b"}}));
    EXPECT_EQ(bias_report(o, {}).orbits, 798u);
}

TEST(DedupRun, WholeRunJsonTextAndFlagFreeErrors) {
    const std::string dir = fresh_dir("run");
    ::mkdir(dir.c_str(), 0755);
    write(dir + "/folds.txt", "2 4 6 8\n0 3 5 7\n");
    DedupOptions opt;
    opt.path = kFixture;
    opt.split = dir + "/folds.txt";
    RunContext ctx;
    std::vector<std::string> warnings;
    ctx.set_log([&](LogLevel, const std::string& m) { warnings.push_back(m); }, LogLevel::warn);
    const DedupResult r = run_dedup(opt, ctx);
    EXPECT_EQ(r.format, "tu");
    EXPECT_EQ(warnings.size(), 2u) << "one self-loop line and one duplicate edge line were dropped";
    const auto j = to_json(r);
    EXPECT_EQ(j["graphs"], 11);
    EXPECT_EQ(j["orbits"]["total_including_trivial"], 6);
    EXPECT_EQ(j["I"], 9);
    EXPECT_EQ(j["mismatched_graphs"], 5);
    ASSERT_EQ(j["folds"].size(), 2u);
    EXPECT_EQ(j["folds"][1]["Y_new"], 1);
    EXPECT_FALSE(j.contains("clean"));
    const std::string text = dedup_text(r, "h.svg");
    EXPECT_NE(text.find("I (graphs in non-trivial orbits)"), std::string::npos) << text;
    EXPECT_NE(text.find("histogram SVG: h.svg"), std::string::npos);
    EXPECT_LT(text.find("histogram SVG"), text.find("\ntime: "));
    // Errors speak of the options, not of command-line flags.
    DedupOptions bad = opt;
    bad.split.clear();
    bad.predictions = dir + "/p.txt";
    EXPECT_EQ(testing_error(bad), "predictions need a train/test split");
    bad = opt;
    bad.selection.id_ranges = "0-3";
    EXPECT_EQ(testing_error(bad), "a pair selection (categories, ids) applies to pair files only");
    bad = opt;
    bad.method = "guess";
    EXPECT_EQ(testing_error(bad), "unknown orbit method 'guess' (certificate, all-certificates, pairwise)");
    // A pair file with a selection: the graphs of the chosen pairs.
    DedupOptions pairs;
    pairs.path = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";
    pairs.selection.id_ranges = "0-9";
    const DedupResult p = run_dedup(pairs, ctx);
    EXPECT_EQ(p.format, "pairs");
    EXPECT_EQ(p.report.graphs, 20u);
    // Cancelled before the orbits are computed: nothing is written.
    DedupOptions clean = opt;
    clean.write_clean = dir + "/C";
    RunContext cancelled;
    cancelled.cancel();
    EXPECT_THROW(run_dedup(clean, cancelled), Cancelled);
    EXPECT_FALSE(file_exists(dir + "/C"));
}

// ---------------------------------------------------------------------------------------------
// The command line (skipped when the brec binary has not been built).

TEST(DedupCli, MemoryBudgetInMibOrWithAUnitSpillsTheSameOrbits) {
    const std::string bin = BREC_BINARY;
    if (!file_exists(bin)) GTEST_SKIP() << "brec binary not built";
    const std::string dir = fresh_dir("budget");
    ::mkdir(dir.c_str(), 0755);
    auto run = [&](const std::string& budget) {
        const std::string out = dir + "/out.json";
        const std::string cmd = "'" + bin + "' dedup '" + kFixture + "' --json --quiet --invariants never" +
                                (budget.empty() ? "" : " --memory-budget " + budget) + " > '" + out + "'";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << budget;
        return nlohmann::json::parse(split_lines(read_text_file(out)).back());
    };
    const auto memory = run(""), mib = run("16"), bytes = run("40B"), kib = run("1K");
    EXPECT_EQ(memory["stream"]["runs"], 0);
    EXPECT_EQ(mib["stream"]["runs"], 0);
    EXPECT_GT(bytes["stream"]["runs"].get<int>(), 1);  // a few forms per run
    EXPECT_GE(bytes["stream"]["runs"].get<int>(), kib["stream"]["runs"].get<int>());
    for (const auto* j : {&mib, &bytes, &kib}) EXPECT_EQ((*j)["non_trivial_orbits"], memory["non_trivial_orbits"]);
}

TEST(DedupCli, JsonReportAndWriteCleanOnFixture) {
    const std::string bin = BREC_BINARY;
    if (!file_exists(bin)) GTEST_SKIP() << "brec binary not built";
    const std::string dir = fresh_dir("cli");
    ::mkdir(dir.c_str(), 0755);
    write(dir + "/folds.txt", "2 4 6 8\n0 3 5 7\n");
    const std::string out = dir + "/out.json";
    const std::string cmd = "'" + bin + "' dedup '" + kFixture + "' --json --quiet --split '" + dir +
                            "/folds.txt' --write-clean '" + dir + "/C' --svg '" + dir + "/h.svg' > '" + out + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const auto lines = split_lines(read_text_file(out));
    ASSERT_FALSE(lines.empty());
    const auto j = nlohmann::json::parse(lines.back());
    EXPECT_EQ(j["graphs"], 11);
    EXPECT_EQ(j["orbits"]["total_including_trivial"], 6);
    EXPECT_EQ(j["orbits"]["trivial"], 2);
    EXPECT_EQ(j["I"], 9);
    EXPECT_EQ(j["mismatched_graphs"], 5);
    EXPECT_EQ(j["tu_stats"]["self_loops"], 1);
    EXPECT_EQ(j["tu_stats"]["duplicate_edge_lines"], 1);
    ASSERT_EQ(j["folds"].size(), 2u);
    EXPECT_EQ(j["folds"][0]["Y_iso"], 3);
    EXPECT_EQ(j["folds"][1]["Y_iso"], 3);  // 0 (1,2 in train), 3 (4 in train), 7 (8 in train)
    EXPECT_EQ(j["folds"][1]["Y_new"], 1);  // 5: the lone path on 3 nodes
    EXPECT_EQ(j["clean"]["kept"], 4);
    EXPECT_EQ(read_tu_dataset(dir + "/C").graphs.size(), 4u);
    EXPECT_TRUE(file_exists(dir + "/h.svg"));
    // Bad input: exit 2, one-line error, and no output directory.
    const std::string bad = "'" + bin + "' dedup '" + kFixture +
                            "' --quiet --split /nonexistent/split.txt --write-clean '" + dir + "/D' > /dev/null 2> '" +
                            dir + "/err.txt'";
    const int rc = std::system(bad.c_str());
    EXPECT_EQ(WEXITSTATUS(rc), 2);
    EXPECT_FALSE(file_exists(dir + "/D"));
    const auto err = split_lines(read_text_file(dir + "/err.txt"));
    ASSERT_FALSE(err.empty());
    EXPECT_EQ(std::count_if(err.begin(), err.end(),
                            [](const std::string& l) { return l.find("error") != std::string::npos; }),
              1);
    EXPECT_NE(err.back().find("/nonexistent/split.txt"), std::string::npos);  // warnings come first
}

TEST(Peering, TheMajorityLabelWithTiesToThePredictionThenTheSmallest) {
    const std::map<Label, std::size_t> clear = {{0, 1}, {1, 3}, {2, 2}};
    EXPECT_EQ(peer_label(clear, std::nullopt), 1);
    EXPECT_EQ(peer_label(clear, Label{2}), 1) << "a prediction outside the majority does not count";
    const std::map<Label, std::size_t> tied = {{3, 2}, {5, 2}, {7, 1}};
    EXPECT_EQ(peer_label(tied, std::nullopt), 3);
    EXPECT_EQ(peer_label(tied, Label{5}), 5);
    EXPECT_EQ(peer_label(tied, Label{7}), 3);
    EXPECT_THROW(peer_label({}, std::nullopt), InvalidArgument);
    // Orbits {0, 1, 2} and {3, 4}; training graphs 0, 1, 3 with labels 4, 4, 9.
    const Orbits orbits = Orbits::from_roots({0, 0, 0, 3, 3});
    Fold fold;
    fold.train = {0, 1, 3};
    fold.test = {2, 4};
    const auto counts = orbit_train_labels(orbits, {4, 4, 6, 9, 9}, fold);
    ASSERT_EQ(counts.size(), 2u);
    EXPECT_EQ(counts[0], (std::map<Label, std::size_t>{{4, 2}}));
    EXPECT_EQ(counts[1], (std::map<Label, std::size_t>{{9, 1}}));
}

}  // namespace
}  // namespace brec
