// Google Benchmark timings of one PPGN training step and one forward pass (batch 32, the BREC
// settings: 5 blocks of width 32, d = 16) on random graphs of n vertices, one LibTorch thread, for
// the BLAS kernels and for plain torch ops (BREC_BUILD_BENCHMARKS=ON, LibTorch builds only).
// tests/benchmarks/reference/ppgn_step.py times the reference model the same way; the end-to-end
// comparison over BREC pairs is scripts/bench_ppgn.sh.
#include <benchmark/benchmark.h>

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include "brec/core/rng.hpp"
#include "brec/graph/graph.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"

namespace {

std::vector<brec::Graph> random_graphs(brec::VertexId n, int count) {
    brec::Rng rng(7);
    std::vector<brec::Graph> out;
    for (int k = 0; k < count; ++k) {
        brec::GraphBuilder b(n);
        for (brec::VertexId i = 0; i < n; ++i)
            for (brec::VertexId j = i + 1; j < n; ++j)
                if (rng.bernoulli(0.3)) b.add_edge(i, j);
        out.push_back(b.build());
    }
    return out;
}

std::shared_ptr<brec::GraphEmbedder> make_ppgn(const char* kernel, brec::VertexId n) {
    at::set_num_threads(1);
    brec::ModelRandom random = brec::make_model_random(0, torch::kCPU);
    brec::ModelConfig opt;
    opt.layers = 5;
    opt.hidden = 32;
    opt.out_dim = 16;
    opt.kernel = kernel;
    auto model = brec::make_model("ppgn", opt, random);
    model->set_graphs(random_graphs(n, 32), torch::kCPU);
    return model;
}

void train_step(benchmark::State& state, const char* kernel) {
    auto model = make_ppgn(kernel, static_cast<brec::VertexId>(state.range(0)));
    torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-4).weight_decay(1e-4));
    model->train();
    for (auto _ : state) {
        adam.zero_grad();
        const auto out = model->forward_range(0, 32);
        const auto x = out.slice(0, 0, 32, 2), y = out.slice(0, 1, 32, 2);
        const auto loss = torch::clamp_min(torch::cosine_similarity(x, y, 1, 1e-8), 0.0).mean();
        loss.backward();
        adam.step();
    }
}

void forward(benchmark::State& state, const char* kernel) {
    auto model = make_ppgn(kernel, static_cast<brec::VertexId>(state.range(0)));
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto _ : state) benchmark::DoNotOptimize(model->forward_range(0, 32));
}

}  // namespace

BENCHMARK_CAPTURE(train_step, blas, "blas")->Arg(10)->Arg(63)->Arg(120)->Arg(198)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(train_step, torch, "torch")->Arg(10)->Arg(63)->Arg(120)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forward, blas, "blas")->Arg(10)->Arg(63)->Arg(120)->Arg(198)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forward, torch, "torch")->Arg(10)->Arg(63)->Arg(120)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    brec::tune_cpu_allocator();  // as brec eval does
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
