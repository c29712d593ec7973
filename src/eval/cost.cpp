#include "brec/eval/cost.hpp"

#include <torch/torch.h>

#include "brec/core/error.hpp"
#include "brec/nn/op_count.hpp"

namespace brec {

PairCost estimate_pair_cost(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed) {
    const Hyper hp = resolve_hyper(opt);
    const torch::Device cpu(torch::kCPU);
    ModelConfig config = model_config(opt);
    config.kernel = "torch";  // a direct BLAS call would be invisible to the count
    if (opt.input_features == "label" && opt.label_classes < 1) config.label_classes = label_classes(pair);
    ModelRandom random = make_model_random(stream_seed(seed, static_cast<std::uint64_t>(pair.id)), cpu);
    PairCost cost;
    try {
        auto model = make_model(model_entry(opt), config, random);
        model->set_graphs({pair.a, pair.b}, cpu);
        // Per pass of one batch: the FLOPs grow with the graphs in it, the operators do not.
        const double graphs = 2.0 * opt.q, batches = std::ceil(graphs / hp.batch);
        bool trainable = false;
        for (const auto& p : model->parameters()) trainable = trainable || p.requires_grad();
        if (opt.train && hp.epochs > 0 && trainable) {
            ModelOptimizers optimizers(*model, torch::optim::AdamOptions(hp.lr).weight_decay(hp.weight_decay));
            model->train();
            const OpCount step = count_ops([&] { siamese_step(*model, optimizers, 0, 2); });
            cost.train_flops = hp.epochs * graphs / 2.0 * static_cast<double>(step.flops);
            cost.train_ops = hp.epochs * batches * static_cast<double>(step.ops);
        }
        model->eval();
        torch::NoGradGuard no_grad;
        const OpCount embed = count_ops([&] { model->forward_range(0, 2); });
        // The test group and the reliability group (2q graphs each), and RAPC's p groups per graph.
        const double groups = 2.0 + (opt.rapc ? 2.0 * opt.rapc_groups : 0.0);
        cost.embed_flops = groups * graphs / 2.0 * static_cast<double>(embed.flops);
        cost.embed_ops = groups * batches * static_cast<double>(embed.ops);
    } catch (const c10::Error& e) {
        throw Error("LibTorch error estimating pair " + std::to_string(pair.id) + ": " + e.what_without_backtrace());
    }
    return cost;
}

}  // namespace brec
