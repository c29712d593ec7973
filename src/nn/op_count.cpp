#include "brec/nn/op_count.hpp"

#include <torch/csrc/autograd/profiler_legacy.h>

namespace brec {

OpCount count_ops(const std::function<void()>& fn) {
    namespace profiler = torch::autograd::profiler;
    // State CPU with input shapes and FLOPs; no memory profiling or stacks.
    profiler::enableProfilerLegacy(profiler::ProfilerConfig(profiler::ProfilerState::CPU, /*report_input_shapes=*/true,
                                                            /*profile_memory=*/false, /*with_stack=*/false,
                                                            /*with_flops=*/true));
    try {
        fn();
    } catch (...) {
        profiler::disableProfilerLegacy();
        throw;
    }
    OpCount count;
    for (auto& events : profiler::disableProfilerLegacy())
        for (auto& event : events)
            if (event.kind() == profiler::EventKind::PushRange) {
                ++count.ops;
                count.flops += event.flops();
            }
    return count;
}

}  // namespace brec
