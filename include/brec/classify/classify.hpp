#pragma once
// Graph classification with isomorphism-bias accounting (Ivanov, Sviridov, Burnaev 2019): stratified
// k-fold cross-validation of a graph classifier where every fold's test set Y_test splits into
// Y_iso (test graphs isomorphic to a training graph, from the dedup module's orbits) and Y_new
// (the rest), with accuracy on all three; the "peering" variants that copy training labels onto
// Y_iso; and the same on the cleaned dataset (one graph per orbit with agreeing target labels).
// Models: the WL subtree kernel and the vertex-histogram kernel with a C-SVM (libsvm) on the
// precomputed, cosine-normalised kernel, here; any other classifier (the GIN of the classify_torch
// module, which needs LibTorch) plugs into the same cross-validation through FoldClassifier.
//
// @article{ivanov2019understanding, title={Understanding Isomorphism Bias in Graph Data Sets},
//   author={Ivanov, Sergei and Sviridov, Sergei and Burnaev, Evgeny},
//   journal={arXiv preprint arXiv:1910.12091}, year={2019}}
// @article{chang2011libsvm, title={LIBSVM: A library for support vector machines},
//   author={Chang, Chih-Chung and Lin, Chih-Jen}, journal={ACM TIST}, volume={2}, year={2011}}

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/dedup/split.hpp"

namespace brec {

// ---------------------------------------------------------------------------------------------
// Folds

/// Stratified k-fold split: the graphs of each class are shuffled (with `rng`) and dealt round
/// robin over the folds, continuing where the previous class stopped, so fold sizes differ by at
/// most one and each class is spread as evenly as possible. Train = all graphs not in the fold.
/// Throws InvalidArgument when k < 2 or k > the number of graphs.
/// Complexity: O(N log N).
std::vector<Fold> stratified_folds(const std::vector<Label>& labels, std::size_t k, Rng& rng);

/// The folds as JSON [{"train":[...],"test":[...]}, ...] (0-based indices), the format that
/// read_split_file (dedup module) reads back.
nlohmann::json folds_to_json(const std::vector<Fold>& folds);

// ---------------------------------------------------------------------------------------------
// Kernels and the SVM

/// A dense symmetric N x N kernel matrix (row-major).
struct KernelMatrix {
    std::size_t n = 0;
    std::vector<double> values;
    double operator()(std::size_t i, std::size_t j) const { return values[i * n + j]; }
};

/// Gram matrix of sparse feature rows, cosine-normalised (K_ij / sqrt(K_ii K_jj); a zero row
/// gives 0 off the diagonal and 1 on it). Complexity: O(N^2 · row length).
KernelMatrix normalised_gram(const std::vector<std::vector<std::pair<std::uint64_t, double>>>& rows, int threads = 1);

/// Kernel of a model: "wl" (WL subtree, `wl_rounds` rounds) or "vh" (vertex histogram) on node
/// labels as initial colours (when the graphs carry them). Throws InvalidArgument otherwise.
KernelMatrix graph_kernel(const std::vector<Graph>& graphs, const std::string& model, int wl_rounds, int threads = 1);

/// C-SVC (libsvm, precomputed kernel) trained on `train`, predicting `test`; C is chosen from
/// `c_grid` by stratified `inner_folds`-fold validation on the training graphs (highest mean
/// validation accuracy; ties go to the smaller C). The inner folds come from `rng`.
struct SvmFit {
    std::vector<Label> predictions;  ///< one per test graph, in the order of `test`
    double c = 0;                    ///< the chosen C
};
SvmFit svm_fit_predict(const KernelMatrix& kernel, const std::vector<Label>& labels,
                       const std::vector<std::size_t>& train, const std::vector<std::size_t>& test,
                       const std::vector<double>& c_grid, std::size_t inner_folds, Rng& rng);

// ---------------------------------------------------------------------------------------------
// Y_iso / Y_new and peering

/// Correct predictions and sizes on one fold.
struct AccuracyCounts {
    std::size_t test = 0, iso = 0, fresh = 0;                  ///< |Y_test|, |Y_iso|, |Y_new|
    std::size_t right_test = 0, right_iso = 0, right_new = 0;  ///< correct predictions
    double acc_test() const;                                   ///< fractions; NaN for an empty set
    double acc_iso() const;
    double acc_new() const;
};

/// How predictions on Y_iso are replaced from the training graphs of the same orbit.
enum class Peering {
    none,         ///< the model's predictions
    homogeneous,  ///< -PH: a Y_iso graph whose isomorphic training graphs all carry one label gets it
    majority,     ///< -P: every Y_iso graph gets the majority label of its isomorphic training
                  ///< graphs (ties: the model's prediction if among them, else the smallest label)
};
std::string peering_suffix(Peering p);  ///< "", "-PH", "-P"

/// Applies peering to the predictions of one fold (`predictions[k]` belongs to `fold.test[k]`).
std::vector<Label> apply_peering(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                                 const std::vector<Label>& predictions, Peering peering);

/// Splits the fold's test set into Y_iso and Y_new with `orbits` and counts correct predictions.
AccuracyCounts count_accuracy(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                              const std::vector<Label>& predictions);

// ---------------------------------------------------------------------------------------------
// A classifier trained on each fold

/// What a classifier gives for one fold.
struct FoldFit {
    std::vector<Label> predictions;                     ///< one per test graph, in the order of fold.test
    double c = 0;                                       ///< the SVM's chosen C (0 for other models)
    nlohmann::json details = nlohmann::json::object();  ///< model facts, e.g. GIN's chosen epoch
};

/// A classifier prepared once for one version of a dataset (kernel matrix, node features) and
/// trained afresh on every fold. fit_predict runs on several threads at once and draws every random
/// number from `stream` (the stream of (seed, fold)), so results never depend on --jobs.
class FoldClassifier {
public:
    virtual ~FoldClassifier() = default;
    /// Trains on fold.train and predicts fold.test (indices into the graphs it was prepared for).
    virtual FoldFit fit_predict(const Fold& fold, std::uint64_t stream, RunContext& ctx) const = 0;
};

/// How run_classify gets a model: its name in the records, the text of the options that change a
/// fold's result (part of the --resume key), and the function preparing it for a dataset version.
struct ClassifierMaker {
    std::string model;
    std::string settings;
    std::function<std::unique_ptr<FoldClassifier>(const std::vector<Graph>& graphs, const std::vector<Label>& labels,
                                                  RunContext& ctx)>
        prepare;
};

/// The GIN classifier's settings (Ivanov et al.'s protocol by default: Xu et al.'s GIN with 4
/// layers of width 64, sum aggregation with the node itself (ε = 0), sum readout of every layer
/// into a class score with dropout 0.5, Adam lr 0.01 halved every 50 epochs, batches of 32, 350
/// epochs, 20 % of the training fold held out for validation, the epoch with the best validation
/// accuracy from epoch 50 on chosen). Used by the classify_torch module, which needs LibTorch.
struct GinClassifierOptions {
    int layers = 4;
    int hidden = 64;
    int epochs = 350;
    int batch = 32;
    double lr = 0.01;
    int lr_halving = 50;  ///< the learning rate halves at epochs lr_halving, 2 lr_halving, ... (0 = never)
    double dropout = 0.5;
    double validation = 0.2;      ///< share of the training fold held out to choose the epoch
    int warmup = 50;              ///< the first epoch (1-based) that may be chosen
    std::string device = "auto";  ///< auto = CUDA when available, else the CPU
};

// ---------------------------------------------------------------------------------------------
// A whole run

struct ClassifyOptions {
    std::string path;          ///< TU directory
    std::string tu_name;       ///< dataset name when the directory holds several
    bool node_labels = false;  ///< orbits under label-preserving isomorphism (as brec dedup)
    bool edge_labels = false;  ///< orbits preserving node and edge labels
    std::string model = "wl";  ///< wl or vh (gin: run_classify_torch of the classify_torch module)
    int wl_rounds = 5;         ///< h of the WL subtree kernel
    GinClassifierOptions gin;  ///< the GIN's settings (model gin only)
    std::size_t folds = 10;
    std::vector<std::uint64_t> seeds{0};
    std::vector<Peering> peering;  ///< extra variants besides Peering::none
    bool original = true;          ///< run on the dataset as read
    bool clean = true;             ///< run on its cleaned version
    std::vector<double> c_grid{0.001, 0.01, 0.1, 1, 10};
    std::size_t inner_folds = 3;
    std::string out;        ///< JSONL, one record per (dataset, model, seed, fold); "" = none
    bool resume = false;    ///< keep the records of `out` that match and run only the rest
    std::string folds_dir;  ///< write the folds of every (variant, seed) as JSON here; "" = no
};

/// One fold of one seed on one version of the dataset.
struct FoldRecord {
    std::string dataset;   ///< e.g. "MUTAG" or "MUTAG-clean"
    std::string variant;   ///< "original" or "clean"
    std::string model;     ///< "wl", "vh" or "gin"
    std::string mode;      ///< orbit mode: topology, node-labels, edge-labels
    std::string settings;  ///< what else the result depends on, e.g. "h=5;C=0.001,...;inner=3"
    std::size_t folds = 0;
    std::uint64_t seed = 0;
    std::size_t fold = 0;
    double c = 0;                                   ///< the SVM's C ("C" in JSON, kernels only)
    nlohmann::json fit = nlohmann::json::object();  ///< FoldFit::details ("fit" in JSON when not empty)
    AccuracyCounts plain;
    AccuracyCounts ph, p;  ///< peering variants (computed always; cheap)
    double seconds = 0;
    bool resumed = false;  ///< read back from `out`, not recomputed
};
nlohmann::json to_json(const FoldRecord& r);
/// Throws ParseError(source, line) on missing or mistyped fields.
FoldRecord fold_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line);

struct ClassifyResult {
    std::string name;  ///< dataset name
    std::string model;
    std::string mode;
    std::size_t graphs = 0, clean_graphs = 0;
    std::vector<Peering> peering;
    std::vector<FoldRecord> records;  ///< sorted by variant, seed, fold
    double seconds = 0;
};

/// Reads the dataset, finds its orbits (dedup module), prepares `maker`'s classifier on the original
/// and the cleaned dataset, and runs every (variant, seed, fold) on ctx.threads() threads; each
/// finished fold is appended to `opt.out` at once (so a killed run can --resume) and the file is
/// rewritten sorted at the end. Results never depend on the thread count: the folds of seed s come
/// from Rng(stream_seed(s, 0)) and everything random inside fold f from stream_seed(s, 1 + f).
/// @throws InvalidArgument for bad options or a dataset without target labels; ParseError / IoError
///         from the readers (before anything is written); Cancelled when `ctx` is cancelled.
ClassifyResult run_classify(const ClassifyOptions& opt, const ClassifierMaker& maker, RunContext& ctx);

/// The kernel models: `opt.model` wl or vh (InvalidArgument otherwise, naming the classify_torch
/// module for gin), a C-SVM on the kernel; C from opt.c_grid by opt.inner_folds-fold validation.
ClassifierMaker kernel_classifier(const ClassifyOptions& opt);

/// run_classify with kernel_classifier(opt).
ClassifyResult run_classify(const ClassifyOptions& opt, RunContext& ctx);

/// Rows `task,model,seed,value` for `brec report`: tasks DATASET/acc_test, DATASET/acc_iso,
/// DATASET/acc_new (pooled over the folds of a seed; acc_iso omitted when Y_iso is empty) for
/// every variant (DATASET-clean for the cleaned one), models "wl", "wl-PH", "wl-P".
std::string classify_rows_csv(const ClassifyResult& result);
/// A plain-text table: per dataset version and model, mean ± sd over seeds of the accuracies and
/// the mean |Y_iso|, |Y_new| per fold.
std::string classify_table(const ClassifyResult& result);
/// A short Markdown summary, stating how much Y_iso inflates acc(Y_test) over acc(Y_new).
std::string classify_markdown(const ClassifyResult& result);

}  // namespace brec
