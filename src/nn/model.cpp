#include "brec/nn/model.hpp"

#include <mutex>

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

}  // namespace brec
