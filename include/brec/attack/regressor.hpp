#pragma once
// Counting regressors: a registered model (GIN, PPGN, ...) with a regression head trained to
// predict the count of one pattern, as in the counting experiments of Campi et al.: constant node
// input, Adam, the learning rate halved when the validation loss stops improving
// (ReduceLROnPlateau), early stopping on the validation loss, and the weights of the best
// validation epoch kept. Losses: L1 = mean |y^ - y|, or lc = mean(|y^ - y| / (y + 1)).
//
// A trained regressor is two files in a model directory: NAME.pt (the parameters and buffers,
// LibTorch serialization) and NAME.json (model, pattern, seed, architecture, training settings,
// validation and test errors), NAME = MODEL_PATTERN_seedK.
//
// @inproceedings{campi2023robustness, title={Expressivity of Graph Neural Networks Through the
//   Lens of Adversarial Robustness}, author={Campi, Francesco and Gosch, Lukas and Wollschl{\"a}ger,
//   Tom and Scholten, Yan and G{\"u}nnemann, Stephan}, booktitle={ICML Workshop on New Frontiers in
//   Adversarial Machine Learning}, year={2023}}

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/count/patterns.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/counting_data.hpp"  // CountingData, read_counting_data
#include "brec/nn/model.hpp"

namespace brec {

/// Whether `model` can be trained as a counting regressor (its registry entry says so: gin, ppgn and
/// i2_gnn, the models of Campi et al.'s counting experiments).
bool is_counting_model(const std::string& model);
/// The counting regressors in registry order, as text: "gin, ppgn or i2_gnn".
std::string counting_model_list();
/// Throws InvalidArgument("--model M: counting regressors are gin, ppgn or i2_gnn") unless
/// is_counting_model(model).
void check_counting_model(const std::string& model);

/// The training loss of a regressor.
enum class RegressionLoss { l1, lc };
const char* regression_loss_name(RegressionLoss loss);
RegressionLoss parse_regression_loss(const std::string& name);  ///< InvalidArgument when unknown
/// The loss a model trains with by default (its registry entry: lc for PPGN, L1 otherwise).
RegressionLoss default_regression_loss(const std::string& model);

/// The settings of one regressor.
struct RegressorSettings {
    std::string model = "gin";
    Pattern pattern = Pattern::triangle;
    std::uint64_t seed = 0;
    int layers = 4;
    int hidden = 32;
    RegressionLoss loss = RegressionLoss::l1;
    double lr = 1e-3;
    int batch = 32;
    int epochs = 500;        ///< at most
    int patience = 20;       ///< early stop after this many epochs without a better validation loss
    double lr_factor = 0.5;  ///< ReduceLROnPlateau: lr *= factor ...
    int lr_patience = 10;    ///< ... after this many epochs without improvement
    double min_lr = 1e-5;
    /// Stop after the first epoch that ends this many seconds after training began (0 = no limit);
    /// the best-validation weights so far are kept, as at an early stop. For time-boxed runs.
    double max_seconds = 0.0;
    /// Graphs of each split used (0 = all): for short runs on a subset.
    std::size_t max_train = 0, max_validation = 0, max_test = 0;

    /// The architecture (Head::regression; for i2_gnn the subgraph radius is the pattern's diameter).
    ModelConfig config() const;
    /// MODEL_PATTERN_seedK (the file name stem).
    std::string name() const;
};

/// A regressor with its settings and errors. `model` is in eval mode, on the device it was trained
/// on or loaded to.
struct Regressor {
    RegressorSettings settings;
    std::shared_ptr<GraphEmbedder> model;
    int epochs_run = 0;
    int best_epoch = 0;
    bool time_limited = false;     ///< training stopped at settings.max_seconds, not by patience or epochs
    double validation_loss = 0.0;  ///< of the best epoch, in the training loss
    double validation_l1 = 0.0;
    double test_l1 = 0.0;
    double test_lc = 0.0;
    double seconds = 0.0;
    std::string init_from;   ///< RegressorStart::from_name of its training, empty when trained from scratch
    bool head_only = false;  ///< only the regression head was trained (from init_from)
};

/// Whether a parameter or submodule, named as named_parameters() / named_children() name it, is
/// part of the model's regression head (GraphEmbedder::regression_head: final_mlp of gin and
/// ppgn, fc1-fc3 of i2_gnn).
bool is_regression_head(const GraphEmbedder& model, const std::string& name);

/// Where a training run starts. Default: fresh weights, every parameter trained.
struct RegressorStart {
    /// Start from this regressor's parameters and buffers (same model, pattern, layers and hidden
    /// width) instead of fresh weights; nullptr: fresh weights.
    const Regressor* from = nullptr;
    std::string from_name;  ///< recorded in the JSON (e.g. the path of `from`)
    /// Train only the regression head (needs `from`): every other parameter stays as loaded, and the
    /// modules outside the head run in eval mode, so no state of theirs changes either.
    bool head_only = false;
};

/// Trains one regressor on `device`. Every random draw (initial weights, batch order) comes from
/// generators seeded from settings.seed, and the initial weights are drawn on the CPU, so a seed
/// gives the same model every time and the same initial weights on every device. Logs one line per
/// epoch at debug level. Throws InvalidArgument for bad settings, empty splits or a `start` model of
/// another architecture, Cancelled.
Regressor train_regressor(const CountingData& data, const RegressorSettings& settings, RunContext& ctx,
                          const RegressorStart& start = {}, torch::Device device = torch::kCPU);

/// Errors of a regressor on graphs `ids` of a counting dataset.
struct RegressorError {
    std::size_t graphs = 0;
    double l1 = 0.0;          ///< mean |y^ - y|
    double lc = 0.0;          ///< mean |y^ - y| / (y + 1)
    double mean_count = 0.0;  ///< mean y
};
RegressorError evaluate_regressor(GraphEmbedder& model, const CountingData& data, const std::vector<std::size_t>& ids,
                                  Pattern pattern);

/// Predictions of a regressor for a list of graphs (batches of `batch` graphs, no gradients), on the
/// device that holds the model's parameters.
std::vector<double> predict_counts(GraphEmbedder& model, const std::vector<Graph>& graphs, std::size_t batch = 256);

/// The settings and errors of a regressor as JSON (what NAME.json holds).
nlohmann::ordered_json regressor_json(const Regressor& r);
/// Writes DIR/NAME.pt and DIR/NAME.json (DIR created if missing; each file written under a
/// temporary name first). Throws IoError.
void save_regressor(const Regressor& r, const std::string& dir);
/// Path of NAME.json of a regressor in DIR.
std::string regressor_path(const std::string& dir, const RegressorSettings& settings);
/// Throws InvalidArgument when the model file `json_path` was trained with other architecture or
/// training settings than `settings` (model, layers, hidden width, loss, lr, batch, epochs,
/// patience, lr patience), naming the first that differs, or when it was stopped by a time limit
/// other than settings.max_seconds; ParseError when it is no JSON object.
void check_regressor_file(const std::string& json_path, const RegressorSettings& settings);
/// Loads a regressor from its NAME.json (and the NAME.pt next to it, whichever device wrote it) onto
/// `device`. Throws IoError / ParseError.
Regressor load_regressor(const std::string& json_path, torch::Device device = torch::kCPU);

/// Test L1 of the counting regressors in Table 3 of Campi et al. (SBM), or a negative value when
/// the paper gives none.
double paper_test_l1(const std::string& model, Pattern pattern);

/// Regressors for several patterns and seeds into one directory (`brec attack train`).
struct RegressorTrainRequest {
    std::string data;            ///< counting dataset directory
    std::string out;             ///< model directory
    RegressorSettings settings;  ///< pattern and seed are set per model
    std::vector<Pattern> patterns;
    std::vector<std::uint64_t> seeds;
    bool resume = false;          ///< load (model, pattern, seed) whose files exist instead of failing
    std::string device = "auto";  ///< auto, cpu, cuda or cuda:N (parse_device)
};

/// One model of a train_regressors run: trained now, or loaded because resume found its files.
struct TrainedRegressor {
    RegressorSettings settings;
    int epochs_run = 0;
    double validation_loss = 0.0, test_l1 = 0.0, test_lc = 0.0;
    bool loaded = false;  ///< its files existed (resume): nothing was trained
};

/// Trains (or, when resuming, loads) every (pattern, seed) model of `request` into request.out,
/// checking before any training that no model file would be overwritten and that a kept one was
/// trained as asked; calls `on_done` as soon as each model is done, and returns them all in order.
std::vector<TrainedRegressor> train_regressors(const RegressorTrainRequest& request, RunContext& ctx,
                                               const std::function<void(const TrainedRegressor&)>& on_done = {});

/// The table of `brec attack train`: its header line, and the line of one model (with Table 3's
/// test L1 of Campi et al. where the paper gives one).
std::string regressor_table_header();
std::string regressor_table_row(const TrainedRegressor& r);

}  // namespace brec
