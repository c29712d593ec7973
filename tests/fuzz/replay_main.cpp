// Replays inputs through a fuzz target without libFuzzer, so that the normal build tests what the
// fuzzers found (label "unit"):
//
//   fuzz_replay_json tests/fuzz/corpus/json [more files or directories ...]
//
// Every input (the seeds and the reproducers of fixed bugs) must come back from
// LLVMFuzzerTestOneInput without an escaping exception (the targets let only brec::Error pass
// silently) and without a single allocation above kMaxAllocation: the reproducers of unbounded
// allocations fail here deterministically, not only under libFuzzer's memory and time limits. An
// abort (a violated round-trip property) ends the program, which fails the test as well.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// Inputs are at most a few KiB; no parser needs more than this in one piece for them.
constexpr std::size_t kMaxAllocation = std::size_t{64} << 20;

// The largest allocation since the last reset: the only global of the program, written by the
// replaced operator new below (which has no other way to report).
std::atomic<std::size_t> g_largest{0};

void* allocate(std::size_t size) {
    std::size_t seen = g_largest.load(std::memory_order_relaxed);
    while (size > seen && !g_largest.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
    }
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}

std::vector<std::filesystem::path> inputs_of(int argc, char** argv) {
    std::vector<std::filesystem::path> out;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p)) {
            std::vector<std::filesystem::path> files;
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            out.insert(out.end(), files.begin(), files.end());
        } else {
            out.push_back(p);
        }
    }
    return out;
}

}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
    const auto inputs = inputs_of(argc, argv);
    if (inputs.empty()) {
        std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (const auto& path : inputs) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "%s: cannot open\n", path.c_str());
            ++failures;
            continue;
        }
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        g_largest.store(0);
        const auto t0 = std::chrono::steady_clock::now();
        std::string problem;
        try {
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        } catch (const std::exception& e) {
            problem = std::string("exception escaped the parser: ") + e.what();
        } catch (...) {
            problem = "a non-standard exception escaped the parser";
        }
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const std::size_t largest = g_largest.load();
        if (problem.empty() && largest > kMaxAllocation)
            problem = "allocated " + std::to_string(largest) + " bytes at once (limit " +
                      std::to_string(kMaxAllocation) + ")";
        std::printf("%s: %s (%.1f ms, largest allocation %zu bytes)\n", path.c_str(),
                    problem.empty() ? "ok" : ("FAILED: " + problem).c_str(), ms, largest);
        if (!problem.empty()) ++failures;
    }
    std::printf("%zu inputs, %d failed\n", inputs.size(), failures);
    return failures ? 1 : 0;
}
