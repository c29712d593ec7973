// The counting architectures Head::regression builds for gin, ppgn and i2_gnn (Campi et al. 2023):
// parameter counts by hand, invariance under relabelling, a graph's count independent of the
// graphs batched with it, the BLAS and torch kernels of the counting PPGN agreeing, and a short
// training on triangle counts that reaches a small error (sum pooling can count; the BREC
// embedding models' max pooling and output normalisation could not).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/registry.hpp"
#include "common/test_graphs.hpp"
#include "nn/cuda_check.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

ModelConfig counting(int layers, int hidden, int radius = 1) {
    ModelConfig c;
    c.head = Head::regression;
    c.layers = layers;
    c.hidden = hidden;
    c.radius = radius;
    return c;
}

std::shared_ptr<GraphEmbedder> build(const std::string& name, const ModelConfig& c, std::uint64_t seed = 1) {
    ModelRandom random = make_model_random(seed, torch::kCPU);
    return make_model(name, c, random);
}

torch::Tensor counts_of(GraphEmbedder& model, const std::vector<Graph>& graphs) {
    torch::NoGradGuard no_grad;
    model.eval();
    model.set_graphs(graphs, torch::kCPU);
    return model.forward_range(0, graphs.size()).reshape({-1});
}

int triangles(const Graph& g) {
    int t = 0;
    for (VertexId a = 0; a < g.n(); ++a)
        for (VertexId b = a + 1; b < g.n(); ++b)
            for (VertexId d = b + 1; d < g.n(); ++d) t += g.has_edge(a, b) && g.has_edge(b, d) && g.has_edge(a, d);
    return t;
}

// By hand, L = 3, hidden 8, so out = 4:
//  gin: layer k = Linear(in, 16) + Linear(16, w) + ε: (1·16 + 16) + (16·8 + 8) + 1 = 169,
//       (8·16 + 16) + 136 + 1 = 281, 144 + (16·4 + 4) + 1 = 213; final_mlp over 8 + 8 + 4 = 20:
//       (20·4 + 4) + (4 + 1) = 89; total 752.
//  ppgn: block 2 → 8: two MLPs of Linear(2, 8) 24 + Linear(8, 8) 72, skip Linear(10, 8) 88: 280;
//        8 → 8: 2 · (72 + 72) + Linear(16, 8) 136 = 424; 8 → 4: 2 · (36 + 20) + Linear(12, 4) 52
//        = 164; final_mlp over 2 · 20 = 40: (40·4 + 4) + 5 = 169; total 1,037.
//  i2_gnn (L = 2, w = 8): per layer GatedGraphConv 8·8 + GRUCell 2 · 24·8 + 2 · 24 = 496 and
//        Embedding(100, 8) 800; layer 2 adds Linear(16, 8) 136: 1,296 + 1,432; pooling MLPs
//        2 · 2 · 72 = 288; head 8·32 + 32 + 32·16 + 16 + 16 + 1 = 833; total 3,849.
TEST(CountingModels, ParameterCountsMatchTheArchitecture) {
    EXPECT_EQ(testing::parameter_count(*build("gin", counting(3, 8))), 752);
    EXPECT_EQ(testing::parameter_count(*build("ppgn", counting(3, 8))), 1037);
    EXPECT_EQ(testing::parameter_count(*build("i2_gnn", counting(2, 8))), 3849);
}

TEST(CountingModels, NeedAFirstAndALastLayer) {
    EXPECT_THROW(build("gin", counting(1, 8)), InvalidArgument);
    EXPECT_THROW(build("ppgn", counting(1, 8)), InvalidArgument);
    EXPECT_NO_THROW(build("i2_gnn", counting(1, 8)));
}

TEST(CountingModels, RelabellingNeverChangesTheCount) {
    Rng rng(7);
    for (const std::string name : {"gin", "ppgn", "i2_gnn"}) {
        SCOPED_TRACE(name);
        const auto model = build(name, counting(3, 8, 2));
        std::vector<Graph> graphs, relabelled;
        for (int i = 0; i < 6; ++i) {
            graphs.push_back(testing::random_graph(9, 0.4, rng));
            relabelled.push_back(permute(graphs.back(), rng.permutation(9)));
        }
        const auto a = counts_of(*model, graphs), b = counts_of(*model, relabelled);
        EXPECT_TRUE(torch::allclose(a, b, 1e-4, 1e-4)) << a << b;
    }
}

TEST(CountingModels, AGraphsCountDoesNotDependOnItsBatch) {
    // Graphs of 5 to 12 nodes in one batch (the PPGN pads them to 12 and masks the padding) give
    // the counts they get alone.
    Rng rng(11);
    std::vector<Graph> graphs;
    for (VertexId n = 5; n <= 12; ++n) graphs.push_back(testing::random_graph(n, 0.5, rng));
    for (const std::string name : {"gin", "ppgn", "i2_gnn"}) {
        SCOPED_TRACE(name);
        const auto model = build(name, counting(3, 8));
        const auto together = counts_of(*model, graphs);
        for (std::size_t i = 0; i < graphs.size(); ++i) {
            const auto alone = counts_of(*model, {graphs[i]});
            EXPECT_NEAR(alone.item<double>(), together[static_cast<long>(i)].item<double>(), 1e-4) << i;
        }
    }
}

TEST(CountingModels, PpgnKernelsAgree) {
    Rng rng(5);
    std::vector<Graph> graphs;
    for (int i = 0; i < 5; ++i) graphs.push_back(testing::random_graph(10, 0.4, rng));
    graphs.push_back(testing::random_graph(7, 0.4, rng));
    ModelConfig c = counting(3, 8);
    c.kernel = "torch";
    const auto reference = build("ppgn", c);
    c.kernel = "auto";
    const auto fast = build("ppgn", c);
    reference->set_graphs(graphs, torch::kCPU);
    fast->set_graphs(graphs, torch::kCPU);
    const auto a = reference->forward_range(0, graphs.size()), b = fast->forward_range(0, graphs.size());
    EXPECT_TRUE(torch::allclose(a, b, 1e-4, 1e-4)) << a << b;
    a.sum().backward();
    b.sum().backward();
    const auto ga = reference->named_parameters(), gb = fast->named_parameters();
    for (const auto& p : ga) EXPECT_TRUE(torch::allclose(p.value().grad(), gb[p.key()].grad(), 1e-3, 1e-4)) << p.key();
}

TEST(CountingModels, LearnTriangleCountsOfRandomGraphs) {
    // 96 graphs G(10, 0.4) (about 6 triangles each, 3.3 mean absolute deviation from the mean), Adam
    // on the L1 loss over full batches: every counting model must get well below the deviation of
    // a constant guess (after 150 steps: GIN 0.25 of it, PPGN 0.32, I²-GNN below 0.25).
    Rng rng(3);
    std::vector<Graph> graphs;
    std::vector<float> y;
    for (int i = 0; i < 96; ++i) {
        graphs.push_back(testing::random_graph(10, 0.4, rng));
        y.push_back(static_cast<float>(triangles(graphs.back())));
    }
    const auto target = torch::tensor(y);
    const double constant_guess = (target - target.median()).abs().mean().item<double>();
    for (const std::string name : {"gin", "ppgn", "i2_gnn"}) {
        SCOPED_TRACE(name);
        const auto model = build(name, counting(3, 16), 2);
        model->set_graphs(graphs, torch::kCPU);
        model->train();
        torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2));
        for (int step = 0; step < 150; ++step) {
            opt.zero_grad();
            const auto loss = (model->forward_range(0, graphs.size()).reshape({-1}) - target).abs().mean();
            loss.backward();
            opt.step();
        }
        const double l1 = (counts_of(*model, graphs) - target).abs().mean().item<double>();
        EXPECT_LT(l1, 0.4 * constant_guess) << "l1 " << l1 << ", constant guess " << constant_guess;
    }
}

TEST(CountingModels, CudaMatchesCpu) {
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    Rng rng(9);
    std::vector<Graph> graphs;
    for (VertexId n = 6; n <= 10; ++n) graphs.push_back(testing::random_graph(n, 0.5, rng));
    for (const std::string name : {"gin", "ppgn", "i2_gnn"}) {
        SCOPED_TRACE(name);
        testing::expect_cuda_matches_cpu(name, counting(3, 8), graphs, *device);
    }
}

}  // namespace
}  // namespace brec
