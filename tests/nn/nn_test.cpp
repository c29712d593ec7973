#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"
#include "brec/io/pairs.hpp"
#include "common/test_graphs.hpp"
#include "nn/cuda_check.hpp"

namespace brec {
namespace {

ModelConfig small_options(const std::string& kernel = "auto") {
    ModelConfig o;
    o.layers = 3;
    o.hidden = 8;
    o.out_dim = 4;
    o.kernel = kernel;
    return o;
}

/// Embeddings in eval mode after one training-mode pass has set the BatchNorm statistics
/// (momentum 1), as training would.
torch::Tensor embed(const std::string& name, const std::vector<Graph>& graphs, std::uint64_t seed,
                    const std::string& kernel = "auto") {
    ModelRandom random = make_model_random(seed, torch::kCPU);
    auto model = make_model(name, small_options(kernel), random);
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    model->forward_range(0, graphs.size());
    model->eval();
    torch::NoGradGuard g;
    return model->forward_range(0, graphs.size());
}

struct Case {
    std::string model, kernel;
};

class ModelInvariance : public ::testing::TestWithParam<Case> {};

TEST_P(ModelInvariance, RelabeledGraphsGetTheSameEmbedding) {
    Rng rng(5);
    for (int trial = 0; trial < 5; ++trial) {
        const VertexId n = static_cast<VertexId>(6 + trial);
        const Graph g = testing::random_graph(n, 0.4, rng);
        std::vector<Graph> batch{g, permute(g, rng.permutation(n)), testing::random_graph(n, 0.4, rng),
                                 permute(g, rng.permutation(n))};
        const auto out = embed(GetParam().model, batch, 17 + trial, GetParam().kernel);
        EXPECT_TRUE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
        EXPECT_TRUE(torch::allclose(out[0], out[3], 1e-4, 1e-5)) << out;
        // The other graph is (almost surely) not isomorphic: its embedding must differ, or the
        // test could not fail.
        EXPECT_FALSE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
    }
}

INSTANTIATE_TEST_SUITE_P(Models, ModelInvariance,
                         ::testing::Values(Case{"gin", "auto"}, Case{"ppgn", "blas"}, Case{"ppgn", "torch"}),
                         [](const auto& info) { return info.param.model + "_" + info.param.kernel; });

/// PPGN written independently in the reference's layout ([B, C, n, n], Conv2d, torch.matmul,
/// concatenation, the reference's masked pooling), from the model's parameters; training-mode
/// BatchNorm.
torch::Tensor reference_ppgn(const std::map<std::string, torch::Tensor>& p, const torch::Tensor& input, int layers) {
    auto x = input;
    torch::Tensor scores;
    const auto bn = [](const torch::Tensor& t) {
        return torch::batch_norm(t, {}, {}, {}, {}, /*training=*/true, 1.0, 1e-5, false);
    };
    const auto conv = [&](const torch::Tensor& t, const std::string& name) {
        const auto& w = p.at(name + ".weight");
        return torch::conv2d(t, w.view({w.size(0), w.size(1), 1, 1}), p.at(name + ".bias"));
    };
    for (int i = 0; i < layers; ++i) {
        const std::string b = "block" + std::to_string(i);
        const auto m = torch::matmul(torch::relu(conv(x, b + ".mlp1")), torch::relu(conv(x, b + ".mlp2")));
        x = bn(conv(torch::cat({x, m}, 1), b + ".skip"));
        const auto n = x.size(-1);
        const auto max_diag = std::get<0>(torch::max(torch::diagonal(x, 0, -2, -1), 2));
        const auto val = torch::abs(torch::max(max_diag) + torch::max(-x));
        const auto masked = x - (val * torch::eye(n)).view({1, 1, n, n});
        const auto max_off = std::get<0>(torch::max(std::get<0>(torch::max(masked, 3)), 2));
        const std::string fc = "fc" + std::to_string(i);
        const auto s = torch::linear(torch::cat({max_diag, max_off}, 1), p.at(fc + ".weight"), p.at(fc + ".bias"));
        scores = scores.defined() ? scores + s : s;
    }
    return bn(scores);
}

TEST(Ppgn, ChannelMajorKernelsMatchTheReferenceFormulationAndGradients) {
    Rng rng(11);
    std::vector<Graph> graphs;
    for (int i = 0; i < 6; ++i) graphs.push_back(testing::random_graph(7, 0.45, rng));
    auto input = torch::zeros({6, 1, 7, 7});
    for (int i = 0; i < 6; ++i)
        for (VertexId v = 0; v < 7; ++v) {
            input[i][0][v][v] = 1.0f;
            for (VertexId w : graphs[static_cast<std::size_t>(i)].neighbors(v)) input[i][0][v][w] = 1.0f;
        }
    const auto probe = torch::randn({6, 4});
    for (const std::string kernel : {"blas", "torch"}) {
        ModelRandom random = make_model_random(3, torch::kCPU);
        auto model = make_model("ppgn", small_options(kernel), random);
        model->set_graphs(graphs, torch::kCPU);
        model->train();
        const auto out = model->forward_range(0, graphs.size());
        (out * probe).sum().backward();

        std::map<std::string, torch::Tensor> params, grads;
        for (const auto& kv : model->named_parameters()) {
            params[kv.key()] = kv.value().detach().clone().requires_grad_(true);
            grads[kv.key()] = kv.value().grad().clone();
        }
        const auto ref = reference_ppgn(params, input, 3);
        (ref * probe).sum().backward();
        EXPECT_TRUE(torch::allclose(out, ref, 1e-4, 1e-4)) << kernel << "\n" << out << "\n" << ref;
        ASSERT_EQ(params.size(), 3u * 6u + 3u * 2u);
        // Biases feeding a BatchNorm have gradient 0 up to rounding: compare on the global scale.
        double scale = 0.0;
        for (const auto& [name, t] : params) scale = std::max(scale, t.grad().abs().max().item<double>());
        ASSERT_GT(scale, 1e-3);
        for (const auto& [name, t] : params)
            EXPECT_TRUE(torch::allclose(grads[name], t.grad(), 1e-3, 1e-4 * scale)) << kernel << " " << name << "\n"
                                                                                    << grads[name] << "\n"
                                                                                    << t.grad();
    }
}

TEST(Ppgn, BlasAndTorchKernelsGiveTheSameTrainingStep) {
    Rng rng(2);
    std::vector<Graph> graphs;
    for (int i = 0; i < 4; ++i) graphs.push_back(testing::random_graph(9, 0.3, rng));
    const auto a = embed("ppgn", graphs, 9, "blas"), b = embed("ppgn", graphs, 9, "torch");
    EXPECT_TRUE(torch::allclose(a, b, 1e-4, 1e-5)) << a << "\n" << b;
    // Same seed, same kernel: bitwise equal.
    EXPECT_TRUE(torch::equal(a, embed("ppgn", graphs, 9, "blas")));
}

TEST(Ppgn, RejectsMixedSizesAndUnknownKernels) {
    ModelRandom random = make_model_random(1, torch::kCPU);
    auto model = make_model("ppgn", small_options(), random);
    EXPECT_THROW(model->set_graphs({make_cycle(5), make_cycle(6)}, torch::kCPU), Unsupported);
    EXPECT_THROW(make_model("ppgn", small_options("avx9000"), random), InvalidArgument);
}

TEST(Models, RegistryAndDevices) {
    EXPECT_EQ(find_model("ppgn").spec.defaults.layers, 5);
    EXPECT_EQ(find_model("gin").spec.defaults.loss_threshold, 0.2);
    EXPECT_EQ(find_model("ppgn").spec.paper.total(), 233);  // BREC paper, Table 2
    EXPECT_EQ(find_model("ppgn").spec.bound, "2fwl");
    EXPECT_EQ(find_model("gin").spec.bound, "1wl");
    // Unknown names are one-line errors that list what is available, from the registry.
    const std::string names = [] {
        std::string all;
        for (const auto& n : model_names()) all += (all.empty() ? "" : ", ") + n;
        return all;
    }();
    for (const std::string bad : {"transformer9000", "GIN", ""}) {
        try {
            find_model(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const InvalidArgument& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("(available: " + names + ")"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
    // Every registered model is listed by describe_models, with its bound.
    const std::string listing = describe_models();
    for (const auto& m : model_registry()) {
        EXPECT_NE(listing.find(m.spec.name), std::string::npos) << m.spec.name;
        EXPECT_FALSE(m.spec.family.empty()) << m.spec.name;
        EXPECT_FALSE(m.spec.citation.empty()) << m.spec.name;
        EXPECT_TRUE(m.spec.bound.empty() || m.spec.bound == "1wl" || m.spec.bound == "2fwl" || m.spec.bound == "3fwl")
            << m.spec.name;
        if (!m.spec.paper_subset.empty()) {
            EXPECT_NO_THROW(parse_id_ranges(m.spec.paper_subset)) << m.spec.name;
        }
    }
    // The names are unique.
    auto sorted = model_names();
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
    EXPECT_EQ(parse_device("cpu"), torch::Device(torch::kCPU));
    EXPECT_THROW(parse_device("tpu"), InvalidArgument);
    if (!torch::cuda::is_available()) {
        EXPECT_THROW(parse_device("cuda:0"), Unsupported);
    } else {
        EXPECT_EQ(parse_device("auto"), torch::Device(torch::kCUDA, 0));
        EXPECT_THROW(parse_device("cuda:" + std::to_string(torch::cuda::device_count())), InvalidArgument);
    }
}

// The CUDA path (torch ops on CUDA tensors) against the CPU one. Skipped on machines without a
// GPU (CI); run on one with `ctest -R Cuda` in a build against a CUDA LibTorch.
class CudaMatchesCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaMatchesCpu, SameParametersGiveTheSameEmbeddingsAndGradients) {
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    Rng rng(11);
    const Graph g = testing::random_graph(9, 0.4, rng);
    const std::vector<Graph> batch{g, permute(g, rng.permutation(9)), testing::random_graph(9, 0.4, rng),
                                   testing::random_graph(9, 0.5, rng)};
    std::shared_ptr<GraphEmbedder> gpu_model;
    ASSERT_NO_FATAL_FAILURE(testing::expect_cuda_matches_cpu(GetParam(), small_options(), batch, *device, &gpu_model));
    // Eval mode: relabelings of one graph still get one embedding on the GPU.
    gpu_model->eval();
    torch::NoGradGuard no_grad;
    const auto e = gpu_model->forward_range(0, batch.size()).cpu();
    EXPECT_TRUE(torch::allclose(e[0], e[1], 1e-4, 1e-5)) << e;
}

INSTANTIATE_TEST_SUITE_P(Models, CudaMatchesCpu, ::testing::Values("gin", "ppgn"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace brec
