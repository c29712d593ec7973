// Counting regressors: training, prediction and the model files (io/counting_data reads the datasets).
#include "brec/attack/regressor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/core/text.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"
#include "brec/nn/training.hpp"
#include "brec/stats/tests.hpp"

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

/// The device of a model's parameters (the CPU for a model without any).
torch::Device device_of(const torch::nn::Module& model) {
    const auto parameters = model.parameters();
    return parameters.empty() ? torch::Device(torch::kCPU) : parameters.front().device();
}

}  // namespace

std::vector<double> predict_counts(GraphEmbedder& model, const std::vector<Graph>& graphs, std::size_t batch) {
    if (graphs.empty()) return {};
    model.set_graphs(graphs, device_of(model));
    return predict_range(model, 0, graphs.size(), batch);
}

bool is_regression_head(const GraphEmbedder& model, const std::string& name) {
    // The first component of the name: a top-level module (or parameter) of the model.
    const std::string top = name.substr(0, name.find('.'));
    const auto head = model.regression_head();
    return std::find(head.begin(), head.end(), top) != head.end();
}

namespace {

/// Copies `from`'s parameters and buffers into `to` (built with the same settings).
void copy_state(torch::nn::Module& from, torch::nn::Module& to) {
    torch::NoGradGuard no_grad;
    const auto src = from.named_parameters();
    for (auto& p : to.named_parameters()) p.value().copy_(src[p.key()]);
    const auto src_buffers = from.named_buffers();
    for (auto& b : to.named_buffers()) b.value().copy_(src_buffers[b.key()]);
}

/// Checks that `start` fits the settings, then loads its weights into `model` and, for head-only
/// training, turns off the gradients of every parameter outside the head.
void apply_start(GraphEmbedder& model, const RegressorSettings& s, const RegressorStart& start) {
    if (start.head_only && !start.from)
        throw InvalidArgument("training only the regression head needs a trained model to start from");
    if (!start.from) return;
    const RegressorSettings& f = start.from->settings;
    if (f.model != s.model || f.pattern != s.pattern || f.layers != s.layers || f.hidden != s.hidden)
        throw InvalidArgument("cannot start " + s.name() + " (layers " + std::to_string(s.layers) + ", hidden " +
                              std::to_string(s.hidden) + ") from " + f.name() + " (layers " + std::to_string(f.layers) +
                              ", hidden " + std::to_string(f.hidden) + ")");
    copy_state(*start.from->model, model);
    if (!start.head_only) return;
    std::size_t head = 0;
    for (auto& p : model.named_parameters()) {
        const bool in_head = is_regression_head(model, p.key());
        p.value().set_requires_grad(in_head);
        head += in_head ? 1 : 0;
    }
    if (head == 0) throw InvalidArgument("model " + s.model + " has no regression head to train alone");
}

/// Training mode for an epoch: the whole model, or with a frozen body only the head.
void set_training_mode(GraphEmbedder& model, const RegressorStart& start) {
    model.train();
    if (!start.head_only) return;
    for (auto& child : model.named_children())
        if (!is_regression_head(model, child.key())) child.value()->eval();
}

}  // namespace

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
    if (s.epochs < 1 || s.batch < 1 || s.patience < 1 || s.lr <= 0.0 || s.lr_factor <= 0.0 || s.lr_factor >= 1.0)
        throw InvalidArgument(
            "regressor settings: epochs, batch and patience must be positive, lr > 0, 0 < lr factor < 1");
    const auto start = std::chrono::steady_clock::now();
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
    apply_start(model, s, init);
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
        set_training_mode(model, init);
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
    }
    checkpoint.restore(model);
    model.eval();
    for (auto& p : model.parameters()) p.set_requires_grad(true);
    r.validation_loss = best;
    const RegressorError test = evaluate_regressor(model, data, test_ids, s.pattern);
    r.test_l1 = test.l1;
    r.test_lc = test.lc;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

nlohmann::ordered_json regressor_json(const Regressor& r) {
    const auto& s = r.settings;
    nlohmann::ordered_json j;
    j["model"] = s.model;
    j["pattern"] = pattern_name(s.pattern);
    j["seed"] = s.seed;
    j["layers"] = s.layers;
    j["hidden"] = s.hidden;
    j["loss"] = regression_loss_name(s.loss);
    j["lr"] = s.lr;
    j["batch"] = s.batch;
    j["epochs"] = s.epochs;
    j["patience"] = s.patience;
    j["lr_factor"] = s.lr_factor;
    j["lr_patience"] = s.lr_patience;
    j["min_lr"] = s.min_lr;
    j["max_train"] = s.max_train;
    j["max_validation"] = s.max_validation;
    j["max_test"] = s.max_test;
    j["epochs_run"] = r.epochs_run;
    j["best_epoch"] = r.best_epoch;
    j["validation_loss"] = r.validation_loss;
    j["validation_l1"] = r.validation_l1;
    j["test_l1"] = r.test_l1;
    j["test_lc"] = r.test_lc;
    j["seconds"] = r.seconds;
    j["device"] = device_of(*r.model).str();
    if (!r.init_from.empty()) {
        j["init_from"] = r.init_from;
        j["trained"] = r.head_only ? "head" : "all";
    }
    return j;
}

std::string regressor_path(const std::string& dir, const RegressorSettings& settings) {
    return dir + "/" + settings.name() + ".json";
}

void save_regressor(const Regressor& r, const std::string& dir) {
    make_directories(dir);
    const std::string stem = dir + "/" + r.settings.name();
    const std::string tmp = stem + ".pt.tmp";
    {
        torch::serialize::OutputArchive archive;
        r.model->save(archive);
        try {
            archive.save_to(tmp);
        } catch (const c10::Error& e) {
            throw IoError("cannot write " + tmp + ": " + e.what_without_backtrace());
        }
    }
    if (std::rename(tmp.c_str(), (stem + ".pt").c_str()) != 0) throw IoError("cannot rename " + tmp);
    // The JSON last: its presence marks a complete model (what --resume looks for).
    write_text_file_atomic(stem + ".json", regressor_json(r).dump(2) + "\n");
}

void check_regressor_file(const std::string& path, const RegressorSettings& s) {
    const auto j = nlohmann::json::parse(read_text_file(path), nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw ParseError(path, 0, "not a JSON object");
    const nlohmann::json want = {{"model", s.model},
                                 {"layers", s.layers},
                                 {"hidden", s.hidden},
                                 {"loss", regression_loss_name(s.loss)},
                                 {"lr", s.lr},
                                 {"batch", s.batch},
                                 {"epochs", s.epochs},
                                 {"patience", s.patience},
                                 {"lr_patience", s.lr_patience}};
    for (const auto& [key, value] : want.items())
        if (!j.contains(key) || j[key] != value)
            throw InvalidArgument(path + " was trained with " + key + " " + (j.contains(key) ? j[key].dump() : "?") +
                                  ", this run asks for " + value.dump() + " (another --out, or the same flags)");
}

Regressor load_regressor(const std::string& json_path, torch::Device device) {
    const auto text = read_text_file(json_path);
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw ParseError(json_path, 0, "not a JSON object");
    Regressor r;
    auto& s = r.settings;
    try {
        s.model = j.at("model").get<std::string>();
        s.pattern = parse_pattern(j.at("pattern").get<std::string>());
        s.seed = j.at("seed").get<std::uint64_t>();
        s.layers = j.at("layers").get<int>();
        s.hidden = j.at("hidden").get<int>();
        s.loss = parse_regression_loss(j.at("loss").get<std::string>());
        r.test_l1 = j.value("test_l1", 0.0);
        r.test_lc = j.value("test_lc", 0.0);
        r.validation_loss = j.value("validation_loss", 0.0);
        r.validation_l1 = j.value("validation_l1", 0.0);
        r.epochs_run = j.value("epochs_run", 0);
        r.best_epoch = j.value("best_epoch", 0);
        r.seconds = j.value("seconds", 0.0);
        r.init_from = j.value("init_from", std::string());
        r.head_only = j.value("trained", std::string()) == "head";
    } catch (const nlohmann::json::exception& e) {
        throw ParseError(json_path, 0, std::string("bad regressor settings: ") + e.what());
    } catch (const InvalidArgument& e) {
        throw ParseError(json_path, 0, e.what());
    }
    ModelRandom random = make_model_random(0, torch::kCPU);
    r.model = make_model(s.model, s.config(), random);
    std::string pt = json_path;
    if (pt.size() > 5 && pt.compare(pt.size() - 5, 5, ".json") == 0) pt.resize(pt.size() - 5);
    pt += ".pt";
    if (!file_exists(pt)) throw IoError("cannot open " + pt + ": missing (the parameters of " + json_path + ")");
    try {
        torch::serialize::InputArchive archive;
        // Mapped to the CPU first: the file may come from a CUDA device this machine lacks.
        archive.load_from(pt, torch::Device(torch::kCPU));
        r.model->load(archive);
    } catch (const c10::Error& e) {
        throw ParseError(pt, 0, std::string("not the parameters of this model: ") + e.what_without_backtrace());
    }
    r.model->to(device);
    r.model->eval();
    return r;
}

double paper_test_l1(const std::string& model, Pattern pattern) {
    const CountingSpec* c = counting_spec(model);
    return c && pattern == Pattern::triangle ? c->paper_triangle_l1 : -1.0;
}

void train_regressors(const RegressorTrainRequest& request, std::ostream& out, RunContext& ctx) {
    auto settings_for = [&](Pattern p, std::uint64_t seed) {
        RegressorSettings s = request.settings;
        s.pattern = p;
        s.seed = seed;
        return s;
    };
    // Before any training: no model file is overwritten, and one kept by resume was trained as asked.
    for (Pattern p : request.patterns)
        for (auto seed : request.seeds) {
            const RegressorSettings s = settings_for(p, seed);
            const std::string path = regressor_path(request.out, s);
            if (!file_exists(path)) continue;
            if (!request.resume) throw InvalidArgument(path + " exists (resume to skip trained models)");
            check_regressor_file(path, s);
        }
    const torch::Device device = parse_device(request.device);
    const CountingData data = read_counting_data(request.data);
    set_cpu_threads(ctx.threads());
    out << std::left << std::setw(10) << "model" << std::setw(18) << "pattern" << std::setw(6) << "seed" << std::setw(8)
        << "epochs" << std::setw(12) << "val_loss" << std::setw(10) << "test_l1" << std::setw(10) << "test_lc"
        << "paper_l1\n";
    for (Pattern p : request.patterns)
        for (auto seed : request.seeds) {
            const RegressorSettings s = settings_for(p, seed);
            const std::string path = regressor_path(request.out, s);
            Regressor r;
            if (request.resume && file_exists(path)) {
                r = load_regressor(path, device);
                ctx.info("attack train: " + path + " exists, skipped");
            } else {
                r = train_regressor(data, s, ctx, {}, device);
                save_regressor(r, request.out);
            }
            const double paper = paper_test_l1(s.model, p);
            out << std::left << std::setw(10) << s.model << std::setw(18) << pattern_name(p) << std::setw(6) << seed
                << std::setw(8) << r.epochs_run << std::setw(12) << std::setprecision(4) << r.validation_loss
                << std::setw(10) << r.test_l1 << std::setw(10) << r.test_lc
                << (paper >= 0 ? std::to_string(paper).substr(0, 5) : "-") << '\n'
                << std::flush;
        }
}

}  // namespace brec
