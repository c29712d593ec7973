#include "brec/nn/layers.hpp"

#include <cmath>

#include "brec/nn/batch.hpp"

namespace brec::nn {

void uniform_init(torch::Tensor& t, double bound, torch::Generator& gen) {
    torch::NoGradGuard guard;
    t.uniform_(-bound, bound, gen);
}

void normal_init(torch::Tensor& t, double std, torch::Generator& gen) {
    torch::NoGradGuard guard;
    t.normal_(0.0, std, gen);
}

LinearImpl::LinearImpl(std::int64_t in, std::int64_t out, torch::Generator& gen, Init init, bool with_bias) {
    weight = register_parameter("weight", torch::empty({out, in}));
    if (with_bias) bias = register_parameter("bias", torch::empty({out}));
    if (init == Init::xavier_normal || init == Init::xavier_uniform) {
        const auto fans = static_cast<double>(in + out);
        if (init == Init::xavier_normal)
            normal_init(weight, std::sqrt(2.0 / fans), gen);
        else
            uniform_init(weight, std::sqrt(6.0 / fans), gen);
        if (with_bias) {
            torch::NoGradGuard guard;
            bias.zero_();
        }
    } else {
        // kaiming_uniform_(a = √5) gives bound √(6 / ((1 + a²) fan_in)) = 1/√fan_in.
        const double bound = in > 0 ? 1.0 / std::sqrt(static_cast<double>(in)) : 0.0;
        uniform_init(weight, bound, gen);
        if (with_bias) uniform_init(bias, bound, gen);
    }
}

EmbeddingImpl::EmbeddingImpl(std::int64_t count, std::int64_t dim, torch::Generator& gen, double std) {
    weight = register_parameter("weight", torch::empty({count, dim}));
    normal_init(weight, std > 0 ? std : 1.0, gen);
}

torch::Tensor EmbeddingImpl::forward(const torch::Tensor& index) {
    return gather_rows(weight, index.reshape(-1)).view(out_shape(index));
}

torch::Tensor EmbeddingImpl::forward_sum(const torch::Tensor& index) { return gather_rows_sum(weight, index); }

std::vector<std::int64_t> EmbeddingImpl::out_shape(const torch::Tensor& index) const {
    std::vector<std::int64_t> shape(index.sizes().begin(), index.sizes().end());
    shape.push_back(weight.size(1));
    return shape;
}

BnMlpImpl::BnMlpImpl(std::int64_t in, std::int64_t hidden, std::int64_t out, torch::Generator& gen, bool with_bias) {
    first = register_module("first", Linear(in, hidden, gen, Init::torch_default, with_bias));
    norm = register_module("norm", batch_norm(hidden));
    second = register_module("second", Linear(hidden, out, gen, Init::torch_default, with_bias));
}

torch::Tensor BnMlpImpl::forward(const torch::Tensor& x) {
    return second->forward(torch::relu(norm->forward(first->forward(x))));
}

ReluMlpImpl::ReluMlpImpl(std::int64_t in, std::int64_t hidden, std::int64_t out, torch::Generator& gen) {
    first = register_module("0", Linear(in, hidden, gen));
    second = register_module("2", Linear(hidden, out, gen));
}

torch::nn::BatchNorm1d batch_norm(std::int64_t features, bool affine, double momentum) {
    return torch::nn::BatchNorm1d(torch::nn::BatchNorm1dOptions(features).affine(affine).momentum(momentum));
}

namespace {

struct ContiguousGrad : torch::autograd::Function<ContiguousGrad> {
    static torch::Tensor forward(torch::autograd::AutogradContext*, const torch::Tensor& x) { return x.view_as(x); }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext*, torch::autograd::tensor_list grad) {
        return {grad[0].contiguous()};
    }
};

}  // namespace

torch::Tensor contiguous_grad(const torch::Tensor& x) {
    if (!x.requires_grad() || !torch::GradMode::is_enabled()) return x;
    return ContiguousGrad::apply(x);
}

}  // namespace brec::nn
