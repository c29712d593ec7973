// KC-SetGNN: its vertex sets against brute force over all triples, the set inclusions on a small
// graph by hand, its parameter count by hand, and its embeddings (shapes, relabelings, a pair
// plain message passing cannot separate). The registry suite checks determinism, the global
// generator and gradients; a training run is in tests/eval.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/ksets.hpp"
#include "brec/nn/registry.hpp"
#include "common/test_graphs.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

using Triple = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

/// Components of the subgraph induced by {a, b, c}, from its edge count (3 vertices).
int brute_components(const Graph& g, VertexId a, VertexId b, VertexId c) {
    const int edges = int(g.has_edge(a, b)) + int(g.has_edge(a, c)) + int(g.has_edge(b, c));
    return edges == 0 ? 3 : edges == 1 ? 2 : 1;
}

void expect_sets_match_brute_force(const Graph& g) {
    const KSets s = k_sets(g);
    const std::int64_t n = g.n();
    ASSERT_EQ(s.n, n);
    ASSERT_EQ(s.pairs(), n * (n - 1) / 2);
    std::int64_t p = 0;
    for (VertexId u = 0; u < g.n(); ++u)
        for (VertexId v = u + 1; v < g.n(); ++v, ++p) {
            EXPECT_EQ(s.pair_vertices[2 * p], static_cast<std::int64_t>(u));
            EXPECT_EQ(s.pair_vertices[2 * p + 1], static_cast<std::int64_t>(v));
            EXPECT_EQ(pair_index(n, u, v), p);
            EXPECT_EQ(s.pair_components[p], g.has_edge(u, v) ? 1 : 2);
        }
    // Every triple with at most 2 components, by its component count.
    std::map<Triple, int> expected;
    std::map<int, int> expected_by_components;
    for (VertexId a = 0; a < g.n(); ++a)
        for (VertexId b = a + 1; b < g.n(); ++b)
            for (VertexId c = b + 1; c < g.n(); ++c) {
                const int k = brute_components(g, a, b, c);
                if (k <= 2) {
                    expected[{a, b, c}] = k;
                    ++expected_by_components[k];
                }
            }
    std::map<Triple, int> got;
    std::map<int, int> got_by_components;
    for (std::int64_t t = 0; t < s.triples(); ++t) {
        const std::int64_t a = s.triple_vertices[3 * t], b = s.triple_vertices[3 * t + 1],
                           c = s.triple_vertices[3 * t + 2];
        ASSERT_TRUE(a < b && b < c);
        EXPECT_TRUE(got.emplace(Triple{a, b, c}, s.triple_components[t]).second) << "repeated triple";
        ++got_by_components[s.triple_components[t]];
        // Its 2-subsets.
        const std::int64_t subsets[3][2] = {{a, b}, {a, c}, {b, c}};
        for (int i = 0; i < 3; ++i) {
            const std::int64_t q = s.triple_pairs[3 * t + i];
            EXPECT_EQ(s.pair_vertices[2 * q], subsets[i][0]);
            EXPECT_EQ(s.pair_vertices[2 * q + 1], subsets[i][1]);
        }
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got_by_components, expected_by_components);
}

TEST(KSets, MatchBruteForceOverAllTriples) {
    Rng rng(31);
    for (int i = 0; i < 12; ++i) {
        const VertexId n = static_cast<VertexId>(3 + i);
        expect_sets_match_brute_force(testing::random_graph(n, 0.1 + 0.07 * i, rng));
    }
    // Disconnected graphs, an edgeless one, a complete one.
    expect_sets_match_brute_force(disjoint_union(make_cycle(3), make_path(4)));
    expect_sets_match_brute_force(disjoint_union(testing::random_graph(6, 0.5, rng), make_graph(3, {})));
    expect_sets_match_brute_force(make_graph(5, {}));
    expect_sets_match_brute_force(make_complete(6));
}

TEST(KSets, PathWithAnIsolatedVertexByHand) {
    // 0 - 1 - 2 and the isolated vertex 3. Pairs in order: 01 02 03 12 13 23 (numbers 0..5); edges
    // 01 and 12. Triples: 012 (a path, 1 component), 013 (edge 01 + vertex 3: 2 components), 123
    // (edge 12 + vertex 3: 2); 023 has no edge (3 components) and is not a set.
    const KSets s = k_sets(disjoint_union(make_path(3), make_graph(1, {})));
    EXPECT_EQ(s.pair_components, (std::vector<std::uint8_t>{1, 2, 2, 1, 2, 2}));
    EXPECT_EQ(s.triple_vertices, (std::vector<std::int64_t>{0, 1, 2, 0, 1, 3, 1, 2, 3}));
    EXPECT_EQ(s.triple_components, (std::vector<std::uint8_t>{1, 2, 2}));
    // Each triple linked to its three pairs: 012 → 01, 02, 12; 013 → 01, 03, 13; 123 → 12, 13, 23.
    EXPECT_EQ(s.triple_pairs, (std::vector<std::int64_t>{0, 1, 3, 0, 2, 4, 3, 4, 5}));
}

using testing::parameter_count;

ModelConfig brec_config() { return testing::default_config("kc_setgnn"); }

// At the BREC settings (h 64, 4 bipartite layers, 2 inner layers, d 16), by hand (Linear(i, o):
// i·o + o, i·o without bias; BatchNorms without affine: 0):
//   input and edge rows 2 × 64 = 128;
//   inner GINE × 2: edge Linear(64,64) 4,160 + ε 1 + MLP 2 × 64·64 = 8,192 → 12,353 each, 24,706;
//   inner output Linear(64,64) no bias 4,096; size Embedding(3,64) 192 + components (2,64) 128;
//   set output Linear(64,64) no bias 4,096;
//   per bipartite layer: nn1, nn2 2 × 8,192; linear1-4 4 × Linear(64,32) 2,080 = 8,320;
//     nn_out Linear(128,128) 16,384 + Linear(128,64) 8,192 (no biases): 49,280; × 4 = 197,120;
//   gate: size (3,16) 48 + components (2,16) 32 + Linear(32,64) no bias 2,048 = 2,128;
//   readout Linear(128,64) no bias 8,192; Linear(192,64) no bias 12,288 + Linear(64,16) 1,040.
//   128 + 24,706 + 4,096 + 320 + 4,096 + 197,120 + 2,128 + 8,192 + 13,328 = 254,114.
TEST(KcSetGnn, ParameterCountAtTheBrecSettingsMatchesTheArchitecture) {
    ModelRandom random = make_model_random(1, torch::kCPU);
    const auto model = make_model("kc_setgnn", brec_config(), random);
    EXPECT_EQ(parameter_count(*model), 254114);
}

TEST(KcSetGnn, SpecCarriesTheBrecSettings) {
    const ModelSpec& s = find_model("kc_setgnn").spec;
    EXPECT_EQ(s.defaults.layers, 4);
    EXPECT_EQ(s.defaults.hidden, 64);
    EXPECT_EQ(s.defaults.batch, 16);
    EXPECT_EQ(s.defaults.epochs, 15);
    EXPECT_EQ(s.defaults.loss_threshold, 0.3);
    EXPECT_EQ(s.paper_subset, "0-59,60-109,160-259,260-319");
    EXPECT_EQ(s.paper.total(), 211);
    EXPECT_EQ(s.bound, "2fwl");
}

TEST(KcSetGnn, RejectsAnOddWidth) {
    ModelRandom random = make_model_random(1, torch::kCPU);
    ModelConfig c = brec_config();
    c.hidden = 7;
    EXPECT_THROW(make_model("kc_setgnn", c, random), InvalidArgument);
}

ModelConfig small_config() {
    ModelConfig c;
    c.layers = 2;
    c.hidden = 8;
    c.out_dim = 5;
    return c;
}

TEST(KcSetGnn, EmbedsMixedGraphsAndRelabelingsAlike) {
    // Different sizes, a disconnected graph, an edgeless one and relabelings in one batch, at the
    // BREC width.
    Rng rng(8);
    const Graph g = disjoint_union(testing::random_graph(7, 0.4, rng), make_path(3));
    const std::vector<Graph> graphs{g,
                                    make_cycle(6),
                                    permute(g, rng.permutation(g.n())),
                                    make_graph(4, {}),
                                    testing::shrikhande(),
                                    permute(g, rng.permutation(g.n()))};
    ModelRandom random = make_model_random(2, torch::kCPU);
    const auto model = make_model("kc_setgnn", brec_config(), random);
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto train_out = model->forward_range(0, graphs.size());
    EXPECT_EQ(train_out.sizes(), (std::vector<std::int64_t>{6, 16}));
    EXPECT_TRUE(torch::isfinite(train_out).all().item<bool>());
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = model->forward_range(0, graphs.size());
    // Relabelings differ only by float32 rounding, which depends on the CPU's summation order
    // (about 1e-4 of the largest intermediate sums on an AVX2-only AMD EPYC); different graphs
    // differ by tenths.
    const double rtol = 1e-3, atol = 1e-4;
    EXPECT_TRUE(torch::allclose(out[0], out[2], rtol, atol)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[5], rtol, atol)) << out;
    EXPECT_FALSE(torch::allclose(out[0], out[1], rtol, atol)) << out;
    // In eval mode an embedding does not depend on the rest of its batch.
    EXPECT_TRUE(torch::allclose(model->forward_range(4, 6), out.slice(0, 4, 6), rtol, atol));
}

TEST(KcSetGnn, SeparatesTheCycleFromTwoTrianglesBeforeTraining) {
    // C6 and 2×C3 are 1-WL-equivalent; a triangle is a connected 3-set whose induced subgraph has
    // three edges, so even random weights embed them apart.
    ModelRandom random = make_model_random(5, torch::kCPU);
    const auto model = make_model("kc_setgnn", small_config(), random);
    const std::vector<Graph> graphs{make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3)), make_cycle(6),
                                    disjoint_union(make_cycle(3), make_cycle(3))};
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto out = model->forward_range(0, 4);
    EXPECT_FALSE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
}

TEST(KcSetGnn, RejectsABatchWithoutThreeSets) {
    ModelRandom random = make_model_random(5, torch::kCPU);
    const auto model = make_model("kc_setgnn", small_config(), random);
    const std::vector<Graph> graphs{make_graph(4, {}), make_graph(5, {})};
    model->set_graphs(graphs, torch::kCPU);
    EXPECT_THROW(model->forward_range(0, 2), InvalidArgument);
}

}  // namespace
}  // namespace brec
