#pragma once
// Layers whose parameters are initialised from a generator passed in. LibTorch's own Linear and
// Embedding initialise themselves from the process-global generator in their constructors, which
// makes a pair's initial weights depend on what other threads drew first; these draw only from
// the generator they are given, with the same distributions as PyTorch's defaults unless asked
// otherwise.

#include <torch/torch.h>

namespace brec::nn {

/// How a Linear layer's parameters are drawn.
enum class Init {
    /// PyTorch's default: weight and bias ~ U(−1/√in, 1/√in) (kaiming_uniform with a = √5).
    torch_default,
    /// Xavier/Glorot normal weight N(0, 2/(in+out)), zero bias (the PPGN reference's scheme).
    xavier_normal,
    /// Xavier/Glorot uniform weight U(±√(6/(in+out))), zero bias.
    xavier_uniform,
};

/// Fills `t` with U(−bound, bound) from `gen`, without recording gradients.
void uniform_init(torch::Tensor& t, double bound, torch::Generator& gen);
/// Fills `t` with N(0, std²) from `gen`, without recording gradients.
void normal_init(torch::Tensor& t, double std, torch::Generator& gen);

/// y = x Wᵀ + b, W [out, in].
struct LinearImpl : torch::nn::Module {
    LinearImpl(std::int64_t in, std::int64_t out, torch::Generator& gen, Init init = Init::torch_default,
               bool with_bias = true);
    torch::Tensor forward(const torch::Tensor& x) { return torch::linear(x, weight, bias); }
    torch::Tensor weight, bias;  ///< bias undefined without one
};
TORCH_MODULE(Linear);

/// A lookup table [count, dim] ~ N(0, 1) (PyTorch's default), or N(0, std²) when std > 0.
struct EmbeddingImpl : torch::nn::Module {
    EmbeddingImpl(std::int64_t count, std::int64_t dim, torch::Generator& gen, double std = 0.0);
    torch::Tensor forward(const torch::Tensor& index);
    /// forward(index).sum(1) for an index [rows, k]: the sum of each row's k embeddings, in one
    /// kernel each way on the CPU with the same bits (gather_rows_sum in nn/batch.hpp).
    torch::Tensor forward_sum(const torch::Tensor& index);
    torch::Tensor weight;

private:
    std::vector<std::int64_t> out_shape(const torch::Tensor& index) const;
};
TORCH_MODULE(Embedding);

/// Linear(in, hidden) → BatchNorm1d(hidden) (PyTorch's defaults) → ReLU → Linear(hidden, out), each
/// Linear with PyTorch's default initialisation, with or without biases: the MLP inside the GIN
/// layers of ESAN and SUN (and, without biases, GNN-AK's GINE layers).
struct BnMlpImpl : torch::nn::Module {
    BnMlpImpl(std::int64_t in, std::int64_t hidden, std::int64_t out, torch::Generator& gen, bool with_bias = true);
    torch::Tensor forward(const torch::Tensor& x);
    Linear first{nullptr}, second{nullptr};
    torch::nn::BatchNorm1d norm{nullptr};
};
TORCH_MODULE(BnMlp);

/// Linear(in, hidden) → ReLU → Linear(hidden, out) with PyTorch's default initialisation; the
/// submodules are named "0" and "2" as in a torch.nn.Sequential of the three.
struct ReluMlpImpl : torch::nn::Module {
    ReluMlpImpl(std::int64_t in, std::int64_t hidden, std::int64_t out, torch::Generator& gen);
    torch::Tensor forward(const torch::Tensor& x) { return second->forward(torch::relu(first->forward(x))); }
    Linear first{nullptr}, second{nullptr};
};
TORCH_MODULE(ReluMlp);

/// BatchNorm1d with PyTorch's defaults, or the BREC models' "statistics only" variant
/// (affine off, momentum 1: eval mode then uses the statistics of the last training batch).
torch::nn::BatchNorm1d batch_norm(std::int64_t features, bool affine = true, double momentum = 0.1);

/// x itself, whose gradient is made contiguous on the way back. LibTorch 1.13's CPU BatchNorm
/// backward is about ten times slower for a strided gradient, such as the column slice that a
/// torch::cat hands back to each of its inputs: put this between a BatchNorm and a cat. The
/// BatchNorm's backward then sums in another order, so its gradients change within float rounding.
torch::Tensor contiguous_grad(const torch::Tensor& x);

}  // namespace brec::nn
