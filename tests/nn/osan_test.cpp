// OSAN (osan) and its edge sampling (nn/edge_sampling.hpp): the edge-deletion choice against its
// defining properties and hand-worked ties, the I-MLE gradient and the auxiliary loss against
// values computed by hand, the parameter count by hand, invariance under relabeling at test time,
// and gradients reaching both the sampler (only through I-MLE) and the GNN. The registry suite
// checks determinism, the global generator and gradients for every model; a training run is in
// tests/eval/osan_eval_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/edge_sampling.hpp"
#include "brec/nn/registry.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

Graph from_edges(VertexId n, const std::vector<Edge>& edges) {
    GraphBuilder b(n);
    for (const auto& [u, v] : edges) b.add_edge(u, v);
    return b.build();
}

Graph path(VertexId n) {
    std::vector<Edge> e;
    for (VertexId v = 0; v + 1 < n; ++v) e.push_back({v, v + 1});
    return from_edges(n, e);
}

Graph cycle(VertexId n) {
    std::vector<Edge> e;
    for (VertexId v = 0; v < n; ++v) e.push_back({v, (v + 1) % n});
    return from_edges(n, e);
}

/// Arc index of u → v in a SparseBatch of one graph (−1 if absent).
std::int64_t arc(const nn::SparseBatch& b, std::int64_t u, std::int64_t v) {
    for (std::int64_t a = 0; a < b.src.size(0); ++a)
        if (b.src[a].item<std::int64_t>() == u && b.dst[a].item<std::int64_t>() == v) return a;
    return -1;
}

/// The per-arc scores [A, 1] of a one-graph batch with score(u → v) given per arc.
torch::Tensor arc_scores(const nn::SparseBatch& b, const std::map<std::pair<int, int>, float>& s) {
    auto t = torch::zeros({b.src.size(0), 1});
    for (const auto& [uv, x] : s) t[arc(b, uv.first, uv.second)][0] = x;
    return t;
}

TEST(EdgeSampling, EveryColumnDeletesExactlyOneLowestEdgePerGraph) {
    Rng rng(3);
    std::vector<Graph> graphs{testing::random_graph(9, 0.4, rng), GraphBuilder(3).build(), path(2),
                              testing::random_graph(7, 0.6, rng)};
    const auto b = nn::make_sparse_batch(graphs, 0, graphs.size(), torch::kCPU);
    const auto edges = nn::undirected_edges(b);
    torch::Generator gen = make_generator(torch::kCPU, 5);
    const std::int64_t arcs = b.src.size(0), columns = 7;
    const auto scores = torch::randn({arcs, columns}, gen);
    const auto mask = nn::keep_all_but_lowest_edge(scores, edges);
    ASSERT_EQ(mask.sizes(), scores.sizes());
    const auto graph_of_arc = b.graph_of.index_select(0, b.dst);
    for (std::int64_t g = 0; g < 4; ++g) {
        const auto in_g = (graph_of_arc == g);
        for (std::int64_t c = 0; c < columns; ++c) {
            const auto col = mask.select(1, c);
            const auto removed = torch::nonzero(in_g & (col == 0)).reshape(-1);
            if (graphs[g].m() == 0) {
                EXPECT_EQ(removed.size(0), 0);
                continue;
            }
            // Exactly one undirected edge (both of its arcs) is deleted; all values are 0 or 1.
            ASSERT_EQ(removed.size(0), 2) << "graph " << g << " column " << c;
            const auto a0 = removed[0].item<std::int64_t>(), a1 = removed[1].item<std::int64_t>();
            EXPECT_EQ(b.src[a0].item<std::int64_t>(), b.dst[a1].item<std::int64_t>());
            EXPECT_EQ(b.dst[a0].item<std::int64_t>(), b.src[a1].item<std::int64_t>());
            EXPECT_TRUE(((col == 0) | (col == 1)).all().item<bool>());
            // Its score (sum of both arcs) is at most every other edge's of the graph.
            const double deleted = scores[a0][c].item<double>() + scores[a1][c].item<double>();
            for (std::int64_t a = 0; a < arcs; ++a) {
                if (!in_g[a].item<bool>()) continue;
                const auto back = arc(b, b.dst[a].item<std::int64_t>(), b.src[a].item<std::int64_t>());
                EXPECT_LE(deleted, scores[a][c].item<double>() + scores[back][c].item<double>() + 1e-12);
            }
        }
    }
}

TEST(EdgeSampling, TiesDeleteTheLexicographicallyLargestEdge) {
    // C4: edges (0,1), (0,3), (1,2), (2,3); all scores equal, the last, (2, 3), goes.
    {
        const std::vector<Graph> g{cycle(4)};
        const auto b = nn::make_sparse_batch(g, 0, 1, torch::kCPU);
        const auto mask = nn::keep_all_but_lowest_edge(torch::full({8, 3}, 0.25f), nn::undirected_edges(b));
        for (std::int64_t a = 0; a < 8; ++a) {
            const auto u = b.src[a].item<std::int64_t>(), v = b.dst[a].item<std::int64_t>();
            const bool is_23 = std::min(u, v) == 2 && std::max(u, v) == 3;
            for (int c = 0; c < 3; ++c) EXPECT_EQ(mask[a][c].item<float>(), is_23 ? 0.0f : 1.0f) << u << "-" << v;
        }
    }
    // P4 (0-1-2-3): (0,1) and (1,2) tie lowest with equal sums split differently over their arcs,
    // (2,3) is higher: (1,2) goes. Lowering (0,1) by one ulp of the sum makes it go instead.
    {
        const std::vector<Graph> g{path(4)};
        const auto b = nn::make_sparse_batch(g, 0, 1, torch::kCPU);
        const auto edges = nn::undirected_edges(b);
        auto s = arc_scores(b, {{{0, 1}, 1.0f}, {{1, 0}, 2.0f}, {{1, 2}, 2.5f}, {{2, 1}, 0.5f}, {{2, 3}, 5.0f}});
        auto mask = nn::keep_all_but_lowest_edge(s, edges);
        EXPECT_EQ(mask[arc(b, 1, 2)][0].item<float>(), 0.0f);
        EXPECT_EQ(mask[arc(b, 2, 1)][0].item<float>(), 0.0f);
        EXPECT_EQ(mask.sum().item<float>(), 4.0f);
        s[arc(b, 0, 1)][0] = std::nextafter(1.0f, 0.0f);
        mask = nn::keep_all_but_lowest_edge(s, edges);
        EXPECT_EQ(mask[arc(b, 0, 1)][0].item<float>(), 0.0f);
        EXPECT_EQ(mask[arc(b, 1, 2)][0].item<float>(), 1.0f);
    }
}

TEST(EdgeSampling, ImleGradientIsTheMaskMinusTheTargetMask) {
    // P3 (0-1-2), one column, no noise. Logits: edge (0,1) scores 1 + 1 = 2, edge (1,2) 0.5 + 0.5
    // = 1, so (1,2) is deleted: mask = 1 on the arcs of (0,1), 0 on those of (1,2).
    const std::vector<Graph> g{path(3)};
    const auto b = nn::make_sparse_batch(g, 0, 1, torch::kCPU);
    const auto edges = nn::undirected_edges(b);
    const auto theta = arc_scores(b, {{{0, 1}, 1.0f}, {{1, 0}, 1.0f}, {{1, 2}, 0.5f}, {{2, 1}, 0.5f}});
    const auto on01 = arc_scores(b, {{{0, 1}, 1.0f}, {{1, 0}, 1.0f}});
    const auto on12 = arc_scores(b, {{{1, 2}, 1.0f}, {{2, 1}, 1.0f}});
    const auto run = [&](const torch::Tensor& dy, const torch::Tensor& noise) {
        auto logits = theta.clone().requires_grad_(true);
        const auto mask = nn::imle_keep_all_but_lowest_edge(logits, noise, edges, 10.0);
        EXPECT_TRUE(torch::equal(mask, on01));
        (mask * dy).sum().backward();
        return logits.grad();
    };
    // dy = +0.1 on (0,1)'s arcs, −0.1 on (1,2)'s: target θ − 10 dy = 0 per arc of (0,1) (sum 0) and
    // 1.5 per arc of (1,2) (sum 3), so the target deletes (0,1): gradient mask − target mask =
    // +1 on (0,1)'s arcs, −1 on (1,2)'s.
    const auto dy = 0.1f * on01 - 0.1f * on12;
    EXPECT_TRUE(torch::equal(run(dy, torch::zeros_like(theta)), on01 - on12));
    // dy ten times smaller: target sums 1.8 and 1.2, the same choice, gradient 0.
    EXPECT_TRUE(torch::equal(run(0.1f * dy, torch::zeros_like(theta)), torch::zeros_like(theta)));
    // The same noise perturbs forward and target: +0.6 on each arc of (1,2) makes its sum 2.2 > 2,
    // so the forward deletes (0,1).
    auto logits = theta.clone().requires_grad_(true);
    const auto noisy = nn::imle_keep_all_but_lowest_edge(logits, 0.6f * on12, edges, 10.0);
    EXPECT_TRUE(torch::equal(noisy, on12));
    // dy = −0.1 on (1,2)'s arcs: target sums 2 and (0.5 + 1 + 0.6) · 2 = 4.2, (0,1) still goes:
    // gradient 0.
    (noisy * (-0.1f * on12)).sum().backward();
    EXPECT_TRUE(torch::equal(logits.grad(), torch::zeros_like(theta)));
    // dy = +0.2 on (1,2)'s arcs: target sum of (1,2) (0.5 − 2 + 0.6) · 2 = −1.8 < 2, so the target
    // deletes (1,2): gradient = on12 − on01.
    logits.grad().zero_();
    const auto again = nn::imle_keep_all_but_lowest_edge(logits, 0.6f * on12, edges, 10.0);
    (again * (0.2f * on12)).sum().backward();
    EXPECT_TRUE(torch::equal(logits.grad(), on12 - on01));
}

TEST(EdgeSampling, UniformEdgeUseLossMatchesAHandValue) {
    // P3 with one column keeping (0,1): arc uses s = (1, 1, 0, 0); log softmax = s − log(2e + 2);
    // KL(uniform ‖ softmax) / 4 = Σ ¼ (log ¼ − s + log(2e + 2)) / 4 = 0.0300286267...
    const std::vector<Graph> g{path(3), path(3)};
    const auto b = nn::make_sparse_batch(g, 0, 2, torch::kCPU);
    const auto edges = nn::undirected_edges(b);
    auto mask = torch::zeros({8, 1});
    for (std::int64_t a = 0; a < 8; ++a) {
        const auto u = b.src[a].item<std::int64_t>() % 3, v = b.dst[a].item<std::int64_t>() % 3;
        mask[a][0] = (std::max(u, v) == 1) ? 1.0f : 0.0f;
    }
    // Two such graphs: the per-graph losses add up.
    EXPECT_NEAR(nn::uniform_edge_use_loss(mask, edges).item<double>(), 2 * 0.030028626739569353, 1e-6);
    // All arcs used equally: zero.
    EXPECT_NEAR(nn::uniform_edge_use_loss(torch::ones({8, 5}), edges).item<double>(), 0.0, 1e-7);
}

TEST(EdgeSampling, GumbelNoiseHasTheGumbelMoments) {
    torch::Generator gen = make_generator(torch::kCPU, 9);
    const auto x = nn::gumbel_noise({200000}, torch::TensorOptions(), gen).to(torch::kDouble);
    EXPECT_NEAR(x.mean().item<double>(), 0.5772156649, 0.01);      // Euler–Mascheroni
    EXPECT_NEAR(x.var().item<double>(), M_PI * M_PI / 6.0, 0.03);  // π² / 6
    // The same generator state gives the same noise.
    torch::Generator g1 = make_generator(torch::kCPU, 9), g2 = make_generator(torch::kCPU, 9);
    EXPECT_TRUE(torch::equal(nn::gumbel_noise({64}, torch::TensorOptions(), g1),
                             nn::gumbel_noise({64}, torch::TensorOptions(), g2)));
}

/// Two scalar parameters, the second trained by an optimizer of its own.
class TwoParameters : public GraphEmbedder {
public:
    TwoParameters() {
        a = register_parameter("a", torch::zeros({1}));
        b = register_parameter("b", torch::zeros({1}));
    }
    void set_graphs(const std::vector<Graph>&, torch::Device) override {}
    torch::Tensor forward_range(std::size_t, std::size_t) override { return (a + b).view({1, 1}); }
    std::vector<OwnOptimizer> own_optimizers() override { return {{{b}, 0.5, 0.0}}; }
    torch::Tensor a, b;
};

TEST(ModelOptimizers, OwnGroupsStepWithTheirOwnSettings) {
    TwoParameters m;
    ModelOptimizers opt(m, torch::optim::AdamOptions(0.1));
    ASSERT_EQ(opt.main().param_groups().size(), 1u);
    ASSERT_EQ(opt.main().param_groups()[0].params().size(), 1u);
    EXPECT_TRUE(opt.main().param_groups()[0].params()[0].is_same(m.a));
    opt.zero_grad();
    m.forward_range(0, 1).sum().backward();
    opt.step();
    // Adam's first step moves a parameter by its learning rate against the gradient's sign.
    EXPECT_NEAR(m.a.item<double>(), -0.1, 1e-6);
    EXPECT_NEAR(m.b.item<double>(), -0.5, 1e-6);
    opt.zero_grad();
    EXPECT_FALSE(m.b.grad().defined() && m.b.grad().abs().sum().item<double>() > 0);
}

ModelConfig osan_config(int layers = 8, int hidden = 64) {
    ModelConfig c;
    c.layers = layers;
    c.hidden = hidden;
    c.out_dim = 16;
    return c;
}

std::int64_t count(const std::vector<torch::Tensor>& params) {
    std::int64_t n = 0;
    for (const auto& p : params) n += p.numel();
    return n;
}

TEST(Osan, ParameterCountAtTheBrecSettings) {
    // Sampler (h 64): input row 64; three GCN Linear(64,64) 3 × 4,160; two BN 2 × 128; edge
    // Linear(64,64) 4,160, edge BN 128, Linear(64,20) 1,300: 64 + 12,480 + 256 + 4,160 + 128 +
    // 1,300 = 18,388.
    // GNN (L 8, h 64): input row 64; per layer ε 1, Linear(64,128) 8,320, BN(128) 256,
    // Linear(128,64) 8,256, BN(64) 128 = 16,961, × 8 = 135,688; Linear(64,16) 1,040.
    // 64 + 135,688 + 1,040 = 136,792. Total 155,180.
    ModelRandom random = make_model_random(1, torch::kCPU);
    const auto model = make_model("osan", osan_config(), random);
    EXPECT_EQ(count(model->parameters()), 155180);
    const auto own = model->own_optimizers();
    ASSERT_EQ(own.size(), 1u);
    EXPECT_EQ(count(own[0].parameters), 18388);
    EXPECT_DOUBLE_EQ(own[0].lr, 1e-3);
    EXPECT_DOUBLE_EQ(own[0].weight_decay, 0.0);
    // The training loop's Adam gets the rest.
    ModelOptimizers opt(*model, torch::optim::AdamOptions(1e-3));
    std::int64_t main = 0;
    for (const auto& g : opt.main().param_groups()) main += count(g.params());
    EXPECT_EQ(main, 136792);
}

TEST(Osan, RelabelingsGetOneEmbeddingAtTestTime) {
    // Ties aside: exact score ties decide by vertex ids, so invariance holds where tied edges are
    // automorphic (the graphs less either edge are isomorphic). In a tree, three GCN rounds and the
    // symmetric edge score separate every edge up to automorphism when the depth is small: P8
    // (orbits by distance from the middle), a spider, and C6 (every edge tied, every edge
    // automorphic).
    Rng rng(17);
    const Graph spider = from_edges(7, {{0, 1}, {1, 2}, {0, 3}, {3, 4}, {0, 5}, {5, 6}});
    std::vector<Graph> batch;
    for (const Graph& g : {path(8), spider, cycle(6)}) {
        batch.push_back(g);
        for (int i = 0; i < 3; ++i) batch.push_back(permute(g, rng.permutation(g.n())));
    }
    ModelRandom random = make_model_random(4, torch::kCPU);
    auto model = make_model("osan", osan_config(3, 16), random);
    model->set_graphs(batch, torch::kCPU);
    model->train();
    model->forward_range(0, batch.size());  // BatchNorm statistics of a training batch
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = model->forward_range(0, batch.size());
    for (int g = 0; g < 3; ++g)
        for (int i = 1; i < 4; ++i)
            EXPECT_TRUE(torch::allclose(out[4 * g], out[4 * g + i], 1e-4, 1e-5)) << g << " " << i << "\n" << out;
    EXPECT_FALSE(torch::allclose(out[0], out[4], 1e-4, 1e-5));
    // Test time is deterministic (no noise); training mode draws noise.
    EXPECT_TRUE(torch::equal(out, model->forward_range(0, batch.size())));
}

TEST(Osan, GradientsReachTheSamplerThroughImleAndTheGnn) {
    Rng rng(23);
    std::vector<Graph> graphs;
    for (int i = 0; i < 4; ++i) graphs.push_back(testing::random_graph(8, 0.5, rng));
    ModelRandom random = make_model_random(2, torch::kCPU);
    auto model = make_model("osan", osan_config(3, 16), random);
    model->set_graphs(graphs, torch::kCPU);
    const auto sampler = model->own_optimizers()[0].parameters;
    const auto is_sampler = [&](const torch::Tensor& p) {
        for (const auto& s : sampler)
            if (s.is_same(p)) return true;
        return false;
    };
    // Evaluation mode keeps the choice out of autograd: the sampler gets nothing.
    model->eval();
    model->forward_range(0, graphs.size()).sum().backward();
    for (const auto& p : model->parameters()) {
        if (is_sampler(p))
            EXPECT_FALSE(p.grad().defined() && p.grad().abs().sum().item<double>() > 0);
        else
            EXPECT_TRUE(p.grad().defined());
    }
    for (auto& p : model->parameters())
        if (p.grad().defined()) p.grad().zero_();
    // Training mode: a loss steep enough in the edge weights for β dy to change choices, plus the
    // auxiliary loss.
    model->train();
    const auto out = model->forward_range(0, graphs.size());
    const auto aux = model->take_auxiliary_loss();
    ASSERT_TRUE(aux.defined());
    EXPECT_GT(aux.item<double>(), 0.0);
    EXPECT_FALSE(model->take_auxiliary_loss().defined());  // taken once
    (1000.0 * (out * torch::arange(out.numel(), torch::kFloat).view(out.sizes())).sum() + aux).backward();
    double sampler_grad = 0.0, gnn_grad = 0.0;
    for (const auto& p : model->parameters()) {
        ASSERT_TRUE(p.grad().defined());
        (is_sampler(p) ? sampler_grad : gnn_grad) += p.grad().abs().sum().item<double>();
    }
    EXPECT_GT(sampler_grad, 0.0);
    EXPECT_GT(gnn_grad, 0.0);
}

}  // namespace
}  // namespace brec
