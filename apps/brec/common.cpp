#include "common.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec::cli {

void add_global_flags(CLI::App& app, GlobalArgs& args) {
    app.add_option("--log-level", args.log_level, "Log level on stderr: trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->capture_default_str();
    app.add_flag("-v,--verbose", args.verbose, "More log output (same as --log-level debug)");
}

void add_pair_flags(CLI::App* sub, PairArgs& args, bool with_shard) {
    sub->add_option("--dataset", args.dataset,
                    "Pair file (TSV: id, category, graph6_a, graph6_b); default: the shipped BREC v3 pairs");
    sub->add_option("--category", args.categories,
                    "Categories to run: fine names (basic, regular, strongly_regular, extension, cfi, "
                    "four_vertex_condition, distance_regular; aliases str, 4vtx, dr) or groups "
                    "(Basic, Regular, Extension, CFI); comma-separated")
        ->delimiter(',');
    sub->add_option("--pairs", args.pairs, "Pair ids, e.g. 0-59,260 (default: all)");
    if (with_shard)
        sub->add_option("--shard", args.shard, "Run shard i of N (1-based), e.g. 2/8, for job arrays");
    sub->add_option("--jobs,-j", args.jobs, "Worker threads across pairs")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    sub->add_flag("--json", args.json, "Print one JSON object per pair and a summary object (last line)");
    sub->add_flag("--quiet,-q", args.quiet, "No progress or info lines on stderr");
}

CLI::Validator whole_number_at_least(long long min) {
    return CLI::Validator(
        [min](std::string& text) -> std::string {
            std::size_t used = 0;
            long long v = 0;
            try {
                v = std::stoll(text, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != text.size() || v < min)
                return "must be a whole number >= " + std::to_string(min) + ", got '" + text + "'";
            return "";
        },
        "INT>=" + std::to_string(min));
}

std::string default_dataset_path() {
    if (const char* env = std::getenv("BREC_DATASET"); env && *env) return env;
    const std::string built_in = BREC_DEFAULT_DATASET;
    if (file_exists(built_in)) return built_in;
    // Relocated binary: look next to it (../share/brec/ or ../datasets/brec/).
    if (const std::string dir = executable_dir(); !dir.empty())
        for (const char* rel : {"/../share/brec/brec_v3_pairs.tsv", "/../datasets/brec/brec_v3_pairs.tsv",
                                "/../../datasets/brec/brec_v3_pairs.tsv"}) {
            if (file_exists(dir + rel)) return dir + rel;
        }
    return built_in;
}

bool runs_eval(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--log-level") {
            ++i;  // its value
        } else if (a.rfind("--log-level=", 0) == 0 || a == "-v" || a == "--verbose" || a.find_first_not_of('v', 1) == std::string::npos) {
            // a global flag (-v, -vv, ...)
        } else {
            return a == "eval";
        }
    }
    return false;
}

std::string executable_dir() {
    char buf[4096];
    const ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (len <= 0) return "";
    buf[len] = '\0';
    const std::string path(buf);
    return path.substr(0, path.find_last_of('/'));
}

SelectedPairs load_selected_pairs(const PairArgs& args) {
    SelectedPairs out;
    PairSelection sel;
    sel.categories = args.categories;
    sel.id_ranges = args.pairs;
    if (!args.shard.empty()) parse_shard(args.shard, sel.shard_index, sel.shard_count);
    out.dataset = read_pair_file(args.dataset.empty() ? default_dataset_path() : args.dataset);
    out.indices = select_pairs(out.dataset, sel);
    return out;
}

namespace {

LogLevel parse_level(const std::string& s) {
    if (s == "trace") return LogLevel::trace;
    if (s == "debug") return LogLevel::debug;
    if (s == "warn") return LogLevel::warn;
    if (s == "error") return LogLevel::error;
    if (s == "off") return LogLevel::off;
    return LogLevel::info;
}

const char* level_name(LogLevel l) {
    switch (l) {
        case LogLevel::trace: return "trace";
        case LogLevel::debug: return "debug";
        case LogLevel::info: return "info";
        case LogLevel::warn: return "warning";
        case LogLevel::error: return "error";
        default: return "";
    }
}

/// Throttled stderr progress: ~10 updates/s on a terminal, a plain line every 10 s otherwise.
class StderrProgress {
public:
    StderrProgress() : tty_(isatty(STDERR_FILENO) != 0) {}

    void operator()(const Progress& p) {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto now = std::chrono::steady_clock::now();
        if (p.task != task_) {
            task_ = p.task;
            start_ = now;
            last_ = now - std::chrono::hours(1);
        }
        const bool finished = p.total > 0 && p.done >= p.total;
        const double since = std::chrono::duration<double>(now - last_).count();
        if (!finished && since < (tty_ ? 0.1 : 10.0)) return;
        last_ = now;
        const double elapsed = std::chrono::duration<double>(now - start_).count();
        std::ostringstream line;
        line << task_ << " " << p.done << "/" << p.total;
        if (p.total > 0) {
            const double frac = static_cast<double>(p.done) / static_cast<double>(p.total);
            if (tty_) {
                const int width = 30;
                const int fill = static_cast<int>(frac * width);
                line << " [" << std::string(fill, '#') << std::string(width - fill, '.') << "]";
            }
            line << " " << std::fixed << std::setprecision(0) << 100.0 * frac << "%";
            line << " elapsed " << format_seconds(elapsed);
            if (p.done > 0 && !finished)
                line << " eta " << format_seconds(elapsed * (1.0 - frac) / frac);
        }
        if (tty_) {
            std::cerr << "\r\033[K" << line.str() << (finished ? "\n" : "") << std::flush;
        } else {
            std::cerr << line.str() << '\n';
        }
    }

private:
    bool tty_;
    std::mutex mutex_;
    std::string task_;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace

void configure_context(const GlobalArgs& global, RunContext& ctx) {
    const LogLevel level = global.verbose > 0 ? LogLevel::debug : parse_level(global.log_level);
    ctx.set_log([](LogLevel l, const std::string& msg) {
        std::cerr << "brec: " << level_name(l) << ": " << msg << '\n';
    }, level);
    auto progress = std::make_shared<StderrProgress>();
    ctx.set_progress([progress](const Progress& p) { (*progress)(p); });
}

void set_quiet(RunContext& ctx, bool quiet) {
    if (!quiet) return;
    ctx.set_progress(nullptr);
    // --quiet also drops info lines; warnings and errors stay, and so does an explicit -v / debug.
    if (ctx.log_level() == LogLevel::info) ctx.set_log_level(LogLevel::warn);
}

void print_json_line(const nlohmann::json& j) { std::cout << j.dump() << '\n' << std::flush; }

std::string TextTable::str() const {
    std::vector<std::size_t> width(header_.size(), 0);
    for (std::size_t c = 0; c < header_.size(); ++c) width[c] = header_[c].size();
    for (const auto& r : rows_)
        for (std::size_t c = 0; c < r.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], r[c].size());
    std::ostringstream out;
    auto emit = [&](const std::vector<std::string>& r) {
        for (std::size_t c = 0; c < width.size(); ++c) {
            const std::string cell = c < r.size() ? r[c] : "";
            if (c == 0)
                out << std::left << std::setw(static_cast<int>(width[c])) << cell;
            else
                out << "  " << std::right << std::setw(static_cast<int>(width[c])) << cell;
        }
        out << '\n';
    };
    auto rule = [&]() {
        std::size_t total = 0;
        for (auto w : width) total += w + 2;
        out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    };
    emit(header_);
    rule();
    for (const auto& r : rows_) {
        if (r.empty())
            rule();
        else
            emit(r);
    }
    return out.str();
}

std::string format_seconds(double s) {
    std::ostringstream o;
    if (s < 60) {
        o << std::fixed << std::setprecision(s < 10 ? 2 : 1) << s << "s";
    } else if (s < 3600) {
        o << static_cast<int>(s) / 60 << "m" << std::setw(2) << std::setfill('0') << static_cast<int>(s) % 60 << "s";
    } else {
        o << static_cast<int>(s) / 3600 << "h" << std::setw(2) << std::setfill('0') << (static_cast<int>(s) % 3600) / 60 << "m";
    }
    return o.str();
}

}  // namespace brec::cli
