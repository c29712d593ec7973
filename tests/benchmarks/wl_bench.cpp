// Google Benchmark timings of the WL engine on the shipped BREC pairs (BREC_BUILD_BENCHMARKS=ON).
// The end-to-end wall-time benchmark with the Python reference is scripts/bench_wl.sh.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "brec/io/pairs.hpp"
#include "brec/wl/wl.hpp"

namespace {

/// The shipped pairs: $BREC_DATASET, else the source tree's copy, else relative to the working dir.
std::string dataset_path() {
    if (const char* env = std::getenv("BREC_DATASET")) return env;
#ifdef BREC_SOURCE_DIR
    return std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";
#else
    return "datasets/brec/brec_v3_pairs.tsv";
#endif
}

const brec::PairDataset& brec_pairs() {
    static const brec::PairDataset ds = brec::read_pair_file(dataset_path());
    return ds;
}

/// One method over all 400 pairs, one thread.
void all_pairs(benchmark::State& state, const char* method) {
    const auto& ds = brec_pairs();
    const brec::WlOptions opt(brec::WlMethod::parse(method));
    int distinguished = 0;
    for (auto _ : state) {
        distinguished = 0;
        for (const auto& p : ds.pairs) distinguished += brec::compare_pair(p.a, p.b, opt).distinguished;
    }
    state.counters["distinguished"] = distinguished;
}

/// 3-FWL on one CFI pair (id from the benchmark argument).
void cfi_3fwl(benchmark::State& state) {
    const auto& ds = brec_pairs();
    const auto& p = ds.pairs.at(static_cast<std::size_t>(state.range(0)));
    const brec::WlOptions opt(brec::WlMethod::parse("3fwl"));
    for (auto _ : state) benchmark::DoNotOptimize(brec::compare_pair(p.a, p.b, opt));
    state.counters["n"] = p.a.n();
}

}  // namespace

BENCHMARK_CAPTURE(all_pairs, wl1, "1wl")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(all_pairs, fwl2, "2fwl")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(all_pairs, spd, "spd")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(all_pairs, s4, "s4")->Unit(benchmark::kMillisecond);
BENCHMARK(cfi_3fwl)->Arg(260)->Arg(300)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
