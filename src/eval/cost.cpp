#include "brec/eval/cost.hpp"

#include <torch/torch.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/nn/op_count.hpp"

namespace brec {

PairCost estimate_pair_cost(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed) {
    const Hyper hp = resolve_hyper(opt);
    const torch::Device cpu(torch::kCPU);
    PairCost cost;
    try {
        // A direct BLAS call would be invisible to the count: LibTorch's own kernels.
        auto model = make_pair_model(pair, opt, stream_seed(seed, static_cast<std::uint64_t>(pair.id)), cpu, "torch");
        model->set_graphs({pair.a, pair.b}, cpu);
        // Per pass of one batch: the FLOPs grow with the graphs in it, the operators do not.
        const double graphs = 2.0 * opt.q, batches = std::ceil(graphs / hp.batch);
        if (trains(*model, opt, hp)) {
            ModelOptimizers optimizers = make_optimizers(*model, hp);
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

std::map<std::string, double> profile_training_step(const GraphPairRecord& pair, const EvalOptions& opt,
                                                    std::uint64_t seed) {
    const Hyper hp = resolve_hyper(opt);
    const torch::Device cpu(torch::kCPU);
    try {
        auto model = make_pair_model(pair, opt, stream_seed(seed, static_cast<std::uint64_t>(pair.id)), cpu);
        if (!trains(*model, opt, hp)) return {};
        // A batch as training sees it: (G, H) repeated, batch size graphs (at most the 2q of a group).
        const int graphs = std::max(2, std::min(hp.batch, 2 * opt.q) / 2 * 2);
        std::vector<Graph> batch;
        for (int i = 0; i < graphs / 2; ++i) {
            batch.push_back(pair.a);
            batch.push_back(pair.b);
        }
        model->set_graphs(batch, cpu);
        ModelOptimizers optimizers = make_optimizers(*model, hp);
        model->train();
        siamese_step(*model, optimizers, 0, batch.size());  // untimed: builds the batch's tensors
        return time_ops([&] { siamese_step(*model, optimizers, 0, batch.size()); });
    } catch (const c10::Error& e) {
        throw Error("LibTorch error profiling pair " + std::to_string(pair.id) + ": " + e.what_without_backtrace());
    }
}

}  // namespace brec
