#pragma once
// Flags shared by several subcommands (defined once) and small CLI helpers.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/io/pairs.hpp"

namespace brec::cli {

/// Flags of the root command.
struct GlobalArgs {
    std::string log_level = "info";
    int verbose = 0;
};
void add_global_flags(CLI::App& app, GlobalArgs& args);

/// The selection flags of every pair command (SPEC section 9).
struct PairArgs {
    std::string dataset;                  ///< empty = shipped BREC file
    std::vector<std::string> categories;  ///< --category a,b
    std::string pairs;                    ///< --pairs 0-59,260
    std::string shard;                    ///< --shard i/N (only where offered)
    int jobs = 1;
    bool json = false;
    bool quiet = false;
};
/// Adds --dataset, --category, --pairs, --jobs, --json, --quiet (and --shard when with_shard).
void add_pair_flags(CLI::App* sub, PairArgs& args, bool with_shard = false);

/// CLI11 check: a whole number >= min, with a plain message ("must be a whole number >= 1, got
/// '-1'"); CLI::PositiveNumber would print a range up to 1.8e308.
CLI::Validator whole_number_at_least(long long min);

/// The shipped BREC pair file: $BREC_DATASET, else the copy in the source tree, else next to the binary.
std::string default_dataset_path();
/// Whether a command line runs `eval` (its first word after the global flags).
bool runs_eval(int argc, char** argv);

/// The directory of the running executable ("" if unknown).
std::string executable_dir();

/// Reads the dataset named by the flags and applies the selection.
struct SelectedPairs {
    PairDataset dataset;
    std::vector<std::size_t> indices;
};
SelectedPairs load_selected_pairs(const PairArgs& args);

/// Installs the stderr progress reporter (a live bar with ETA on a terminal, periodic plain lines
/// otherwise; nothing with quiet) and the stderr logger.
void configure_context(const GlobalArgs& global, RunContext& ctx);
/// --quiet: no progress and no info lines (warnings and errors still go to stderr).
void set_quiet(RunContext& ctx, bool quiet);

/// Prints a JSON value as one line on stdout.
void print_json_line(const nlohmann::json& j);

/// A simple aligned text table for stdout.
class TextTable {
public:
    explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
    void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void add_rule() { rows_.push_back({}); }
    std::string str() const;

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

std::string format_seconds(double s);

}  // namespace brec::cli
