#include "common.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "brec/core/bytes.hpp"
#include "brec/core/error.hpp"
#include "brec/core/progress.hpp"
#include "brec/io/files.hpp"

namespace brec::cli {

void add_global_flags(CLI::App& app, GlobalArgs& args) {
    app.add_option("--log-level", args.log_level, "Log level on stderr: trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->capture_default_str();
    app.add_flag("-v,--verbose", args.verbose, "More log output (same as --log-level debug)");
}

void add_selection_flags(CLI::App* sub, PairArgs& args, bool with_shard, const std::string& scope) {
    sub->add_option("--dataset", args.dataset,
                    scope + "Pair file (TSV: id, category, graph6_a, graph6_b); default: the shipped BREC v3 pairs");
    sub->add_option("--category", args.categories,
                    scope +
                        "Categories to run: fine names (basic, regular, strongly_regular, extension, cfi, "
                        "four_vertex_condition, distance_regular; aliases str, 4vtx, dr) or groups "
                        "(Basic, Regular, Extension, CFI); comma-separated")
        ->delimiter(',');
    sub->add_option("--pairs", args.pairs, scope + "Pair ids, e.g. 0-59,260 (default: all)");
    if (with_shard) sub->add_option("--shard", args.shard, "Run shard i of N (1-based), e.g. 2/8, for job arrays");
}

void add_pair_flags(CLI::App* sub, PairArgs& args, bool with_shard) {
    add_selection_flags(sub, args, with_shard);
    add_jobs_flag(sub, args.jobs);
    add_json_flag(sub, args.json);
    add_quiet_flag(sub, args.quiet);
}

void add_json_flag(CLI::App* sub, bool& json, const std::string& help) { sub->add_flag("--json", json, help); }

void add_quiet_flag(CLI::App* sub, bool& quiet, const std::string& help) { sub->add_flag("--quiet,-q", quiet, help); }

void add_jobs_flag(CLI::App* sub, int& jobs, const std::string& help) {
    sub->add_option("--jobs,-j", jobs, help)->check(CLI::Range(1, 1024))->capture_default_str();
}

void add_device_flag(CLI::App* sub, std::string& device, const std::string& help) {
    sub->add_option("--device", device, help)->capture_default_str();
}

CLI::Option* add_seed_flag(CLI::App* sub, std::uint64_t& seed, const std::string& help) {
    return sub->add_option("--seed", seed, help)->check(whole_number_at_least(0))->capture_default_str();
}

CLI::Option* add_out_flag(CLI::App* sub, std::string& out, const std::string& help) {
    return sub->add_option("--out,-o", out, help);
}

void add_results_file_flags(CLI::App* sub, std::string& out, bool& resume, const std::string& out_help,
                            const std::string& resume_help) {
    CLI::Option* o = add_out_flag(sub, out, out_help);
    sub->add_flag("--resume", resume, resume_help)->needs(o);
}

void add_threads_per_pair_flag(CLI::App* sub, int& threads, const std::string& help) {
    sub->add_option("--threads-per-pair", threads, help)->check(CLI::Range(1, 256))->capture_default_str();
}

void add_gin_classifier_flags(CLI::App* sub, GinClassifierOptions& gin) {
    const std::string g = "GIN: ";
    add_device_flag(sub, gin.device, g + "auto, cpu, cuda or cuda:N");
    sub->add_option("--epochs", gin.epochs, g + "training epochs per fold")
        ->check(whole_number_at_least(1))
        ->capture_default_str();
    sub->add_option("--batch", gin.batch, g + "graphs per training batch")
        ->check(whole_number_at_least(1))
        ->capture_default_str();
    sub->add_option("--lr", gin.lr, g + "Adam learning rate")->check(CLI::PositiveNumber)->capture_default_str();
    sub->add_option("--lr-halving", gin.lr_halving, g + "halve the learning rate every N epochs (0 = never)")
        ->check(whole_number_at_least(0))
        ->capture_default_str();
    sub->add_option("--dropout", gin.dropout, g + "dropout on the class scores")
        ->check(CLI::Range(0.0, 0.99))
        ->capture_default_str();
    sub->add_option("--validation", gin.validation, g + "share of each training fold held out to choose the epoch")
        ->check(CLI::Range(0.01, 0.99))
        ->capture_default_str();
    sub->add_option("--warmup", gin.warmup, g + "first epoch that may be chosen (best validation accuracy)")
        ->check(whole_number_at_least(1))
        ->capture_default_str();
    sub->add_option("--gin-layers", gin.layers, g + "GIN layers")
        ->check(whole_number_at_least(1))
        ->capture_default_str();
    sub->add_option("--gin-hidden", gin.hidden, g + "width of the GIN layers")
        ->check(whole_number_at_least(1))
        ->capture_default_str();
}

void add_fine_flag(CLI::App* sub, bool& fine) {
    sub->add_flag("--fine", fine, "Show the 7 fine categories under the 4 groups");
}

CLI::App* add_command(CLI::App& root, const std::string& name, const std::string& summary, const std::string& details) {
    CLI::App* sub = root.add_subcommand(name, summary);
    sub->footer(details);
    return sub;
}

void set_summary(CLI::App& root, const std::string& name, const std::string& summary) {
    CLI::App* sub = root.get_subcommand(name);
    const std::string details = sub->get_description();
    if (details == summary) return;
    const std::string footer = sub->get_footer();
    sub->footer(footer.empty() ? details : details + "\n" + footer);
    sub->description(summary);
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

std::string executable_dir() {
    char buf[4096];
    const ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (len <= 0) return "";
    buf[len] = '\0';
    const std::string path(buf);
    return path.substr(0, path.find_last_of('/'));
}

PairSelection selection_of(const PairArgs& args) {
    PairSelection sel;
    sel.categories = args.categories;
    sel.id_ranges = args.pairs;
    if (!args.shard.empty()) parse_shard(args.shard, sel.shard_index, sel.shard_count);
    return sel;
}

SelectedPairs load_selected_pairs(const PairArgs& args) {
    SelectedPairs out;
    const PairSelection sel = selection_of(args);
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
        case LogLevel::trace:
            return "trace";
        case LogLevel::debug:
            return "debug";
        case LogLevel::info:
            return "info";
        case LogLevel::warn:
            return "warning";
        case LogLevel::error:
            return "error";
        default:
            return "";
    }
}

}  // namespace

void configure_context(const GlobalArgs& global, RunContext& ctx) {
    const LogLevel level = global.verbose > 0 ? LogLevel::debug : parse_level(global.log_level);
    ctx.set_log(
        [](LogLevel l, const std::string& msg) { std::cerr << "brec: " << level_name(l) << ": " << msg << '\n'; },
        level);
    ctx.set_progress(stderr_progress());
}

void set_quiet(RunContext& ctx, bool quiet) {
    if (!quiet) return;
    ctx.set_progress(nullptr);
    // --quiet also drops info lines; warnings and errors stay, and so does an explicit -v / debug.
    if (ctx.log_level() == LogLevel::info) ctx.set_log_level(LogLevel::warn);
}

void print_json_line(const nlohmann::json& j) {
    // A path that is not UTF-8 (a file name with byte 0xff) is printed with U+FFFD in its place.
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n' << std::flush;
}

std::string flag_message(const ResultsFileError& e) {
    if (e.problem() == ResultsFileError::Problem::other_settings) return e.what();
    if (e.problem() == ResultsFileError::Problem::nothing_to_resume) return "--resume needs --out FILE.jsonl";
    return "--out " + e.path() + " already holds results; pass --resume to continue that run, or remove the file";
}

namespace {

// The write end of the live InterruptWatcher's pipe, for the signal handler: the one piece of
// process-wide state a handler cannot do without. Lock-free, so reading it is async-signal-safe.
std::atomic<int> interrupt_pipe{-1};

extern "C" void on_interrupt(int sig) {
    const int saved = errno;
    const int fd = interrupt_pipe.load();
    if (fd >= 0) {
        const unsigned char byte = static_cast<unsigned char>(sig);
        [[maybe_unused]] const auto written = ::write(fd, &byte, 1);
    }
    errno = saved;
}

/// Installs on_interrupt for `sig` unless the signal was ignored at start; keeps the old action.
void catch_signal(int sig, struct sigaction& old) {
    sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) return;
    struct sigaction act {};
    act.sa_handler = on_interrupt;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESTART;
    sigaction(sig, &act, nullptr);
}

}  // namespace

InterruptWatcher::InterruptWatcher(RunContext& ctx) {
    if (pipe2(pipe_, O_CLOEXEC) != 0) throw IoError(std::string("cannot create a pipe: ") + std::strerror(errno));
    interrupt_pipe.store(pipe_[1]);
    thread_ = std::thread([this, &ctx] { wait(ctx); });
    catch_signal(SIGINT, old_int_);
    catch_signal(SIGTERM, old_term_);
}

InterruptWatcher::~InterruptWatcher() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    interrupt_pipe.store(-1);
    // A zero byte tells the helper to return.
    const unsigned char stop = 0;
    [[maybe_unused]] const auto written = ::write(pipe_[1], &stop, 1);
    thread_.join();
    close(pipe_[0]);
    close(pipe_[1]);
}

void InterruptWatcher::wait(RunContext& ctx) {
    for (;;) {
        unsigned char byte = 0;
        const auto got = ::read(pipe_[0], &byte, 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || byte == 0) return;
        const int sig = byte;
        if (signal_.exchange(sig) != 0) std::_Exit(128 + sig);  // the second signal: quit now
        ctx.cancel();
        if (isatty(STDERR_FILENO)) {
            static const char kNote[] =
                "\nbrec: interrupted: stopping after the work in progress (interrupt again to quit at once)\n";
            [[maybe_unused]] const auto written = ::write(STDERR_FILENO, kNote, sizeof kNote - 1);
        }
    }
}

CLI::Validator checked_by(std::function<void(const std::string&)> check, const std::string& name) {
    return CLI::Validator(
        [check = std::move(check)](const std::string& text) {
            try {
                check(text);
            } catch (const Error& e) {
                return std::string(e.what());
            }
            return std::string();
        },
        name);
}

CLI::Validator byte_size() {
    return checked_by([](const std::string& size) { parse_byte_size(size); }, "SIZE");
}

}  // namespace brec::cli
