#pragma once
// What a pair costs a model, estimated without timing anything: the operators and floating-point
// operations of one training step and one embedding pass on the pair's two graphs, counted from
// tensor shapes (nn/op_count.hpp), scaled to the whole run of evaluate_pair (every epoch, every
// batch, every embedding judged) and turned into seconds of a reference CPU core by two fixed
// rates. The same on every machine and device, so a schedule or an inclusion rule built on it
// does not depend on where it runs.

#include <cstdint>
#include <map>
#include <string>

#include "brec/eval/siamese.hpp"

namespace brec {

/// The reference core's rates: floating-point operations per second in a model's products and
/// seconds per operator dispatched (LibTorch's framework time, autograd included). Fitted once (least
/// squares of the log ratio) to the measured seconds of all 17 built-in models on BREC pairs 0, 70
/// and 170 at their default settings, one thread of an AMD EPYC core, training scaled to every
/// epoch: the estimates came within 0.56-1.65x of the measured times (one KP-GNN pair at 0.31x, a
/// 0.04 s epoch scaled by 20). Fixed since, so that estimates stay comparable.
inline constexpr double kCostFlopsPerSecond = 4.5e10;
inline constexpr double kCostSecondsPerOp = 8.0e-7;

struct PairCost {
    double train_flops = 0.0, train_ops = 0.0;  ///< the whole training, every epoch (no early stop)
    double embed_flops = 0.0, embed_ops = 0.0;  ///< the embeddings the decision judges
    double flops() const { return train_flops + embed_flops; }
    double ops() const { return train_ops + embed_ops; }
    /// Estimated seconds on one reference core.
    double seconds() const { return flops() / kCostFlopsPerSecond + ops() * kCostSecondsPerOp; }
};

/// The estimated cost of evaluate_pair(pair, opt, seed) on one core: one training step on (G, H)
/// and one embedding pass of them, counted, with the FLOPs scaled by the graphs and the operators
/// by the batches the run processes. Training is counted for all epochs (early stopping cannot be
/// foreseen), so the estimate is an upper bound on training. Runs on the CPU with LibTorch's own
/// kernels whatever opt.device and opt.kernel say; needs the memory of one step on two graphs.
/// Throws what evaluate_pair throws for bad options.
PairCost estimate_pair_cost(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed);

/// Where one training step of evaluate_pair(pair, opt, seed) spends its time, on one CPU thread:
/// each LibTorch operator's own seconds and the time outside them (nn/op_count.hpp time_ops) over a
/// step on a batch of the run's size ((G, H) repeated), after one untimed step that builds the
/// batch's tensors. Empty when the run trains nothing. Timed, unlike estimate_pair_cost: for
/// profiles (--profile).
std::map<std::string, double> profile_training_step(const GraphPairRecord& pair, const EvalOptions& opt,
                                                    std::uint64_t seed);

}  // namespace brec
