// Counting regressors: their settings and names, training and prediction (fine_tune.cpp: where
// training starts; regressor_files.cpp: the model files; train.cpp: many regressors at once).
#include "brec/attack/regressor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"
#include "brec/nn/training.hpp"
#include "brec/stats/tests.hpp"
#include "detail/fine_tune.hpp"

namespace brec {
namespace {

/// Mean of |ŷ − y| (lc: divided by y + 1) over the graphs.
double mean_error(const std::vector<double>& pred, const std::vector<double>& y, RegressionLoss loss) {
    double s = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const double e = std::abs(pred[i] - y[i]);
        s += loss == RegressionLoss::lc ? e / (y[i] + 1.0) : e;
    }
    return y.empty() ? 0.0 : s / static_cast<double>(y.size());
}

std::vector<Graph> pick(const std::vector<Graph>& graphs, const std::vector<std::size_t>& ids) {
    std::vector<Graph> out;
    out.reserve(ids.size());
    for (auto i : ids) out.push_back(graphs[i]);
    return out;
}

std::vector<double> targets(const CountingData& d, const std::vector<std::size_t>& ids, Pattern p) {
    std::vector<double> y;
    y.reserve(ids.size());
    for (auto i : ids) y.push_back(static_cast<double>(d.counts[i][static_cast<std::size_t>(p)]));
    return y;
}

std::vector<std::size_t> head(std::vector<std::size_t> ids, std::size_t limit) {
    if (limit > 0 && ids.size() > limit) ids.resize(limit);
    return ids;
}

}  // namespace

const char* regression_loss_name(RegressionLoss loss) { return loss == RegressionLoss::l1 ? "l1" : "lc"; }

RegressionLoss parse_regression_loss(const std::string& name) {
    if (name == "l1") return RegressionLoss::l1;
    if (name == "lc") return RegressionLoss::lc;
    throw InvalidArgument("--loss '" + name + "': unknown loss (use l1 or lc)");
}

namespace {

/// The counting facts of a built-in model; nullptr for any other name.
const CountingSpec* counting_spec(const std::string& model) {
    for (const auto& e : model_registry())
        if (e.spec.name == model && e.spec.counting.regressor) return &e.spec.counting;
    return nullptr;
}

}  // namespace

RegressionLoss default_regression_loss(const std::string& model) {
    const CountingSpec* c = counting_spec(model);
    return c ? parse_regression_loss(c->default_loss) : RegressionLoss::l1;
}

bool is_counting_model(const std::string& model) { return counting_spec(model) != nullptr; }

std::string counting_model_list() {
    std::vector<std::string> names;
    for (const auto& e : model_registry())
        if (e.spec.counting.regressor) names.push_back(e.spec.name);
    std::string text;
    for (std::size_t k = 0; k < names.size(); ++k)
        text += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
    return text;
}

void check_counting_model(const std::string& model) {
    if (!is_counting_model(model))
        throw InvalidArgument("--model " + model + ": counting regressors are " + counting_model_list());
}

ModelConfig RegressorSettings::config() const {
    ModelConfig c;
    c.head = Head::regression;
    c.layers = layers;
    c.hidden = hidden;
    const CountingSpec* counting = counting_spec(model);
    if (counting && counting->radius_is_pattern_diameter) c.radius = pattern_diameter(pattern);
    return c;
}

std::string RegressorSettings::name() const {
    return model + "_" + pattern_name(pattern) + "_seed" + std::to_string(seed);
}

namespace {

/// Predictions for graphs [begin, end) of the graphs the model holds, in eval mode without
/// gradients, `batch` graphs per forward pass (ranges start at `begin`).
std::vector<double> predict_range(GraphEmbedder& model, std::size_t begin, std::size_t end, std::size_t batch) {
    std::vector<double> out;
    torch::NoGradGuard no_grad;
    model.eval();
    out.reserve(end - begin);
    for (std::size_t b = begin; b < end; b += batch) {
        const auto y = model.forward_range(b, std::min(end, b + batch)).reshape({-1}).to(torch::kCPU, torch::kDouble);
        const auto acc = y.accessor<double, 1>();
        for (std::int64_t i = 0; i < y.size(0); ++i) out.push_back(acc[i]);
    }
    return out;
}

}  // namespace

std::vector<double> predict_counts(GraphEmbedder& model, const std::vector<Graph>& graphs, std::size_t batch) {
    if (graphs.empty()) return {};
    model.set_graphs(graphs, module_device(model));
    return predict_range(model, 0, graphs.size(), batch);
}

RegressorError evaluate_regressor(GraphEmbedder& model, const CountingData& data, const std::vector<std::size_t>& ids,
                                  Pattern pattern) {
    RegressorError e;
    e.graphs = ids.size();
    if (ids.empty()) return e;
    const auto pred = predict_counts(model, pick(data.graphs, ids));
    const auto y = targets(data, ids, pattern);
    e.l1 = mean_error(pred, y, RegressionLoss::l1);
    e.lc = mean_error(pred, y, RegressionLoss::lc);
    e.mean_count = sample_mean(y);
    return e;
}

Regressor train_regressor(const CountingData& data, const RegressorSettings& s, RunContext& ctx,
                          const RegressorStart& init, torch::Device device) {
    if (s.epochs < 1 || s.batch < 1 || s.patience < 1 || s.lr <= 0.0 || s.lr_factor <= 0.0 || s.lr_factor >= 1.0 ||
        s.max_seconds < 0.0)
        throw InvalidArgument(
            "regressor settings: epochs, batch and patience must be positive, lr > 0, 0 < lr factor < 1, "
            "max seconds >= 0");
    const auto start = std::chrono::steady_clock::now();
    const auto seconds_so_far = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    auto train_ids = head(data.train, s.max_train);
    const auto val_ids = head(data.validation, s.max_validation);
    const auto test_ids = head(data.test, s.max_test);
    if (train_ids.empty() || val_ids.empty() || test_ids.empty())
        throw InvalidArgument("counting dataset " + data.dir +
                              ": the train, validation and test splits must not be empty");

    // The training graphs are shuffled once per seed and cut into fixed batches (each built once);
    // every epoch visits the batches in a fresh order.
    Rng rng(stream_seed(s.seed, 0x7261696eULL));
    rng.shuffle(train_ids);
    // The model holds the training graphs, then the validation graphs, for the whole training, so
    // the batches of both (fixed ranges) are built once.
    auto graphs = pick(data.graphs, train_ids);
    const std::size_t n_train = graphs.size();
    for (auto i : val_ids) graphs.push_back(data.graphs[i]);
    const auto y_train = torch::tensor(targets(data, train_ids, s.pattern), torch::kFloat).to(device);
    const auto y_val = targets(data, val_ids, s.pattern);

    ModelRandom random = make_model_random(stream_seed(s.seed, 0x6d6f64656cULL), device);
    Regressor r;
    r.settings = s;
    r.model = make_model(s.model, s.config(), random);
    auto& model = *r.model;
    model.to(device);
    detail::apply_start(model, s, init);
    r.init_from = init.from ? init.from_name : std::string();
    r.head_only = init.head_only;
    // The model's own optimizers included; a frozen parameter never gets a gradient, so Adam skips it.
    ModelOptimizers optimizers(model, torch::optim::AdamOptions(s.lr));
    nn::PlateauScheduler plateau(optimizers.main(), s.lr_factor, s.lr_patience, s.min_lr);
    nn::WeightsCheckpoint checkpoint;

    std::vector<std::size_t> batch_begin;
    for (std::size_t b = 0; b < n_train; b += static_cast<std::size_t>(s.batch)) batch_begin.push_back(b);
    model.set_graphs(graphs, device);

    double best = std::numeric_limits<double>::infinity();
    int waiting = 0;
    for (int epoch = 0; epoch < s.epochs; ++epoch) {
        ctx.throw_if_cancelled();
        detail::set_training_mode(model, init);
        rng.shuffle(batch_begin);
        for (const std::size_t b : batch_begin) {
            const std::size_t e = std::min(n_train, b + static_cast<std::size_t>(s.batch));
            if (e - b < 2) continue;  // a last batch of a single graph is left out
            const auto pred = model.forward_range(b, e).reshape({-1});
            const auto y = y_train.slice(0, static_cast<long>(b), static_cast<long>(e));
            auto err = (pred - y).abs();
            if (s.loss == RegressionLoss::lc) err = err / (y + 1.0);
            auto loss = err.mean();
            if (const auto aux = model.take_auxiliary_loss(); aux.defined()) loss = loss + aux;
            optimizers.zero_grad();
            loss.backward();
            optimizers.step();
        }
        const auto val_pred = predict_range(model, n_train, graphs.size(), 256);
        const double val_loss = mean_error(val_pred, y_val, s.loss);
        if (ctx.log_level() <= LogLevel::debug) {
            char line[160];
            const double lr =
                static_cast<torch::optim::AdamOptions&>(optimizers.main().param_groups().front().options()).lr();
            std::snprintf(line, sizeof line, "%s epoch %d validation %.4f lr %.2g", s.name().c_str(), epoch + 1,
                          val_loss, lr);
            ctx.debug(line);
        }
        r.epochs_run = epoch + 1;
        plateau.step(val_loss);
        if (val_loss < best) {
            best = val_loss;
            r.best_epoch = epoch + 1;
            r.validation_l1 = mean_error(val_pred, y_val, RegressionLoss::l1);
            checkpoint.save(model);
            waiting = 0;
        } else if (++waiting >= s.patience) {
            break;
        }
        ctx.progress(s.name(), static_cast<std::size_t>(epoch + 1), static_cast<std::size_t>(s.epochs));
        if (s.max_seconds > 0.0 && epoch + 1 < s.epochs && seconds_so_far() >= s.max_seconds) {
            r.time_limited = true;
            break;
        }
    }
    checkpoint.restore(model);
    model.eval();
    for (auto& p : model.parameters()) p.set_requires_grad(true);
    r.validation_loss = best;
    const RegressorError test = evaluate_regressor(model, data, test_ids, s.pattern);
    r.test_l1 = test.l1;
    r.test_lc = test.lc;
    r.seconds = seconds_so_far();
    return r;
}

double paper_test_l1(const std::string& model, Pattern pattern) {
    const CountingSpec* c = counting_spec(model);
    return c && pattern == Pattern::triangle ? c->paper_triangle_l1 : -1.0;
}

}  // namespace brec
