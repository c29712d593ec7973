#include "brec/core/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>

#include "brec/core/text.hpp"

namespace brec {
namespace {

/// The sink of stderr_progress.
class StderrProgress {
public:
    StderrProgress() : tty_(isatty(STDERR_FILENO) != 0) {}

    void operator()(const Progress& p) {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto now = std::chrono::steady_clock::now();
        bool finished = false;
        if (p.total == 0) {
            step_ = p.task + " " + std::to_string(p.done);
        } else {
            if (p.task != task_) {
                task_ = p.task;
                start_ = now;
                last_ = now - std::chrono::hours(1);
            }
            done_ = p.done;
            total_ = p.total;
            step_.clear();
            finished = p.done >= p.total;
        }
        const double since = std::chrono::duration<double>(now - last_).count();
        if (!finished && since < (tty_ ? 0.1 : 10.0)) return;
        last_ = now;
        const std::string line = render(std::chrono::duration<double>(now - start_).count(), finished);
        if (tty_) {
            std::cerr << "\r\033[K" << line << (finished ? "\n" : "") << std::flush;
        } else {
            std::cerr << line << '\n';
        }
    }

private:
    std::string render(double elapsed, bool finished) const {
        std::ostringstream line;
        if (total_ > 0) {
            line << task_ << " " << done_ << "/" << total_;
            const double frac = static_cast<double>(done_) / static_cast<double>(total_);
            if (tty_) {
                const int width = 30;
                const int fill = static_cast<int>(frac * width);
                line << " [" << std::string(fill, '#') << std::string(width - fill, '.') << "]";
            }
            line << " " << std::fixed << std::setprecision(0) << 100.0 * frac << "%";
            line << " elapsed " << format_seconds(elapsed);
            if (done_ > 0 && !finished) line << " eta " << format_seconds(elapsed * (1.0 - frac) / frac);
        }
        if (!step_.empty()) line << (total_ > 0 ? " | " : "") << step_;
        return line.str();
    }

    bool tty_;
    std::mutex mutex_;
    std::string task_, step_;
    std::size_t done_ = 0, total_ = 0;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(),
                                          last_ = start_ - std::chrono::hours(1);
};

}  // namespace

ProgressSink stderr_progress() {
    auto progress = std::make_shared<StderrProgress>();
    return [progress](const Progress& p) { (*progress)(p); };
}

}  // namespace brec
