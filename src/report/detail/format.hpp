#pragma once
// Number formatting shared by the report's documents and figures (private to the report module).

#include <string>

#include "brec/report/analysis.hpp"

namespace brec::detail {

/// x with `digits` decimals; "inf", "-inf", "nan" for non-finite values; never "-0.00".
std::string fixed(double x, int digits);

/// A p-value: "0", four decimals down to 1e-4, else one significant digit in e-notation.
std::string pvalue(double p);

/// The confidence level of α in percent: "95", or "97.5" when not whole.
std::string percent_label(double alpha);

/// Decimals for the values of a task: enough for three significant digits of its smallest
/// non-zero |mean| (at least 2, at most 6).
int task_digits(const ReportAnalysis& a, const std::string& task);

/// Seeds per cell: the common S, or -1 when cells differ.
int common_seeds(const ReportAnalysis& a);

/// Whether some cell has a single seed (and so no interval).
bool single_seed_cells(const ReportAnalysis& a);

/// The Nemenyi cliques of `r` as "{a, b}; {c}": model names through `escape`, each clique between
/// `open` and `close`; a sentence saying so when there are none.
std::string clique_text(const RankAnalysis& r, std::string (*escape)(const std::string&), const std::string& open,
                        const std::string& close);

}  // namespace brec::detail
