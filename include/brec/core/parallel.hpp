#pragma once
// A minimal deterministic parallel-for: tasks are claimed from an atomic counter, so the
// per-task results (written by index) never depend on the thread count or scheduling.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace brec {

/// Runs body(i) for i in [0, n) on up to `threads` threads. The first exception thrown by any
/// task is rethrown on the calling thread after all threads have stopped.
template <typename Body>
void parallel_for(std::size_t n, int threads, Body&& body) {
    if (threads <= 1 || n <= 1) {
        for (std::size_t i = 0; i < n; ++i) body(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    std::atomic<bool> failed{false};
    auto worker = [&]() {
        for (;;) {
            if (failed.load(std::memory_order_relaxed)) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= n) return;
            try {
                body(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                failed.store(true);
                return;
            }
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

}  // namespace brec
