#pragma once
// Siamese training + RPC on graph pairs (SPEC §5). For each pair a fresh model is trained to tell
// q relabelings of G from q relabelings of H (cosine embedding loss, margin 0) and then judged by
// Hotelling's T² against a reliability group of 2q relabelings of one graph.
//
// @article{wang2023towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, journal={arXiv:2304.07702}, year={2023}}

#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"
#include "brec/stats/hotelling.hpp"

namespace brec {

struct EvalOptions {
    std::string model = "ppgn";
    // Hyperparameters; negative = the model's row of the SPEC table.
    int layers = -1;
    int hidden = -1;
    int batch = -1;
    int epochs = -1;
    double lr = -1;
    double weight_decay = -1;
    double loss_threshold = -1;
    int q = 32;        ///< relabelings per graph
    int out_dim = 16;  ///< d
    double alpha = 0.05;
    bool rapc = false;    ///< adaptive threshold (RAPC) instead of the fixed F threshold
    int rapc_groups = 2;  ///< p: groups of 2q relabelings per graph for RAPC
    bool train = true;    ///< false: random weights (training ablation)
    std::string device = "auto";
    std::string kernel = "auto";  ///< PPGN CPU kernels: auto, blas, torch (see EmbedderOptions)
    /// LibTorch intra-op threads for this pair, set on the calling thread (0 = leave as is).
    /// OpenMP keeps the thread count per calling thread, so parallel jobs each set their own.
    int torch_threads = 0;
    /// Pairs with fewer vertices than this run with ONE intra-op thread whatever torch_threads
    /// says: for small graphs OpenMP's start-up and spinning cost more than they save (measured
    /// 2-3x slower with 2 threads on Basic and GIN). 0 = off.
    int single_thread_below = 0;
    bool output_norm = true;  ///< see EmbedderOptions::output_norm (ablation)
    T2Form t2_form = T2Form::standard;
    /// Differences between paired embeddings smaller than this, relative to the largest embedding
    /// entry (scale = max(1, max |entry|)), are float32 rounding and carry no information:
    /// (noise · scale)² is added to the covariance diagonal (see hotelling_t2_paired's
    /// noise_variance). 0 = the plain pseudo-inverse.
    double relative_noise = 1e-5;
};

/// Hyperparameters after applying the model's defaults.
struct ResolvedHyper {
    int layers, hidden, batch, epochs;
    double lr, weight_decay, loss_threshold;
};
/// Throws InvalidArgument for an unknown model or invalid values (q <= d, batch < 2, ...).
ResolvedHyper resolve_hyper(const EvalOptions& opt);

struct PairEvaluation {
    PairId id = 0;
    std::string category;
    VertexId n = 0;
    double t2_test = 0.0;
    double t2_reliability = 0.0;
    double threshold = 0.0;
    bool distinguished = false;
    bool reliable = false;
    int epochs = 0;
    double final_loss = 0.0;
    std::vector<double> losses;
    double seconds = 0.0;        ///< the whole pair: data, training and the RPC decision
    double train_seconds = 0.0;  ///< training only (epochs × batches of forward + backward)
};

/// `count` relabelings of g: the first is g itself, the others random relabelings that are
/// distinct as labelled graphs where possible (re-drawn up to 100 times, as the reference).
std::vector<Graph> relabelings(const Graph& g, int count, Rng& rng);

/// Hotelling T² of consecutive rows (0 against 1, 2 against 3, ...) of a 2q × d embedding matrix,
/// with the float32 noise floor of EvalOptions::relative_noise. Complexity O(q d² + d³).
double paired_t2(const Eigen::MatrixXd& embeddings, T2Form form, double relative_noise);

/// The RPC decision from embeddings already computed: `test` holds f(G_1), f(H_1), f(G_2), ...;
/// `reliability` the 2q relabelings of one graph, paired consecutively (both 2q × d). The
/// threshold uses q = rows / 2, d = cols and opt.alpha. Throws InvalidArgument on shape mismatch.
RpcDecision rpc_from_embeddings(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reliability,
                                const EvalOptions& opt);

/// Trains and judges one pair. All randomness (relabelings, which graph gives the reliability
/// group, model initialisation via torch::manual_seed) comes from stream_seed(seed, pair id), so
/// results do not depend on --jobs, the order of pairs or sharding.
/// Determinism: on CPU the same seed, options and intra-op thread count give bitwise identical
/// T² values run to run (PPGN's BLAS kernels also do not depend on the thread count). On CUDA,
/// cuBLAS/cuDNN reductions and GIN's index_add_ (atomic adds) are not bitwise reproducible, so
/// T² can differ between runs: in the last digits, or more where the difference moves the epoch at
/// which early stopping fires (PPGN on all 400 pairs, H100, twice: 380 T² identical, all decisions
/// identical). Decisions far from the threshold do not change.
/// Throws InvalidArgument / Unsupported for bad options.
PairEvaluation evaluate_pair(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed);

/// Sets LibTorch's intra-op threads (process-wide) and returns the previous value.
int set_torch_threads(int threads);
/// Names of the implemented models and the whole SPEC table as text, for --list-models.
std::string describe_models();

}  // namespace brec
