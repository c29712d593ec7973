#include "brec/nn/model.hpp"

#include <mutex>
#include <unordered_set>

#include <ATen/CPUGeneratorImpl.h>

#include "brec/core/rng.hpp"

namespace brec {

torch::Generator make_generator(torch::Device device, std::uint64_t seed) {
    if (device.is_cpu()) return at::make_generator<at::CPUGeneratorImpl>(seed);
    // A fresh generator of the device's type: the clone of the device's default generator is a new
    // object with its own state (nothing is shared with the default afterwards), reseeded here.
    torch::Generator shared = at::globalContext().defaultGenerator(device);  // a handle, not a copy
    torch::Generator g;
    {
        std::lock_guard<std::mutex> lock(shared.mutex());
        g = shared.clone();
    }
    g.set_current_seed(seed);
    return g;
}

ModelRandom make_model_random(std::uint64_t stream, torch::Device device) {
    // Two independent streams: initial weights do not depend on the device, and the draws during
    // training cannot shift them.
    return {make_generator(torch::kCPU, stream_seed(stream, 1)), make_generator(device, stream_seed(stream, 2))};
}

ModelOptimizers::ModelOptimizers(GraphEmbedder& model, const torch::optim::AdamOptions& main) {
    std::unordered_set<const void*> own;
    for (auto& group : model.own_optimizers()) {
        for (const auto& p : group.parameters) own.insert(p.unsafeGetTensorImpl());
        own_.push_back(std::make_unique<torch::optim::Adam>(
            group.parameters, torch::optim::AdamOptions(group.lr).weight_decay(group.weight_decay)));
    }
    std::vector<torch::Tensor> rest;
    for (const auto& p : model.parameters())
        if (!own.count(p.unsafeGetTensorImpl())) rest.push_back(p);
    main_ = std::make_unique<torch::optim::Adam>(rest, main);
}

void ModelOptimizers::zero_grad() {
    main_->zero_grad();
    for (auto& o : own_) o->zero_grad();
}

void ModelOptimizers::step() {
    main_->step();
    for (auto& o : own_) o->step();
}

}  // namespace brec
