#pragma once
// Flags shared by several subcommands (each defined once, here) and small CLI helpers.

#include <atomic>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "brec/classify/classify.hpp"
#include "brec/core/run_context.hpp"
#include "brec/core/text.hpp"
#include "brec/io/results_store.hpp"
#include "brec/io/pairs.hpp"

namespace brec::cli {

/// Flags of the root command.
struct GlobalArgs {
    std::string log_level = "info";
    int verbose = 0;
};
void add_global_flags(CLI::App& app, GlobalArgs& args);

/// The selection flags of every pair command, with --jobs, --json and --quiet.
struct PairArgs {
    std::string dataset;                  ///< empty = shipped BREC file
    std::vector<std::string> categories;  ///< --category a,b
    std::string pairs;                    ///< --pairs 0-59,260
    std::string shard;                    ///< --shard i/N (only where offered)
    int jobs = 1;
    bool json = false;
    bool quiet = false;
};
/// --dataset, --category, --pairs (and --shard when with_shard). `scope` prefixes the help texts
/// (e.g. "Pair files only: ") where the command also reads other inputs.
void add_selection_flags(CLI::App* sub, PairArgs& args, bool with_shard = false, const std::string& scope = "");
/// The selection flags plus --jobs, --json and --quiet.
void add_pair_flags(CLI::App* sub, PairArgs& args, bool with_shard = false);

/// --json: results as JSON on stdout.
void add_json_flag(CLI::App* sub, bool& json,
                   const std::string& help = "Print one JSON object per pair and a summary object (last line)");
/// --quiet, -q: no progress and no info lines on stderr.
void add_quiet_flag(CLI::App* sub, bool& quiet, const std::string& help = "No progress or info lines on stderr");
/// --jobs, -j: worker threads, 1 to 1024.
void add_jobs_flag(CLI::App* sub, int& jobs, const std::string& help = "Worker threads across pairs");
/// --device: where the models run (auto, cpu, cuda, cuda:N; parse_device reads it).
void add_device_flag(CLI::App* sub, std::string& device,
                     const std::string& help = "auto (CUDA when available, else the CPU), cpu, cuda or cuda:N");
/// --seed: the one seed every random choice of the command derives from.
CLI::Option* add_seed_flag(CLI::App* sub, std::uint64_t& seed, const std::string& help);
/// --out, -o: the file the command writes.
CLI::Option* add_out_flag(CLI::App* sub, std::string& out, const std::string& help);
/// --out FILE.jsonl and --resume (which needs --out): the resumable results file of a pair command.
void add_results_file_flags(CLI::App* sub, std::string& out, bool& resume, const std::string& out_help,
                            const std::string& resume_help);
/// --threads-per-pair: threads inside one k-WL / k-FWL comparison.
void add_threads_per_pair_flag(CLI::App* sub, int& threads, const std::string& help);
/// The GIN classifier's flags of `brec classify` (--device, --epochs, --batch, --lr, --lr-halving,
/// --dropout, --validation, --warmup, --gin-layers, --gin-hidden), defaults from `gin`.
void add_gin_classifier_flags(CLI::App* sub, GinClassifierOptions& gin);
/// --fine: the 7 fine BREC categories under the 4 groups.
void add_fine_flag(CLI::App* sub, bool& fine);

/// A subcommand of `root` with a one-line summary (listed by `brec --help`) and its long
/// description, shown under its own options by `brec NAME --help`.
CLI::App* add_command(CLI::App& root, const std::string& name, const std::string& summary, const std::string& details);
/// Gives an existing subcommand the one-line summary `summary`; its former description (the long
/// text) moves to the foot of its own help.
void set_summary(CLI::App& root, const std::string& name, const std::string& summary);

/// CLI11 check: a whole number >= min, with a plain message ("must be a whole number >= 1, got
/// '-1'"); CLI::PositiveNumber would print a range up to 1.8e308.
CLI::Validator whole_number_at_least(long long min);
/// CLI11 check by a parsing function: the value is accepted unless `check` throws a brec Error,
/// whose message CLI11 then prints. `name` is the value's name in --help (e.g. SIZE).
CLI::Validator checked_by(std::function<void(const std::string&)> check, const std::string& name);
/// CLI11 check: a memory size such as 24G, 512M or 1.5GiB (core/bytes.hpp's parse_byte_size).
CLI::Validator byte_size();

/// The shipped BREC pair file: $BREC_DATASET, else the copy in the source tree, else next to the binary.
std::string default_dataset_path();

/// The directory of the running executable ("" if unknown).
std::string executable_dir();

/// Reads the dataset named by the flags and applies the selection.
struct SelectedPairs {
    PairDataset dataset;
    std::vector<std::size_t> indices;
};
SelectedPairs load_selected_pairs(const PairArgs& args);
/// The library's selection from the flags.
PairSelection selection_of(const PairArgs& args);

/// Installs the stderr progress reporter (a live bar with ETA on a terminal, periodic plain lines
/// otherwise; nothing with quiet) and the stderr logger.
void configure_context(const GlobalArgs& global, RunContext& ctx);
/// --quiet: no progress and no info lines (warnings and errors still go to stderr).
void set_quiet(RunContext& ctx, bool quiet);

/// Prints a JSON value as one line on stdout.
void print_json_line(const nlohmann::json& j);

/// The library's results-file error in terms of the flags (--out, --resume).
std::string flag_message(const ResultsFileError& e);

/// Turns SIGINT and SIGTERM into RunContext::cancel() while it lives. A handler only writes the
/// signal number to a pipe; a helper thread reads it and cancels the context, so the library sees
/// nothing but its RunContext. (A handler rather than sigwait in a thread that alone unblocks the
/// signals: LibTorch's libraries start threads before main() that would receive them.) A second
/// signal ends the process at once with 128 + signal. Signals ignored when the process started
/// (e.g. SIGINT of a background job of a script) stay ignored. One watcher at a time.
class InterruptWatcher {
public:
    explicit InterruptWatcher(RunContext& ctx);
    ~InterruptWatcher();
    InterruptWatcher(const InterruptWatcher&) = delete;
    InterruptWatcher& operator=(const InterruptWatcher&) = delete;

    /// The signal that cancelled the context, 0 if none.
    int signal() const { return signal_.load(); }

private:
    void wait(RunContext& ctx);

    int pipe_[2] = {-1, -1};
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
    std::atomic<int> signal_{0};
    std::thread thread_;
};

}  // namespace brec::cli
