#pragma once
// Siamese training + RPC on graph pairs. For each pair a fresh model is trained to tell q
// relabelings of G from q relabelings of H (cosine embedding loss, margin 0) and then judged by
// T² against a reliability group of 2q relabelings of one graph, under both RPC protocols.
//
// @article{wang2023towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, journal={arXiv:2304.07702}, year={2023}}

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"
#include "brec/nn/registry.hpp"
#include "brec/rpc/groups.hpp"  // relabelings, PairGroups, make_pair_groups
#include "brec/stats/hotelling.hpp"

namespace brec {

struct EvalOptions {
    std::string model = "ppgn";
    // Hyperparameters; unset = the model's registry defaults (ModelSpec::defaults).
    std::optional<int> radius;
    std::optional<int> layers;
    std::optional<int> hidden;
    std::optional<int> batch;
    std::optional<int> epochs;
    std::optional<double> lr;
    std::optional<double> weight_decay;
    std::optional<double> loss_threshold;
    int q = 32;        ///< relabelings per graph
    int out_dim = 16;  ///< d
    double alpha = 0.05;
    bool rapc = false;    ///< adaptive threshold (RAPC) instead of the fixed F threshold
    int rapc_groups = 2;  ///< p: groups of 2q relabelings per graph for RAPC
    bool train = true;    ///< false: random weights (training ablation)
    /// Record where the pair's time goes (EvalRecord::profile): the seconds of preparation (the
    /// relabelings, the model and its tensors), of the training steps' forward, backward and
    /// optimiser parts, of the first epoch, of the embeddings and of the decision, and the FLOPs of
    /// one epoch and of the embeddings counted from tensor shapes, and each operator's seconds in
    /// one training step (eval/cost.hpp). Not a setting: results are the same with it.
    bool profile = false;
    std::string device = "auto";
    std::string kernel = "auto";  ///< PPGN CPU kernels: auto, blas, torch (see ModelConfig)
    /// LibTorch intra-op threads for this pair, set on the calling thread (0 = leave as is).
    /// OpenMP keeps the thread count per calling thread, so parallel jobs each set their own.
    int torch_threads = 0;
    /// Pairs with fewer vertices than this run with ONE intra-op thread whatever torch_threads
    /// says: for small graphs OpenMP's start-up and spinning cost more than they save (measured
    /// 2-3x slower with 2 threads on Basic and GIN). 0 = off.
    int single_thread_below = 0;
    /// OpenBLAS threads, set per pair as the intra-op threads are (a pair below
    /// single_thread_below gets one): only when pairs run one at a time, since OpenBLAS's count is
    /// process-wide. 0 = leave it. Without it a small pair's products would run on as many BLAS
    /// threads as the run has cores, whose sums differ in the last bits from one thread's, and
    /// --jobs 1 would train such pairs differently from --jobs 2.
    int blas_threads = 0;
    bool output_norm = true;  ///< see ModelConfig::output_norm (ablation)
    /// Hotelling protocol's float32 noise floor (see RpcSettings::relative_noise).
    double relative_noise = 1e-5;
    /// Node features of a user's TorchScript module: "ones", "degree" or "label" (see
    /// ModelConfig::input_features); built-in models accept only "ones".
    std::string input_features = "ones";
    /// One-hot width of "label" features; 0 = max label + 1 of the pair (run_evaluation sets it
    /// from the whole dataset, so that every pair's module gets the same input width).
    int label_classes = 0;
    /// A user's module that is not in the registry (a Python module of the `brec` package): used
    /// instead of find_model(model), whose name `model` then only labels the records. Its
    /// spec.module_hash is part of the settings id.
    std::shared_ptr<const ModelEntry> user_model;
};

/// The model the options name: opt.user_model when set, else the registry's entry of opt.model.
const ModelEntry& model_entry(const EvalOptions& opt);

/// The model's registry defaults with the options' overrides applied. Throws InvalidArgument for
/// an unknown model or invalid values (q <= d, an odd batch, ...).
Hyper resolve_hyper(const EvalOptions& opt);

/// The one-hot width of "label" input features for a pair: its largest node label + 1. Throws
/// InvalidArgument naming the pair when a graph has no node labels.
int label_classes(const GraphPairRecord& pair);

/// The architecture settings of the model for these options (resolve_hyper's values).
ModelConfig model_config(const EvalOptions& opt);

/// What decides a pair under both protocols for these options (the model's reference inverse and
/// threshold from the registry).
RpcSettings rpc_settings(const EvalOptions& opt);

/// The model evaluate_pair(pair, opt, ...) trains for `pair`, its weights drawn from the
/// generators of `stream` (stream_seed(seed, pair id)) on `device`; `kernel` overrides opt.kernel
/// when not empty.
std::shared_ptr<GraphEmbedder> make_pair_model(const GraphPairRecord& pair, const EvalOptions& opt,
                                               std::uint64_t stream, torch::Device device,
                                               const std::string& kernel = "");

/// Whether evaluate_pair trains the model: opt.train, at least one epoch, and a parameter that
/// requires a gradient (a module without one, a fixed invariant, has nothing to train).
bool trains(const GraphEmbedder& model, const EvalOptions& opt, const Hyper& hp);

/// The optimisers of training: Adam with the hyperparameters' learning rate and weight decay, and
/// beside it the model's own optimisers (OSAN's sampler), unscheduled.
ModelOptimizers make_optimizers(GraphEmbedder& model, const Hyper& hp);

/// Seconds of the parts of training steps, summed (EvalOptions::profile).
struct StepSeconds {
    double forward = 0.0;   ///< the embeddings and the loss
    double backward = 0.0;  ///< loss.backward()
    double step = 0.0;      ///< zeroing the gradients and the optimisers' steps
};

/// One training step on graphs [begin, end) of the model's list (G and H interleaved): the Siamese
/// loss (cosine embedding loss with target -1 and margin 0, plus the model's auxiliary loss), its
/// backward pass and the optimisers' step. Returns the loss.
double siamese_step(GraphEmbedder& model, ModelOptimizers& optimizers, std::size_t begin, std::size_t end,
                    StepSeconds* seconds = nullptr);

/// Trains and judges one pair under both protocols. Every random draw (relabelings, which graph
/// gives the reliability group, initial weights, random operations of the model) comes from the
/// pair's own generators, seeded from stream_seed(seed, pair id); LibTorch's process-global
/// generator is never used. So results do not depend on --jobs, the order of pairs or sharding.
/// Determinism: on CPU the same seed, options and intra-op thread count give bitwise identical
/// T² values run to run (PPGN's BLAS kernels also do not depend on the thread count). On CUDA,
/// cuBLAS/cuDNN reductions and index_add_ (atomic adds) are not bitwise reproducible, so T² can
/// differ between runs: in the last digits, or more where the difference moves the epoch at which
/// early stopping fires (PPGN on all 400 pairs, H100, twice: 380 T² identical, all decisions
/// identical). Decisions far from the threshold do not change.
/// With `ctx`, training stops between epochs when the context is cancelled (throws Cancelled).
/// The record's settings_id is left empty (the run fills it in).
/// Throws InvalidArgument / Unsupported for bad options, Error for a LibTorch failure.
EvalRecord evaluate_pair(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed,
                         const RunContext* ctx = nullptr);

}  // namespace brec
