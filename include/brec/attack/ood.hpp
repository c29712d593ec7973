#pragma once
// The out-of-distribution experiment of Campi et al. on counting regressors: models trained on one
// counting dataset (ER(10, 0.4)) are tested on its test split and on the test split of another
// (ER(10, 0.8)); then, on the other dataset, models are trained from scratch, and the trained models
// get only their regression head retrained (every other parameter kept as trained, the head
// continuing from its trained weights with the same optimizer, scheduler and early stopping as a
// full training). Errors: l1 = mean |y^ - y| and lc = mean(|y^ - y| / (y + 1)).
//
// Settings (one row each per model, pattern and seed):
//   in_dist      trained on --in, tested on the test split of --in
//   ood          trained on --in, tested on the test split of --ood (no retraining)
//   ood_scratch  trained from scratch on --ood, tested on --ood
//   ood_head     trained on --in, head retrained on --ood, tested on --ood
//
// @inproceedings{campi2023robustness, title={Expressivity of Graph Neural Networks Through the
//   Lens of Adversarial Robustness}, author={Campi, Francesco and Gosch, Lukas and Wollschl{\"a}ger,
//   Tom and Scholten, Yan and G{\"u}nnemann, Stephan}, booktitle={ICML Workshop on New Frontiers in
//   Adversarial Machine Learning}, year={2023}}

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/attack/regressor.hpp"
#include "brec/core/run_context.hpp"
#include "brec/io/records.hpp"

namespace brec {

/// The four settings, in the order of the table.
const std::vector<std::string>& ood_settings();

struct OodRequest {
    std::string in;   ///< counting dataset the models are trained on first (ER p = 0.4)
    std::string ood;  ///< the out-of-distribution counting dataset (ER p = 0.8)
    /// Output directory: in/, scratch/ and head/ (model files MODEL_PATTERN_seedK.{pt,json}),
    /// ood.jsonl (one row per model, pattern, seed and setting) and ood.csv (brec report rows).
    std::string out;
    /// Where the models trained on `in` are: empty = OUT/in (trained there when missing); else a
    /// directory of `brec attack train` that must hold every (pattern, seed).
    std::string in_models;
    RegressorSettings settings;  ///< model and training settings; pattern and seed set per row
    std::vector<Pattern> patterns;
    std::vector<std::uint64_t> seeds;
    bool resume = false;          ///< keep the rows of ood.jsonl and load the model files already there
    std::string device = "auto";  ///< where models train and run: auto, cpu, cuda or cuda:N
};

struct OodResult {
    std::vector<OodRecord> rows;  ///< every row of OUT/ood.jsonl (resumed ones included)
    /// CSV rows for brec report (tasks PATTERN/SETTING_l1 and PATTERN/SETTING_lc): OUT/ood.csv.
    std::string report_rows;
    std::size_t resumed = 0;  ///< rows kept from an earlier run
    double seconds = 0.0;
};

/// Runs the whole experiment: checks the request and both datasets before writing anything (no
/// output when a file would be overwritten without resume), then per pattern and seed trains or
/// loads the models it needs and appends each row to OUT/ood.jsonl as soon as it is measured.
/// Returns the rows and report rows (`brec attack ood` writes OUT/ood.csv). Throws
/// InvalidArgument, IoError, ParseError, Cancelled.
OodResult run_ood(const OodRequest& request, RunContext& ctx);

/// What `brec attack ood` prints: the table of mean +- sd over seeds per pattern and setting, and
/// the files written.
std::string ood_run_text(const OodResult& result, const OodRequest& request);

/// The table run_ood prints, from its rows.
std::string ood_table(const std::vector<OodRecord>& rows);

}  // namespace brec
