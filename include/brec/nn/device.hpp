#pragma once
// Devices and process settings of LibTorch: picking a device, intra-op threads, and the C
// allocator tuning that large CPU tensors need.

#include <string>

#include <torch/torch.h>

namespace brec {

/// Parses "auto", "cpu", "cuda", "cuda:N"; "auto" = the first CUDA device when one is available,
/// else the CPU. Throws InvalidArgument for malformed text or a missing device index and
/// Unsupported when CUDA is asked for but not available.
torch::Device parse_device(const std::string& text);

/// Sets LibTorch's intra-op threads of the calling thread (OpenMP keeps the count per thread) and
/// returns the previous value; threads <= 0 leaves it unchanged.
int set_torch_threads(int threads);

/// Process-wide tuning of the C allocator for LibTorch's large CPU tensors (glibc; a no-op
/// elsewhere): blocks up to 32 MiB come from the heap instead of a fresh mmap() each, and freed
/// heap memory is kept for reuse instead of being returned to the system at once. Without it every
/// training step faults its activations in again: 40 % of a PPGN forward pass at n = 63 went to
/// the kernel zeroing pages, and the pass ran 2x slower. Call once before the first model runs;
/// peak memory is unchanged, freed memory is simply not handed back early.
void tune_cpu_allocator();

}  // namespace brec
