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

/// The device of a module's parameters (the CPU for a module without any).
torch::Device module_device(const torch::nn::Module& module);

/// Sets LibTorch's intra-op threads of the calling thread (OpenMP keeps the count per thread) and
/// returns the previous value; threads <= 0 leaves it unchanged.
int set_torch_threads(int threads);

/// Sets the threads of the BLAS library LibTorch's CPU matrix products call, when that BLAS is
/// OpenBLAS (it keeps one process-wide pool of its own, independent of OpenMP's per-thread count);
/// a no-op for other BLAS libraries. Pairs that run in parallel must use 1: two jobs calling a
/// threaded OpenBLAS at once spin against each other (measured: NGNN on srg(35,18,9,9) pairs ran
/// 8x slower per pair with --jobs 2 than with --jobs 1).
void set_blas_threads(int threads);

/// Both of the above with one count: a CPU training or a single-threaded worker calls this so
/// that OpenBLAS's own pool (one thread per core by default, whose idle threads spin) does not
/// fight a second process or worker over the cores (measured: two I²-GNN trainings side by side on
/// 2 cores took 22-26 s per epoch with OpenBLAS's default pool, 15 s with one thread each).
void set_cpu_threads(int threads);

/// Process-wide tuning of the C allocator for LibTorch's large CPU tensors (glibc; a no-op
/// elsewhere): blocks up to 32 MiB come from the heap instead of a fresh mmap() each, and freed
/// heap memory is kept for reuse instead of being returned to the system at once. Without it every
/// training step faults its activations in again: 40 % of a PPGN forward pass at n = 63 went to
/// the kernel zeroing pages, and the pass ran 2x slower. Call once before the first model runs;
/// peak memory is unchanged, freed memory is simply not handed back early.
void tune_cpu_allocator();

}  // namespace brec
