#pragma once
// The summary object every pair command prints (`wl`, `certify`, `eval`): per fine category, per group
// (Basic, Regular, Extension, CFI) and in total, the pairs run, the pairs distinguished and the
// reliability failures.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/types.hpp"

namespace brec {

/// What one pair command concluded for one pair.
struct PairOutcome {
    PairId id = 0;
    std::string category;
    bool distinguished = false;
    bool reliability_failure = false;
};

struct SummaryHeader {
    std::string command;  ///< "wl", "certify", "eval"
    std::string method;   ///< method or model name
    std::string dataset;
    std::uint64_t seed = 0;
    double seconds = 0.0;
};

/// Builds {"command","method","dataset","seed","categories","groups","total","seconds"}.
/// Categories present in the outcomes are listed (fine BREC categories in official order first);
/// groups are always all four.
nlohmann::json make_summary(const SummaryHeader& header, const std::vector<PairOutcome>& outcomes);

/// Renders the per-group table (and per fine category with `fine`) as aligned text.
std::string summary_table(const nlohmann::json& summary, bool fine);

}  // namespace brec
