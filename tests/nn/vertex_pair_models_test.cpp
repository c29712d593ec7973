// The models over ordered vertex pairs (lgnn2, graphormer): their pair structures worked out by hand
// on small graphs, parameter counts at the BREC settings against their architectures counted by
// hand, output shapes, padding and attention dropout. The registry suite checks determinism, the
// global generator, gradients and invariance for every model; training runs are in tests/eval.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/registry.hpp"
#include "brec/nn/vertex_pairs.hpp"
#include "common/test_graphs.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

using testing::default_config;

ModelConfig small_config() {
    ModelConfig c;
    c.layers = 2;
    c.hidden = 16;
    c.out_dim = 4;
    return c;
}

using testing::parameter_count;

torch::Tensor embed(GraphEmbedder& model, const std::vector<Graph>& graphs) {
    model.set_graphs(graphs, torch::kCPU);
    return model.forward_range(0, graphs.size());
}

// ---------------------------------------------------------------------------------------------
// The 2-tuple graph.

TEST(TupleGraph, TypesAndLocalNeighboursOfThePathOnThreeVertices) {
    // 0 – 1 – 2: tuples v·3 + w.
    const nn::TupleGraph t = nn::tuple_graph(make_path(3));
    EXPECT_EQ(t.n, 3);
    // v = w → 0, non-edge → 1, edge → 2.
    EXPECT_EQ(t.type, (std::vector<std::int64_t>{0, 2, 1, 2, 0, 2, 1, 2, 0}));
    // n · 2m = 3 · 4 arcs of each kind.
    ASSERT_EQ(t.first_src.size(), 12u);
    ASSERT_EQ(t.second_src.size(), 12u);
    // Into (0, 2) = tuple 2: E1 brings (1, 2) = 5 (0's only neighbour is 1), E2 brings (0, 1) = 1.
    // Into (1, 1) = tuple 4: E1 brings (0, 1) = 1 and (2, 1) = 7; E2 brings (1, 0) = 3 and (1, 2) = 5.
    std::map<std::int64_t, std::vector<std::int64_t>> into1, into2;
    for (std::size_t a = 0; a < 12; ++a) {
        into1[t.first_dst[a]].push_back(t.first_src[a]);
        into2[t.second_dst[a]].push_back(t.second_src[a]);
    }
    EXPECT_EQ(into1[2], (std::vector<std::int64_t>{5}));
    EXPECT_EQ(into2[2], (std::vector<std::int64_t>{1}));
    EXPECT_EQ(into1[4], (std::vector<std::int64_t>{1, 7}));
    EXPECT_EQ(into2[4], (std::vector<std::int64_t>{3, 5}));
}

TEST(TupleGraph, EachKindHasNTimesTwoMSymmetricArcsOnRandomGraphs) {
    Rng rng(3);
    for (int i = 0; i < 5; ++i) {
        const Graph g = testing::random_graph(9, 0.35, rng);
        const nn::TupleGraph t = nn::tuple_graph(g);
        const std::size_t arcs = static_cast<std::size_t>(g.n()) * 2 * g.m();
        ASSERT_EQ(t.first_src.size(), arcs);
        ASSERT_EQ(t.second_src.size(), arcs);
        const auto check = [&](const std::vector<std::int64_t>& src, const std::vector<std::int64_t>& dst, bool first) {
            std::set<std::pair<std::int64_t, std::int64_t>> set;
            for (std::size_t a = 0; a < src.size(); ++a) {
                set.insert({src[a], dst[a]});
                // E1 changes the first vertex along an edge, E2 the second.
                const auto v = dst[a] / g.n(), w = dst[a] % g.n(), vs = src[a] / g.n(), ws = src[a] % g.n();
                if (first) {
                    EXPECT_EQ(w, ws);
                    EXPECT_TRUE(g.has_edge(static_cast<VertexId>(v), static_cast<VertexId>(vs)));
                } else {
                    EXPECT_EQ(v, vs);
                    EXPECT_TRUE(g.has_edge(static_cast<VertexId>(w), static_cast<VertexId>(ws)));
                }
            }
            EXPECT_EQ(set.size(), src.size());  // no repeated arc
            for (const auto& [s, d] : set) EXPECT_TRUE(set.count({d, s}));
        };
        check(t.first_src, t.first_dst, true);
        check(t.second_src, t.second_dst, false);
    }
}

// ---------------------------------------------------------------------------------------------
// Graphormer's spatial index.

TEST(GraphormerSpatialIndex, DistancePlusOneAndFiveHundredElevenAcrossComponents) {
    // Path 0 – 1 – 2 and the separate edge 3 – 4.
    const Graph g = make_graph(5, {{0, 1}, {1, 2}, {3, 4}});
    const std::vector<std::int64_t> expected{
        1,   2,   3,   511, 511,  //
        2,   1,   2,   511, 511,  //
        3,   2,   1,   511, 511,  //
        511, 511, 511, 1,   2,    //
        511, 511, 511, 2,   1,
    };
    EXPECT_EQ(nn::graphormer_spatial_index(g), expected);
    EXPECT_EQ(nn::graphormer_spatial_index(make_graph(1, {})), (std::vector<std::int64_t>{1}));
}

// ---------------------------------------------------------------------------------------------
// Parameter counts at the BREC settings, by hand (Linear(i, o) has i·o + o parameters, BatchNorm1d(f)
// and LayerNorm(f) 2f).
//
// lgnn2 (L 6, h 16, d 16): layer 1: two GINs, each Linear(3,16) 64 + BN 32 + Linear(16,16) 272 + BN
//   32 + ε 1 = 401, and the combining MLP Linear(32,16) 528 + BN 32 + Linear(16,16) 272 + BN 32 =
//   864: 1,666; layers 2-6: 2 × (272 + 32 + 272 + 32 + 1) + 864 = 2,082 each, 10,410; Set2Set's
//   LSTM(32 → 16): 64·32 + 64·16 + 64 + 64 = 3,200; Linear(32,16) 528; Linear(16,16) 272.
//   1,666 + 10,410 + 3,200 + 528 + 272 = 16,076.
// graphormer (L 12, h 80, 8 heads, d 16): atom row 80; in- and out-degree tables 2 × 512·80 =
//   81,920; edge row of adjacent pairs 8 (the padding row is fixed, not a parameter); spatial table
//   512·8 = 4,096; graph token 80; virtual distance 8; per layer two LayerNorms 320, q, k, v and
//   output Linear(80,80) 4 × 6,480 = 25,920, FFN 2 × 6,480 = 12,960: 39,200, × 12 = 470,400; final
//   LayerNorm 160; Linear(80,16) 1,296.
//   80 + 81,920 + 8 + 4,096 + 80 + 8 + 470,400 + 160 + 1,296 = 558,048.
TEST(VertexPairModels, ParameterCountsAtTheBrecSettingsMatchTheArchitectures) {
    for (const auto& [name, count] : std::map<std::string, std::int64_t>{{"lgnn2", 16076}, {"graphormer", 558048}}) {
        ModelRandom random = make_model_random(1, torch::kCPU);
        EXPECT_EQ(parameter_count(*make_model(name, default_config(name), random)), count) << name;
    }
}

class VertexPairModel : public ::testing::TestWithParam<std::string> {};

TEST_P(VertexPairModel, EmbedsBatchesOfMixedGraphsWithTheirShapes) {
    ModelRandom random = make_model_random(2, torch::kCPU);
    auto model = make_model(GetParam(), small_config(), random);
    const std::vector<Graph> graphs{make_cycle(5), make_petersen(), make_graph(1, {}), make_path(4)};
    EXPECT_EQ(embed(*model, graphs).sizes(), (std::vector<std::int64_t>{4, 4}));
    ModelConfig regression = small_config();
    regression.head = Head::regression;
    ModelRandom r2 = make_model_random(2, torch::kCPU);
    auto reg = make_model(GetParam(), regression, r2);
    EXPECT_EQ(embed(*reg, graphs).sizes(), (std::vector<std::int64_t>{4, 1}));
}

TEST_P(VertexPairModel, RelabelingsOfAGraphInABatchOfOtherSizesGetOneEmbedding) {
    Rng rng(8);
    const Graph g = testing::random_graph(9, 0.4, rng);
    const std::vector<Graph> graphs{g, testing::random_graph(12, 0.3, rng), permute(g, rng.permutation(9)),
                                    make_cycle(4), permute(g, rng.permutation(9))};
    ModelRandom random = make_model_random(5, torch::kCPU);
    auto model = make_model(GetParam(), small_config(), random);
    model->train();
    embed(*model, graphs);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = embed(*model, graphs);
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[4], 1e-4, 1e-5)) << out;
    EXPECT_FALSE(torch::allclose(out[0], out[1], 1e-3, 1e-4)) << out;
}

TEST_P(VertexPairModel, EveryParameterGetsANonZeroGradient) {
    ModelRandom random = make_model_random(6, torch::kCPU);
    auto model = make_model(GetParam(), small_config(), random);
    Rng rng(4);
    std::vector<Graph> graphs;
    for (int i = 0; i < 6; ++i) graphs.push_back(testing::random_graph(static_cast<VertexId>(6 + i), 0.4, rng));
    model->train();
    const auto out = embed(*model, graphs);
    (out * torch::arange(out.numel(), torch::kFloat).view(out.sizes())).sum().backward();
    for (const auto& p : model->named_parameters()) {
        ASSERT_TRUE(p.value().grad().defined()) << p.key();
        EXPECT_GT(p.value().grad().abs().sum().item<double>(), 0.0) << p.key();
    }
}

TEST_P(VertexPairModel, SeparatesTheCycleFromTwoTrianglesBeforeTraining) {
    // 1-WL-equivalent (both 2-regular on 6 vertices); the 2-tuples see the triangles, and so do
    // the distances (two triangles have unreachable pairs, C6 has pairs at distance 3). Untrained,
    // with small initial weights, the difference is small but far above that of a relabeling.
    ModelRandom random = make_model_random(3, torch::kCPU);
    auto model = make_model(GetParam(), small_config(), random);
    Rng rng(2);
    const Graph cycle = make_cycle(6);
    const std::vector<Graph> graphs{cycle, make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}}),
                                    permute(cycle, rng.permutation(6))};
    model->train();
    embed(*model, graphs);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = embed(*model, graphs);
    const double between = (out[0] - out[1]).abs().max().item<double>();
    const double relabeled = (out[0] - out[2]).abs().max().item<double>();
    EXPECT_GT(between, 1e-7) << out;
    EXPECT_GT(between, 100 * relabeled) << out;
}

INSTANTIATE_TEST_SUITE_P(Models, VertexPairModel, ::testing::Values("lgnn2", "graphormer"),
                         [](const auto& info) { return info.param; });

TEST(VertexPairModels, LgnnEmbedsRelabelingsAlikeAndSeesAnExtraEdge) {
    // One edge on four vertices, placed on two different vertex pairs: one graph up to relabeling;
    // a second edge changes the tuple types and so the embedding.
    ModelRandom random = make_model_random(9, torch::kCPU);
    auto model = make_model("lgnn2", small_config(), random);
    const std::vector<Graph> graphs{make_graph(4, {{0, 1}}), make_graph(4, {{2, 3}}), make_graph(4, {{0, 1}, {2, 3}})};
    model->train();
    embed(*model, graphs);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = embed(*model, graphs);
    EXPECT_TRUE(torch::allclose(out[0], out[1], 1e-5, 1e-6)) << out;
    EXPECT_GT((out[0] - out[2]).abs().max().item<double>(), 1e-4) << out;
}

TEST(VertexPairModels, GraphormerGivesAGraphItsOwnEmbeddingWhateverTheBatchPadsItTo) {
    // Padded vertices are masked out as keys: a small graph embeds alike alone and next to a larger one.
    ModelRandom random = make_model_random(4, torch::kCPU);
    auto model = make_model("graphormer", small_config(), random);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto alone = embed(*model, {make_path(4)});
    const auto padded = embed(*model, {make_petersen(), make_path(4)});
    EXPECT_TRUE(torch::allclose(alone[0], padded[1], 1e-5, 1e-6)) << alone << padded;
}

TEST(VertexPairModels, GraphormerDropsAttentionOnlyInTraining) {
    ModelRandom random = make_model_random(4, torch::kCPU);
    auto model = make_model("graphormer", small_config(), random);
    const std::vector<Graph> graphs{make_petersen(), make_cycle(7)};
    torch::NoGradGuard no_grad;
    model->train();
    const auto a = embed(*model, graphs), b = model->forward_range(0, 2);
    EXPECT_FALSE(torch::allclose(a, b)) << "attention dropout draws a new mask per forward";
    model->eval();
    const auto c = model->forward_range(0, 2), d = model->forward_range(0, 2);
    EXPECT_TRUE(torch::equal(c, d));
}

TEST(VertexPairModels, GraphormerNeedsAWidthThatSplitsIntoItsHeadsAndDegreesItsTablesCover) {
    ModelConfig c = small_config();
    c.hidden = 12;
    ModelRandom random = make_model_random(1, torch::kCPU);
    try {
        make_model("graphormer", c, random);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("multiple of its 8 attention heads"), std::string::npos) << e.what();
    }
    // A star with 511 leaves: its centre's degree + 1 is beyond the 512-row degree tables.
    std::vector<Edge> star;
    for (VertexId v = 1; v <= 511; ++v) star.emplace_back(0, v);
    auto model = make_model("graphormer", small_config(), random);
    model->set_graphs({make_graph(512, star)}, torch::kCPU);
    try {
        model->forward_range(0, 1);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("degree 511"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace brec
