// The fused GIN + BatchNorm layer (nn/fused_gin) against the same layer composed of LibTorch's
// modules in double precision: outputs, every gradient, the running statistics and eval mode.
#include <gtest/gtest.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/fused_gin.hpp"
#include "brec/nn/layers.hpp"
#include "brec/nn/registry.hpp"
#include "common/test_graphs.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

/// A random symmetric graph on `rows` vertices with about 3·rows / 2 edges and some isolated
/// vertices (rows a multiple of neither the kernels' block nor a vector).
nn::Adjacency random_adjacency(std::int64_t rows, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<std::int64_t> pick(0, rows - 1);
    std::vector<std::int64_t> src, dst;
    for (std::int64_t e = 0; e < 3 * rows / 2; ++e) {
        const auto u = pick(gen), v = pick(gen);
        if (u == v || u % 17 == 0 || v % 17 == 0) continue;
        src.insert(src.end(), {u, v});
        dst.insert(dst.end(), {v, u});
    }
    return nn::make_adjacency(torch::tensor(src), torch::tensor(dst), rows);
}

struct Modules {
    nn::BnMlp mlp{nullptr};
    torch::nn::BatchNorm1d norm{nullptr};
};

/// The GIN's MLP and BatchNorm at `width`, reading rows `in` wide (δ-2-LGNN's combining MLPs
/// read two GINs' outputs side by side); GNN-AK's GINE has Linears without bias.
Modules make_modules(std::int64_t width, std::uint64_t seed, std::int64_t in = 0, bool with_bias = true) {
    auto gen = at::detail::createCPUGenerator(seed);
    Modules m;
    m.mlp = nn::BnMlp(in > 0 ? in : width, width, width, gen, with_bias);
    m.norm = nn::batch_norm(width);
    // Non-trivial affine parameters, so that γ and β enter every gradient.
    torch::NoGradGuard no_grad;
    for (auto* bn : {&m.mlp->norm, &m.norm}) {
        (*bn)->weight.uniform_(0.5, 1.5, gen);
        (*bn)->bias.uniform_(-0.3, 0.3, gen);
    }
    return m;
}

/// make_modules(width, seed, in, with_bias) in double precision: the reference the fused layer is
/// held to.
Modules make_reference(std::int64_t width, std::uint64_t seed, std::int64_t in = 0, bool with_bias = true) {
    Modules m = make_modules(width, seed, in, with_bias);
    m.mlp->to(torch::kDouble);
    m.norm->to(torch::kDouble);
    return m;
}

std::vector<torch::Tensor> parameters(const Modules& m) {
    return {m.mlp->first->weight,  m.mlp->first->bias,  m.mlp->norm->weight, m.mlp->norm->bias,
            m.mlp->second->weight, m.mlp->second->bias, m.norm->weight,      m.norm->bias};
}

/// The term `t` as gin_bn_layer takes it: a function returning t, or none when t is undefined.
std::function<torch::Tensor()> term(const torch::Tensor& t) {
    if (!t.defined()) return {};
    return [t] { return t; };
}

using testing::max_difference;

/// Every parameter's gradient of `fused` within float rounding of the double `reference`'s (which
/// is not zero), and both BatchNorms' running statistics.
void expect_gradients_and_statistics_match(const Modules& fused, const Modules& reference) {
    const auto p = parameters(fused), pd = parameters(reference);
    for (std::size_t i = 0; i < p.size(); ++i) {
        EXPECT_LT(max_difference(p[i].grad(), pd[i].grad()), 2e-4 * (1.0 + pd[i].grad().abs().max().item<double>()))
            << "parameter " << i;
        EXPECT_GT(pd[i].grad().abs().max().item<double>(), 0.0) << "parameter " << i;
    }
    for (auto [bn, bnd] : {std::pair{fused.mlp->norm, reference.mlp->norm}, std::pair{fused.norm, reference.norm}}) {
        EXPECT_LT(max_difference(bn->running_mean, bnd->running_mean), 1e-6);
        EXPECT_LT(max_difference(bn->running_var, bnd->running_var), 1e-5);
    }
}

// (width, whether a term is added before the last ReLU, as DSS-GNN adds its cross-subgraph term).
class FusedGinLayer : public ::testing::TestWithParam<std::tuple<std::int64_t, bool>> {};

TEST_P(FusedGinLayer, MatchesTheComposedModulesInDoubleWithGradientsAndRunningStatistics) {
    const auto [width, with_extra] = GetParam();
    const std::int64_t rows = 700;
    const auto adj = random_adjacency(rows, 7);
    Modules fused = make_modules(width, 11), reference = make_reference(width, 11);

    auto gen = at::detail::createCPUGenerator(5);
    const auto x0 = torch::randn({rows, width}, gen);
    const auto upstream = torch::randn({rows, width}, gen);
    const auto e0 = torch::randn({rows, width}, gen);
    auto x = x0.clone().requires_grad_(true);
    auto xd = x0.to(torch::kDouble).requires_grad_(true);
    torch::Tensor e, ed;  // undefined without the extra term
    if (with_extra) {
        e = e0.clone().requires_grad_(true);
        ed = e0.to(torch::kDouble).requires_grad_(true);
    }
    ASSERT_TRUE(nn::gin_bn_layer_fused(x, fused.mlp, fused.norm));

    const auto y = nn::gin_bn_layer(x, adj, fused.mlp, fused.norm, /*fused=*/true, term(e));
    auto zd = reference.norm->forward(reference.mlp->forward(xd + nn::neighbour_sum(xd, adj)));
    const auto yd = torch::relu(with_extra ? zd + ed : zd);
    EXPECT_LT(max_difference(y, yd), 2e-5);
    EXPECT_GT(yd.abs().max().item<double>(), 0.5);  // the outputs are not trivially zero

    (y * upstream).sum().backward();
    (yd * upstream.to(torch::kDouble)).sum().backward();
    EXPECT_LT(max_difference(x.grad(), xd.grad()), 1e-4 * (1.0 + xd.grad().abs().max().item<double>()));
    if (with_extra) {
        EXPECT_LT(max_difference(e.grad(), ed.grad()), 1e-6 * (1.0 + ed.grad().abs().max().item<double>()));
        EXPECT_GT(ed.grad().abs().max().item<double>(), 0.0);
    }
    const auto p = parameters(fused), pd = parameters(reference);
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double scale = 1.0 + pd[i].grad().abs().max().item<double>();
        EXPECT_LT(max_difference(p[i].grad(), pd[i].grad()), 2e-4 * scale) << "parameter " << i;
        EXPECT_GT(pd[i].grad().abs().max().item<double>(), 0.0) << "parameter " << i;
    }
    for (auto [bn, bnd] : {std::pair{fused.mlp->norm, reference.mlp->norm}, std::pair{fused.norm, reference.norm}}) {
        EXPECT_LT(max_difference(bn->running_mean, bnd->running_mean), 1e-6);
        EXPECT_LT(max_difference(bn->running_var, bnd->running_var), 1e-5);
        EXPECT_EQ(bn->num_batches_tracked.item<std::int64_t>(), 1);
    }

    // Eval mode: the running statistics normalise.
    fused.mlp->eval();
    fused.norm->eval();
    reference.mlp->eval();
    reference.norm->eval();
    torch::NoGradGuard no_grad;
    ASSERT_TRUE(nn::gin_bn_layer_fused(x0, fused.mlp, fused.norm));
    const auto xd0 = x0.to(torch::kDouble);
    zd = reference.norm->forward(reference.mlp->forward(xd0 + nn::neighbour_sum(xd0, adj)));
    EXPECT_LT(max_difference(nn::gin_bn_layer(x0, adj, fused.mlp, fused.norm, /*fused=*/true,
                                              term(with_extra ? e0 : torch::Tensor())),
                             torch::relu(with_extra ? zd + e0.to(torch::kDouble) : zd)),
              2e-5);
}

INSTANTIATE_TEST_SUITE_P(Widths, FusedGinLayer, ::testing::Combine(::testing::Values(16, 32, 64), ::testing::Bool()));

TEST(FusedGinLayer, TrainableEpsMatchesTheModulesInDouble) {
    // δ-2-LGNN's GIN: MLP((1 + ε) x + Σ) with ε a parameter; its gradient is Σ x · (the gradient at
    // the MLP's input), which the fused backward sums in double per block.
    const std::int64_t rows = 600, width = 16;
    const auto adj = random_adjacency(rows, 5);
    Modules fused = make_modules(width, 3), reference = make_reference(width, 3);
    auto gen = at::detail::createCPUGenerator(8);
    const auto x0 = torch::randn({rows, width}, gen);
    const auto upstream = torch::randn({rows, width}, gen);
    auto x = x0.clone().requires_grad_(true);
    auto xd = x0.to(torch::kDouble).requires_grad_(true);
    auto eps = torch::full({1}, 0.3f).requires_grad_(true);
    auto epsd = torch::full({1}, 0.3, torch::kDouble).requires_grad_(true);
    const nn::GinBnModules m{fused.mlp->first, fused.mlp->norm, fused.mlp->second, fused.norm};
    ASSERT_TRUE(nn::gin_bn_layer_fused(x, m, eps));
    const auto y = nn::gin_bn_layer(x, adj, m, /*fused=*/true, {}, eps);
    const auto yd =
        torch::relu(reference.norm->forward(reference.mlp->forward((1 + epsd) * xd + nn::neighbour_sum(xd, adj))));
    EXPECT_LT(max_difference(y, yd), 2e-5);
    (y * upstream).sum().backward();
    (yd * upstream.to(torch::kDouble)).sum().backward();
    EXPECT_LT(max_difference(x.grad(), xd.grad()), 1e-4 * (1.0 + xd.grad().abs().max().item<double>()));
    const double ge = epsd.grad().item<double>();
    EXPECT_GT(std::abs(ge), 1.0);  // ε enters the output: its gradient is not trivially zero
    EXPECT_NEAR(eps.grad().item<double>(), ge, 1e-4 * (1.0 + std::abs(ge)));
    const auto p = parameters(fused), pd = parameters(reference);
    for (std::size_t i = 0; i < p.size(); ++i)
        EXPECT_LT(max_difference(p[i].grad(), pd[i].grad()), 2e-4 * (1.0 + pd[i].grad().abs().max().item<double>()))
            << "parameter " << i;
}

TEST(FusedGinLayer, ANarrowInputPaddedWithZerosMatchesTheModulesInDouble) {
    // δ-2-LGNN's first GINs read 3 input columns into an MLP of width 16: with pad_input, x and the
    // first weight get 13 zero columns and the fused kernel runs. The first weight's gradient must
    // come back [16, 3], and ε's and every other gradient as the modules make them on the narrow x.
    const std::int64_t rows = 600, in = 3, width = 16;
    const auto adj = random_adjacency(rows, 13);
    Modules fused = make_modules(width, 17, in), reference = make_reference(width, 17, in);
    auto gen = at::detail::createCPUGenerator(19);
    const auto x0 = torch::randn({rows, in}, gen);
    const auto upstream = torch::randn({rows, width}, gen);
    const nn::GinBnModules m{fused.mlp->first, fused.mlp->norm, fused.mlp->second, fused.norm};
    EXPECT_FALSE(nn::gin_bn_layer_fused(x0, m));  // not without pad_input
    auto eps = torch::full({1}, 0.3f).requires_grad_(true);
    ASSERT_TRUE(nn::gin_bn_layer_fused(x0, m, eps, /*pad_input=*/true));
    auto x = x0.clone().requires_grad_(true);
    const auto y = nn::gin_bn_layer(x, adj, m, /*fused=*/true, {}, eps, /*pad_input=*/true);
    ASSERT_EQ(y.sizes(), (std::vector<std::int64_t>{rows, width}));

    auto xd = x0.to(torch::kDouble).requires_grad_(true);
    auto epsd = torch::full({1}, 0.3, torch::kDouble).requires_grad_(true);
    const auto yd =
        torch::relu(reference.norm->forward(reference.mlp->forward((1 + epsd) * xd + nn::neighbour_sum(xd, adj))));
    EXPECT_LT(max_difference(y, yd), 2e-5);
    EXPECT_GT(yd.abs().max().item<double>(), 0.5);
    (y * upstream).sum().backward();
    (yd * upstream.to(torch::kDouble)).sum().backward();
    ASSERT_EQ(x.grad().sizes(), x0.sizes());
    EXPECT_LT(max_difference(x.grad(), xd.grad()), 1e-4 * (1.0 + xd.grad().abs().max().item<double>()));
    const double ge = epsd.grad().item<double>();
    EXPECT_GT(std::abs(ge), 1.0);
    EXPECT_NEAR(eps.grad().item<double>(), ge, 1e-4 * (1.0 + std::abs(ge)));
    ASSERT_EQ(fused.mlp->first->weight.grad().sizes(), (std::vector<std::int64_t>{width, in}));
    expect_gradients_and_statistics_match(fused, reference);
}

TEST(FusedGinLayer, AnInputWithoutGradientGivesTheSameParameterGradientsBitForBit) {
    // Where x needs no gradient (a model's input), the backward skips x's pass over the arcs but
    // still sums ε's gradient there: every parameter's gradient must be the one it has when x's
    // gradient is made too.
    const std::int64_t rows = 500, width = 16;
    const auto adj = random_adjacency(rows, 23);
    auto gen = at::detail::createCPUGenerator(29);
    const auto x0 = torch::randn({rows, width}, gen);
    const auto upstream = torch::randn({rows, width}, gen);
    std::vector<std::vector<torch::Tensor>> grads;
    for (const bool x_grad : {true, false}) {
        Modules mods = make_modules(width, 31);
        const nn::GinBnModules m{mods.mlp->first, mods.mlp->norm, mods.mlp->second, mods.norm};
        auto eps = torch::full({1}, 0.2f).requires_grad_(true);
        auto x = x0.clone().requires_grad_(x_grad);
        (nn::gin_bn_layer(x, adj, m, /*fused=*/true, {}, eps) * upstream).sum().backward();
        EXPECT_EQ(x.grad().defined(), x_grad);
        auto g = parameters(mods);
        for (auto& t : g) t = t.grad();
        g.push_back(eps.grad());
        grads.push_back(g);
    }
    for (std::size_t i = 0; i < grads[0].size(); ++i)
        EXPECT_TRUE(torch::equal(grads[0][i], grads[1][i])) << "gradient " << i;
}

// (input width, MLP width): the GIN and the plain BatchNorm MLP with x twice as wide as the MLP,
// as δ-2-LGNN combines the outputs of its two GINs.
class FusedWiderInput : public ::testing::TestWithParam<std::tuple<std::int64_t, std::int64_t, bool>> {};

TEST_P(FusedWiderInput, MatchesTheModulesInDoubleWithGradientsAndRunningStatistics) {
    const auto [in, width, with_gin] = GetParam();
    const std::int64_t rows = 650;
    const auto adj = random_adjacency(rows, 9);
    Modules fused = make_modules(width, 21, in), reference = make_reference(width, 21, in);
    auto gen = at::detail::createCPUGenerator(4);
    const auto x0 = torch::randn({rows, in}, gen);
    const auto upstream = torch::randn({rows, width}, gen);
    auto x = x0.clone().requires_grad_(true);
    auto xd = x0.to(torch::kDouble).requires_grad_(true);
    const nn::GinBnModules m{fused.mlp->first, fused.mlp->norm, fused.mlp->second, fused.norm};
    ASSERT_TRUE(nn::gin_bn_layer_fused(x, m));
    const auto y = with_gin ? nn::gin_bn_layer(x, adj, m) : nn::bn_mlp_layer(x, m);
    ASSERT_EQ(y.sizes(), (std::vector<std::int64_t>{rows, width}));
    const auto yd =
        torch::relu(reference.norm->forward(reference.mlp->forward(with_gin ? xd + nn::neighbour_sum(xd, adj) : xd)));
    EXPECT_LT(max_difference(y, yd), 2e-5);
    EXPECT_GT(yd.abs().max().item<double>(), 0.5);
    (y * upstream).sum().backward();
    (yd * upstream.to(torch::kDouble)).sum().backward();
    EXPECT_LT(max_difference(x.grad(), xd.grad()), 1e-4 * (1.0 + xd.grad().abs().max().item<double>()));
    expect_gradients_and_statistics_match(fused, reference);
    // Eval mode: the running statistics normalise.
    for (auto* mods : {&fused, &reference}) {
        mods->mlp->eval();
        mods->norm->eval();
    }
    torch::NoGradGuard no_grad;
    const auto xe = x0.to(torch::kDouble);
    const auto ye = with_gin ? nn::gin_bn_layer(x0, adj, m) : nn::bn_mlp_layer(x0, m);
    EXPECT_LT(max_difference(ye, torch::relu(reference.norm->forward(
                                     reference.mlp->forward(with_gin ? xe + nn::neighbour_sum(xe, adj) : xe)))),
              2e-5);
}

INSTANTIATE_TEST_SUITE_P(Widths, FusedWiderInput,
                         ::testing::Values(std::tuple{32, 16, false}, std::tuple{64, 32, false},
                                           std::tuple{16, 16, false}, std::tuple{32, 16, true}));

TEST(FusedGinLayer, TheMlpOnTwoHalvesIsTheMlpOnTheirConcatenationBitForBit) {
    // δ-2-LGNN's combination reads its two GINs' outputs where they are, without the concatenation:
    // the same operations on the same values, so the same bits, forward and backward.
    const std::int64_t rows = 900;
    auto gen = at::detail::createCPUGenerator(31);
    const auto a0 = torch::randn({rows, 16}, gen), b0 = torch::randn({rows, 16}, gen);
    const auto upstream = torch::randn({rows, 16}, gen);
    std::vector<std::vector<torch::Tensor>> runs;
    for (const bool halves : {false, true}) {
        auto mgen = at::detail::createCPUGenerator(37);
        nn::BnMlp mlp(32, 16, 16, mgen);
        auto norm = nn::batch_norm(16);
        const nn::GinBnModules m{mlp->first, mlp->norm, mlp->second, norm};
        auto a = a0.clone().requires_grad_(true), b = b0.clone().requires_grad_(true);
        ASSERT_TRUE(nn::gin_bn_layer_fused(torch::cat({a0, b0}, 1), m));
        const auto y = halves ? nn::bn_mlp_layer(a, b, m) : nn::bn_mlp_layer(torch::cat({a, b}, 1), m);
        (y * upstream).sum().backward();
        std::vector<torch::Tensor> out{y, a.grad(), b.grad(), norm->running_mean, mlp->norm->running_var};
        for (const auto& p : mlp->parameters()) out.push_back(p.grad());
        runs.push_back(out);
    }
    ASSERT_GT(runs[0][2].abs().max().item<double>(), 0.0);  // the second half gets its gradient
    for (std::size_t i = 0; i < runs[0].size(); ++i) EXPECT_TRUE(torch::equal(runs[0][i], runs[1][i])) << i;

    // Not fused: torch::cat, then the modules (as δ-2-LGNN wrote it before the kernel).
    auto mgen = at::detail::createCPUGenerator(37);
    nn::BnMlp mlp(32, 16, 16, mgen);
    auto norm = nn::batch_norm(16);
    mgen = at::detail::createCPUGenerator(37);
    nn::BnMlp again(32, 16, 16, mgen);
    auto norm_again = nn::batch_norm(16);
    const auto expected = torch::relu(norm->forward(
        mlp->second->forward(torch::relu(mlp->norm->forward(mlp->first->forward(torch::cat({a0, b0}, 1)))))));
    EXPECT_TRUE(torch::equal(
        nn::bn_mlp_layer(a0, b0, {again->first, again->norm, again->second, norm_again}, /*fused=*/false), expected));
}

TEST(FusedGinLayer, AMeanInsideTheLayerIsTheMeanAfterItBitForBit) {
    // DropGNN's readout of its runs and DSS-GNN's mean of each node's copies: the mean made by the
    // fused function, whose backward adds its gradient to the output's, against the mean taken after
    // the layer. Both orders of reading (the output read on, as a middle layer; only the mean read,
    // as the last) and the modules' path.
    const std::int64_t runs = 20, nodes = 37, width = 16;  // 740 rows: blocks of the kernel split runs
    const auto adj = random_adjacency(runs * nodes, 5);
    auto gen = at::detail::createCPUGenerator(41);
    const auto x0 = torch::randn({runs * nodes, width}, gen);
    const auto up_y = torch::randn({runs * nodes, width}, gen), up_mean = torch::randn({nodes, width}, gen);
    // Groups of unequal sizes in no order, one of them empty (its mean 0).
    const auto groups = nn::make_grouping(torch::randint(nodes - 1, {runs * nodes}, gen, torch::kLong), nodes);
    for (const bool per_group : {false, true}) {
        for (const bool fused : {true, false}) {
            for (const bool read_y : {true, false}) {
                std::vector<std::vector<torch::Tensor>> out;
                for (const bool inside : {true, false}) {
                    Modules m = make_modules(width, 3);
                    auto x = x0.clone().requires_grad_(true);
                    torch::Tensor y, mean;
                    if (inside && per_group) {
                        std::tie(y, mean) = nn::gin_bn_layer_and_group_mean(x, adj, m.mlp, m.norm, groups, fused);
                    } else if (inside) {
                        std::tie(y, mean) = nn::gin_bn_layer_and_mean(x, adj, m.mlp, m.norm, runs, fused);
                    } else {
                        y = nn::gin_bn_layer(x, adj, m.mlp, m.norm, fused);
                        mean = per_group ? nn::group_mean(y, groups) : y.view({runs, nodes, width}).mean(0);
                    }
                    auto loss = (mean * up_mean).sum();
                    if (read_y) loss = loss + (torch::tanh(y) * up_y).sum();
                    loss.backward();
                    std::vector<torch::Tensor> o{y, mean, x.grad(), m.norm->running_mean};
                    for (const auto& p : parameters(m)) o.push_back(p.grad());
                    out.push_back(o);
                }
                ASSERT_GT(out[0][2].abs().max().item<double>(), 0.0);
                for (std::size_t i = 0; i < out[0].size(); ++i)
                    EXPECT_TRUE(torch::equal(out[0][i], out[1][i]))
                        << "per group " << per_group << ", fused " << fused << ", y read " << read_y << ", " << i;
            }
        }
    }
    Modules m = make_modules(width, 3);
    EXPECT_THROW(nn::gin_bn_layer_and_mean(x0, adj, m.mlp, m.norm, 7), InvalidArgument);  // 740 rows, not 7 blocks
}

TEST(FusedGinLayer, AnIndexedTermIsTheGatheredTermBitForBit) {
    // DSS-GNN's cross-subgraph term: one row per node, read by every copy of the node. Read in place
    // through the index, it must give what the gathered [rows, C] term gives, forward and backward.
    const std::int64_t rows = 700, width = 32, nodes = 45;
    const auto adj = random_adjacency(rows, 8);
    auto gen = at::detail::createCPUGenerator(43);
    const auto x0 = torch::randn({rows, width}, gen), t0 = torch::randn({nodes, width}, gen);
    const auto up = torch::randn({rows, width}, gen);
    const auto index = torch::randint(nodes, {rows}, gen, torch::kLong);
    for (const bool fused : {true, false}) {
        std::vector<std::vector<torch::Tensor>> out;
        for (const bool indexed : {true, false}) {
            Modules m = make_modules(width, 6);
            auto x = x0.clone().requires_grad_(true), t = t0.clone().requires_grad_(true);
            const auto y =
                indexed ? nn::gin_bn_layer(
                              x, adj, m.mlp, m.norm, fused, [&] { return t; }, index)
                        : nn::gin_bn_layer(x, adj, m.mlp, m.norm, fused, [&] { return nn::gather_rows(t, index); });
            (y * up).sum().backward();
            std::vector<torch::Tensor> o{y, x.grad(), t.grad(), m.norm->running_var};
            for (const auto& p : parameters(m)) o.push_back(p.grad());
            out.push_back(o);
        }
        ASSERT_GT(out[0][2].abs().max().item<double>(), 0.0);
        for (std::size_t i = 0; i < out[0].size(); ++i)
            EXPECT_TRUE(torch::equal(out[0][i], out[1][i])) << "fused " << fused << ", " << i;
    }
}

TEST(FusedGinLayer, TheMlpNotFusedIsTheModulesInTheirOrder) {
    // δ-2-LGNN's combining MLP as the model wrote it before the kernel: kernel "torch" keeps its bits.
    auto gen = at::detail::createCPUGenerator(2);
    nn::BnMlp mlp(32, 16, 16, gen), again(32, 16, 16, gen);
    auto norm = nn::batch_norm(16), norm_again = nn::batch_norm(16);
    {
        torch::NoGradGuard no_grad;
        for (std::size_t i = 0; i < mlp->parameters().size(); ++i) again->parameters()[i].copy_(mlp->parameters()[i]);
    }
    const auto x = torch::randn({300, 32}, gen);
    const auto expected =
        torch::relu(norm->forward(mlp->second->forward(torch::relu(mlp->norm->forward(mlp->first->forward(x))))));
    const auto y = nn::bn_mlp_layer(x, {again->first, again->norm, again->second, norm_again}, /*fused=*/false);
    EXPECT_TRUE(torch::equal(y, expected));
    EXPECT_FALSE(
        nn::gin_bn_layer_fused(torch::zeros({10, 48}), {again->first, again->norm, again->second, norm_again}));
}

TEST(FusedGinLayer, SameBitsForAnyThreadCount) {
    const std::int64_t width = 16, rows = 3000;
    const auto adj = random_adjacency(rows, 3);
    auto gen = at::detail::createCPUGenerator(9);
    const auto x0 = torch::randn({rows, width}, gen);
    std::vector<std::vector<torch::Tensor>> runs;
    const int before = at::get_num_threads();
    for (int threads : {1, 2}) {
        at::set_num_threads(threads);
        Modules m = make_modules(width, 1);
        auto x = x0.clone().requires_grad_(true);
        nn::gin_bn_layer(x, adj, m.mlp, m.norm).pow(2).sum().backward();
        std::vector<torch::Tensor> out{x.grad(), m.norm->running_var};
        for (const auto& p : parameters(m)) out.push_back(p.grad());
        runs.push_back(out);
    }
    at::set_num_threads(before);
    for (std::size_t i = 0; i < runs[0].size(); ++i) EXPECT_TRUE(torch::equal(runs[0][i], runs[1][i])) << i;
}

TEST(FusedGinLayer, ANanSpreadsAsThroughTheModules) {
    // A diverged training must stay visible: one NaN input makes BatchNorm's statistics NaN, and
    // torch::relu keeps NaN (a ReLU written as v > 0 ? v : 0 would turn every output into 0).
    const auto adj = random_adjacency(300, 4);
    Modules fused = make_modules(32, 2), modules = make_modules(32, 2);
    auto gen = at::detail::createCPUGenerator(6);
    auto x = torch::randn({300, 32}, gen);
    x[5][3] = std::numeric_limits<float>::quiet_NaN();
    const auto expected = torch::relu(modules.norm->forward(modules.mlp->forward(x + nn::neighbour_sum(x, adj))));
    ASSERT_TRUE(nn::gin_bn_layer_fused(x, fused.mlp, fused.norm));
    const auto y = nn::gin_bn_layer(x, adj, fused.mlp, fused.norm);
    EXPECT_TRUE(torch::equal(torch::isnan(y), torch::isnan(expected)));
    EXPECT_GT(torch::isnan(expected).sum().item<std::int64_t>(), 0);
}

TEST(FusedGinLayer, OtherShapesAndDevicesUseTheModules) {
    Modules m8 = make_modules(8, 1), m16 = make_modules(16, 1);
    EXPECT_FALSE(nn::gin_bn_layer_fused(torch::zeros({10, 8}), m8.mlp, m8.norm));
    EXPECT_FALSE(nn::gin_bn_layer_fused(torch::zeros({10, 16}, torch::kDouble), m16.mlp, m16.norm));
    EXPECT_FALSE(nn::gin_bn_layer_fused(torch::zeros({1, 16}), m16.mlp, m16.norm));
    m16.norm->eval();
    m16.mlp->eval();
    EXPECT_FALSE(nn::gin_bn_layer_fused(torch::zeros({10, 16}), m16.mlp, m16.norm));  // eval with gradients on
}

class FusedGinModel : public ::testing::TestWithParam<std::string> {};

TEST_P(FusedGinModel, TrainsAsAccuratelyAsLibTorchsOperators) {
    // kernel "torch" takes the modules: the same weights (and DropGNN's drops). The gradients are
    // sensitive to rounding (BatchNorm over channels that are nearly constant on two small graphs
    // amplifies it), so "within rounding" is measured against the modules in double precision: the
    // fused model's error may be at most 8x that of the modules in float on one thread (or 1e-4
    // relative where those are closer), in training (batch statistics) and at inference. How far
    // two float orders of the same sums land from each other varies with the CPU and its BLAS;
    // how far each lands from the exact result is what rounding bounds. A wrong gradient differs
    // by its own size.
    const std::vector<Graph> graphs = {make_graph(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {1, 5}, {5, 6}, {2, 5}}),
                                       make_graph(7, {{0, 1}, {0, 2}, {0, 3}, {3, 4}, {4, 5}, {4, 6}, {5, 6}})};
    const int before = at::get_num_threads();
    at::set_num_threads(1);
    std::vector<std::shared_ptr<GraphEmbedder>> models;  // fused, modules, modules in double
    std::vector<torch::Tensor> out, eval;
    for (const auto& [kernel, dtype] :
         {std::pair{"auto", torch::kFloat}, std::pair{"torch", torch::kFloat}, std::pair{"torch", torch::kDouble}}) {
        ModelConfig c = testing::default_config(GetParam());
        c.kernel = kernel;
        ModelRandom random = make_model_random(3, torch::kCPU);
        models.push_back(make_model(GetParam(), c, random));
        models.back()->to(dtype);
        models.back()->set_graphs(graphs, torch::kCPU);
        models.back()->train();
        out.push_back(models.back()->forward_range(0, 2));
        ASSERT_EQ(out.back().scalar_type(), dtype);
        out.back().pow(2).sum().backward();
        models.back()->eval();
        torch::NoGradGuard no_grad;
        eval.push_back(models.back()->forward_range(0, 2));
    }
    at::set_num_threads(before);
    const auto within = [](const torch::Tensor& fused, const torch::Tensor& modules, const torch::Tensor& exact) {
        const double allowed =
            std::max(8.0 * max_difference(modules, exact), 1e-4 * (1.0 + exact.abs().max().item<double>()));
        return max_difference(fused, exact) <= allowed;
    };
    EXPECT_TRUE(within(out[0], out[1], out[2]));
    EXPECT_TRUE(within(eval[0], eval[1], eval[2]));
    const auto named = models[0]->named_parameters();
    const auto p0 = models[0]->parameters(), p1 = models[1]->parameters(), p2 = models[2]->parameters();
    ASSERT_EQ(p0.size(), p1.size());
    for (std::size_t i = 0; i < p0.size(); ++i)
        EXPECT_TRUE(within(p0[i].grad(), p1[i].grad(), p2[i].grad()))
            << named[i].key() << ": fused " << max_difference(p0[i].grad(), p2[i].grad()) << ", modules "
            << max_difference(p1[i].grad(), p2[i].grad()) << " from the double result";
}

// The models whose GIN layers take the fused kernel, and SSWL+, whose layers take the fused SSWL+
// kernel (nn/fused_sswl) built from the same passes.
INSTANTIATE_TEST_SUITE_P(Models, FusedGinModel,
                         ::testing::Values("dropgnn", "ds_gnn", "dss_gnn", "gnn_ak", "lgnn2", "sswl_p"));

class FusedGineLayer : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(FusedGineLayer, MatchesTheModulesInDoubleWithoutBiases) {
    // GNN-AK's inner layer: messages relu(x_u + e) with one edge feature e for every arc, a
    // trainable ε, Linears without bias. e's gradient is the masked neighbours' gradient summed over
    // the arcs; about half the messages are cut by the ReLU, so a wrong mask shows.
    const std::int64_t width = GetParam(), rows = 640;
    const auto adj = random_adjacency(rows, 13);
    Modules fused = make_modules(width, 17, 0, false), reference = make_reference(width, 17, 0, false);
    ASSERT_FALSE(fused.mlp->first->bias.defined());
    auto gen = at::detail::createCPUGenerator(19);
    const auto x0 = torch::randn({rows, width}, gen), e0 = torch::randn({1, width}, gen);
    const auto upstream = torch::randn({rows, width}, gen);
    auto x = x0.clone().requires_grad_(true), e = e0.clone().requires_grad_(true);
    auto xd = x0.to(torch::kDouble).requires_grad_(true), ed = e0.to(torch::kDouble).requires_grad_(true);
    auto eps = torch::full({1}, 0.2f).requires_grad_(true);
    auto epsd = torch::full({1}, 0.2, torch::kDouble).requires_grad_(true);
    const nn::GinBnModules m{fused.mlp->first, fused.mlp->norm, fused.mlp->second, fused.norm};
    ASSERT_TRUE(nn::gin_bn_layer_fused(x, m, eps));
    const auto y = nn::gine_bn_layer(x, adj, m, e, eps, /*residual=*/true);
    const auto yd = xd + torch::relu(reference.norm->forward(
                             reference.mlp->forward((1 + epsd) * xd + nn::neighbour_sum(torch::relu(xd + ed), adj))));
    EXPECT_LT(max_difference(y, yd), 2e-5);
    EXPECT_GT(yd.abs().max().item<double>(), 0.5);
    (y * upstream).sum().backward();
    (yd * upstream.to(torch::kDouble)).sum().backward();
    EXPECT_LT(max_difference(x.grad(), xd.grad()), 1e-4 * (1.0 + xd.grad().abs().max().item<double>()));
    ASSERT_EQ(e.grad().sizes(), e.sizes());
    EXPECT_GT(ed.grad().abs().max().item<double>(), 1.0);
    EXPECT_LT(max_difference(e.grad(), ed.grad()), 1e-4 * (1.0 + ed.grad().abs().max().item<double>()));
    EXPECT_NEAR(eps.grad().item<double>(), epsd.grad().item<double>(),
                1e-4 * (1.0 + std::abs(epsd.grad().item<double>())));
    const auto p = parameters(fused), pd = parameters(reference);
    for (std::size_t i = 0; i < p.size(); ++i) {
        ASSERT_EQ(p[i].defined(), pd[i].defined()) << "parameter " << i;
        if (!p[i].defined()) continue;  // a bias the Linear lacks
        EXPECT_LT(max_difference(p[i].grad(), pd[i].grad()), 2e-4 * (1.0 + pd[i].grad().abs().max().item<double>()))
            << "parameter " << i;
    }
    // Eval mode: the running statistics normalise.
    fused.mlp->eval();
    fused.norm->eval();
    reference.mlp->eval();
    reference.norm->eval();
    torch::NoGradGuard no_grad;
    ASSERT_TRUE(nn::gin_bn_layer_fused(x0, m, eps));
    const auto xd0 = x0.to(torch::kDouble);
    const auto zd = reference.norm->forward(
        reference.mlp->forward((1 + epsd) * xd0 + nn::neighbour_sum(torch::relu(xd0 + e0.to(torch::kDouble)), adj)));
    EXPECT_LT(max_difference(nn::gine_bn_layer(x0, adj, m, e0, eps), torch::relu(zd)), 2e-5);
    EXPECT_LT(max_difference(nn::gine_bn_layer(x0, adj, m, e0, eps, /*residual=*/true), xd0 + torch::relu(zd)), 2e-5);
}

INSTANTIATE_TEST_SUITE_P(Widths, FusedGineLayer, ::testing::Values(32, 48));

TEST(FusedGineLayer, NotFusedIsTheFormulaInItsOrder) {
    // GNN-AK as it was written before the kernel: kernel "torch" keeps its bits, gradients included.
    const auto adj = random_adjacency(350, 6);
    auto gen = at::detail::createCPUGenerator(23);
    const auto x0 = torch::randn({350, 48}, gen), e0 = torch::randn({1, 48}, gen);
    const auto run = [&](bool through_layer) {
        Modules m = make_modules(48, 29, 0, false);
        auto x = x0.clone().requires_grad_(true), e = e0.clone().requires_grad_(true);
        auto eps = torch::full({1}, 0.1f).requires_grad_(true);
        const auto y =
            through_layer
                ? nn::gine_bn_layer(x, adj, {m.mlp->first, m.mlp->norm, m.mlp->second, m.norm}, e, eps, true, false)
                : x + torch::relu(
                          m.norm->forward(m.mlp->forward((1 + eps) * x + nn::neighbour_sum(torch::relu(x + e), adj))));
        (y * y).sum().backward();
        return std::vector<torch::Tensor>{y, x.grad(), e.grad(), eps.grad(), m.mlp->first->weight.grad()};
    };
    const auto formula = run(false), layer = run(true);
    for (std::size_t i = 0; i < formula.size(); ++i) EXPECT_TRUE(torch::equal(layer[i], formula[i])) << i;
}

TEST(FusedGinLayer, NotFusedIsTheModulesThemselves) {
    const auto adj = random_adjacency(300, 2);
    Modules m = make_modules(16, 4);
    auto gen = at::detail::createCPUGenerator(1);
    const auto x = torch::randn({300, 16}, gen);
    const auto expected = torch::relu(m.norm->forward(m.mlp->forward(x + nn::neighbour_sum(x, adj))));
    Modules again = make_modules(16, 4);
    EXPECT_TRUE(torch::equal(nn::gin_bn_layer(x, adj, again.mlp, again.norm, /*fused=*/false), expected));
}

TEST(FusedGinLayer, NotFusedMakesTheTermAfterTheGinAsAModelWrittenWithTheModules) {
    // A term that depends on x (as DSS-GNN's cross-subgraph term does) gives x three gradients;
    // autograd sums them in the order their operators were made. Written with the modules, the
    // GIN comes first: the not-fused layer must keep that order, so models keep their bits.
    const auto adj = random_adjacency(400, 8);
    auto gen = at::detail::createCPUGenerator(12);
    const auto x0 = torch::randn({400, 16}, gen);
    const auto upstream = torch::randn({400, 16}, gen);
    const auto grad_of_x = [&](bool gin_first, bool through_layer) {
        Modules m = make_modules(16, 7);
        auto x = x0.clone().requires_grad_(true);
        const auto across = [&] { return torch::sin(3 * x).mul(0.5); };
        torch::Tensor y;
        if (through_layer) {
            y = nn::gin_bn_layer(x, adj, m.mlp, m.norm, /*fused=*/false, across);
        } else if (gin_first) {
            const auto z = m.norm->forward(m.mlp->forward(x + nn::neighbour_sum(x, adj)));
            y = torch::relu(z + across());
        } else {
            const auto e = across();
            y = torch::relu(m.norm->forward(m.mlp->forward(x + nn::neighbour_sum(x, adj))) + e);
        }
        (y * upstream).sum().backward();
        return x.grad();
    };
    const auto gin_first = grad_of_x(true, false), term_first = grad_of_x(false, false);
    ASSERT_FALSE(torch::equal(gin_first, term_first));  // the order shows in the bits
    EXPECT_TRUE(torch::equal(grad_of_x(false, true), gin_first));
}

}  // namespace
}  // namespace brec
