// Counting datasets: sizes, split and determinism, and labels checked against an independent
// brute-force counter written here (every 3- and 4-vertex subset matched against the pattern
// templates under all vertex orders; non-induced 3-stars as triples of edges sharing a vertex) and
// against counts made by hand on small graphs.
#include "brec/gen/count_dataset.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/graph6.hpp"

namespace brec {
namespace {

// ----- an independent brute-force counter ----------------------------------------------------

/// The pattern templates on vertices 0..size-1, in Pattern order (the 8 induced patterns).
struct Template {
    Pattern pattern;
    int size;
    std::vector<std::pair<int, int>> edges;
};

const std::vector<Template>& templates() {
    static const std::vector<Template> kTemplates = {
        {Pattern::path2, 3, {{0, 1}, {1, 2}}},
        {Pattern::triangle, 3, {{0, 1}, {1, 2}, {0, 2}}},
        {Pattern::path3, 4, {{0, 1}, {1, 2}, {2, 3}}},
        {Pattern::star3, 4, {{0, 1}, {0, 2}, {0, 3}}},
        {Pattern::cycle4, 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}},
        {Pattern::tailed_triangle, 4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}},
        {Pattern::diamond, 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}}},
        {Pattern::clique4, 4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
    };
    return kTemplates;
}

/// Bit of the vertex pair {i, j} (i != j) in the adjacency mask of a subset of `size` vertices.
int pair_bit(int i, int j, int size) {
    if (i > j) std::swap(i, j);
    int bit = 0;
    for (int a = 0; a < size; ++a)
        for (int b = a + 1; b < size; ++b, ++bit)
            if (a == i && b == j) return bit;
    return -1;
}

/// For subsets of `size` vertices: the pattern index of every adjacency mask, -1 for masks that
/// are isomorphic to no template (disconnected). Built by relabelling each template all ways.
std::vector<int> mask_table(int size) {
    std::vector<int> table(std::size_t{1} << (size * (size - 1) / 2), -1);
    for (const Template& t : templates()) {
        if (t.size != size) continue;
        std::vector<int> perm(static_cast<std::size_t>(size));
        for (int i = 0; i < size; ++i) perm[static_cast<std::size_t>(i)] = i;
        do {
            int mask = 0;
            for (const auto& [u, v] : t.edges)
                mask |= 1 << pair_bit(perm[static_cast<std::size_t>(u)], perm[static_cast<std::size_t>(v)], size);
            table[static_cast<std::size_t>(mask)] = static_cast<int>(t.pattern);
        } while (std::next_permutation(perm.begin(), perm.end()));
    }
    return table;
}

/// Every count of the dataset's labels from the definitions, without the library's counter.
CountArray brute_force_counts(const Graph& g) {
    static const std::vector<int> kTable3 = mask_table(3), kTable4 = mask_table(4);
    CountArray c{};
    const VertexId n = g.n();
    std::vector<std::vector<char>> adj(n, std::vector<char>(n, 0));
    for (const auto& [u, v] : g.edges()) adj[u][v] = adj[v][u] = 1;
    VertexId s[4];
    auto mask_of = [&](int size) {
        int mask = 0, bit = 0;
        for (int a = 0; a < size; ++a)
            for (int b = a + 1; b < size; ++b, ++bit)
                if (adj[s[a]][s[b]]) mask |= 1 << bit;
        return static_cast<std::size_t>(mask);
    };
    for (s[0] = 0; s[0] < n; ++s[0])
        for (s[1] = s[0] + 1; s[1] < n; ++s[1])
            for (s[2] = s[1] + 1; s[2] < n; ++s[2]) {
                if (const int p = kTable3[mask_of(3)]; p >= 0) ++c[static_cast<std::size_t>(p)];
                for (s[3] = s[2] + 1; s[3] < n; ++s[3])
                    if (const int p = kTable4[mask_of(4)]; p >= 0) ++c[static_cast<std::size_t>(p)];
            }
    // A non-induced 3-star is a set of three edges with a common end point (the centre); edges
    // among the leaves do not matter. A triangle's three edges share no vertex.
    const auto e = g.edges();
    auto shared = [](const Edge& x, VertexId v) { return x.first == v || x.second == v; };
    for (std::size_t i = 0; i < e.size(); ++i)
        for (std::size_t j = i + 1; j < e.size(); ++j)
            for (std::size_t k = j + 1; k < e.size(); ++k)
                for (VertexId v : {e[i].first, e[i].second})
                    if (shared(e[j], v) && shared(e[k], v)) ++c[static_cast<std::size_t>(Pattern::star3_noninduced)];
    return c;
}

std::size_t idx(Pattern p) { return static_cast<std::size_t>(p); }

std::string describe(const CountArray& c) {
    std::string s;
    for (Pattern p : all_patterns()) s += std::string(pattern_name(p)) + "=" + std::to_string(c[idx(p)]) + " ";
    return s;
}

TEST(CountDataset, TheBruteForceCounterAndTheLibraryAgreeWithHandCounts) {
    struct Case {
        std::string name;
        Graph g;
        /// In Pattern order: 2-path, triangle, 3-path, 3-star, 4-cycle, tailed triangle, diamond,
        /// 4-clique, non-induced 3-star.
        CountArray want;
    };
    const std::vector<Case> cases = {
        // K4: every 3-set a triangle, the 4-set a clique; each vertex centres one 3-star.
        {"K4", make_complete(4), {0, 4, 0, 0, 0, 0, 0, 1, 4}},
        // K5: C(5,3) triangles, C(5,4) cliques, 5 centres x C(4,3) leaf sets.
        {"K5", make_complete(5), {0, 10, 0, 0, 0, 0, 0, 5, 20}},
        // C5: 5 induced 2-paths (consecutive triples), every 4-set is a P4; no degree 3.
        {"C5", make_cycle(5), {5, 0, 5, 0, 0, 0, 0, 0, 0}},
        {"C4", make_cycle(4), {4, 0, 0, 0, 1, 0, 0, 0, 0}},
        {"P4", make_path(4), {2, 0, 1, 0, 0, 0, 0, 0, 0}},
        {"K1,3", make_graph(4, {{0, 1}, {0, 2}, {0, 3}}), {3, 0, 0, 1, 0, 0, 0, 0, 1}},
        // Paw: triangle 012 with pendant 2-3; 3-sets 023 and 123 are 2-paths, 013 is disconnected.
        {"paw", make_graph(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}), {2, 1, 0, 0, 0, 1, 0, 0, 1}},
        // Diamond (K4 minus 1-3): triangles 012 and 023, 2-paths 013 and 123; centres 0 and 2.
        {"diamond", make_graph(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}}), {2, 2, 0, 0, 0, 0, 1, 0, 2}},
        // Petersen (cubic, girth 5): 10 x C(3,2) 2-paths, 15 middle edges x 2 x 2 induced P4s,
        // one induced star per vertex.
        {"Petersen", make_petersen(), {30, 0, 60, 10, 0, 0, 0, 0, 10}},
        // 10 isolated vertices (an empty G(10, p) draw) and a disjoint K3 + K3: nothing connected
        // across components.
        {"empty10", make_graph(10, {}), {0, 0, 0, 0, 0, 0, 0, 0, 0}},
        {"2K3", make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}}), {0, 2, 0, 0, 0, 0, 0, 0, 0}},
    };
    for (const Case& c : cases) {
        // The call the dataset makes for its labels.
        const CountArray got = count_patterns(c.g, 4, false).total;
        EXPECT_EQ(got, c.want) << c.name << ": " << describe(got);
        EXPECT_EQ(brute_force_counts(c.g), c.want) << c.name << ": " << describe(brute_force_counts(c.g));
    }
}

TEST(CountDataset, LabelsMatchTheBruteForceCounterOnEveryKind) {
    RunContext ctx;
    ctx.set_threads(2);
    for (const char* kind : {"sbm", "er", "er-ood"}) {
        const CountDataset d =
            generate_count_dataset(CountDatasetOptions().set_kind(kind).set_seed(5).set_graphs(40), ctx);
        ASSERT_EQ(d.counts.size(), 40u);
        CountArray seen{};
        std::array<double, kNumCounts> sum{};
        for (std::size_t i = 0; i < d.graphs.size(); ++i) {
            const CountArray want = brute_force_counts(d.graphs[i]);
            ASSERT_EQ(d.counts[i], want) << kind << " graph " << i << " (" << to_graph6(d.graphs[i])
                                         << "): " << describe(d.counts[i]) << " vs " << describe(want);
            for (std::size_t p = 0; p < want.size(); ++p) {
                seen[p] += want[p] > 0;
                sum[p] += static_cast<double>(want[p]);
            }
        }
        // The comparison is not vacuous: every pattern occurs in some graph of the sample (in
        // er-ood, G(10, 0.8), induced 3-paths and stars are rare but do occur in 40 draws).
        for (Pattern p : all_patterns()) EXPECT_GT(seen[idx(p)], 0u) << kind << " " << pattern_name(p);
        // meta.json's mean counts are the means of the exact counts.
        const auto meta = count_dataset_meta(d);
        for (Pattern p : all_patterns())
            EXPECT_NEAR(meta["mean_counts"][pattern_name(p)].get<double>(), sum[idx(p)] / 40.0, 1e-9)
                << kind << " " << pattern_name(p);
    }
}

TEST(CountDataset, SameGraphsAndSplitForAnyThreadCount) {
    RunContext one, two;
    two.set_threads(2);
    const CountDatasetOptions opt = CountDatasetOptions().set_kind("sbm").set_seed(11).set_graphs(200);
    const CountDataset a = generate_count_dataset(opt, one), b = generate_count_dataset(opt, two);
    ASSERT_EQ(a.graphs.size(), 200u);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) {
        ASSERT_EQ(a.graphs[i], b.graphs[i]) << i;
        ASSERT_EQ(a.counts[i], b.counts[i]) << i;
        EXPECT_EQ(a.graphs[i].n(), 30u);
    }
    EXPECT_EQ(a.split, b.split);
    std::size_t sizes[3] = {0, 0, 0};
    for (Split s : a.split) ++sizes[static_cast<int>(s)];
    EXPECT_EQ(sizes[0], 60u);
    EXPECT_EQ(sizes[1], 40u);
    EXPECT_EQ(sizes[2], 100u);
    // Graph i depends on (seed, i) only: a larger dataset starts with the same graphs.
    const CountDataset c = generate_count_dataset(CountDatasetOptions(opt).set_graphs(250), one);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) ASSERT_EQ(to_graph6(a.graphs[i]), to_graph6(c.graphs[i]));
}

TEST(CountDataset, ErKindsHaveTenVerticesAndTheirDensity) {
    RunContext ctx;
    for (const auto& [kind, p] : {std::pair<std::string, double>{"er", 0.4}, {"er-ood", 0.8}}) {
        const CountDataset d = generate_count_dataset(CountDatasetOptions().set_kind(kind).set_graphs(400), ctx);
        double edges = 0;
        for (const Graph& g : d.graphs) {
            EXPECT_EQ(g.n(), 10u);
            edges += static_cast<double>(g.m());
        }
        EXPECT_NEAR(edges / 400.0, 45.0 * p, 1.0) << kind;
    }
}

TEST(CountDataset, BadOptionsAreRejected) {
    RunContext ctx;
    try {
        generate_count_dataset(CountDatasetOptions().set_kind("ba"), ctx);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown dataset kind 'ba'"), std::string::npos);
    }
    EXPECT_THROW(generate_count_dataset(CountDatasetOptions().set_graphs(0), ctx), InvalidArgument);
    CountDatasetOptions split;
    split.train_fraction = 0.8;
    split.validation_fraction = 0.5;
    EXPECT_THROW(generate_count_dataset(split, ctx), InvalidArgument);
}

}  // namespace
}  // namespace brec
