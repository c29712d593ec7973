#pragma once
// Configurations and counts the per-model nn tests share.
#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "brec/nn/registry.hpp"

namespace brec::testing {

/// The architecture of model `name` at its registry defaults (the BREC study's settings), d = 16.
inline ModelConfig default_config(const std::string& name) {
    const Hyper& h = find_model(name).spec.defaults;
    ModelConfig c;
    c.radius = h.radius;
    c.layers = h.layers;
    c.hidden = h.hidden;
    c.out_dim = 16;
    return c;
}

/// The number of scalar parameters of a module.
inline std::int64_t parameter_count(const torch::nn::Module& m) {
    std::int64_t n = 0;
    for (const auto& p : m.parameters()) n += p.numel();
    return n;
}

/// The largest absolute difference of two tensors of one shape, in double.
inline double max_difference(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

}  // namespace brec::testing
