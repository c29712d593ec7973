#pragma once
// The measured peak of a training step's CPU tensors, what the models' memory estimates for
// `brec eval --max-memory` are tested against.
#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>

#include <torch/version.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "brec/nn/registry.hpp"

namespace brec::testing {

// LibTorch 2.3 made Allocator::allocate non-const and added copy_data (pure virtual); copy_data is
// declared without `override`, so that it is a plain member for the LibTorch versions before.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#define BREC_ALLOCATE_CONST
#else
#define BREC_ALLOCATE_CONST const
#endif

/// A CPU allocator that counts the bytes of the tensors alive and their peak, around LibTorch's own.
class CountingAllocator final : public c10::Allocator {
public:
    explicit CountingAllocator(c10::Allocator* base) : base_(base) {}
    c10::DataPtr allocate(std::size_t bytes) BREC_ALLOCATE_CONST override {
        c10::DataPtr inner = base_->allocate(bytes);
        void* data = inner.get();
        const c10::Device device = inner.device();
        auto* block = new Block{std::move(inner), bytes, this};
        const auto now = current_.fetch_add(static_cast<std::int64_t>(bytes)) + static_cast<std::int64_t>(bytes);
        auto peak = peak_.load();
        while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
        }
        return {data, block, &release, device};
    }
    void copy_data(void* dest, const void* src, std::size_t count) const { std::memcpy(dest, src, count); }
    void reset_peak() { peak_.store(current_.load()); }
    std::int64_t current() const { return current_.load(); }
    std::int64_t peak() const { return peak_.load(); }

private:
    struct Block {
        c10::DataPtr inner;
        std::size_t bytes;
        const CountingAllocator* owner;
    };
    static void release(void* p) {
        auto* b = static_cast<Block*>(p);
        b->owner->current_.fetch_sub(static_cast<std::int64_t>(b->bytes));
        delete b;
    }
    c10::Allocator* base_;
    mutable std::atomic<std::int64_t> current_{0}, peak_{0};
};

/// Peak bytes of CPU tensors while building model `model_name`, preparing a batch and running one Adam step.
inline std::int64_t measured_training_step(const std::string& model_name, const std::vector<Graph>& graphs,
                                           const ModelConfig& c) {
    // Outlives every tensor it allocates (the counters are read through each block's owner).
    static CountingAllocator counting(c10::GetCPUAllocator());
    c10::Allocator* base = c10::GetCPUAllocator();
    c10::SetCPUAllocator(&counting, /*priority=*/100);
    const std::int64_t start = counting.current();
    counting.reset_peak();
    {
        ModelRandom random = make_model_random(9, torch::kCPU);
        auto model = make_model(model_name, c, random);
        torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
        model->set_graphs(graphs, torch::kCPU);
        model->train();
        adam.zero_grad();
        const auto out = model->forward_range(0, graphs.size());
        torch::clamp_min(torch::cosine_similarity(out.slice(0, 0, out.size(0), 2), out.slice(0, 1, out.size(0), 2), 1),
                         0.0)
            .mean()
            .backward();
        adam.step();
    }
    c10::SetCPUAllocator(base, /*priority=*/100);
    return counting.peak() - start;
}

}  // namespace brec::testing
