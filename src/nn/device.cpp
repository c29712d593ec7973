#include "brec/nn/device.hpp"

#include <algorithm>
#include <cctype>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <dlfcn.h>

#include "brec/core/error.hpp"

namespace brec {

torch::Device parse_device(const std::string& text) {
    if (text == "auto")
        return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
    if (text == "cpu") return torch::kCPU;
    const std::string usage = "device '" + text + "' is not one of auto, cpu, cuda, cuda:N";
    if (text.rfind("cuda", 0) != 0) throw InvalidArgument(usage);
    long index = 0;
    if (text.size() > 4) {
        const std::string digits = text.substr(5);
        if (text[4] != ':' || digits.empty() || digits.size() > 4 ||
            !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
            throw InvalidArgument(usage);
        index = std::stol(digits);
    }
    if (!torch::cuda::is_available())
        throw Unsupported("device " + text + ": CUDA is not available in this build or on this machine");
    if (index >= static_cast<long>(torch::cuda::device_count()))
        throw InvalidArgument("device " + text + ": there are " + std::to_string(torch::cuda::device_count()) +
                              " CUDA devices");
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

int set_torch_threads(int threads) {
    const int previous = at::get_num_threads();
    if (threads > 0) at::set_num_threads(threads);
    return previous;
}

void set_blas_threads(int threads) {
    using SetThreadsFn = void (*)(int);
    if (threads <= 0) return;
    if (auto* set = reinterpret_cast<SetThreadsFn>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(threads);
}

void set_cpu_threads(int threads) {
    set_torch_threads(threads);
    set_blas_threads(threads);
}

void tune_cpu_allocator() {
#if defined(__GLIBC__)
    // 32 MiB is the largest mmap threshold glibc accepts (HEAP_MAX_SIZE / 2 on 64-bit); setting it
    // also stops the dynamic threshold from drifting. The trim threshold keeps freed memory at
    // the top of the heap for the next step instead of returning it with brk/madvise.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

torch::Device module_device(const torch::nn::Module& module) {
    const auto parameters = module.parameters();
    return parameters.empty() ? torch::Device(torch::kCPU) : parameters.front().device();
}

}  // namespace brec
