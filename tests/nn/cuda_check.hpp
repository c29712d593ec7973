#pragma once
// The CUDA path of a model against its CPU path: the same parameter stream on both devices, one
// training-mode forward and backward, embeddings and every gradient compared; and the device every
// CUDA check runs on. Callers skip without a GPU.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "brec/nn/registry.hpp"

namespace brec::testing {

/// The device of a CUDA check: cuda:0; or the CPU when BREC_CUDA_CHECK_DEVICE=cpu, a rehearsal of
/// the check's logic without a GPU (a second CPU model stands for the CUDA one); or none, and the
/// caller skips with kNoCudaDevice.
inline std::optional<torch::Device> cuda_check_device() {
    const char* forced = std::getenv("BREC_CUDA_CHECK_DEVICE");
    if (forced && std::string(forced) == "cpu") return torch::Device(torch::kCPU);
    if (torch::cuda::is_available()) return torch::Device(torch::kCUDA, 0);
    return std::nullopt;
}

inline constexpr const char* kNoCudaDevice =
    "no CUDA device (BREC_CUDA_CHECK_DEVICE=cpu rehearses the check on the CPU)";

/// Fails the calling test when model `name` with `config` embeds `graphs` differently on `cuda`
/// (rtol 1e-3, atol 1e-4) or gets other gradients (rtol 1e-2, atol 1e-4). When `gpu_model` is
/// given it receives the CUDA model for further checks.
inline void expect_cuda_matches_cpu(const std::string& name, const ModelConfig& config,
                                    const std::vector<Graph>& graphs, torch::Device cuda,
                                    std::shared_ptr<GraphEmbedder>* gpu_model_out = nullptr) {
    ModelRandom cpu_random = make_model_random(23, torch::kCPU), gpu_random = make_model_random(23, cuda);
    auto cpu_model = make_model(name, config, cpu_random);
    auto gpu_model = make_model(name, config, gpu_random);
    if (gpu_model_out) *gpu_model_out = gpu_model;
    gpu_model->to(cuda);
    cpu_model->set_graphs(graphs, torch::kCPU);
    gpu_model->set_graphs(graphs, cuda);
    cpu_model->train();
    gpu_model->train();
    const auto out_cpu = cpu_model->forward_range(0, graphs.size());
    const auto out_gpu = gpu_model->forward_range(0, graphs.size());
    ASSERT_EQ(out_gpu.device(), cuda);
    EXPECT_TRUE(torch::allclose(out_gpu.cpu(), out_cpu, 1e-3, 1e-4)) << out_cpu << out_gpu.cpu();
    out_cpu.pow(2).sum().backward();
    out_gpu.pow(2).sum().backward();
    const auto cpu_params = cpu_model->named_parameters();
    const auto gpu_params = gpu_model->named_parameters();
    ASSERT_EQ(cpu_params.size(), gpu_params.size());
    for (const auto& p : cpu_params) {
        const auto& q = gpu_params[p.key()];
        ASSERT_TRUE(q.grad().defined()) << p.key();
        EXPECT_TRUE(torch::allclose(q.grad().cpu(), p.value().grad(), 1e-2, 1e-4)) << p.key();
    }
}

}  // namespace brec::testing
