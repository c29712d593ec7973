#include "brec/nn/op_count.hpp"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <algorithm>
#include <chrono>
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
    const auto start = std::chrono::steady_clock::now();
    const auto threads = profiled(fn);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double top_level = 0.0;  // the spans of the operators no other operator encloses
    for (auto& events : threads) {
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
                if (!open.empty())
                    open.back().second += span;
                else
                    top_level += span * 1e-6;
            }
        }
    }
    seconds[kOutsideOperators] = std::max(0.0, wall - top_level);
    return seconds;
}

}  // namespace brec
