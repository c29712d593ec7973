#include "brec/nn/op_count.hpp"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <utility>
#include <vector>

namespace brec {
namespace {

namespace profiler = torch::autograd::profiler;

/// The events of `fn` under LibTorch's legacy profiler: CPU state with input shapes and FLOPs; no
/// memory profiling or stacks.
std::vector<std::vector<profiler::LegacyEvent>> profiled(const std::function<void()>& fn) {
    profiler::enableProfilerLegacy(profiler::ProfilerConfig(profiler::ProfilerState::CPU, /*report_input_shapes=*/true,
                                                            /*profile_memory=*/false, /*with_stack=*/false,
                                                            /*with_flops=*/true));
    try {
        fn();
    } catch (...) {
        profiler::disableProfilerLegacy();
        throw;
    }
    return profiler::disableProfilerLegacy();
}

}  // namespace

OpCount count_ops(const std::function<void()>& fn) {
    OpCount count;
    for (auto& events : profiled(fn))
        for (auto& event : events)
            if (event.kind() == profiler::EventKind::PushRange) {
                ++count.ops;
                count.flops += event.flops();
            }
    return count;
}

std::map<std::string, double> time_ops(const std::function<void()>& fn) {
    std::map<std::string, double> seconds;
    for (auto& events : profiled(fn)) {
        // Ranges nest per thread: an operator's own time is its span less its children's spans.
        std::vector<std::pair<const profiler::LegacyEvent*, double>> open;  // (push, children's µs)
        for (const auto& event : events) {
            if (event.kind() == profiler::EventKind::PushRange) {
                open.emplace_back(&event, 0.0);
            } else if (event.kind() == profiler::EventKind::PopRange && !open.empty()) {
                const auto [push, children] = open.back();
                open.pop_back();
                const double span = push->cpuElapsedUs(event);
                seconds[push->name()] += (span - children) * 1e-6;
                if (!open.empty()) open.back().second += span;
            }
        }
    }
    return seconds;
}

}  // namespace brec
