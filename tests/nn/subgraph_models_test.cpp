// The subgraph GNNs of the BREC study (ngnn, de_ngnn, ds_gnn, dss_gnn, sun, gnn_ak, kp_gnn): parameter
// counts at the BREC settings against their architectures counted by hand, output shapes, and
// structural properties. The registry suite checks determinism, the global generator, gradients
// and invariance for every model; training runs are in tests/eval.
#include <gtest/gtest.h>

#include <map>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/registry.hpp"
#include "common/test_graphs.hpp"
#include "nn/cuda_check.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

using testing::default_config;

using testing::parameter_count;

// Parameter counts at the BREC settings, by hand from each architecture (Linear(i, o) has i·o + o
// parameters, i·o without bias; BatchNorm1d(f) with affine has 2f, without none).
//
// ngnn (r 1, L 6, h 16, d 16): GIN 1: Linear(1,16) 32 + Linear(16,16) 272 = 304; GIN 2-6: 2 × 272
//   = 544 each, 2720; Linear(16,16) 272; Linear(16,16) 272; output BN without affine 0.
//   304 + 2720 + 272 + 272 = 3,568.
// de_ngnn (r 8, L 6, h 128): GIN 1: Linear(9,128) 1,280 + Linear(128,128) 16,512 = 17,792;
//   GIN 2-6: 2 × 16,512 = 33,024 each, 165,120; Linear(128,128) 16,512; Linear(128,16) 2,064.
//   17,792 + 165,120 + 16,512 + 2,064 = 201,488.
// ds_gnn (L 10, h 32): layer 1: GIN MLP Linear(3,32) 128 + BN 64 + Linear(32,32) 1,056, BN 64
//   = 1,312; layers 2-10: (1,056 + 64 + 1,056) + 64 = 2,240 each, 20,160; DeepSets: Linear(32,64)
//   × 2 = 4,224, Linear(64,64) × 2 = 8,320; Linear(64,128) 8,320 + Linear(128,16) 2,064.
//   1,312 + 20,160 + 12,544 + 10,384 = 44,400.
// dss_gnn (L 9, h 32): layer 1: 2 × (GIN 1,248 + BN 64) = 2,624; layers 2-9: 2 × (2,176 + 64)
//   = 4,480 each, 35,840; Linear(32,64) 2,112 + Linear(64,16) 1,040.
//   2,624 + 35,840 + 3,152 = 41,616.
// sun (L 9, h 32): layer 1: 4 GINs × 1,248 + 4 BN × 64 + 6 MLPs × 1,248 = 12,736; layers 2-9:
//   4 × 2,176 + 4 × 64 + 6 × 2,176 = 22,016 each, 176,128; head 3,152.
//   12,736 + 176,128 + 3,152 = 192,016.
// gnn_ak (L 4, h 32, hop 16, 2 inner layers): input row 32; per outer layer: edge row 48, hop
//   Embedding(20,16) 320, 2 × (GINE MLP 2 × 48·48 + BN 96 + ε 1 = 4,705, BN 96) = 9,602,
//   Linear(48,32) 1,568, subgraph and context Linear(32,32) no bias + BN = 2 × 1,088, gates
//   3 × Linear(16,32) = 1,632, Linear(96,32) no bias 3,072, BN 64: 18,482; decoder Linear(32,32)
//   no bias 1,024 + BN 64 + Linear(32,16) 528 = 1,616.  32 + 4 × 18,482 + 1,616 = 75,576.
// kp_gnn (K 8, L 8, h 32, h/K = 4): input Embedding(2,32) 64; peripheral edges Embedding(3,4) 12
//   + Embedding(1001,4) 4,004 + Linear(8,4) 36 = 4,052; configuration 5 × Embedding(1001,4) 20,020
//   + Linear(20,4) 84 = 20,104; the two sigmoid weights 2; per layer hop MLPs 2 × (8·4·4 + 8·4)
//   = 320, hop-1 and hop-k edge rows 2 × Embedding(3,4) 24, combination α 4, Linear(4,32) 160:
//   508, × 8 = 4,064; Linear(32,32) 1,056; Linear(32,16) 528; BNs without affine 0.
//   64 + 4,052 + 20,104 + 2 + 4,064 + 1,056 + 528 = 29,870.
TEST(SubgraphModels, ParameterCountsAtTheBrecSettingsMatchTheArchitectures) {
    const std::map<std::string, std::int64_t> expected{{"ngnn", 3568},     {"de_ngnn", 201488}, {"ds_gnn", 44400},
                                                       {"dss_gnn", 41616}, {"sun", 192016},     {"gnn_ak", 75576},
                                                       {"kp_gnn", 29870}};
    for (const auto& [name, count] : expected) {
        ModelRandom random = make_model_random(1, torch::kCPU);
        const auto model = make_model(name, default_config(name), random);
        EXPECT_EQ(parameter_count(*model), count) << name;
    }
}

TEST(SubgraphModels, SpecsCarryTheBrecSettingsSubsetsAndInverses) {
    EXPECT_EQ(find_model("ngnn").spec.defaults.epochs, 30);  // the script's argparse default
    EXPECT_EQ(find_model("gnn_ak").spec.defaults.weight_decay, 1e-5);
    EXPECT_EQ(find_model("ds_gnn").spec.defaults.loss_threshold, 0.0);
    EXPECT_EQ(find_model("de_ngnn").spec.defaults.radius, 8);
    for (const std::string name : {"ngnn", "de_ngnn"}) {
        EXPECT_TRUE(find_model(name).spec.paper_subset.empty()) << name;
        EXPECT_EQ(find_model(name).spec.reference_inverse, T2Inverse::pinv) << name;
    }
    for (const std::string name : {"ds_gnn", "dss_gnn", "sun", "gnn_ak"})
        EXPECT_EQ(find_model(name).spec.paper_subset, "0-59,60-109,160-259,260-319") << name;
    for (const std::string name : {"ds_gnn", "dss_gnn", "sun"})
        EXPECT_EQ(find_model(name).spec.reference_inverse, T2Inverse::regularised_inverse) << name;
    EXPECT_EQ(find_model("gnn_ak").spec.reference_inverse, T2Inverse::pinv);
    // Table 2 totals of the BREC paper.
    const std::map<std::string, int> totals{{"ngnn", 166},    {"de_ngnn", 231}, {"ds_gnn", 222},
                                            {"dss_gnn", 221}, {"sun", 223},     {"gnn_ak", 222}};
    for (const auto& [name, total] : totals) {
        EXPECT_EQ(find_model(name).spec.paper.total(), total) << name;
        EXPECT_EQ(find_model(name).spec.bound, "2fwl") << name;
    }
}

class SubgraphModel : public ::testing::TestWithParam<std::string> {};

ModelConfig small(const std::string& name, int radius) {
    ModelConfig c;
    c.radius = radius;
    c.layers = 2;
    c.hidden = 8;
    c.out_dim = 5;
    return c;
}

/// Graphs of different sizes, a disconnected one and an edgeless one in one batch.
std::vector<Graph> mixed_graphs() {
    Rng rng(6);
    return {make_cycle(6),
            disjoint_union(make_cycle(3), make_cycle(3)),
            testing::random_graph(9, 0.3, rng),
            make_graph(4, {}),
            make_path(5),
            testing::shrikhande()};
}

TEST_P(SubgraphModel, EmbedsBatchesOfMixedGraphsWithTheirShapes) {
    ModelRandom random = make_model_random(2, torch::kCPU);
    const auto model = make_model(GetParam(), small(GetParam(), 2), random);
    const auto graphs = mixed_graphs();
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto all = model->forward_range(0, graphs.size());
    EXPECT_EQ(all.sizes(), (std::vector<std::int64_t>{6, 5}));
    EXPECT_TRUE(torch::isfinite(all).all().item<bool>());
    EXPECT_EQ(model->forward_range(2, 4).sizes(), (std::vector<std::int64_t>{2, 5}));
    model->eval();
    torch::NoGradGuard no_grad;
    // In eval mode an embedding does not depend on the rest of its batch.
    const auto one = model->forward_range(4, 6);
    const auto batch = model->forward_range(0, 6);
    EXPECT_TRUE(torch::allclose(one, batch.slice(0, 4, 6), 1e-4, 1e-5)) << one << batch;
}

TEST_P(SubgraphModel, SeparatesTheCycleFromTwoTrianglesBeforeTraining) {
    // C6 and 2×C3 are 1-WL-equivalent; every rooted subgraph of radius >= 1 tells them apart (a
    // triangle around the root, or unreachable vertices), so even random weights embed them apart.
    ModelRandom random = make_model_random(5, torch::kCPU);
    const auto model = make_model(GetParam(), small(GetParam(), 1), random);
    const std::vector<Graph> graphs{make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3)), make_cycle(6),
                                    disjoint_union(make_cycle(3), make_cycle(3))};
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto out = model->forward_range(0, 4);
    EXPECT_FALSE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
}

TEST_P(SubgraphModel, RejectsANegativeRadius) {
    ModelRandom random = make_model_random(5, torch::kCPU);
    EXPECT_THROW(make_model(GetParam(), small(GetParam(), -1), random), InvalidArgument);
}

TEST_P(SubgraphModel, CudaGivesTheCpuEmbeddingsAndGradients) {
    // The CUDA path (index_select/index_add instead of the CPU's CSR kernels). Skipped without a GPU.
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    const auto graphs = mixed_graphs();
    testing::expect_cuda_matches_cpu(GetParam(), small(GetParam(), 2), graphs, *device);
}

INSTANTIATE_TEST_SUITE_P(Models, SubgraphModel,
                         ::testing::Values("ngnn", "de_ngnn", "ds_gnn", "dss_gnn", "sun", "gnn_ak", "kp_gnn"),
                         [](const auto& info) { return std::string(info.param); });

TEST(SubgraphModels, KpGnnNeedsAWidthThatSplitsIntoItsHops) {
    ModelRandom random = make_model_random(5, torch::kCPU);
    ModelConfig c = small("kp_gnn", 3);  // hidden 8 is not a multiple of K = 3
    EXPECT_THROW(make_model("kp_gnn", c, random), InvalidArgument);
    c.hidden = 9;
    EXPECT_NO_THROW(make_model("kp_gnn", c, random));
}

TEST(SubgraphModels, KpGnnSeparatesTheRookGraphFromTheShrikhandeGraphBeforeTraining) {
    // Its signature result: the two srg(16, 6, 2, 2) are 2-FWL-equivalent, but a vertex's
    // neighbourhood is two triangles in one and a 6-cycle in the other (nn/khop tests), which the
    // peripheral configuration tells apart even with random weights.
    ModelRandom random = make_model_random(5, torch::kCPU);
    const auto model = make_model("kp_gnn", small("kp_gnn", 2), random);
    const std::vector<Graph> graphs{testing::rook_4x4(), testing::shrikhande(), testing::rook_4x4(),
                                    testing::shrikhande()};
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto out = model->forward_range(0, 4);
    EXPECT_FALSE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
}

TEST(SubgraphModels, GnnAkRejectsARadiusBeyondItsDistanceEmbedding) {
    ModelRandom random = make_model_random(5, torch::kCPU);
    EXPECT_NO_THROW(make_model("gnn_ak", small("gnn_ak", 18), random));
    EXPECT_THROW(make_model("gnn_ak", small("gnn_ak", 19), random), InvalidArgument);
}

TEST(SubgraphModels, NgnnOfRadiusZeroSeesOnlyTheNodeCount) {
    // Radius 0: every subgraph is its root alone, so graphs with equally many nodes look the same.
    ModelRandom random = make_model_random(5, torch::kCPU);
    const auto model = make_model("ngnn", small("ngnn", 0), random);
    const std::vector<Graph> graphs{make_cycle(6), make_path(6), make_graph(6, {}), make_cycle(7)};
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto out = model->forward_range(0, 4);
    EXPECT_TRUE(torch::allclose(out[0], out[1], 1e-5, 1e-6)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-5, 1e-6)) << out;
    EXPECT_FALSE(torch::allclose(out[0], out[3], 1e-4, 1e-5)) << out;
}

}  // namespace
}  // namespace brec
