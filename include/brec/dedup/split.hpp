#pragma once
// Train/test splits against isomorphism orbits (Ivanov et al. 2019, section 5): Y_iso = test graphs
// that have an isomorphic graph in the training set, Y_new = the other test graphs. Given model
// predictions: accuracy on Y_test, Y_iso and Y_new, and the "peering" upper bound (a test graph in
// Y_iso takes the majority target label of its isomorphic training graphs; Y_new keeps the model's
// prediction).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "brec/dedup/orbits.hpp"

namespace brec {

struct Fold {
    std::string name;                ///< "fold 1", ... or "split"
    std::vector<std::size_t> train;  ///< sorted graph indices (0-based)
    std::vector<std::size_t> test;   ///< sorted graph indices (0-based)
};

/// Reads a split file for a dataset of `n_graphs` graphs. Formats (auto-detected; '#' comments
/// and blank lines ignored; indices 0-based unless `one_based`):
///  * JSON: a list of folds {"train": [...], "test": [...]} (optionally "model_selection":
///    [{"train": [...], "validation": [...]}], whose union is the training set), or one such object;
///  * role lines "INDEX train" / "INDEX test" (one graph per line; unlisted graphs are unused);
///  * one index per line: the test set of a single split; every other graph is training data;
///  * several indices per line: one fold per line listing its test graphs (k-fold file); the
///    training set of a fold is every graph not in its line.
/// Throws ParseError (file, line, what was expected) on bad tokens, indices out of range, an index
/// repeated within a fold or in both train and test; IoError when unreadable.
std::vector<Fold> read_split_file(const std::string& path, std::size_t n_graphs, bool one_based = false);

/// Model predictions: either one table for all folds (each graph is predicted when it is in the
/// test set) or one table per fold.
struct Predictions {
    bool per_fold = false;  ///< false: by_fold[0] serves every fold
    std::vector<std::map<std::size_t, Label>> by_fold;
    std::optional<Label> get(std::size_t fold, std::size_t graph) const;
};

/// Reads predictions (indices 0-based unless `one_based`, folds numbered like the split's lines
/// from 0, or from 1 when `one_based`):
///  * one label per line: line i predicts graph i (N lines);
///  * "INDEX LABEL" per line (any subset of graphs);
///  * "FOLD INDEX LABEL" per line (per-fold predictions).
Predictions read_predictions(const std::string& path, std::size_t n_graphs, bool one_based = false);

struct FoldReport {
    std::string name;
    std::size_t train = 0, test = 0;
    std::size_t y_iso = 0;  ///< test graphs with an isomorphic training graph
    std::size_t y_new = 0;  ///< test graphs without one
    /// Test graphs in Y_iso whose label differs from the majority label of their isomorphic
    /// training graphs (no model can be right on both; needs labels).
    std::size_t y_iso_label_conflicts = 0;
    bool has_accuracy = false;
    double acc_test = 0, acc_iso = 0, acc_new = 0;  ///< fractions in [0,1]; NaN for empty sets
    double acc_peering = 0;                         ///< the peering upper bound over Y_test
};

/// The training labels of every orbit: counts[o][y] = training graphs of orbit o with label y
/// (empty for an orbit without training graphs). `labels` must cover every graph of the fold;
/// InvalidArgument for an index out of range.
std::vector<std::map<Label, std::size_t>> orbit_train_labels(const Orbits& orbits, const std::vector<Label>& labels,
                                                             const Fold& fold);

/// The label peering gives a test graph whose orbit has the training labels `counts` (not empty):
/// their majority; a tie goes to `prediction` when it is among the tied labels, else to the
/// smallest tied label (Ivanov et al. 2019's "peering" with the model's prediction breaking ties).
Label peer_label(const std::map<Label, std::size_t>& counts, std::optional<Label> prediction);

/// Analyses one fold. `labels` may be empty (then only sizes); with `predictions` (and labels)
/// the accuracies are filled. Throws InvalidArgument when a test graph has no prediction.
/// Complexity: O(N + |test| · orbit size).
FoldReport analyse_fold(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                        std::size_t fold_index, const Predictions* predictions);

}  // namespace brec
