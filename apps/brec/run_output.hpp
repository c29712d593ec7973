#pragma once
// The outputs of a run of RPC decisions, shared by `brec eval` and `brec rpc`: the summary file,
// JUnit XML, the records and summary on stdout (or the table), and the --baseline check.

#include <string>

#include <nlohmann/json.hpp>

#include "brec/rpc/run_summary.hpp"

namespace brec::cli {

struct RunOutputArgs {
    std::string summary_file;  ///< write the summary JSON here ("" = none)
    std::string junit;         ///< JUnit XML file ("" = none)
    std::string suite;         ///< JUnit suite name
    std::string model;         ///< for the table's title
    std::size_t pairs = 0;     ///< pairs per seed, for the table's title
    bool json = false;         ///< records and summary as JSON lines instead of the table
    bool fine = false;         ///< the table per fine category
    Protocol protocol = Protocol::hotelling;
    std::string baseline;          ///< the --baseline file ("" = none)
    nlohmann::json baseline_json;  ///< its content (read_baseline)
};

/// Writes the files, prints the result and compares with the baseline: returns the exit code
/// (0, or 3 when a category got worse than in the baseline; the regressions go to stderr).
int write_run_outputs(const EvalRunResult& result, const RunOutputArgs& args);

}  // namespace brec::cli
