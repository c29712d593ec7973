// The fused SSWL+ layer (nn/fused_sswl) against the same layer composed of LibTorch's modules in
// double precision: outputs, every gradient, the running statistics and eval mode, on the node
// pairs of real graphs.
#include <gtest/gtest.h>

#include <ATen/Parallel.h>

#include <cstdint>
#include <vector>

#include "brec/nn/batch.hpp"
#include "brec/nn/fused_sswl.hpp"
#include "brec/nn/layers.hpp"
#include "common/test_graphs.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

/// The pairs (u, v) of some graphs as SSWL+ reads them, built here by loops over the pairs: row
/// P_i + u·n + v for pair (u, v) of graph i.
struct Pairs {
    std::int64_t rows = 0;
    nn::Adjacency within, across, root_arcs, root_readers;
    nn::SswlArcs arcs() const { return {within, across, root_arcs, root_readers}; }
};

Pairs make_pairs(const std::vector<Graph>& graphs) {
    std::vector<std::int64_t> in_src, in_dst, ac_src, ac_dst, root;
    std::int64_t offset = 0;
    for (const Graph& g : graphs) {
        const auto n = static_cast<std::int64_t>(g.n());
        for (std::int64_t u = 0; u < n; ++u)
            for (std::int64_t v = 0; v < n; ++v) {
                root.push_back(offset + v * n + v);
                for (std::int64_t w = 0; w < n; ++w) {
                    if (g.has_edge(static_cast<VertexId>(w), static_cast<VertexId>(v))) {
                        in_src.push_back(offset + u * n + w);
                        in_dst.push_back(offset + u * n + v);
                    }
                    if (g.has_edge(static_cast<VertexId>(w), static_cast<VertexId>(u))) {
                        ac_src.push_back(offset + w * n + v);
                        ac_dst.push_back(offset + u * n + v);
                    }
                }
            }
        offset += n * n;
    }
    Pairs p;
    p.rows = offset;
    p.within = nn::make_adjacency(torch::tensor(in_src), torch::tensor(in_dst), offset);
    p.across = nn::make_adjacency(torch::tensor(ac_src), torch::tensor(ac_dst), offset);
    const auto roots = torch::tensor(root);
    const auto every = torch::arange(offset, torch::kLong);
    p.root_arcs = nn::make_adjacency(roots, every, offset);
    p.root_readers = nn::make_adjacency(every, roots, offset);
    return p;
}

/// Two graphs of 13 and 17 vertices, each with an isolated vertex (458 pairs: two blocks of the
/// kernels, the second partial).
std::vector<Graph> two_graphs() {
    std::vector<Edge> a{{0, 6}, {3, 9}}, b{{0, 8}, {2, 11}, {5, 13}};
    for (VertexId i = 0; i < 12; ++i) a.push_back({i, (i + 1) % 12});
    for (VertexId i = 0; i < 16; ++i) b.push_back({i, (i + 1) % 16});
    return {make_graph(13, a), make_graph(17, b)};
}

struct Layer {
    nn::BnMlp within{nullptr}, across{nullptr}, root{nullptr};
    torch::nn::BatchNorm1d norm{nullptr};
    torch::Tensor eps_within, eps_across, eps_root;
    nn::SswlModules modules() { return {within, across, root, eps_within, eps_across, eps_root, norm}; }
    std::vector<torch::Tensor> parameters() const {
        std::vector<torch::Tensor> p{eps_within, eps_across, eps_root, norm->weight, norm->bias};
        for (const auto* mlp : {&within, &across, &root})
            for (const auto& t : (*mlp)->parameters()) p.push_back(t);
        return p;
    }
    std::vector<torch::nn::BatchNorm1d> norms() const { return {within->norm, across->norm, root->norm, norm}; }
};

/// A layer of `width` with non-trivial affine parameters and ε (so that every term enters every
/// gradient), in `dtype`.
Layer make_layer(std::int64_t width, torch::ScalarType dtype) {
    auto gen = at::detail::createCPUGenerator(11);
    Layer l;
    l.within = nn::BnMlp(width, width, width, gen);
    l.across = nn::BnMlp(width, width, width, gen);
    l.root = nn::BnMlp(width, width, width, gen);
    l.norm = nn::batch_norm(width);
    l.eps_within = torch::tensor({0.2f});
    l.eps_across = torch::tensor({-0.1f});
    l.eps_root = torch::tensor({0.3f});
    torch::NoGradGuard no_grad;
    for (auto& bn : l.norms()) {
        bn->weight.uniform_(0.5, 1.5, gen);
        bn->bias.uniform_(-0.3, 0.3, gen);
    }
    for (auto* m : {&l.within, &l.across, &l.root}) (*m)->to(dtype);
    l.norm->to(dtype);
    for (auto* e : {&l.eps_within, &l.eps_across, &l.eps_root}) *e = e->to(dtype).requires_grad_(true);
    return l;
}

using testing::max_difference;

class FusedSswlLayer : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(FusedSswlLayer, MatchesTheModulesInDoubleWithGradientsAndRunningStatistics) {
    const std::int64_t width = GetParam();
    const Pairs pairs = make_pairs(two_graphs());
    ASSERT_EQ(pairs.rows, 13 * 13 + 17 * 17);
    Layer fused = make_layer(width, torch::kFloat), reference = make_layer(width, torch::kDouble);
    auto gen = at::detail::createCPUGenerator(5);
    const auto x0 = torch::randn({pairs.rows, width}, gen);
    const auto upstream = torch::randn({pairs.rows, width}, gen);
    auto x = x0.clone().requires_grad_(true);
    auto xd = x0.to(torch::kDouble).requires_grad_(true);
    ASSERT_TRUE(nn::sswl_layer_fused(x, fused.modules()));
    ASSERT_FALSE(nn::sswl_layer_fused(xd, reference.modules()));  // double: the modules

    const auto y = nn::sswl_layer(x, pairs.arcs(), fused.modules());
    const auto yd = nn::sswl_layer(xd, pairs.arcs(), reference.modules());
    EXPECT_LT(max_difference(y, yd), 2e-5);
    EXPECT_GT(yd.abs().max().item<double>(), 0.5);  // the outputs are not trivially zero

    (y * upstream).sum().backward();
    (yd * upstream.to(torch::kDouble)).sum().backward();
    EXPECT_LT(max_difference(x.grad(), xd.grad()), 1e-4 * (1.0 + xd.grad().abs().max().item<double>()));
    const auto p = fused.parameters(), pd = reference.parameters();
    ASSERT_EQ(p.size(), 5u + 3u * 6u);
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double scale = 1.0 + pd[i].grad().abs().max().item<double>();
        EXPECT_LT(max_difference(p[i].grad(), pd[i].grad()), 2e-4 * scale) << "parameter " << i;
        EXPECT_GT(pd[i].grad().abs().max().item<double>(), 0.0) << "parameter " << i;
    }
    const auto norms = fused.norms(), norms_d = reference.norms();
    for (std::size_t i = 0; i < norms.size(); ++i) {
        EXPECT_LT(max_difference(norms[i]->running_mean, norms_d[i]->running_mean), 1e-6) << i;
        EXPECT_LT(max_difference(norms[i]->running_var, norms_d[i]->running_var), 1e-5) << i;
        EXPECT_EQ(norms[i]->num_batches_tracked.item<std::int64_t>(), 1) << i;
    }

    // Eval mode: the running statistics normalise.
    for (auto* l : {&fused, &reference}) {
        for (auto* m : {&l->within, &l->across, &l->root}) (*m)->eval();
        l->norm->eval();
    }
    torch::NoGradGuard no_grad;
    ASSERT_TRUE(nn::sswl_layer_fused(x0, fused.modules()));
    EXPECT_LT(max_difference(nn::sswl_layer(x0, pairs.arcs(), fused.modules()),
                             nn::sswl_layer(x0.to(torch::kDouble), pairs.arcs(), reference.modules())),
              2e-5);
}

INSTANTIATE_TEST_SUITE_P(Widths, FusedSswlLayer, ::testing::Values(16, 48, 64));

TEST(FusedSswlLayer, SameBitsForAnyThreadCount) {
    const Pairs pairs = make_pairs(two_graphs());
    auto gen = at::detail::createCPUGenerator(9);
    const auto x0 = torch::randn({pairs.rows, 32}, gen);
    std::vector<std::vector<torch::Tensor>> runs;
    const int before = at::get_num_threads();
    for (int threads : {1, 2}) {
        at::set_num_threads(threads);
        Layer l = make_layer(32, torch::kFloat);
        auto x = x0.clone().requires_grad_(true);
        nn::sswl_layer(x, pairs.arcs(), l.modules()).pow(2).sum().backward();
        std::vector<torch::Tensor> out{x.grad(), l.norm->running_var};
        for (const auto& t : l.parameters()) out.push_back(t.grad());
        runs.push_back(out);
    }
    at::set_num_threads(before);
    for (std::size_t i = 0; i < runs[0].size(); ++i) EXPECT_TRUE(torch::equal(runs[0][i], runs[1][i])) << i;
}

TEST(FusedSswlLayer, OtherShapesAndModesUseTheModules) {
    Layer l8 = make_layer(8, torch::kFloat), l16 = make_layer(16, torch::kFloat);
    EXPECT_FALSE(nn::sswl_layer_fused(torch::zeros({10, 8}), l8.modules()));
    EXPECT_FALSE(nn::sswl_layer_fused(torch::zeros({1, 16}), l16.modules()));
    EXPECT_TRUE(nn::sswl_layer_fused(torch::zeros({10, 16}), l16.modules()));
    l16.norm->eval();
    EXPECT_FALSE(nn::sswl_layer_fused(torch::zeros({10, 16}), l16.modules()));  // the BatchNorms' modes differ
    for (auto* m : {&l16.within, &l16.across, &l16.root}) (*m)->eval();
    EXPECT_FALSE(nn::sswl_layer_fused(torch::zeros({10, 16}), l16.modules()));  // eval with gradients on
}

}  // namespace
}  // namespace brec
