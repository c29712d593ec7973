// Google Benchmark timings of one BatchNorm MLP layer, relu(bn2(W2 relu(bn1(W1 x + b1)) + b2)),
// forward and backward on 20,000 rows of width 16-64, one LibTorch thread: the fused kernel
// against LibTorch's modules (BREC_BUILD_BENCHMARKS=ON, LibTorch builds only). The counter
// GFLOPs is the rate of the two Linears' products (2 · rows · width² each forward, twice that
// backward), to set beside the machine's one-thread sgemm rate.
#include <benchmark/benchmark.h>

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include "brec/nn/fused_gin.hpp"
#include "brec/nn/layers.hpp"

namespace {

constexpr std::int64_t kRows = 20000;

void layer_step(benchmark::State& state, bool fused) {
    at::set_num_threads(1);
    const std::int64_t width = state.range(0);
    auto gen = at::detail::createCPUGenerator(1);
    brec::nn::BnMlp mlp(width, width, width, gen);
    auto norm = brec::nn::batch_norm(width);
    const brec::nn::GinBnModules m{mlp->first, mlp->norm, mlp->second, norm};
    const auto x = torch::randn({kRows, width}, gen).requires_grad_(true);
    for (auto _ : state) {
        const auto y = brec::nn::bn_mlp_layer(x, m, fused);
        y.sum().backward();
    }
    const double flops = 3.0 * 2 * 2.0 * kRows * width * width;  // forward and twice that back
    state.counters["GFLOPs"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void fused(benchmark::State& state) { layer_step(state, true); }
void modules(benchmark::State& state) { layer_step(state, false); }

}  // namespace

BENCHMARK(fused)->Arg(16)->Arg(32)->Arg(48)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(modules)->Arg(16)->Arg(32)->Arg(48)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
