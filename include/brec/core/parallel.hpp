#pragma once
// A minimal deterministic parallel-for: tasks are claimed from an atomic counter, so the
// per-task results (written by index) never depend on the thread count or scheduling; optionally
// with per-worker state set up once on each thread.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace brec {

/// Runs body(state, i) for i in [0, n) on up to `threads` threads, where `state` is what setup()
/// returned on the same thread before its first task: per-worker resources (a model loaded once per
/// thread, a thread-local library setting). setup() runs only on threads that get work. The first
/// exception thrown by a setup or a task is rethrown on the calling thread after all threads have
/// stopped; no task starts after it.
template <typename Setup, typename Body>
void parallel_for_each_worker(std::size_t n, int threads, Setup&& setup, Body&& body) {
    if (n == 0) return;
    if (threads <= 1 || n == 1) {
        auto state = setup();
        for (std::size_t i = 0; i < n; ++i) body(state, i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    std::atomic<bool> failed{false};
    auto worker = [&]() {
        try {
            auto state = setup();
            for (;;) {
                if (failed.load(std::memory_order_relaxed)) return;
                const std::size_t i = next.fetch_add(1);
                if (i >= n) return;
                body(state, i);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            failed.store(true);
        }
    };
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(threads), n);
    std::vector<std::thread> pool;
    pool.reserve(count - 1);
    for (std::size_t t = 1; t < count; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

/// Runs body(i) for i in [0, n) on up to `threads` threads. The first exception thrown by any
/// task is rethrown on the calling thread after all threads have stopped.
template <typename Body>
void parallel_for(std::size_t n, int threads, Body&& body) {
    struct None {};
    parallel_for_each_worker(
        n, threads, [] { return None{}; }, [&](None&, std::size_t i) { body(i); });
}

}  // namespace brec
