#pragma once
// Counting the arithmetic of LibTorch code: the operators it dispatches and the floating-point
// operations of its matrix products, convolutions and element-wise sums and products, as
// LibTorch's profiler derives them from the operands' shapes. Shapes only: the count is the same
// on every machine, device and thread count, which makes it a cost estimate a schedule can rely
// on without timing anything.

#include <cstdint>
#include <functional>
#include <map>
#include <string>

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

/// The entry of time_ops for the time outside every operator.
inline constexpr const char* kOutsideOperators = "(outside operators)";

/// Runs `fn` as count_ops does and returns each operator's own CPU seconds (the operators it
/// dispatches excluded), summed by operator name; autograd's backward nodes count as operators.
/// The entry kOutsideOperators holds the rest of `fn`'s wall time: work no operator encloses,
/// such as the forward pass of a custom autograd function's own kernel, the autograd engine
/// between nodes and the profiler itself. With one thread the entries sum to the wall time.
/// Timing, so it varies from run to run and machine to machine: for profiles, never for schedules.
std::map<std::string, double> time_ops(const std::function<void()>& fn);

}  // namespace brec
