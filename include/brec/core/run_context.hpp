#pragma once
// RunContext: what a long-running library call needs from its caller — threads, a progress sink,
// a log sink and a cancel flag. Passed explicitly; there are no singletons.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>

#include "brec/core/error.hpp"

namespace brec {

enum class LogLevel { trace = 0, debug = 1, info = 2, warn = 3, error = 4, off = 5 };

/// Progress of one named task: `done` of `total` units. `total` = 0 marks a step of unknown count
/// inside the task currently shown (e.g. refinement round `done` of one long comparison): a sink
/// shows it next to that task instead of starting a new one.
struct Progress {
    std::string task;
    std::size_t done = 0;
    std::size_t total = 0;
};

using ProgressSink = std::function<void(const Progress&)>;
using LogSink = std::function<void(LogLevel, const std::string&)>;

/// Accumulating named wall-clock timers (seconds), reported in JSON summaries.
class Timers {
public:
    class Scope {
    public:
        Scope(Timers& t, std::string name)
            : timers_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
        ~Scope() {
            const auto dt = std::chrono::steady_clock::now() - start_;
            timers_.add(name_, std::chrono::duration<double>(dt).count());
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        Timers& timers_;
        std::string name_;
        std::chrono::steady_clock::time_point start_;
    };

    Scope scope(const std::string& name) { return Scope(*this, name); }
    void add(const std::string& name, double seconds) { totals_[name] += seconds; }
    const std::map<std::string, double>& totals() const { return totals_; }

private:
    std::map<std::string, double> totals_;
};

/// What a long-running library call needs from its caller. The caller owns it and passes it by
/// reference; library code only reads it, except for the timers.
class RunContext {
public:
    RunContext() = default;

    /// Number of worker threads to use (>= 1).
    int threads() const { return threads_; }
    RunContext& set_threads(int n) {
        threads_ = n < 1 ? 1 : n;
        return *this;
    }

    RunContext& set_progress(ProgressSink sink) {
        progress_ = std::move(sink);
        return *this;
    }
    RunContext& set_log(LogSink sink, LogLevel level = LogLevel::info) {
        log_ = std::move(sink);
        level_ = level;
        return *this;
    }

    /// Reports progress; cheap when no sink is installed. Sinks throttle themselves.
    void progress(const std::string& task, std::size_t done, std::size_t total) const {
        if (progress_) progress_(Progress{task, done, total});
    }

    /// Messages below this level are dropped.
    LogLevel log_level() const { return level_; }
    RunContext& set_log_level(LogLevel level) {
        level_ = level;
        return *this;
    }

    void log(LogLevel level, const std::string& msg) const {
        if (log_ && level >= level_) log_(level, msg);
    }
    void info(const std::string& msg) const { log(LogLevel::info, msg); }
    void warn(const std::string& msg) const { log(LogLevel::warn, msg); }
    void debug(const std::string& msg) const { log(LogLevel::debug, msg); }

    /// Asks every library call that holds this context to stop soon. Thread-safe and lock-free,
    /// so another thread (e.g. one that waits for SIGINT) may call it at any time.
    void cancel() { cancelled_.store(true); }
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
    /// Throws Cancelled when cancel() has been called. Long loops call it between units of work
    /// (pairs, refinement rounds), where stopping leaves no half-done state behind.
    void throw_if_cancelled() const {
        if (cancelled()) throw Cancelled();
    }

    Timers& timers() { return timers_; }

private:
    int threads_ = 1;
    ProgressSink progress_;
    LogSink log_;
    LogLevel level_ = LogLevel::info;
    std::atomic<bool> cancelled_{false};
    Timers timers_;
};

}  // namespace brec
