#pragma once
// What every user's module shares, however it is given (a TorchScript file, or a Python module
// through the `brec` Python package): the inputs brec hands its forward, the check of its output,
// brec's rule for drawing its parameters again per pair, and the probe run before any pair.
//
// The interface: forward(x: Tensor[N, F] float32, edge_index: Tensor[2, E] int64, batch: Tensor[N]
// int64, num_graphs: int) -> Tensor[B, d]. edge_index holds both directions of every edge (row 0
// sources, row 1 targets, the arcs of nn::SparseBatch), batch the graph (0..B−1) of each node;
// x is a column of ones, the degree, or the one-hot node label (ModelConfig::input_features).
//
// Fresh weights per pair (reinitialise_parameters), drawn from the pair's generator, never from
// LibTorch's global one, by PyTorch's default rule for the usual layers:
//   * a parameter with two or more dimensions (Linear, Conv, Embedding, ... weights):
//     U(−1/√fan_in, 1/√fan_in), fan_in = size(1) · Π size(2..) (kaiming_uniform with a = √5);
//   * a 1-D "bias" whose sibling "weight" has two or more dimensions: U(−1/√fan_in, 1/√fan_in)
//     with the weight's fan_in; a 1-D "bias" whose sibling "weight" is 1-D: 0;
//   * a 1-D "weight" (normalisation scale): 1;
//   * anything else (scalars such as GIN's ε, other 1-D parameters) keeps its value;
//     normalisation buffers running_mean / running_var / num_batches_tracked restart at 0 / 1 / 0.

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "brec/graph/graph.hpp"
#include "brec/nn/registry.hpp"

namespace brec::nn {

/// The inputs of a user's forward for graphs [begin, end) of `graphs`.
struct UserInputs {
    torch::Tensor x;           ///< [N, F] float32 (ModelConfig::input_features)
    torch::Tensor edge_index;  ///< [2, E] int64, both directions of every edge
    torch::Tensor batch;       ///< [N] int64, the graph of each node
    torch::Tensor ptr;         ///< [B + 1] int64, the first node of each graph (PyG's Batch.ptr)
    std::int64_t graphs = 0;
};

/// Throws InvalidArgument for input features other than ones, degree and label, or label features
/// without classes.
void check_input_features(const ModelConfig& config);

/// The inputs of graphs [begin, end) on `device`. Throws InvalidArgument for a node label outside
/// the one-hot width.
UserInputs make_user_inputs(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                            const ModelConfig& config, torch::Device device);

/// Checks a forward's output for `graphs` graphs: a floating tensor [graphs, out_dim]. Returns it as
/// float32; throws InvalidArgument starting with `where` otherwise.
torch::Tensor checked_user_output(const torch::Tensor& out, std::int64_t graphs, int out_dim, const std::string& where);

using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;
/// Draws `parameters` again from `gen` and resets the normalisation `buffers` (the file comment's
/// rule), in the order given (registration order); names are dotted paths ("conv1.lin.weight").
void reinitialise_parameters(const NamedTensors& parameters, const NamedTensors& buffers, torch::Generator& gen);

/// The probe of a user's module before any pair runs: a model made by `make` as a pair's would be,
/// on four tiny graphs (a 4-cycle, a star, a path and the 4-cycle again), in training mode with a
/// backward pass when it has trainable parameters, then in eval mode. Throws InvalidArgument
/// starting with `where` for NaN or infinite outputs, an output that does not depend on the
/// parameters, or a failing backward pass (the model's own forward reports shape faults).
void probe_user_model(const ModelFactory& make, const ModelConfig& config, const std::string& where);

/// Seeds LibTorch's global generator of `device` with `seed` for one forward pass of a user's module
/// that draws from it, and returns the lock every such pass holds while it runs: passes that draw
/// from the global generator take turns, so their draws do not depend on --jobs.
std::unique_lock<std::mutex> seed_global_generator(torch::Device device, std::uint64_t seed);

/// A LibTorch or TorchScript error (many lines, with tracebacks) as one line of at most `limit` characters.
std::string one_line_error(const std::exception& e, std::size_t limit = 300);

}  // namespace brec::nn
