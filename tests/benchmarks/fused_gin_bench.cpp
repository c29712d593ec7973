// Google Benchmark timings of one BatchNorm MLP layer, relu(bn2(W2 relu(bn1(W1 x + b1)) + b2)),
// forward and backward on 20,000, 87,616 and 115,200 rows of width 16-64, one thread: the fused kernel against
// LibTorch's modules (BREC_BUILD_BENCHMARKS=ON, LibTorch builds only). The counter GFLOPs is the
// rate of the two Linears' products (2 · rows · width² each forward, twice that backward), to set
// beside the machine's one-thread sgemm rate, which `sgemm` measures (1024³ products).
//
// Two floors for the same layer, in the same run:
//  * `products`: its six products alone ([rows, C] · [C, C] forward, the input and weight
//    gradients backward) as LibTorch's BLAS calls; what the products cost at these shapes;
//  * `passes`: the reads and writes of its rows alone, the arrays the fused kernel's passes touch
//    in the order it touches them (12 reads and 6 writes of [rows, C] floats, autograd's sum and
//    the output's gradient included), each a plain streaming loop; counter GB/s.
// Run with OPENBLAS_NUM_THREADS=1 (OpenBLAS reads it when it loads): the context line
// openblas_threads shows what it was.
#include <benchmark/benchmark.h>

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <cstdlib>
#include <numeric>

#include "brec/nn/fused_gin.hpp"
#include "brec/nn/layers.hpp"

namespace {

/// Each benchmark runs at widths 16-64 and three row counts: 20,000 rows, whose arrays stay in the
/// caches; 87,616 rows (16 graphs of 74² tuples: δ-2-LGNN's layer on the smallest CFI pair at
/// batch 16), whose arrays of width 16 alone take 5.6 MB each; and 115,200 rows (16 graphs of 72
/// vertices in 100 runs: DropGNN's layer on CFI pair 300).
void shapes(benchmark::internal::Benchmark* b) {
    for (const std::int64_t rows : {20000, 87616, 115200})
        for (const std::int64_t width : {16, 32, 48, 64}) b->Args({width, rows});
}

double layer_flops(std::int64_t width, std::int64_t rows) { return 3.0 * 2 * 2.0 * rows * width * width; }

void set_flops(benchmark::State& state, double flops) {
    state.counters["GFLOPs"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void layer_step(benchmark::State& state, bool fused) {
    at::set_num_threads(1);
    const std::int64_t width = state.range(0), rows = state.range(1);
    auto gen = at::detail::createCPUGenerator(1);
    brec::nn::BnMlp mlp(width, width, width, gen);
    auto norm = brec::nn::batch_norm(width);
    const brec::nn::GinBnModules m{mlp->first, mlp->norm, mlp->second, norm};
    const auto x = torch::randn({rows, width}, gen).requires_grad_(true);
    for (auto _ : state) {
        const auto y = brec::nn::bn_mlp_layer(x, m, fused);
        y.sum().backward();
    }
    set_flops(state, layer_flops(width, rows));
}

void fused(benchmark::State& state) { layer_step(state, true); }
void modules(benchmark::State& state) { layer_step(state, false); }

/// The layer's six products as BLAS calls: h1 = x W1ᵀ, h2 = a W2ᵀ; back, dW2 = ghᵀ a, ga = gh W2,
/// dW1 = ghᵀ x, gx = gh W1 (the arrays reused: only the shapes matter).
void products(benchmark::State& state) {
    at::set_num_threads(1);
    const std::int64_t width = state.range(0), rows = state.range(1);
    auto gen = at::detail::createCPUGenerator(1);
    const auto x = torch::randn({rows, width}, gen), g = torch::randn({rows, width}, gen);
    const auto w1 = torch::randn({width, width}, gen), w2 = torch::randn({width, width}, gen);
    for (auto _ : state) {
        const auto h1 = torch::mm(x, w1.t());
        const auto h2 = torch::mm(h1, w2.t());
        const auto dw2 = torch::mm(g.t(), h1);
        const auto ga = torch::mm(g, w2);
        const auto dw1 = torch::mm(ga.t(), x);
        const auto gx = torch::mm(ga, w1);
        benchmark::DoNotOptimize(h2.data_ptr<float>());
        benchmark::DoNotOptimize(dw2.data_ptr<float>());
        benchmark::DoNotOptimize(dw1.data_ptr<float>());
        benchmark::DoNotOptimize(gx.data_ptr<float>());
    }
    set_flops(state, layer_flops(width, rows));
}

/// Built for AVX-512, AVX2 and the default, the streaming loops below run at the widest vectors the
/// CPU has, as the fused kernels do.
#define BENCH_STREAM_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

/// out[i] = a[i] · s (+ b[i] (+ c[i]) where given): one streaming pass.
BENCH_STREAM_CLONES void stream(float* out, const float* a, const float* b, const float* c, float s, std::int64_t n) {
    if (!b)
        for (std::int64_t i = 0; i < n; ++i) out[i] = a[i] * s;
    else if (!c)
        for (std::int64_t i = 0; i < n; ++i) out[i] = a[i] * s + b[i];
    else
        for (std::int64_t i = 0; i < n; ++i) out[i] = a[i] * s + b[i] + c[i];
}

/// Σ a[i] (· b[i] where given): one reading pass, in kSums partial sums (n a multiple of it) so
/// that the additions' latency does not bound it.
constexpr std::int64_t kSums = 64;

BENCH_STREAM_CLONES float reduce(const float* a, const float* b, std::int64_t n) {
    float sums[kSums] = {};
    for (std::int64_t i = 0; i < n; i += kSums)
        for (std::int64_t k = 0; k < kSums; ++k) sums[k] += b ? a[i + k] * b[i + k] : a[i + k];
    return std::accumulate(sums, sums + kSums, 0.0f);
}

/// The fused layer's traffic over its rows without its arithmetic: forward x → h1 → h2 → y;
/// autograd's sum of y and the output's gradient gy; back, BatchNorm 2's sums (h2, gy), the middle
/// pass (gy, h2, h1 → buf) and the first pass back (h1, x, buf → buf).
void passes(benchmark::State& state) {
    const std::int64_t width = state.range(0), rows = state.range(1), n = rows * width;
    auto gen = at::detail::createCPUGenerator(1);
    const auto x = torch::randn({rows, width}, gen);
    const float* xs = x.data_ptr<float>();
    for (auto _ : state) {
        const auto h1 = torch::empty_like(x), h2 = torch::empty_like(x), y = torch::empty_like(x);
        const auto gy = torch::empty_like(x), buf = torch::empty_like(x);
        float* p1 = h1.data_ptr<float>();
        float* p2 = h2.data_ptr<float>();
        float* py = y.data_ptr<float>();
        float* pg = gy.data_ptr<float>();
        float* pb = buf.data_ptr<float>();
        stream(p1, xs, nullptr, nullptr, 1.5f, n);
        stream(p2, p1, nullptr, nullptr, 0.5f, n);
        stream(py, p2, nullptr, nullptr, 0.5f, n);
        float sum = reduce(py, nullptr, n);
        std::fill_n(pg, n, 1.0f);
        sum += reduce(p2, pg, n);
        stream(pb, pg, p2, p1, 0.5f, n);
        stream(pb, p1, xs, pb, 0.5f, n);
        benchmark::DoNotOptimize(sum);
        benchmark::DoNotOptimize(pb);
    }
    const double bytes = 18.0 * static_cast<double>(n) * sizeof(float);
    state.counters["GBs"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

/// The one-thread sgemm rate the FLOP bound is taken at: 1024³ products.
void sgemm(benchmark::State& state) {
    at::set_num_threads(1);
    auto gen = at::detail::createCPUGenerator(1);
    const auto a = torch::randn({1024, 1024}, gen), b = torch::randn({1024, 1024}, gen);
    for (auto _ : state) {
        const auto c = torch::mm(a, b);
        benchmark::DoNotOptimize(c.data_ptr<float>());
    }
    set_flops(state, 2.0 * 1024 * 1024 * 1024);
}

}  // namespace

BENCHMARK(sgemm)->Unit(benchmark::kMillisecond);
BENCHMARK(fused)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(modules)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(products)->Apply(shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(passes)->Apply(shapes)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    const char* threads = std::getenv("OPENBLAS_NUM_THREADS");
    benchmark::AddCustomContext("openblas_threads", threads ? threads : "unset (all cores)");
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
