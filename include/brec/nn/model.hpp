#pragma once
// What every GNN of brec is: a torch module that embeds a list of graphs, prepared once as
// tensors, into d-dimensional vectors; plus the per-pair random generators it draws from.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "brec/graph/graph.hpp"

namespace brec {

/// A LibTorch generator for `device` seeded with `seed`, independent of LibTorch's process-global
/// generators (which are shared by all threads, so drawing from them makes a result depend on
/// scheduling). On CUDA it is a fresh CUDA generator of that device.
torch::Generator make_generator(torch::Device device, std::uint64_t seed);

/// The random streams of one model instance. Parameters are initialised on the CPU from `init`, so
/// a seed gives the same initial weights on every device; random operations of training and
/// inference (node drops, sampling noise, attention dropout) draw from `run`, a generator of the
/// model's device.
struct ModelRandom {
    torch::Generator init;
    torch::Generator run;
};
/// Both generators of a model, derived from one 64-bit stream (e.g. the stream of (seed, pair id)).
ModelRandom make_model_random(std::uint64_t stream, torch::Device device);

/// What a model's output is. `embedding`: out_dim values per graph (the RPC test's vectors).
/// `regression`: one value per graph, a count. GIN, PPGN and I²-GNN then build the counting
/// architectures of Campi et al. (2023), whose regression heads are small MLPs; every other model
/// keeps its architecture with the last Linear mapping to 1 and no output BatchNorm (a normalised
/// output could not take the scale of a count). make_model sets out_dim = 1 and output_norm = false.
enum class Head { embedding, regression };

/// The architecture settings a model is built with (the training settings live in eval).
struct ModelConfig {
    Head head = Head::embedding;
    int radius = 0;  ///< subgraph radius / hop count / distance cap, as the model defines it
    int layers = 4;
    int hidden = 32;
    int out_dim = 16;  ///< d, the embedding dimension judged by RPC
    /// BatchNorm1d on the output where the model has one (the BREC models do). With it, a batch of
    /// consecutive (G, H) pairs is centred so that f(G) = −f(H) for every pair the model separates
    /// at all; false is an ablation that shows the loss actually training.
    bool output_norm = true;
    /// PPGN's CPU kernels: "auto" (BLAS kernels when sgemm_ is found), "blas", or "torch" (torch ops
    /// only; what CUDA tensors always use). "torch" also turns off the fused CPU layers of the
    /// models that have them (the GIN layers of DS-GNN, DSS-GNN, DropGNN and δ-2-LGNN, GNN-AK's
    /// inner GINE layers and distance gates, I²-GNN's GRU gates, SSWL+'s layers); other models
    /// ignore it.
    std::string kernel = "auto";
    /// The node features of a user's TorchScript module (built-in models make their own): "ones"
    /// (one column of ones), "degree" (one column) or "label" (one-hot node label, label_classes
    /// columns).
    std::string input_features = "ones";
    int label_classes = 0;
};

/// Parameters of a model that training steps with an Adam of their own, with its own learning rate
/// and weight decay and no learning-rate scheduler, instead of the training loop's optimizer (OSAN
/// trains its subgraph sampler so).
struct OwnOptimizer {
    std::vector<torch::Tensor> parameters;
    double lr = 1e-3;
    double weight_decay = 0.0;
};

/// A model that embeds graphs. set_graphs converts a list of graphs to the model's tensors on
/// `device`, once; forward_range(begin, end) embeds graphs [begin, end) of that list as one batch
/// and returns [end − begin, out_dim]. Batches are built at most once per range and reused, so
/// an epoch costs only the forward and backward passes.
///
/// Two optional hooks let a model shape its own training (a training loop honours both by using
/// ModelOptimizers and adding take_auxiliary_loss() to its loss):
///  * own_optimizers(): parameter groups stepped by optimizers of their own; every other parameter
///    is the training loop's. Default: none.
///  * take_auxiliary_loss(): a term the last forward_range in training mode adds to the training
///    loss (a regulariser of the model's own), or an undefined tensor (the default). Taking it
///    clears it.
class GraphEmbedder : public torch::nn::Module {
public:
    virtual void set_graphs(const std::vector<Graph>& graphs, torch::Device device) = 0;
    virtual torch::Tensor forward_range(std::size_t begin, std::size_t end) = 0;
    virtual std::vector<OwnOptimizer> own_optimizers() { return {}; }
    virtual torch::Tensor take_auxiliary_loss() { return {}; }
    /// The top-level submodules (as named_children() names them) that form the regression head: the
    /// final readout from pooled features to the count, what "retrain only the last MLP" trains.
    /// Empty (the default): the model has no separate head.
    virtual std::vector<std::string> regression_head() const { return {}; }
};

/// The optimizers that train a model: one Adam with `main` over every parameter outside the model's
/// own_optimizers() groups, and one Adam per group with that group's learning rate and weight
/// decay. zero_grad and step act on all of them; a learning-rate scheduler adjusts main() only.
class ModelOptimizers {
public:
    ModelOptimizers(GraphEmbedder& model, const torch::optim::AdamOptions& main);
    torch::optim::Adam& main() { return *main_; }
    void zero_grad();
    void step();

private:
    std::unique_ptr<torch::optim::Adam> main_;
    std::vector<std::unique_ptr<torch::optim::Adam>> own_;
};

}  // namespace brec
