#include "brec/eval/siamese.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <torch/torch.h>

#include "brec/core/error.hpp"
#include "brec/eval/cost.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/training.hpp"

namespace brec {
namespace {

/// Embeddings of every graph of the model's current list, in consecutive batches, as doubles.
Eigen::MatrixXd embed_all(GraphEmbedder& model, std::size_t count, int batch) {
    std::vector<torch::Tensor> parts;
    for (std::size_t b = 0; b < count; b += static_cast<std::size_t>(batch))
        parts.push_back(model.forward_range(b, std::min(count, b + static_cast<std::size_t>(batch))));
    const auto c = torch::cat(parts, 0).to(torch::kCPU, torch::kDouble).contiguous();
    Eigen::MatrixXd m(c.size(0), c.size(1));
    const double* p = c.data_ptr<double>();
    for (long i = 0; i < c.size(0); ++i)
        for (long j = 0; j < c.size(1); ++j) m(i, j) = p[i * c.size(1) + j];
    return m;
}

ProtocolResult to_result(const RpcDecision& d) {
    return {d.t2_test, d.t2_reliability, d.threshold, d.distinguished, d.reliable};
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int label_classes(const GraphPairRecord& pair) {
    Label top = 0;
    for (const Graph* g : {&pair.a, &pair.b}) {
        if (!g->has_node_labels())
            throw InvalidArgument("input features 'label' need node labels, but pair " + std::to_string(pair.id) +
                                  " has none (BREC pair files have none: use the features 'ones' or 'degree')");
        for (Label l : g->node_labels()) top = std::max(top, l);
    }
    return static_cast<int>(top) + 1;
}

const ModelEntry& model_entry(const EvalOptions& opt) {
    return opt.user_model ? *opt.user_model : find_model(opt.model);
}

Hyper resolve_hyper(const EvalOptions& opt) {
    const ModelSpec& spec = model_entry(opt).spec;
    const bool users = !spec.module_hash.empty();  // a user's module: TorchScript or Python
    Hyper h = spec.defaults;
    h.radius = opt.radius.value_or(h.radius);
    h.layers = opt.layers.value_or(h.layers);
    h.hidden = opt.hidden.value_or(h.hidden);
    h.batch = opt.batch.value_or(h.batch);
    h.epochs = opt.epochs.value_or(h.epochs);
    h.lr = opt.lr.value_or(h.lr);
    h.weight_decay = opt.weight_decay.value_or(h.weight_decay);
    h.loss_threshold = opt.loss_threshold.value_or(h.loss_threshold);
    if (h.radius < 0 || h.epochs < 0 || h.weight_decay < 0 || h.loss_threshold < 0)
        throw InvalidArgument("radius, epochs, weight decay and loss threshold must be >= 0");
    if (h.layers < 1 || h.hidden < 1) throw InvalidArgument("layers and hidden width must be >= 1");
    if (h.batch < 2 || h.batch % 2)
        throw InvalidArgument("the batch size must be an even number >= 2 (pairs of graphs)");
    if (h.lr <= 0) throw InvalidArgument("the learning rate must be > 0");
    if (opt.q <= opt.out_dim)
        throw InvalidArgument("q (relabelings per graph) must exceed the output dimension " +
                              std::to_string(opt.out_dim) + ": T² needs q > d");
    if (opt.rapc && opt.rapc_groups < 1) throw InvalidArgument("RAPC needs at least one group per graph");
    if (opt.input_features != "ones" && opt.input_features != "degree" && opt.input_features != "label")
        throw InvalidArgument("unknown input features '" + opt.input_features + "' (expected ones, degree or label)");
    if (users && (opt.layers || opt.hidden || opt.radius))
        throw InvalidArgument("a user's module's layers, width and radius are its own; they cannot be set");
    if (opt.input_features != "ones" && !users)
        throw InvalidArgument("input features '" + opt.input_features + "' are for a user's module; model '" +
                              opt.model + "' builds its own from a column of ones");
    return h;
}

ModelConfig model_config(const EvalOptions& opt) {
    const Hyper hp = resolve_hyper(opt);
    ModelConfig config;
    config.radius = hp.radius;
    config.layers = hp.layers;
    config.hidden = hp.hidden;
    config.out_dim = opt.out_dim;
    config.kernel = opt.kernel;
    config.output_norm = opt.output_norm;
    config.input_features = opt.input_features;
    config.label_classes = opt.label_classes;
    return config;
}

RpcSettings rpc_settings(const EvalOptions& opt) {
    const ModelSpec& spec = model_entry(opt).spec;
    RpcSettings s;
    s.alpha = opt.alpha;
    // The noise floor stands for float32 rounding between relabelings. A model random at inference
    // (DropGNN) draws afresh for every embedding, so the test group's and the reliability group's
    // T² both include that randomness, which they must see in full: no floor for such a model.
    s.relative_noise = spec.random_at_inference ? 0.0 : opt.relative_noise;
    s.reference_inverse = spec.reference_inverse;
    s.reference_threshold = spec.reference_threshold;
    return s;
}

std::shared_ptr<GraphEmbedder> make_pair_model(const GraphPairRecord& pair, const EvalOptions& opt,
                                               std::uint64_t stream, torch::Device device, const std::string& kernel) {
    ModelConfig config = model_config(opt);
    if (!kernel.empty()) config.kernel = kernel;
    if (opt.input_features == "label" && opt.label_classes < 1) config.label_classes = label_classes(pair);
    ModelRandom random = make_model_random(stream, device);
    return make_model(model_entry(opt), config, random);
}

bool trains(const GraphEmbedder& model, const EvalOptions& opt, const Hyper& hp) {
    if (!opt.train || hp.epochs < 1) return false;
    for (const auto& p : model.parameters())
        if (p.requires_grad()) return true;
    return false;
}

ModelOptimizers make_optimizers(GraphEmbedder& model, const Hyper& hp) {
    return ModelOptimizers(model, torch::optim::AdamOptions(hp.lr).weight_decay(hp.weight_decay));
}

double siamese_step(GraphEmbedder& model, ModelOptimizers& optimizers, std::size_t begin, std::size_t end,
                    StepSeconds* seconds) {
    auto t = std::chrono::steady_clock::now();
    const auto lap = [&](double StepSeconds::*part) {
        if (!seconds) return;
        const auto now = std::chrono::steady_clock::now();
        seconds->*part += std::chrono::duration<double>(now - t).count();
        t = now;
    };
    optimizers.zero_grad();
    lap(&StepSeconds::step);
    const auto out = model.forward_range(begin, end);
    const auto x = out.slice(0, 0, out.size(0), 2), y = out.slice(0, 1, out.size(0), 2);
    // CosineEmbeddingLoss with target -1 and margin 0: mean of max(0, cos).
    auto loss = torch::clamp_min(torch::cosine_similarity(x, y, 1, 1e-8), 0.0).mean();
    // A model's auxiliary loss joins the loss, and so the epoch loss, as in OSAN's script.
    if (const auto aux = model.take_auxiliary_loss(); aux.defined()) loss = loss + aux;
    lap(&StepSeconds::forward);
    loss.backward();
    lap(&StepSeconds::backward);
    optimizers.step();
    const double value = loss.item<double>();
    lap(&StepSeconds::step);
    return value;
}

EvalRecord evaluate_pair(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed,
                         const RunContext* ctx) {
    const auto start = std::chrono::steady_clock::now();
    const Hyper hp = resolve_hyper(opt);
    const torch::Device device = parse_device(opt.device);
    if (opt.torch_threads > 0) {
        const int threads = static_cast<int>(pair.a.n()) < opt.single_thread_below ? 1 : opt.torch_threads;
        set_torch_threads(threads);
        if (opt.blas_threads > 0) set_blas_threads(std::min(threads, opt.blas_threads));
    }
    const std::uint64_t stream = stream_seed(seed, static_cast<std::uint64_t>(pair.id));
    Rng rng(stream);
    EvalRecord r;
    r.model = opt.model;
    r.seed = seed;
    r.id = pair.id;
    r.category = pair.category;
    r.n = pair.a.n();
    const PairGroups groups = make_pair_groups(pair, opt.q, rng);

    Eigen::MatrixXd test, reliability;
    std::vector<Eigen::MatrixXd> rapc_groups;
    StepSeconds steps;  // opt.profile
    double prepare_seconds = 0.0, first_epoch_seconds = 0.0, embed_seconds = 0.0;
    try {
        auto model = make_pair_model(pair, opt, stream, device);
        model->to(device);
        model->set_graphs(groups.traintest, device);
        const std::size_t count = groups.traintest.size();
        const auto train_start = std::chrono::steady_clock::now();
        prepare_seconds = seconds_since(start);
        if (trains(*model, opt, hp)) {
            ModelOptimizers optimizers = make_optimizers(*model, hp);
            nn::PlateauScheduler scheduler(optimizers.main());  // PyTorch's defaults
            model->train();
            for (int epoch = 0; epoch < hp.epochs; ++epoch) {
                if (ctx && ctx->cancelled())
                    throw Cancelled("cancelled during training of pair " + std::to_string(pair.id));
                double epoch_loss = 0.0;
                for (std::size_t b = 0; b < count; b += static_cast<std::size_t>(hp.batch)) {
                    const std::size_t e = std::min(count, b + static_cast<std::size_t>(hp.batch));
                    epoch_loss += static_cast<double>(e - b) / 2.0 *
                                  siamese_step(*model, optimizers, b, e, opt.profile ? &steps : nullptr);
                }
                if (epoch == 0) first_epoch_seconds = seconds_since(train_start);
                epoch_loss /= opt.q;
                r.losses.push_back(epoch_loss);
                ++r.epochs;
                // A NaN loss means NaN gradients, so NaN weights from then on: no later epoch can
                // recover, and the pair's T² are undefined (a reliability failure under both
                // protocols). Say so, and stop.
                if (!std::isfinite(epoch_loss)) {
                    if (ctx)
                        ctx->warn("pair " + std::to_string(pair.id) + ": training diverged (loss not finite at epoch " +
                                  std::to_string(r.epochs) +
                                  "); its T² are undefined and count as reliability failures");
                    break;
                }
                // The reference tests the early stop before the scheduler step, strictly.
                if (epoch_loss < hp.loss_threshold) break;
                scheduler.step(epoch_loss);
            }
            r.final_loss = r.losses.empty() ? 0.0 : r.losses.back();
        }
        r.train_seconds = seconds_since(train_start);
        const auto embed_start = std::chrono::steady_clock::now();
        model->eval();
        torch::NoGradGuard no_grad;
        test = embed_all(*model, count, hp.batch);
        model->set_graphs(groups.reliability, device);
        reliability = embed_all(*model, groups.reliability.size(), hp.batch);
        if (opt.rapc) {
            // p groups of 2q relabelings for each graph; T² between the two halves of each group.
            for (const Graph* g : {&pair.a, &pair.b})
                for (int p = 0; p < opt.rapc_groups; ++p) {
                    const auto group = relabelings(*g, 2 * opt.q, rng);
                    std::vector<Graph> interleaved;
                    for (int i = 0; i < opt.q; ++i) {
                        interleaved.push_back(group[static_cast<std::size_t>(i)]);
                        interleaved.push_back(group[static_cast<std::size_t>(opt.q + i)]);
                    }
                    model->set_graphs(interleaved, device);
                    rapc_groups.push_back(embed_all(*model, interleaved.size(), hp.batch));
                }
        }
        embed_seconds = seconds_since(embed_start);
    } catch (const c10::Error& e) {
        throw Error("LibTorch error on pair " + std::to_string(pair.id) + ": " + e.what_without_backtrace());
    } catch (const InvalidArgument& e) {
        // A user's module that breaks its interface on this pair only (the probe passed): say which.
        if (model_entry(opt).spec.module_hash.empty()) throw;
        throw InvalidArgument("pair " + std::to_string(pair.id) + ": " + e.what());
    }
    const auto decision_start = std::chrono::steady_clock::now();
    const RpcProtocols decision = rpc_from_embeddings(test, reliability, rpc_settings(opt), rapc_groups);
    r.hotelling = to_result(decision.hotelling);
    r.brec_reference = to_result(decision.brec_reference);
    const double decision_seconds = seconds_since(decision_start);
    r.seconds = seconds_since(start);
    if (opt.profile) {
        const PairCost cost = estimate_pair_cost(pair, opt, seed);  // after the timed run: not in r.seconds
        const double budget = std::max(1, resolve_hyper(opt).epochs);
        r.profile = {{"prepare_seconds", prepare_seconds},
                     {"forward_seconds", steps.forward},
                     {"backward_seconds", steps.backward},
                     {"optimiser_seconds", steps.step},
                     {"first_epoch_seconds", first_epoch_seconds},
                     {"embed_seconds", embed_seconds},
                     {"decision_seconds", decision_seconds},
                     {"epoch_flops", cost.train_flops / budget},
                     {"epoch_ops", cost.train_ops / budget},
                     {"embed_flops", cost.embed_flops},
                     {"step_op_seconds", profile_training_step(pair, opt, seed)}};
    }
    return r;
}

}  // namespace brec
