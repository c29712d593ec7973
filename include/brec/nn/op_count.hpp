#pragma once
// Counting the arithmetic of LibTorch code: the operators it dispatches and the floating-point
// operations of its matrix products, convolutions and element-wise sums and products, as
// LibTorch's profiler derives them from the operands' shapes. Shapes only: the count is the same
// on every machine, device and thread count, which makes it a cost estimate a schedule can rely
// on without timing anything.

#include <cstdint>
#include <functional>

namespace brec {

struct OpCount {
    std::uint64_t flops = 0;  ///< a multiply-add counts 2 (m x k by k x n: 2mkn)
    std::uint64_t ops = 0;    ///< operators dispatched, nested ones included (each costs framework time)
};

/// Runs `fn` on the calling thread under LibTorch's profiler (CPU state, shapes recorded) and
/// returns what it counted, the backward passes `fn` runs included. Operators a module runs outside
/// LibTorch (a direct BLAS call) are not seen: count with LibTorch's own kernels. Throws what `fn`
/// throws (the profiler is stopped first).
OpCount count_ops(const std::function<void()>& fn);

}  // namespace brec
